//! `arena --shard K/N`: one of N slices of a tournament's pairings, to play a class
//! on several machines at once (`arena merge` joins their reports). The slices are
//! `grade`'s ([`Shard`]): a gauntlet is split by student (each student's pairings on
//! one machine, built once), a round robin by pairing; a knockout, whose rounds
//! depend on the rounds before, is not split.

use super::schedule::Format;
use crate::grading::shard::Shard;

/// The pairings of `pairs` (in the schedule's order) that `shard` plays, in that
/// order.
pub fn pairs(shard: Shard, format: Format, pairs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    match format {
        Format::Gauntlet => pairs
            .into_iter()
            .filter(|&(student, _)| student % shard.count == shard.index - 1)
            .collect(),
        _ => shard.select(pairs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slices_play_every_pairing_once() {
        let gauntlet: Vec<(usize, usize)> = (0..5).flat_map(|s| [(s, 5), (s, 6)]).collect();
        let robin: Vec<(usize, usize)> = (0..5)
            .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
            .collect();
        for (format, all) in [(Format::Gauntlet, gauntlet), (Format::RoundRobin, robin)] {
            let mut joined: Vec<(usize, usize)> = (1..=3)
                .flat_map(|index| pairs(Shard { index, count: 3 }, format, all.clone()))
                .collect();
            joined.sort_unstable();
            let mut sorted = all.clone();
            sorted.sort_unstable();
            assert_eq!(joined, sorted, "{format:?}");
        }
        let first = pairs(
            Shard { index: 1, count: 2 },
            Format::Gauntlet,
            vec![(0, 2), (0, 3), (1, 2)],
        );
        assert_eq!(
            first,
            vec![(0, 2), (0, 3)],
            "a student's pairings stay together"
        );
    }
}

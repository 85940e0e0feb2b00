//! `grade --shard K/N`: one of N slices of a class, to grade a class on several
//! machines at once (their reports are then joined by
//! [`platform::merge`](crate::grading::platform::merge)).

use std::fmt;
use std::str::FromStr;

/// The K-th of N slices of a class: the students at positions K-1, K-1+N, K-1+2N...
/// of the class in name order (counted from 0). Every student is in exactly one
/// slice, the slices differ in size by one at most, and the split depends only on
/// the names of the class's folders, so every machine that sees the same submissions
/// folder makes the same slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

impl Shard {
    /// The members of this slice of `class` (in name order), in that order.
    pub fn select<T>(self, class: Vec<T>) -> Vec<T> {
        class
            .into_iter()
            .enumerate()
            .filter(|(position, _)| position % self.count == self.index - 1)
            .map(|(_, member)| member)
            .collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N`, with 1 <= K <= N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let wrong = || format!("expected K/N with 1 <= K <= N (such as 2/8); found {text:?}");
        let (index, count) = text.split_once('/').ok_or_else(wrong)?;
        let index: usize = index.trim().parse().map_err(|_| wrong())?;
        let count: usize = count.trim().parse().map_err(|_| wrong())?;
        if index == 0 || index > count {
            return Err(wrong());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slices_split_the_class_evenly_and_once() {
        let class: Vec<usize> = (0..10).collect();
        let slices: Vec<Vec<usize>> = (1..=3)
            .map(|k| {
                format!("{k}/3")
                    .parse::<Shard>()
                    .unwrap()
                    .select(class.clone())
            })
            .collect();
        assert_eq!(slices[0], vec![0, 3, 6, 9]);
        assert_eq!(slices[1], vec![1, 4, 7]);
        assert_eq!(slices[2], vec![2, 5, 8]);
        let mut all: Vec<usize> = slices.concat();
        all.sort_unstable();
        assert_eq!(all, class);
    }

    #[test]
    fn only_k_of_n_is_a_shard() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        for wrong in ["0/3", "4/3", "3", "a/b", "1/0", "-1/3"] {
            assert!(wrong.parse::<Shard>().is_err(), "{wrong}");
        }
    }
}

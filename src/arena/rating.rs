//! Elo ratings by maximum likelihood over all games, with a 95% interval per player,
//! in the manner of BayesElo and Ordo.
//!
//! # The model
//! Each player `i` has a strength `r_i` in Elo; the expected score of `i` against `j` is
//! `E = 1 / (1 + 10^((r_j - r_i) / 400))` (Bradley-Terry on the Elo scale, the logistic
//! curve). A game's score `s` (1 a win, ½ a draw, 0 a loss) counts as `s` wins and
//! `1 - s` losses: the log-likelihood of the results is `Σ s·ln E + (1 - s)·ln(1 - E)`
//! over the games, the simplest draw model of Ordo and BayesElo. Colours are not
//! modelled (no first-move advantage): the arena plays its games in pairs with colours
//! swapped. The ratings are the maximum of the likelihood with the anchor held at its
//! rating, found by Newton's method with step halving (the log-likelihood is concave);
//! two players, one scoring 75%, come out `400·log10(3) ≈ 190.8` Elo apart.
//!
//! # The interval
//! From the curvature of the log-likelihood at its maximum: the inverse of the observed
//! information matrix (the negated Hessian, over every player but the anchor) is the
//! covariance of the ratings relative to the anchor, and a player's interval is its
//! rating ± 1.96 standard errors (the normal approximation BayesElo's and Ordo's error
//! bars rest on). The anchor's interval is its rating alone: the others' intervals are
//! their uncertainty relative to it.
//!
//! # When the likelihood has no maximum
//! Within a group of players linked by games, the maximum exists exactly when the
//! group's "scored against" graph (an edge from `i` to `j` when `i` scored anything
//! against `j`) is strongly connected. When it is not (a player won or lost every game,
//! or a subgroup won every game against the rest), the ratings there would diverge. In
//! such a group only, every pair of players who met gets [`PRIOR_DRAWS`] virtual draws
//! added, as BayesElo's prior adds virtual draws: the ratings become finite and shrink a
//! little towards each other. One player winning 3 games of 3 against another comes out
//! `400·log10(7) ≈ 338` Elo ahead (3.5 of 4). Groups whose maximum exists are fitted
//! with no prior at all.
//!
//! # Players not linked to the anchor
//! Players with no chain of games to the anchor cannot be rated against it: each such
//! group is fitted alone, placed with its mean at the anchor's rating, and its players'
//! intervals are unbounded (`-∞` to `+∞`). A player with no games is such a group of one.

/// One game's result between two players (indices into the list of players).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameResult {
    /// The player of white.
    pub white: usize,
    /// The player of black.
    pub black: usize,
    /// White's score: 1 a win, 0.5 a draw, 0 a loss (a forfeit counts as a loss).
    pub white_score: f64,
}

/// A player's rating and its 95% interval, in Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The maximum-likelihood rating.
    pub elo: f64,
    /// The interval's low end (`-∞` when not linked to the anchor by games).
    pub low: f64,
    /// The interval's high end (`+∞` when not linked to the anchor by games).
    pub high: f64,
}

/// The virtual draws added between every pair of players who met, in a group whose
/// likelihood has no maximum (see the module's documentation).
pub const PRIOR_DRAWS: f64 = 1.0;

/// Standard errors per side of a two-sided 95% interval under the normal approximation.
const Z95: f64 = 1.959_963_984_540_054;

/// Elo per unit of the logistic model's natural scale: `400 / ln 10`.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The ratings of players `0..players` from `games`, with player `anchor` held at
/// `anchor_elo`.
///
/// Games of a player against itself carry no information and are ignored. The result
/// does not depend on the order of `games`.
///
/// # Panics
/// When `anchor` or a game's player is not below `players`, or a score is not within
/// `0..=1`.
pub fn ratings(
    players: usize,
    games: &[GameResult],
    anchor: usize,
    anchor_elo: f64,
) -> Vec<Rating> {
    assert!(
        anchor < players,
        "the anchor {anchor} is not one of {players} players"
    );
    let pairs = pairs(players, games);
    let mut out = vec![
        Rating {
            elo: anchor_elo,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
        players
    ];
    for group in groups(players, &pairs) {
        let mut within: Vec<Pair> = pairs
            .iter()
            .filter(|p| group.binary_search(&p.a).is_ok())
            .copied()
            .collect();
        if !strongly_connected(&group, &within) {
            for pair in &mut within {
                pair.games += PRIOR_DRAWS;
                pair.score_a += PRIOR_DRAWS / 2.0;
            }
        }
        let anchored = group.binary_search(&anchor).ok();
        let reference = anchored.unwrap_or(0);
        let (theta, deviation) = fit(&group, &within, reference);
        let shift = match anchored {
            Some(_) => 0.0,
            None => theta.iter().sum::<f64>() / theta.len() as f64,
        };
        for (k, &player) in group.iter().enumerate() {
            let elo = anchor_elo + ELO_PER_NAT * (theta[k] - shift);
            let half = match anchored {
                Some(_) => Z95 * ELO_PER_NAT * deviation[k],
                None => f64::INFINITY,
            };
            out[player] = Rating {
                elo,
                low: elo - half,
                high: elo + half,
            };
        }
    }
    out
}

/// All games between two players, summed: `a < b`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pair {
    a: usize,
    b: usize,
    games: f64,
    score_a: f64,
}

/// The games summed per pair of players, in the order of the pairs.
fn pairs(players: usize, games: &[GameResult]) -> Vec<Pair> {
    let mut sums = std::collections::BTreeMap::<(usize, usize), (f64, f64)>::new();
    for game in games {
        assert!(
            game.white < players && game.black < players,
            "a game between players {} and {} of {players}",
            game.white,
            game.black
        );
        assert!(
            (0.0..=1.0).contains(&game.white_score),
            "a score of {} is not within 0..=1",
            game.white_score
        );
        if game.white == game.black {
            continue;
        }
        let (key, score) = if game.white < game.black {
            ((game.white, game.black), game.white_score)
        } else {
            ((game.black, game.white), 1.0 - game.white_score)
        };
        let sum = sums.entry(key).or_insert((0.0, 0.0));
        sum.0 += 1.0;
        sum.1 += score;
    }
    sums.into_iter()
        .map(|((a, b), (games, score_a))| Pair {
            a,
            b,
            games,
            score_a,
        })
        .collect()
}

/// The groups of players linked by games, each sorted, in the order of their first
/// player.
fn groups(players: usize, pairs: &[Pair]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..players).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for pair in pairs {
        let (ra, rb) = (root(&mut parent, pair.a), root(&mut parent, pair.b));
        parent[ra.max(rb)] = ra.min(rb);
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index = vec![usize::MAX; players];
    for player in 0..players {
        let r = root(&mut parent, player);
        if index[r] == usize::MAX {
            index[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[index[r]].push(player);
    }
    groups
}

/// Whether every player of `group` reaches every other along "scored against" edges.
fn strongly_connected(group: &[usize], pairs: &[Pair]) -> bool {
    let at = |player: usize| group.binary_search(&player).expect("a player of the group");
    let mut forward = vec![Vec::new(); group.len()];
    let mut backward = vec![Vec::new(); group.len()];
    for pair in pairs {
        let (a, b) = (at(pair.a), at(pair.b));
        if pair.score_a > 0.0 {
            forward[a].push(b);
            backward[b].push(a);
        }
        if pair.score_a < pair.games {
            forward[b].push(a);
            backward[a].push(b);
        }
    }
    let reaches_all = |edges: &[Vec<usize>]| {
        let mut seen = vec![false; group.len()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for &j in &edges[i] {
                if !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.iter().all(|&s| s)
    };
    reaches_all(&forward) && reaches_all(&backward)
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// The logistic function.
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The maximum-likelihood strengths of `group` (natural scale, the player at index
/// `reference` held at 0) and each one's standard error relative to it.
fn fit(group: &[usize], pairs: &[Pair], reference: usize) -> (Vec<f64>, Vec<f64>) {
    let n = group.len();
    let at = |player: usize| group.binary_search(&player).expect("a player of the group");
    let links: Vec<(usize, usize, f64, f64)> = pairs
        .iter()
        .map(|p| (at(p.a), at(p.b), p.games, p.score_a))
        .collect();
    // The free variables: every player but the reference.
    let free = |i: usize| -> Option<usize> {
        match i.cmp(&reference) {
            std::cmp::Ordering::Less => Some(i),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(i - 1),
        }
    };
    let likelihood = |theta: &[f64]| -> f64 {
        links
            .iter()
            .map(|&(a, b, games, score)| {
                let d = theta[a] - theta[b];
                -score * softplus(-d) - (games - score) * softplus(d)
            })
            .sum()
    };
    // The gradient and the information matrix over the free variables.
    let derivatives = |theta: &[f64]| -> (Vec<f64>, Vec<f64>) {
        let m = n - 1;
        let mut gradient = vec![0.0; m];
        let mut information = vec![0.0; m * m];
        for &(a, b, games, score) in &links {
            let p = logistic(theta[a] - theta[b]);
            let g = score - games * p;
            let w = games * p * (1.0 - p);
            let (fa, fb) = (free(a), free(b));
            if let Some(i) = fa {
                gradient[i] += g;
                information[i * m + i] += w;
            }
            if let Some(j) = fb {
                gradient[j] -= g;
                information[j * m + j] += w;
            }
            if let (Some(i), Some(j)) = (fa, fb) {
                information[i * m + j] -= w;
                information[j * m + i] -= w;
            }
        }
        (gradient, information)
    };
    let mut theta = vec![0.0; n];
    if n == 1 {
        return (theta, vec![0.0]);
    }
    let total: f64 = links.iter().map(|l| l.2).sum();
    for _ in 0..200 {
        let (gradient, information) = derivatives(&theta);
        if gradient.iter().all(|g| g.abs() <= 1e-10 * (1.0 + total)) {
            break;
        }
        let factor = cholesky(&information, n - 1);
        let step = solve(&factor, n - 1, &gradient);
        let before = likelihood(&theta);
        let mut scale = 1.0;
        loop {
            let mut next = theta.clone();
            for (i, value) in next.iter_mut().enumerate() {
                if let Some(f) = free(i) {
                    *value += scale * step[f];
                }
            }
            if likelihood(&next) >= before || scale < 1e-12 {
                theta = next;
                break;
            }
            scale /= 2.0;
        }
        if scale * step.iter().fold(0.0_f64, |m, s| m.max(s.abs())) < 1e-13 {
            break;
        }
    }
    let (_, information) = derivatives(&theta);
    let m = n - 1;
    let factor = cholesky(&information, m);
    let mut deviation = vec![0.0; n];
    for (i, value) in deviation.iter_mut().enumerate() {
        if let Some(f) = free(i) {
            let mut unit = vec![0.0; m];
            unit[f] = 1.0;
            *value = solve(&factor, m, &unit)[f].sqrt();
        }
    }
    (theta, deviation)
}

/// The lower triangular `L` with `L·Lᵀ = matrix` (`m` by `m`, row-major, symmetric
/// positive definite: the information of a strongly connected group).
fn cholesky(matrix: &[f64], m: usize) -> Vec<f64> {
    let mut l = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|k| l[i * m + k] * l[j * m + k]).sum();
            if i == j {
                // A floor keeps a nearly singular matrix (ratings hundreds of Elo
                // apart) factorable; the interval is then very wide, as it should be.
                l[i * m + i] = (matrix[i * m + i] - dot).max(1e-300).sqrt();
            } else {
                l[i * m + j] = (matrix[i * m + j] - dot) / l[j * m + j];
            }
        }
    }
    l
}

/// `x` with `L·Lᵀ·x = rhs`.
fn solve(l: &[f64], m: usize, rhs: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; m];
    for i in 0..m {
        let dot: f64 = (0..i).map(|k| l[i * m + k] * y[k]).sum();
        y[i] = (rhs[i] - dot) / l[i * m + i];
    }
    let mut x = vec![0.0; m];
    for i in (0..m).rev() {
        let dot: f64 = (i + 1..m).map(|k| l[k * m + i] * x[k]).sum();
        x[i] = (y[i] - dot) / l[i * m + i];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn game(white: usize, black: usize, white_score: f64) -> GameResult {
        GameResult {
            white,
            black,
            white_score,
        }
    }

    /// `wins`, `draws` and `losses` of `a` against `b`, colours alternating.
    fn results(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> Vec<GameResult> {
        let scores = (0..wins)
            .map(|_| 1.0)
            .chain((0..draws).map(|_| 0.5))
            .chain((0..losses).map(|_| 0.0));
        scores
            .enumerate()
            .map(|(k, s)| {
                if k % 2 == 0 {
                    game(a, b, s)
                } else {
                    game(b, a, 1.0 - s)
                }
            })
            .collect()
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn a_75_percent_score_is_190_8_elo() {
        let games = results(0, 1, 30, 0, 10);
        let r = ratings(2, &games, 1, 0.0);
        assert!(close(r[0].elo, 400.0 * 3f64.log10(), 1e-9), "{r:?}");
        assert!(close(r[0].elo, 190.85, 0.01));
        assert_eq!((r[1].elo, r[1].low, r[1].high), (0.0, 0.0, 0.0));
        // The standard error from the information n·p·(1 - p) = 40·3/16 = 7.5.
        let half = Z95 * ELO_PER_NAT / 7.5f64.sqrt();
        assert!(close(r[0].high - r[0].elo, half, 1e-9), "{r:?}");
        assert!(close(r[0].elo - r[0].low, half, 1e-9));
        assert!(close(half, 124.3, 0.1));
    }

    #[test]
    fn draws_are_half_points() {
        // 10 wins, 20 draws, 0 losses: 20 of 30, as 2 to 1.
        let r = ratings(2, &results(0, 1, 10, 20, 0), 1, 0.0);
        assert!(close(r[0].elo, 400.0 * 2f64.log10(), 1e-9), "{r:?}");
    }

    #[test]
    fn the_anchor_takes_its_rating() {
        let games = results(0, 1, 30, 0, 10);
        let r = ratings(2, &games, 0, 1500.0);
        assert_eq!(r[0].elo, 1500.0);
        assert!(close(r[1].elo, 1500.0 - 190.85, 0.01), "{r:?}");
    }

    #[test]
    fn a_chain_is_rated_pair_by_pair() {
        // 0 scores 75% against 1, 1 scores 75% against 2, 0 and 2 never meet.
        let mut games = results(0, 1, 3, 0, 1);
        games.extend(results(1, 2, 6, 0, 2));
        let r = ratings(3, &games, 2, 0.0);
        assert!(close(r[1].elo, 190.85, 0.01), "{r:?}");
        assert!(close(r[0].elo, 2.0 * 190.85, 0.02), "{r:?}");
        // 0's interval adds both links' variances: wider than 1's.
        assert!(r[0].high - r[0].low > r[1].high - r[1].low);
    }

    #[test]
    fn all_draws_rate_everyone_alike() {
        let mut games = Vec::new();
        for (a, b) in [(0, 1), (1, 2), (0, 2), (2, 3), (3, 0)] {
            games.extend(results(a, b, 0, 4, 0));
        }
        let r = ratings(4, &games, 0, 100.0);
        for rating in &r {
            assert!(close(rating.elo, 100.0, 1e-9), "{r:?}");
        }
    }

    #[test]
    fn a_symmetric_round_robin_is_symmetric() {
        // 0 beats 1 twice in three, 1 beats 2 twice in three, 2 beats 0 twice in three.
        let mut games = results(0, 1, 2, 0, 1);
        games.extend(results(1, 2, 2, 0, 1));
        games.extend(results(2, 0, 2, 0, 1));
        let r = ratings(3, &games, 0, 0.0);
        assert!(
            close(r[1].elo, 0.0, 1e-9) && close(r[2].elo, 0.0, 1e-9),
            "{r:?}"
        );
        assert!(close(r[1].high, r[2].high, 1e-9));
    }

    #[test]
    fn all_wins_take_the_prior_and_stay_finite() {
        // 3 of 3 with one virtual draw: 3.5 of 4, 7 to 1.
        let r = ratings(2, &results(0, 1, 3, 0, 0), 1, 0.0);
        assert!(close(r[0].elo, 400.0 * 7f64.log10(), 1e-9), "{r:?}");
        assert!(r[0].low.is_finite() && r[0].high.is_finite());
        // Losing everything mirrors it.
        let r = ratings(2, &results(0, 1, 0, 0, 3), 1, 0.0);
        assert!(close(r[0].elo, -400.0 * 7f64.log10(), 1e-9), "{r:?}");
    }

    #[test]
    fn a_player_who_lost_every_game_is_below_all() {
        // 0 and 1 split their games; both beat 2 every time.
        let mut games = results(0, 1, 2, 0, 2);
        games.extend(results(0, 2, 4, 0, 0));
        games.extend(results(1, 2, 4, 0, 0));
        let r = ratings(3, &games, 0, 0.0);
        assert!(r.iter().all(|x| x.elo.is_finite()), "{r:?}");
        assert!(close(r[1].elo, 0.0, 1e-9));
        assert!(r[2].elo < -300.0 && r[2].high < 10.0, "{r:?}");
    }

    #[test]
    fn players_not_linked_to_the_anchor_have_unbounded_intervals() {
        let mut games = results(0, 1, 3, 0, 1);
        games.extend(results(2, 3, 3, 0, 1));
        let r = ratings(5, &games, 0, 1000.0);
        assert!(r[1].low.is_finite());
        // 2 and 3 are fitted alone, with their mean at the anchor's rating.
        assert!(close(r[2].elo - r[3].elo, 190.85, 0.01), "{r:?}");
        assert!(close((r[2].elo + r[3].elo) / 2.0, 1000.0, 1e-9));
        assert!(r[2].low == f64::NEG_INFINITY && r[3].high == f64::INFINITY);
        // 4 played no game.
        assert_eq!(r[4].elo, 1000.0);
        assert!(r[4].low == f64::NEG_INFINITY && r[4].high == f64::INFINITY);
    }

    #[test]
    fn no_games_and_self_play() {
        let r = ratings(1, &[game(0, 0, 1.0)], 0, 7.0);
        assert_eq!(
            r,
            vec![Rating {
                elo: 7.0,
                low: 7.0,
                high: 7.0
            }]
        );
    }

    #[test]
    fn a_large_class_fits() {
        // 200 students each playing 4 games against one reference: the fit is fast and
        // each student's rating depends on their own games alone.
        let mut games = Vec::new();
        for s in 1..=200u32 {
            games.extend(results(s as usize, 0, s % 4, 1, 3 - s % 4));
        }
        let r = ratings(201, &games, 0, 0.0);
        for s in 1..=200usize {
            assert!(close(r[s].elo, r[1 + (s - 1) % 4].elo, 1e-6), "{s}");
        }
    }

    fn game_sets() -> impl Strategy<Value = Vec<GameResult>> {
        prop::collection::vec(
            (
                0..5usize,
                0..5usize,
                prop_oneof![Just(0.0), Just(0.5), Just(1.0)],
            )
                .prop_map(|(w, b, s)| game(w, b, s)),
            0..40,
        )
    }

    proptest! {
        #[test]
        fn the_order_of_games_does_not_matter(games in game_sets(), seed in any::<u64>()) {
            let mut shuffled = games.clone();
            let mut random = crate::splitmix::SplitMix64::new(seed);
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, random.below(i as u64 + 1) as usize);
            }
            let (a, b) = (ratings(5, &games, 0, 0.0), ratings(5, &shuffled, 0, 0.0));
            for (x, y) in a.iter().zip(&b) {
                prop_assert!(close(x.elo, y.elo, 1e-6), "{a:?} {b:?}");
                prop_assert!(x.low == y.low || close(x.low, y.low, 1e-6));
            }
        }

        #[test]
        fn anchoring_shifts_everyone_alike(games in game_sets(), anchor in 0..5usize, elo in -3000.0..3000.0f64) {
            let (a, b) = (ratings(5, &games, anchor, 0.0), ratings(5, &games, anchor, elo));
            for (x, y) in a.iter().zip(&b) {
                prop_assert!(close(y.elo - x.elo, elo, 1e-6), "{a:?} {b:?}");
                prop_assert!(y.low == x.low || close(y.low - x.low, elo, 1e-6));
            }
        }

        #[test]
        fn the_anchor_is_exact_and_every_rating_finite(games in game_sets(), anchor in 0..5usize) {
            let r = ratings(5, &games, anchor, 0.0);
            prop_assert_eq!(r[anchor], Rating { elo: 0.0, low: 0.0, high: 0.0 });
            for x in &r {
                prop_assert!(x.elo.is_finite() && x.low <= x.elo && x.elo <= x.high);
            }
        }

        #[test]
        fn swapping_colours_and_scores_changes_nothing(games in game_sets()) {
            let swapped: Vec<GameResult> =
                games.iter().map(|g| game(g.black, g.white, 1.0 - g.white_score)).collect();
            let (a, b) = (ratings(5, &games, 0, 0.0), ratings(5, &swapped, 0, 0.0));
            for (x, y) in a.iter().zip(&b) {
                prop_assert!(close(x.elo, y.elo, 1e-6));
            }
        }
    }
}

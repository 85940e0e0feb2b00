//! The engine's learned evaluation: a sum of weights looked up by the contents of
//! small groups of cells (patterns: edges with their X-squares, 3x3 and 2x5 corners,
//! the inner lines and the diagonals), each taken at every position the board's 8
//! symmetries give it, plus the mobility and frontier balance, with one set of
//! weights per game stage (5 empty cells wide). The structure follows the classic
//! pattern evaluators (Logistello, Zebra, Edax); the weights are fitted here by
//! `reversi engine train` (docs/engine.md) and embedded from `patterns.bin`.
//!
//! Scores are from the side to move's point of view, in the units of
//! [`crate::eval::othello`] ([`DISC`] per disc of expected final margin), clamped
//! below every finished game's score.

use std::sync::OnceLock;

use crate::board::Board;
use crate::eval::othello::{neighbours, DISC};

/// The base patterns, as lists of `(row, col)`; each stands for all its images under
/// the 8 symmetries of the board.
const BASE_PATTERNS: [&[(u8, u8)]; 11] = [
    // The edge and its two X-squares.
    &[
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (0, 5),
        (0, 6),
        (0, 7),
        (1, 1),
        (1, 6),
    ],
    // The 3x3 corner.
    &[
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 1),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ],
    // The 2x5 corner.
    &[
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
    ],
    // The second, third and fourth lines.
    &[
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (1, 5),
        (1, 6),
        (1, 7),
    ],
    &[
        (2, 0),
        (2, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (2, 5),
        (2, 6),
        (2, 7),
    ],
    &[
        (3, 0),
        (3, 1),
        (3, 2),
        (3, 3),
        (3, 4),
        (3, 5),
        (3, 6),
        (3, 7),
    ],
    // The diagonals of 8, 7, 6, 5 and 4 cells.
    &[
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 7),
    ],
    &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)],
    &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)],
    &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)],
    &[(0, 4), (1, 5), (2, 6), (3, 7)],
];

/// Game stages, by empty cells: stage `s` covers `5s+1 ..= 5s+5` empty cells (the
/// last one also 56-60).
pub const STAGES: usize = 12;

/// The stage of a position with `empties` empty cells.
#[inline]
pub fn stage(empties: u32) -> usize {
    ((empties.max(1) - 1) / 5).min(STAGES as u32 - 1) as usize
}

/// Weights after the pattern tables, per stage: a constant, one per move of
/// mobility balance, one per disc of frontier balance.
pub const EXTRAS: usize = 3;

/// The 8 symmetries of the board as maps of `(row, col)`.
fn symmetry(k: usize, (r, c): (u8, u8)) -> (u8, u8) {
    let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
    let r = if k & 1 != 0 { 7 - r } else { r };
    let c = if k & 2 != 0 { 7 - c } else { c };
    (r, c)
}

/// One placement of a base pattern on the board.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Which base pattern (index into the layout's tables).
    pub pattern: usize,
    /// Its cells as bit indices, in the base pattern's order (the first is the most
    /// significant ternary digit).
    pub cells: Vec<u8>,
}

/// Where each pattern's table starts in a stage's weights, how the placements
/// read the board, and which configurations share a weight.
pub struct Layout {
    /// Start of each base pattern's table (`3^cells` weights) in a stage.
    pub offsets: Vec<usize>,
    /// Weights per stage: the tables, then [`EXTRAS`].
    pub per_stage: usize,
    /// Every placement of every pattern.
    pub instances: Vec<Instance>,
    /// For each weight of a stage, the weight it shares its value with (itself or
    /// a smaller index): configurations that a symmetry mapping the pattern's cells
    /// onto themselves turns into each other.
    pub canonical: Vec<u32>,
    /// For each cell, the placements that read it, as `(placement, power)`: the
    /// placement's index grows by `power` for each unit its digit grows.
    cell_terms: [Vec<(u8, u32)>; 64],
}

/// How many placements the patterns have on the board (every instance of
/// [`Layout::instances`]).
pub const PLACEMENTS: usize = 46;

/// The weight indices (within a stage) of every placement, kept up to date move by
/// move ([`Layout::features`], [`Layout::play`]) rather than read from the whole
/// board at each evaluation: from the side to move's view (digit 1 its discs, 2 the
/// opponent's) and from the opponent's, which becomes the side to move's after a move
/// or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    own: [u32; PLACEMENTS],
    opp: [u32; PLACEMENTS],
}

impl Features {
    /// The features of the same discs with the other side to move.
    #[inline]
    pub fn pass(&self) -> Features {
        Features {
            own: self.opp,
            opp: self.own,
        }
    }
}

impl Layout {
    fn new() -> Layout {
        let mut offsets = Vec::new();
        let mut instances = Vec::new();
        let mut canonical = Vec::new();
        let mut offset = 0;
        for (pattern, base) in BASE_PATTERNS.iter().enumerate() {
            offsets.push(offset);
            let size = 3usize.pow(base.len() as u32);
            let mut seen: Vec<Vec<u8>> = Vec::new();
            // Permutations of the digits that map the pattern onto itself.
            let mut self_maps: Vec<Vec<usize>> = Vec::new();
            for k in 0..8 {
                let cells: Vec<u8> = base
                    .iter()
                    .map(|&rc| {
                        let (r, c) = symmetry(k, rc);
                        r * 8 + c
                    })
                    .collect();
                let mut set = cells.clone();
                set.sort_unstable();
                let base_cells: Vec<u8> = base.iter().map(|&(r, c)| r * 8 + c).collect();
                let mut base_set = base_cells.clone();
                base_set.sort_unstable();
                if set == base_set {
                    // Digit i of the image reads the base's cell at this position.
                    let map = cells
                        .iter()
                        .map(|cell| base_cells.iter().position(|b| b == cell).unwrap())
                        .collect();
                    self_maps.push(map);
                }
                if !seen.contains(&set) {
                    seen.push(set);
                    instances.push(Instance { pattern, cells });
                }
            }
            // Without the identity: each configuration is compared with itself (its
            // index) and its other images.
            self_maps.retain(|map| map.iter().enumerate().any(|(i, &from)| i != from));
            let n = base.len();
            // The digits of `index`, most significant first, counted up as it grows.
            let mut digits = [0usize; 16];
            for index in 0..size {
                let smallest = self_maps
                    .iter()
                    .map(|map| map.iter().fold(0, |acc, &from| acc * 3 + digits[from]))
                    .fold(index, usize::min);
                canonical.push((offset + smallest) as u32);
                for digit in digits[..n].iter_mut().rev() {
                    *digit += 1;
                    if *digit < 3 {
                        break;
                    }
                    *digit = 0;
                }
            }
            offset += size;
        }
        for extra in 0..EXTRAS {
            canonical.push((offset + extra) as u32);
        }
        assert_eq!(instances.len(), PLACEMENTS);
        let mut cell_terms: [Vec<(u8, u32)>; 64] = std::array::from_fn(|_| Vec::new());
        for (placement, instance) in instances.iter().enumerate() {
            let n = instance.cells.len();
            for (digit, &cell) in instance.cells.iter().enumerate() {
                let power = 3u32.pow((n - 1 - digit) as u32);
                cell_terms[cell as usize].push((placement as u8, power));
            }
        }
        Layout {
            offsets,
            per_stage: offset + EXTRAS,
            instances,
            canonical,
            cell_terms,
        }
    }

    /// The features of `board`, read from every cell.
    pub fn features(&self, board: Board) -> Features {
        let mut features = Features {
            own: [0; PLACEMENTS],
            opp: [0; PLACEMENTS],
        };
        for (slot, index) in features.own.iter_mut().zip(self.indices(board)) {
            *slot = index as u32;
        }
        for (slot, index) in features.opp.iter_mut().zip(self.indices(board.pass())) {
            *slot = index as u32;
        }
        features
    }

    /// The features after the side to move of `features` plays `square`, turning
    /// `flips` (the position's [`Board::flips`]): seen from the opponent, who moves
    /// next, as [`Board::play`].
    #[inline]
    pub fn play(&self, features: &Features, square: u8, flips: u64) -> Features {
        let (mut own, mut opp) = (features.own, features.opp);
        // The new disc: digit 0 to 1 for the mover's view, 0 to 2 for the other.
        for &(placement, power) in &self.cell_terms[square as usize] {
            own[placement as usize] += power;
            opp[placement as usize] += 2 * power;
        }
        // Each flipped disc: digit 2 to 1 for the mover's view, 1 to 2 for the other.
        let mut rest = flips;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for &(placement, power) in &self.cell_terms[cell] {
                own[placement as usize] -= power;
                opp[placement as usize] += power;
            }
        }
        Features { own: opp, opp: own }
    }

    /// The side to move's half of [`Layout::play`]'s result: the opponent's view of
    /// `features` after it plays `square` turning `flips`. Enough to evaluate the
    /// child ([`Weights::evaluate_view`]), at half the copying.
    #[inline]
    pub fn child_view(&self, features: &Features, square: u8, flips: u64) -> [u32; PLACEMENTS] {
        let mut view = features.opp;
        for &(placement, power) in &self.cell_terms[square as usize] {
            view[placement as usize] += 2 * power;
        }
        let mut rest = flips;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for &(placement, power) in &self.cell_terms[cell] {
                view[placement as usize] += power;
            }
        }
        view
    }

    /// The weight indices (within a stage) that `board` reads, one per placement.
    #[inline]
    pub fn indices(&self, board: Board) -> impl Iterator<Item = usize> + '_ {
        // Each cell's digit once (0 empty, 1 own, 2 the opponent's), then each
        // placement's index by Horner's rule over its cells.
        let mut digits = [0u8; 64];
        for (cell, digit) in digits.iter_mut().enumerate() {
            *digit = (board.own >> cell & 1) as u8 + 2 * (board.opp >> cell & 1) as u8;
        }
        self.instances.iter().map(move |instance| {
            let index = instance
                .cells
                .iter()
                .fold(0, |index, &cell| index * 3 + digits[cell as usize] as usize);
            self.offsets[instance.pattern] + index
        })
    }
}

/// The layout, built once.
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(Layout::new)
}

/// The extra features of `board`: a constant, the mobility balance and the frontier
/// balance (discs next to an empty cell, the opponent's less one's own).
#[inline]
pub fn extras(board: Board) -> [i32; EXTRAS] {
    extras_with_moves(board, board.moves().count_ones())
}

/// [`extras`] with the number of moves of the side to move known.
#[inline]
fn extras_with_moves(board: Board, own_moves: u32) -> [i32; EXTRAS] {
    let own_moves = own_moves as i32;
    let opp_moves = board.pass().moves().count_ones() as i32;
    let around = neighbours(!(board.own | board.opp));
    let frontier =
        (board.opp & around).count_ones() as i32 - (board.own & around).count_ones() as i32;
    [1, own_moves - opp_moves, frontier]
}

/// Why a weights file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    /// The file does not start with [`MAGIC`].
    #[error("not a pattern weights file (it does not start with {MAGIC:?})")]
    Magic,
    /// The header's sizes differ from this build's patterns.
    #[error("the file has {stages} stages of {per_stage} weights; this build expects {STAGES} of {expected}")]
    Shape {
        /// Stages in the file.
        stages: u32,
        /// Weights per stage in the file.
        per_stage: u32,
        /// Weights per stage this build reads.
        expected: usize,
    },
    /// The file is shorter or longer than its header says.
    #[error("the file holds {found} bytes of weights; its header calls for {expected}")]
    Length {
        /// Bytes found after the header.
        found: usize,
        /// Bytes the header calls for.
        expected: usize,
    },
    /// The checksum does not match the weights.
    #[error("the weights do not match the file's checksum (damaged file)")]
    Checksum,
}

/// The first bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"RVPAT\x001\n";

/// Header: magic, stages (u32), weights per stage (u32), FNV-1a checksum of the
/// weights (u64), all little-endian; then the weights as i16.
const HEADER: usize = 8 + 4 + 4 + 8;

/// The FNV-1a hash of `bytes`: the checksum of weights files (and of training
/// samples files, `crate::engine::train::samples`).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_on(FNV1A_START, bytes)
}

/// The FNV-1a hash of nothing, where [`fnv1a_on`] starts.
pub(crate) const FNV1A_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The FNV-1a hash `hash` of some bytes, carried on over `bytes`: the hash of both
/// one after the other.
pub(crate) fn fnv1a_on(hash: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(hash, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// Learned weights: per stage, the pattern tables (every configuration, those
/// sharing a weight set equal) and the extras, in evaluation units.
pub struct Weights {
    stages: Vec<Vec<i16>>,
}

impl Weights {
    /// Reads a weights file; configurations that share a weight take the value of
    /// the canonical one, so the evaluation is symmetric whatever the file holds.
    pub fn parse(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let body = Weights::body(bytes)?;
        let checksum = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
        if fnv1a(body) != checksum {
            return Err(WeightsError::Checksum);
        }
        Ok(Weights::from_body(body))
    }

    /// The body of a weights file (the weights after its header), once the magic,
    /// the sizes and the length are checked; the checksum is not.
    fn body(bytes: &[u8]) -> Result<&[u8], WeightsError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(WeightsError::Magic);
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let (stages, per_stage) = (word(8), word(12));
        let expected = layout().per_stage;
        if stages as usize != STAGES || per_stage as usize != expected {
            return Err(WeightsError::Shape {
                stages,
                per_stage,
                expected,
            });
        }
        let body = &bytes[HEADER..];
        let want = STAGES * expected * 2;
        if body.len() != want {
            return Err(WeightsError::Length {
                found: body.len(),
                expected: want,
            });
        }
        Ok(body)
    }

    /// Weights from a file's body (little-endian i16, stage after stage), read in
    /// one pass.
    fn from_body(body: &[u8]) -> Weights {
        let mut raw = Vec::with_capacity(layout().per_stage);
        let stages = body.chunks_exact(2 * layout().per_stage).map(|chunk| {
            raw.clear();
            raw.extend(
                chunk
                    .chunks_exact(2)
                    .map(|b| i16::from_le_bytes([b[0], b[1]])),
            );
            Weights::symmetric(&raw)
        });
        Weights {
            stages: stages.collect(),
        }
    }

    /// One stage's weights from its raw weights, each configuration taking the
    /// weight of its canonical one.
    fn symmetric(raw: &[i16]) -> Vec<i16> {
        layout()
            .canonical
            .iter()
            .map(|&c| raw[c as usize])
            .collect()
    }

    /// The file [`Weights::parse`] reads, for `stages` (each [`Layout::per_stage`]
    /// weights long).
    pub fn to_bytes(stages: &[Vec<i16>]) -> Vec<u8> {
        let mut body = Vec::new();
        for stage in stages {
            for w in stage {
                body.extend_from_slice(&w.to_le_bytes());
            }
        }
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(stages.len() as u32).to_le_bytes());
        out.extend_from_slice(&(stages.first().map_or(0, Vec::len) as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// The evaluation of `board` for the side to move: [`Weights::score`] clamped
    /// below every finished game's score.
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        self.score(board).clamp(-LIMIT, LIMIT)
    }

    /// Weights from `stages` (each [`Layout::per_stage`] long) as [`Weights::parse`]
    /// reads them.
    pub fn from_stages(stages: &[Vec<i16>]) -> Weights {
        Weights {
            stages: stages.iter().map(|raw| Weights::symmetric(raw)).collect(),
        }
    }

    /// The weights of each stage, as [`Weights::to_bytes`] takes them.
    pub fn stages(&self) -> &[Vec<i16>] {
        &self.stages
    }

    /// [`Weights::evaluate`] from the features of `board` (its [`Layout::features`],
    /// kept up to date move by move) and the number of moves of its side to move:
    /// the same value, without reading the board's cells.
    #[inline]
    pub fn evaluate_features(&self, board: Board, features: &Features, own_moves: u32) -> i32 {
        self.evaluate_view(board, &features.own, own_moves)
    }

    /// [`Weights::evaluate_features`] from the side to move's view alone (the
    /// `own` half of the features, or a [`Layout::child_view`]).
    #[inline]
    pub fn evaluate_view(&self, board: Board, view: &[u32; PLACEMENTS], own_moves: u32) -> i32 {
        let empties = (!(board.own | board.opp)).count_ones();
        let weights = &self.stages[stage(empties)];
        let mut total: i32 = view.iter().map(|&i| weights[i as usize] as i32).sum();
        let base = weights.len() - EXTRAS;
        let [constant, mobility, frontier] = extras_with_moves(board, own_moves);
        total += weights[base] as i32 * constant
            + weights[base + 1] as i32 * mobility
            + weights[base + 2] as i32 * frontier;
        total.clamp(-LIMIT, LIMIT)
    }

    /// The score of `board` for the side to move, unclamped.
    #[inline]
    pub fn score(&self, board: Board) -> i32 {
        let empties = (!(board.own | board.opp)).count_ones();
        let weights = &self.stages[stage(empties)];
        let layout = layout();
        let mut total: i32 = layout.indices(board).map(|i| weights[i] as i32).sum();
        let base = layout.per_stage - EXTRAS;
        for (k, x) in extras(board).into_iter().enumerate() {
            total += weights[base + k] as i32 * x;
        }
        total
    }
}

/// The weights file embedded in the program.
const EMBEDDED: &[u8] = include_bytes!("patterns.bin");

/// The weights embedded in the program (`src/eval/patterns.bin`). Its checksum is
/// checked by a test (`the_learned_file_loads`) rather than at each start.
pub fn embedded() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        Weights::body(EMBEDDED)
            .map(Weights::from_body)
            .unwrap_or_else(|e| panic!("src/eval/patterns.bin: {e}"))
    })
}

/// Heuristic scores are clamped to this, below every finished game's score.
pub const LIMIT: i32 = 64 * DISC;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, Squares};

    /// Applies the `k`-th of the board's 8 symmetries to the discs of a bitboard
    /// (written apart from the layout's own list of symmetries).
    fn transform(bits: u64, k: usize) -> u64 {
        let mut out = 0u64;
        for cell in 0..64u32 {
            if bits >> cell & 1 != 0 {
                let (r, c) = (cell / 8, cell % 8);
                let (r, c) = match k {
                    0 => (r, c),
                    1 => (7 - r, c),
                    2 => (r, 7 - c),
                    3 => (7 - r, 7 - c),
                    4 => (c, r),
                    5 => (7 - c, r),
                    6 => (c, 7 - r),
                    _ => (7 - c, 7 - r),
                };
                out |= 1 << (r * 8 + c);
            }
        }
        out
    }

    /// Positions of a few random games.
    fn positions() -> Vec<Board> {
        let mut state = 5u64;
        let mut out = Vec::new();
        for _ in 0..6 {
            let mut board = Geometry::STANDARD.start();
            loop {
                let moves = board.moves();
                if moves == 0 {
                    board = board.pass();
                    if board.moves() == 0 {
                        break;
                    }
                    continue;
                }
                out.push(board);
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let n = moves.count_ones() as u64;
                let pick = Squares(moves).nth(((state >> 33) % n) as usize).unwrap();
                board = board.play(pick);
            }
        }
        out
    }

    #[test]
    fn the_learned_file_loads() {
        // Checked in full (the checksum too), and the same as the program reads it.
        let weights = Weights::parse(EMBEDDED).unwrap();
        assert_eq!(weights.stages.len(), STAGES);
        assert!(weights.stages.iter().all(|s| s.iter().any(|&w| w != 0)));
        assert!(weights.stages == embedded().stages);
    }

    #[test]
    fn damaged_files_are_refused() {
        let good = EMBEDDED;
        assert_eq!(Weights::parse(&good[..5]).err(), Some(WeightsError::Magic));
        assert_eq!(Weights::parse(b"RVPAT").err(), Some(WeightsError::Magic));
        let short = &good[..good.len() - 2];
        assert!(matches!(
            Weights::parse(short).err(),
            Some(WeightsError::Length { .. })
        ));
        let mut flipped = good.to_vec();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert_eq!(Weights::parse(&flipped).err(), Some(WeightsError::Checksum));
        let mut reshaped = good.to_vec();
        reshaped[8] = 3;
        assert!(matches!(
            Weights::parse(&reshaped).err(),
            Some(WeightsError::Shape { stages: 3, .. })
        ));
    }

    #[test]
    fn the_eight_images_of_a_position_score_the_same() {
        // With the embedded weights, and with arbitrary ones (every weight distinct).
        let layout = layout();
        let arbitrary: Vec<Vec<i16>> = (0..STAGES)
            .map(|s| {
                (0..layout.per_stage)
                    .map(|i| ((i * 7919 + s * 104_729) % 20_011) as i16 - 10_000)
                    .collect()
            })
            .collect();
        let arbitrary = Weights::parse(&Weights::to_bytes(&arbitrary)).unwrap();
        for weights in [embedded(), &arbitrary] {
            for board in positions() {
                let score = weights.score(board);
                for k in 1..8 {
                    let image = Board {
                        own: transform(board.own, k),
                        opp: transform(board.opp, k),
                    };
                    assert_eq!(weights.score(image), score, "{board:?} symmetry {k}");
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Along a random game (its moves chosen by `seed`), with its passes, the
        /// features kept move by move equal those read from the board, and so do the
        /// evaluations.
        #[test]
        fn features_kept_move_by_move_match_the_board(seed: u64) {
            let layout = layout();
            let weights = embedded();
            let mut rng = crate::splitmix::SplitMix64::new(seed);
            let mut board = Geometry::STANDARD.start();
            let mut features = layout.features(board);
            loop {
                proptest::prop_assert_eq!(features, layout.features(board));
                let moves = board.moves();
                proptest::prop_assert_eq!(
                    weights.evaluate_features(board, &features, moves.count_ones()),
                    weights.evaluate(board)
                );
                if moves == 0 {
                    board = board.pass();
                    features = features.pass();
                    if board.moves() == 0 {
                        break;
                    }
                    continue;
                }
                let square = rng.square_of(moves);
                let flips = board.flips(square);
                features = layout.play(&features, square.index(), flips);
                board = board.play_flipping(square, flips);
            }
        }
    }

    #[test]
    fn every_placement_reads_its_cells() {
        let layout = layout();
        assert_eq!(
            layout.instances.len(),
            4 + 4 + 8 + 4 + 4 + 4 + 2 + 4 + 4 + 4 + 4
        );
        // The empty board reads configuration 0 of every pattern; a board full of
        // own discs reads the all-ones configuration.
        let empty = Board { own: 0, opp: 0 };
        for (i, instance) in layout.indices(empty).zip(&layout.instances) {
            assert_eq!(i, layout.offsets[instance.pattern]);
        }
        let full = Board { own: !0, opp: 0 };
        for (i, instance) in layout.indices(full).zip(&layout.instances) {
            let ones = (0..instance.cells.len()).fold(0, |a, _| a * 3 + 1);
            assert_eq!(i, layout.offsets[instance.pattern] + ones);
        }
    }
}

//! Labelled positions saved to a file and read back, so that a fit can use the games
//! of several runs (`reversi engine train --save-samples`, `--samples`).
//!
//! A samples file is [`MAGIC`], the count of samples (u64), the FNV-1a checksum of
//! the body (u64), then the body: each sample as the side to move's discs (u64),
//! the other side's (u64) and the label in discs (f32), all little-endian, in the
//! order the games made them.

use super::Sample;
use crate::board::Board;
use crate::eval::pattern::fnv1a;

/// The first bytes of a samples file.
pub const MAGIC: &[u8; 8] = b"RVSMP\x001\n";

/// Magic, count, checksum.
const HEADER: usize = 8 + 8 + 8;

/// Bytes of one sample in the body.
const RECORD: usize = 8 + 8 + 4;

/// Why a samples file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SamplesError {
    /// The file does not start with [`MAGIC`].
    #[error("not a samples file (it does not start with {MAGIC:?})")]
    Magic,
    /// The file is shorter or longer than its count of samples calls for.
    #[error("the file holds {found} bytes of samples; its header calls for {expected}")]
    Length {
        /// Bytes found after the header.
        found: u64,
        /// Bytes the header's count calls for.
        expected: u64,
    },
    /// The checksum does not match the samples.
    #[error("the samples do not match the file's checksum (damaged file)")]
    Checksum,
    /// A sample is not a position with a label.
    #[error("sample {index} (from 0): {problem}")]
    Sample {
        /// Its place in the file.
        index: usize,
        /// What is wrong with it.
        problem: &'static str,
    },
}

/// The file [`parse`] reads, for `samples`.
pub fn to_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut body = Vec::with_capacity(samples.len() * RECORD);
    for x in samples {
        body.extend_from_slice(&x.board.own.to_le_bytes());
        body.extend_from_slice(&x.board.opp.to_le_bytes());
        body.extend_from_slice(&x.value.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(samples.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Reads a samples file: every sample must be a position (no cell held by both
/// sides) with a finite label from -64 to 64 discs.
pub fn parse(bytes: &[u8]) -> Result<Vec<Sample>, SamplesError> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(SamplesError::Magic);
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let (count, checksum) = (word(8), word(16));
    let body = &bytes[HEADER..];
    let expected = count.saturating_mul(RECORD as u64);
    if body.len() as u64 != expected {
        return Err(SamplesError::Length {
            found: body.len() as u64,
            expected,
        });
    }
    if fnv1a(body) != checksum {
        return Err(SamplesError::Checksum);
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(index, record)| {
            let own = u64::from_le_bytes(record[..8].try_into().unwrap());
            let opp = u64::from_le_bytes(record[8..16].try_into().unwrap());
            let value = f32::from_le_bytes(record[16..].try_into().unwrap());
            let problem = if own & opp != 0 {
                "a cell is held by both sides"
            } else if !(-64.0..=64.0).contains(&value) {
                "the label is not a margin from -64 to 64 discs"
            } else {
                return Ok(Sample {
                    board: Board { own, opp },
                    value,
                });
            };
            Err(SamplesError::Sample { index, problem })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some_samples() -> Vec<Sample> {
        vec![
            Sample {
                board: crate::board::Geometry::STANDARD.start(),
                value: 0.5,
            },
            Sample {
                board: Board {
                    own: 0xff,
                    opp: 0xff00,
                },
                value: -64.0,
            },
        ]
    }

    #[test]
    fn samples_come_back_as_they_were_saved() {
        let samples = some_samples();
        let back = parse(&to_bytes(&samples)).unwrap();
        let key = |x: &Sample| (x.board.own, x.board.opp, x.value.to_bits());
        assert_eq!(
            back.iter().map(key).collect::<Vec<_>>(),
            samples.iter().map(key).collect::<Vec<_>>()
        );
        assert!(parse(&to_bytes(&[])).unwrap().is_empty());
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused_with_its_fault() {
        let good = to_bytes(&some_samples());
        assert_eq!(parse(&good[..5]).err(), Some(SamplesError::Magic));
        assert_eq!(
            parse(crate::eval::pattern::MAGIC).err(),
            Some(SamplesError::Magic)
        );
        assert_eq!(
            parse(&good[..good.len() - 1]).err(),
            Some(SamplesError::Length {
                found: 39,
                expected: 40
            })
        );
        let mut flipped = good.clone();
        flipped[HEADER + 3] ^= 1;
        assert_eq!(parse(&flipped).err(), Some(SamplesError::Checksum));

        // Well-formed files whose samples are not positions with labels.
        let bad = |own, opp, value| {
            let file = to_bytes(&[
                some_samples()[0],
                Sample {
                    board: Board { own, opp },
                    value,
                },
            ]);
            match parse(&file) {
                Err(SamplesError::Sample { index: 1, problem }) => problem,
                other => panic!("expected sample 1 refused, got {other:?}"),
            }
        };
        assert!(bad(3, 2, 0.0).contains("both sides"));
        assert!(bad(1, 2, 64.5).contains("-64 to 64"));
        assert!(bad(1, 2, f32::NAN).contains("-64 to 64"));
    }
}

//! The Umea course's protocol: each move, `PROG POSITION SECONDS 0` with the position
//! as one 65-character argument, and one line `(row,col)` or `pass` on standard
//! output; before play, the compile step `PROG POSITION SECONDS 1` once (the course's
//! start position). A process per move ([`super::per_move`]).

use super::per_move::PerMove;
use super::Terms;
use crate::board::Square;
use crate::format::umea::{self, position_text, START};
use crate::rules::Position;

/// The Umea adapter.
pub struct Umea;

impl PerMove for Umea {
    fn name(&self) -> &'static str {
        "umea"
    }

    fn entry(&self) -> &'static str {
        "othello.sh"
    }

    fn compile(&self, terms: &Terms) -> Option<Vec<String>> {
        Some(vec![
            position_text(START),
            terms.seconds_text.clone(),
            "1".to_string(),
        ])
    }

    fn request(
        &self,
        position: Position,
        terms: &Terms,
    ) -> (Vec<String>, Vec<(&'static str, Vec<u8>)>) {
        let args = vec![
            position_text(position),
            terms.seconds_text.clone(),
            "0".to_string(),
        ];
        (args, Vec::new())
    }

    fn parse(&self, line: &str) -> Option<Option<Square>> {
        umea::parse_answer(line).ok()
    }

    fn expected(&self) -> String {
        "`(row,col)` with row and column 1 to 8, or `pass`".into()
    }
}

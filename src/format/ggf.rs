//! GGF, the Generic Game Format of the GGS Othello server, which Othello tools (NBoard,
//! NTest, Edax, game archives) read and write: one game is
//!
//! ```text
//! (;GM[Othello]PC[place]DT[2026.12.07_04:12:33.UTC]PB[black]PW[white]TY[8]RE[+6.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5]W[D6//0.12];)
//! ```
//!
//! The properties written, in this order: `GM[Othello]`; `PC` the place; `DT` the date,
//! `year.month.day_hour:minute:second.zone`; `PB` and `PW` the players of black and white;
//! `RB` and `RW` their ratings when known; `TI` the thinking time when given; `TY[8]`
//! standard 8x8 Othello; `RE` the result (below); `BO` the start: the size, 64 cells
//! row by row from `A1` (`*` black, `O` white, `-` empty, one space between rows as
//! GGS writes them) and the side to move (`*` or `O`); then the moves, `B[..]` black's
//! and `W[..]` white's, each `square/evaluation/seconds` with the last two optional,
//! `PA` a pass (explicit, as GGS records it).
//!
//! `RE` is the result in the first colour's view (black in Othello): the disc
//! difference, written `+6.000`, `-10.000` or `+0.000`, followed by `:r` (resigned),
//! `:t` (time out) or `:s` (mutual score) when the game did not end on the board; `?`
//! when not known (an unfinished game, as NBoard writes it). A forfeit in the arena is
//! written as GGS writes a resignation or a time out: the winner's full margin, `±64`.
//!
//! Values never hold `[`, `]`, `\` or a character outside printable ASCII when written:
//! [`write()`] replaces each such character of a name, place or time by `_`, so that any
//! GGF reader reads the line back (student folder names are not trusted).
//!
//! The reader takes what GGS and NBoard write: moves in either case, `PA` or `pass`,
//! `BO` rows with or without spaces, properties it does not know (they are skipped), a
//! missing pass (inserted when the side to move has no move and the other side's tag
//! comes), GGS's 8x8 game types (`8`, `8r`, `s8r18`, `8k`; not anti-Othello, `8a`).
//! It checks every move against the rules.

use std::fmt::Write as _;

use thiserror::Error;

use crate::board::Square;
use crate::rules::{Color, Position};

/// One move of a game, as GGF records it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    /// The square (`None`: a pass).
    pub square: Option<Square>,
    /// The mover's evaluation, when recorded.
    pub eval: Option<f64>,
    /// The seconds the move took, when recorded.
    pub seconds: Option<f64>,
}

impl Move {
    /// A move with no evaluation and no time.
    pub const fn plain(square: Option<Square>) -> Move {
        Move {
            square,
            eval: None,
            seconds: None,
        }
    }
}

/// How a game that did not end on the board ended (`RE`'s flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// `r`: a side resigned (the arena: lost by a fault other than time).
    Resigned,
    /// `t`: a side ran out of time.
    TimeOut,
    /// `s`: the score was agreed.
    Mutual,
}

impl Flag {
    const fn letter(self) -> char {
        match self {
            Flag::Resigned => 'r',
            Flag::TimeOut => 't',
            Flag::Mutual => 's',
        }
    }
}

/// A game's result (`RE`), in black's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Black's discs minus white's (or the margin given by a flag's ending).
    pub black_margin: f64,
    /// Why the game ended off the board, if it did.
    pub flag: Option<Flag>,
}

impl Outcome {
    /// The result of a game played out to `last`: the disc difference.
    pub fn on_board(last: Position) -> Outcome {
        let (black, white) = last.counts();
        Outcome {
            black_margin: f64::from(black) - f64::from(white),
            flag: None,
        }
    }

    /// The result of a game that `loser` lost off the board (`flag`): the winner's full
    /// margin, 64 discs, as GGS scores a resignation or a time out.
    pub fn lost_by(loser: Color, flag: Flag) -> Outcome {
        let margin = match loser {
            Color::Black => -64.0,
            Color::White => 64.0,
        };
        Outcome {
            black_margin: margin,
            flag: Some(flag),
        }
    }
}

/// One game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// `PC`: where it was played.
    pub place: String,
    /// `DT`: when (see [`date`]).
    pub date: String,
    /// `PB`: black's player.
    pub black: String,
    /// `PW`: white's player.
    pub white: String,
    /// `RB`: black's rating, if known.
    pub black_rating: Option<f64>,
    /// `RW`: white's rating, if known.
    pub white_rating: Option<f64>,
    /// `TI`: the thinking time (`15:00//02:00`), if given.
    pub time: Option<String>,
    /// `BO`: the start position.
    pub start: Position,
    /// The moves from the start, passes included.
    pub moves: Vec<Move>,
    /// `RE` (`None`: `?`).
    pub result: Option<Outcome>,
}

impl Game {
    /// The position after every move.
    pub fn last(&self) -> Position {
        self.moves
            .iter()
            .fold(self.start, |position, m| position.after(m.square))
    }
}

/// Why a GGF text could not be read; `at` is a byte offset into it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("GGF, byte {at}: {what}")]
pub struct GgfError {
    /// Where the problem was found.
    pub at: usize,
    /// What was wrong.
    pub what: String,
}

/// `DT` for a time given in seconds since 1970 (UTC): `2026.12.07_04:12:33.UTC`.
pub fn date(unix_seconds: u64) -> String {
    let days = (unix_seconds / 86_400) as i64;
    let rest = unix_seconds % 86_400;
    // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}.{month:02}.{day:02}_{:02}:{:02}:{:02}.UTC",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// A square as GGF writes it: `F5`.
pub fn square_name(square: Square) -> String {
    format!("{}{}", (b'A' + square.col()) as char, square.row() + 1)
}

/// A move's square as GGF and NBoard write it: `F5`, or `PA` for a pass.
pub fn move_name(square: Option<Square>) -> String {
    square.map_or_else(|| "PA".to_string(), square_name)
}

/// The square or pass named by `text` (`f5`, `F5`, `PA`, `pa`, `pass`).
pub fn parse_move_name(text: &str) -> Option<Option<Square>> {
    let lower = text.to_ascii_lowercase();
    if lower == "pa" || lower == "pass" {
        return Some(None);
    }
    match lower.as_bytes() {
        &[col @ b'a'..=b'h', row @ b'1'..=b'8'] => Some(Some(Square::new(row - b'1', col - b'a'))),
        _ => None,
    }
}

/// `text` with every character GGF cannot hold in a value replaced by `_`.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| {
            if (' '..='~').contains(&c) && !matches!(c, '[' | ']' | '\\') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The `BO` value of `position`: `8 ` then the rows, then the side to move.
pub fn board_text(position: Position) -> String {
    let mut out = String::from("8 ");
    for row in 0..8 {
        for col in 0..8 {
            let bit = Square::new(row, col).bit();
            out.push(if position.black & bit != 0 {
                '*'
            } else if position.white & bit != 0 {
                'O'
            } else {
                '-'
            });
        }
        out.push(' ');
    }
    out.push(match position.to_move {
        Color::Black => '*',
        Color::White => 'O',
    });
    out
}

/// The game as one GGF line (no line end).
pub fn write(game: &Game) -> String {
    let mut out = String::from("(;GM[Othello]");
    let _ = write!(out, "PC[{}]DT[{}]", clean(&game.place), clean(&game.date));
    let _ = write!(out, "PB[{}]PW[{}]", clean(&game.black), clean(&game.white));
    if let Some(rating) = game.black_rating {
        let _ = write!(out, "RB[{rating}]");
    }
    if let Some(rating) = game.white_rating {
        let _ = write!(out, "RW[{rating}]");
    }
    if let Some(time) = &game.time {
        let _ = write!(out, "TI[{}]", clean(time));
    }
    out.push_str("TY[8]RE[");
    match game.result {
        None => out.push('?'),
        Some(outcome) => {
            let _ = write!(out, "{:+.3}", outcome.black_margin);
            if let Some(flag) = outcome.flag {
                let _ = write!(out, ":{}", flag.letter());
            }
        }
    }
    let _ = write!(out, "]BO[{}]", board_text(game.start));
    let mut position = game.start;
    for m in &game.moves {
        let tag = match position.to_move {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let _ = write!(out, "{tag}[{}", move_name(m.square));
        if m.eval.is_some() || m.seconds.is_some() {
            out.push('/');
            if let Some(eval) = m.eval {
                let _ = write!(out, "{eval}");
            }
            if let Some(seconds) = m.seconds {
                let _ = write!(out, "/{seconds}");
            }
        }
        out.push(']');
        position = position.after(m.square);
    }
    out.push_str(";)");
    out
}

/// Every game of `text` (games one after another, anything between them ignored).
pub fn read_all(text: &str) -> Result<Vec<Game>, GgfError> {
    let mut games = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find("(;") {
        let (game, end) = read_from(text, at + found)?;
        games.push(game);
        at = end;
    }
    Ok(games)
}

/// The one game of `text`.
pub fn read(text: &str) -> Result<Game, GgfError> {
    let start = text.find("(;").ok_or_else(|| GgfError {
        at: 0,
        what: "no game: `(;` not found".into(),
    })?;
    let (game, end) = read_from(text, start)?;
    if let Some(more) = text[end..].find("(;") {
        return Err(GgfError {
            at: end + more,
            what: "a second game where one was expected".into(),
        });
    }
    Ok(game)
}

fn error(at: usize, what: impl Into<String>) -> GgfError {
    GgfError {
        at,
        what: what.into(),
    }
}

/// Reads the game opening at `start` (`(;`); returns it and the offset past its `;)`.
fn read_from(text: &str, start: usize) -> Result<(Game, usize), GgfError> {
    let bytes = text.as_bytes();
    let mut at = start + 2;
    let mut game = Game {
        place: String::new(),
        date: String::new(),
        black: String::new(),
        white: String::new(),
        black_rating: None,
        white_rating: None,
        time: None,
        start: crate::format::umea::START.with_to_move(Color::Black),
        moves: Vec::new(),
        result: None,
    };
    let mut seen_board = false;
    let mut position = game.start;
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if text[at..].starts_with(";)") {
            return Ok((game, at + 2));
        }
        let name_start = at;
        while at < bytes.len() && bytes[at].is_ascii_uppercase() {
            at += 1;
        }
        let name = &text[name_start..at];
        if name.is_empty() || at >= bytes.len() || bytes[at] != b'[' {
            return Err(error(
                name_start,
                "expected a property (`NAME[value]`) or the end `;)`",
            ));
        }
        let value_start = at + 1;
        let mut value = String::new();
        at = value_start;
        loop {
            match bytes.get(at) {
                None => return Err(error(value_start, format!("`{name}[` is never closed"))),
                Some(b']') => break,
                Some(b'\\') if at + 1 < bytes.len() => {
                    let c = text[at + 1..].chars().next().expect("a character");
                    value.push(c);
                    at += 1 + c.len_utf8();
                }
                Some(_) => {
                    let c = text[at..].chars().next().expect("a character");
                    value.push(c);
                    at += c.len_utf8();
                }
            }
        }
        at += 1;
        match name {
            "GM" if !value.eq_ignore_ascii_case("othello") => {
                return Err(error(
                    value_start,
                    format!("GM[{value}]: not an Othello game"),
                ));
            }
            "TY" if !standard_type(&value) => {
                return Err(error(
                    value_start,
                    format!("TY[{value}]: only 8x8 Othello that is not anti-Othello is read"),
                ));
            }
            "PC" => game.place = value,
            "DT" => game.date = value,
            "PB" => game.black = value,
            "PW" => game.white = value,
            "RB" => game.black_rating = value.trim().parse().ok(),
            "RW" => game.white_rating = value.trim().parse().ok(),
            "TI" => game.time = Some(value),
            "RE" => game.result = parse_outcome(&value).map_err(|w| error(value_start, w))?,
            "BO" => {
                if !game.moves.is_empty() {
                    return Err(error(name_start, "BO after the first move"));
                }
                game.start = parse_board(&value).map_err(|w| error(value_start, w))?;
                position = game.start;
                seen_board = true;
            }
            "B" | "W" => {
                let color = if name == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let m = parse_move(&value).map_err(|w| error(value_start, w))?;
                if color != position.to_move {
                    let board = position.board();
                    if board.moves() == 0 && board.pass().moves() != 0 {
                        game.moves.push(Move::plain(None));
                        position = position.pass();
                    } else {
                        return Err(error(
                            name_start,
                            format!("{name}[{value}]: it is the other side's move"),
                        ));
                    }
                }
                let legal = position.board().moves();
                match m.square {
                    Some(square) if legal & square.bit() == 0 => {
                        return Err(error(
                            value_start,
                            format!("{}: not a legal move here", square_name(square)),
                        ));
                    }
                    None if legal != 0 => {
                        return Err(error(value_start, "a pass where a move exists"));
                    }
                    _ => {}
                }
                position = position.after(m.square);
                game.moves.push(m);
            }
            _ => {}
        }
        if !seen_board && !game.moves.is_empty() {
            return Err(error(name_start, "a move before the board (BO)"));
        }
    }
}

/// Whether GGS's game type `value` is played by the standard rules on 8x8: the size
/// `8` with GGS's letters for a synchro game (`s`), komi (`k`) or a random start
/// (`r` and its disc count), not anti-Othello (`a`), as `8`, `8r`, `s8r18`.
fn standard_type(value: &str) -> bool {
    let value = value.trim();
    let size: String = value
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    size == "8" && !value.contains('a') && value.chars().all(|c| c.is_ascii_alphanumeric())
}

/// `RE`'s value: `?`, or a margin with an optional `:r`/`:t`/`:s`.
fn parse_outcome(value: &str) -> Result<Option<Outcome>, String> {
    let value = value.trim();
    if value == "?" || value.is_empty() {
        return Ok(None);
    }
    let (number, flag) = match value.split_once(':') {
        None => (value, None),
        Some((number, "r")) => (number, Some(Flag::Resigned)),
        Some((number, "t")) => (number, Some(Flag::TimeOut)),
        Some((number, "s")) => (number, Some(Flag::Mutual)),
        Some((_, other)) => return Err(format!("RE: unknown flag `{other}` (r, t or s)")),
    };
    let black_margin: f64 = number
        .parse()
        .map_err(|_| format!("RE[{value}]: not a disc difference"))?;
    Ok(Some(Outcome { black_margin, flag }))
}

/// `BO`'s value: `8`, 64 cells (whitespace anywhere), the side to move.
fn parse_board(value: &str) -> Result<Position, String> {
    let mut words = value.split_ascii_whitespace();
    if words.next() != Some("8") {
        return Err("BO: only 8x8 boards (`8 ...`) are read".into());
    }
    let cells: Vec<char> = words.flat_map(|w| w.chars()).collect();
    if cells.len() != 65 {
        return Err(format!(
            "BO: expected 64 cells and the side to move, found {} characters",
            cells.len()
        ));
    }
    let mut position = Position {
        black: 0,
        white: 0,
        to_move: Color::Black,
    };
    for (index, &cell) in cells[..64].iter().enumerate() {
        let bit = 1u64 << index;
        match cell {
            '*' | 'X' | 'x' | '#' => position.black |= bit,
            'O' | 'o' => position.white |= bit,
            '-' | '.' => {}
            other => return Err(format!("BO: `{other}` is not a cell (`*`, `O` or `-`)")),
        }
    }
    position.to_move = match cells[64] {
        '*' | 'X' | 'x' | '#' | 'B' | 'b' => Color::Black,
        'O' | 'o' | 'W' | 'w' => Color::White,
        other => return Err(format!("BO: `{other}` is not a side to move (`*` or `O`)")),
    };
    Ok(position)
}

/// A move's value: `F5`, `PA`, each with an optional `/eval/seconds`.
fn parse_move(value: &str) -> Result<Move, String> {
    let mut parts = value.trim().split('/');
    let name = parts.next().unwrap_or_default();
    let square =
        parse_move_name(name).ok_or_else(|| format!("`{name}` is not a move (`F5` or `PA`)"))?;
    let number = |part: Option<&str>| -> Result<Option<f64>, String> {
        match part.map(str::trim) {
            None | Some("") => Ok(None),
            Some(text) => text
                .parse()
                .map(Some)
                .map_err(|_| format!("`{text}` in `{value}` is not a number")),
        }
    };
    let eval = number(parts.next())?;
    let seconds = number(parts.next())?;
    Ok(Move {
        square,
        eval,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix::SplitMix64;
    use proptest::prelude::*;

    const START: Position = crate::format::umea::START.with_to_move(Color::Black);

    fn sq(name: &str) -> Square {
        parse_move_name(name).unwrap().unwrap()
    }

    /// f5 d6 c3 d3 c4 from the start, by hand: the game of the module's example.
    fn example() -> Game {
        Game {
            place: "reversi arena".into(),
            date: "2026.12.07_04:12:33.UTC".into(),
            black: "alice".into(),
            white: "naive".into(),
            black_rating: None,
            white_rating: Some(1500.5),
            time: None,
            start: START,
            moves: vec![
                Move::plain(Some(sq("f5"))),
                Move {
                    square: Some(sq("d6")),
                    eval: None,
                    seconds: Some(0.12),
                },
                Move {
                    square: Some(sq("c3")),
                    eval: Some(-1.5),
                    seconds: Some(2.0),
                },
                Move::plain(Some(sq("d3"))),
                Move::plain(Some(sq("c4"))),
            ],
            result: Some(Outcome::lost_by(Color::White, Flag::TimeOut)),
        }
    }

    #[test]
    fn writes_the_hand_checked_bytes() {
        let text = write(&example());
        assert_eq!(
            text,
            "(;GM[Othello]PC[reversi arena]DT[2026.12.07_04:12:33.UTC]PB[alice]PW[naive]\
             RW[1500.5]TY[8]RE[+64.000:t]\
             BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
             B[F5]W[D6//0.12]B[C3/-1.5/2]W[D3]B[C4];)"
        );
        assert_eq!(read(&text).unwrap(), example());
    }

    #[test]
    fn the_example_ends_where_a_hand_replay_does() {
        // Replayed by hand: f5 flips e5; d6 flips d5; c3 flips d4; d3 flips d4 back;
        // c4 flips d4 again.
        let last = example().last();
        let expected =
            "8 -------- -------- --*O---- --***--- ---O**-- ---O---- -------- -------- O";
        assert_eq!(board_text(last), expected);
    }

    #[test]
    fn results_and_passes() {
        let mut game = example();
        game.result = Some(Outcome {
            black_margin: -10.0,
            flag: None,
        });
        assert!(write(&game).contains("RE[-10.000]"));
        game.result = Some(Outcome {
            black_margin: 0.0,
            flag: None,
        });
        assert!(write(&game).contains("RE[+0.000]"));
        game.result = None;
        assert!(write(&game).contains("RE[?]"));
        game.result = Some(Outcome::lost_by(Color::Black, Flag::Resigned));
        assert!(write(&game).contains("RE[-64.000:r]"));
        assert_eq!(read(&write(&game)).unwrap(), game);
    }

    #[test]
    fn names_that_ggf_cannot_hold_are_cleaned() {
        let mut game = example();
        game.black = "a]b[c\\d\né".into();
        let text = write(&game);
        assert!(text.contains("PB[a_b_c_d__]"), "{text}");
        assert_eq!(read(&text).unwrap().black, "a_b_c_d__");
    }

    #[test]
    fn reads_what_ggs_and_nboard_write() {
        // NBoard's `set game` form: 64 cells without spaces, an unknown TI, RE[?].
        let nboard = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]\
                      RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------\
                      ------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
        let game = read(nboard).unwrap();
        assert_eq!(game.black, "./mEdax");
        assert_eq!(game.moves.len(), 8);
        assert_eq!(game.result, None);
        assert_eq!(game.time.as_deref(), Some("15:00"));
        // GGS's archive form: lower-case moves with times, a score.
        let ggs = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[a]PW[b]RB[2197.01]\
                   RW[2199.72]TI[05:00//02:00]TY[8]RE[+0.000]BO[8 -------- -------- -------- \
                   ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01];)";
        let game = read(ggs).unwrap();
        assert_eq!(read(&ggs.replace("TY[8]", "TY[s8r18]")).unwrap(), game);
        assert_eq!(read(&ggs.replace("TY[8]", "TY[8k]")).unwrap(), game);
        assert_eq!(game.moves[0].square, Some(sq("d3")));
        assert_eq!(game.moves[1].seconds, Some(0.01));
        assert_eq!(game.black_rating, Some(2197.01));
        assert_eq!(
            game.result,
            Some(Outcome {
                black_margin: 0.0,
                flag: None
            })
        );
    }

    #[test]
    fn refuses_what_is_not_a_game_of_ours() {
        let board =
            "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]";
        let bad = [
            ("", "no game"),
            ("(;GM[Chess];)", "not an Othello game"),
            ("(;GM[Othello]TY[10];)", "only 8x8 Othello"),
            ("(;GM[Othello]TY[8a];)", "not anti-Othello"),
            ("(;GM[Othello]BO[8 ---];)", "expected 64 cells"),
            ("(;GM[Othello]B[F5];)", "a move before the board"),
            (&format!("(;GM[Othello]{board}B[A1];)"), "not a legal move"),
            (
                &format!("(;GM[Othello]{board}B[F5]W[F5];)"),
                "not a legal move",
            ),
            (
                &format!("(;GM[Othello]{board}B[PA];)"),
                "a pass where a move exists",
            ),
            (&format!("(;GM[Othello]{board}W[F5];)"), "other side's move"),
            (&format!("(;GM[Othello]{board}B[Z9];)"), "not a move"),
            ("(;GM[Othello]PB[x", "never closed"),
            ("(;GM[Othello]RE[+2:q];)", "unknown flag"),
            (&format!("(;GM[Othello]{board}B[F5]"), "expected a property"),
            (
                &format!("(;GM[Othello]{board};)(;GM[Othello];)"),
                "a second game",
            ),
        ];
        for (text, what) in bad {
            let e = read(text).unwrap_err();
            assert!(e.to_string().contains(what), "{text}: {e}");
        }
    }

    #[test]
    fn dates_are_utc_civil_time() {
        assert_eq!(date(0), "1970.01.01_00:00:00.UTC");
        assert_eq!(date(951_782_400), "2000.02.29_00:00:00.UTC");
        assert_eq!(date(1_796_617_953), "2026.12.07_04:32:33.UTC");
    }

    /// A random legal game from a random opening: `plies` moves, passes included,
    /// stopping at the end.
    fn random_game(seed: u64, plies: usize) -> Game {
        let mut random = SplitMix64::new(seed);
        let mut start = START;
        for _ in 0..(seed % 7) {
            let moves = start.board().moves();
            start = start.after((moves != 0).then(|| random.square_of(moves)));
        }
        let mut moves = Vec::new();
        let mut position = start;
        for _ in 0..plies {
            let board = position.board();
            if board.moves() == 0 && board.pass().moves() == 0 {
                break;
            }
            let square = (board.moves() != 0).then(|| random.square_of(board.moves()));
            let eval = (random.below(3) == 0).then(|| random.below(129) as f64 - 64.0);
            let seconds = (random.below(2) == 0).then(|| random.below(10_000) as f64 / 100.0);
            moves.push(Move {
                square,
                eval,
                seconds,
            });
            position = position.after(square);
        }
        let result = match random.below(3) {
            0 => None,
            1 => Some(Outcome::on_board(position)),
            _ => Some(Outcome::lost_by(position.to_move, Flag::Resigned)),
        };
        Game {
            place: "arena".into(),
            date: date(random.below(4_000_000_000)),
            black: format!("p{}", random.below(100)),
            white: "naive".into(),
            black_rating: None,
            white_rating: None,
            time: Some("1:00".into()),
            start,
            moves,
            result,
        }
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_a_panic(
            seed in any::<u64>(),
            cut in any::<prop::sample::Index>(),
            noise in "[\\[\\];()A-Za-z0-9/:+\\-*. \\\\é]{0,12}",
        ) {
            // A valid game with a cut, a splice of noise, or both.
            let text = write(&random_game(seed, 40));
            let at = cut.index(text.len() + 1);
            let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            let _ = read(&text[..at]);
            let _ = read(&format!("{}{noise}{}", &text[..at], &text[at..]));
            let _ = read_all(&noise);
        }

        #[test]
        fn random_legal_games_round_trip(seed in any::<u64>(), plies in 0..80usize) {
            let game = random_game(seed, plies);
            let text = write(&game);
            prop_assert_eq!(read(&text).unwrap(), game.clone());
            // Without its passes (as some writers record games) it reads the same.
            let stripped = text.replace("W[PA]", "").replace("B[PA]", "");
            let plain_passes = game.moves.iter().all(|m| m.square.is_some() || (m.eval.is_none() && m.seconds.is_none()));
            if plain_passes && game.moves.last().is_none_or(|m| m.square.is_some()) {
                let read_back = read(&stripped).unwrap();
                prop_assert_eq!(read_back.last(), game.last());
            }
            // Several games in one file.
            let two = format!("{text}\n{text}\n");
            prop_assert_eq!(read_all(&two).unwrap(), vec![game.clone(), game]);
        }
    }
}

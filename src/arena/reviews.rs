//! Every game of a tournament reviewed for its students ([`super::review`]): where
//! each student's moves lost the most by our engine's evaluation, with the better
//! move, and the board of any forfeit; as the text report's section and the JSON
//! report's `review` field of each game.
//!
//! Reviews run at one small fixed [`Strength`] (deterministic, the same on every
//! machine), so that a class of 200 agents is not slowed much.

use serde_json::{json, Map, Value};

use super::review::{review, MoveReview, Review};
use super::schedule::{Played, Results};
use crate::engine::fixed::Strength;
use crate::explain::replay::grid_lines;
use crate::format::umea::position_text;
use crate::printable::printable;
use crate::rules::{Color, Position};

/// The search depth of reviews unless `--review-depth` says otherwise.
pub const DEPTH: u32 = 3;
/// Positions with at most this many empty cells are reviewed exactly.
pub const EXACT_EMPTIES: u32 = 12;
/// The moves named per player and game: those that lost the most.
pub const WORST: usize = 3;

/// The strength reviews run at, for a search depth.
pub fn strength(depth: u32) -> Strength {
    Strength {
        depth: depth.max(1),
        exact_empties: EXACT_EMPTIES,
    }
}

/// The terms of the reviews in words, for the reports.
pub fn words(strength: Strength) -> String {
    format!(
        "reviews: our engine at depth {}, exact from {} empty cells; the {WORST} moves of \
         each student that lost the most discs against the best move",
        strength.depth, strength.exact_empties
    )
}

/// A game's reviews: one per student who played it, with its index in the players.
pub type GameReviews = Vec<(usize, Review)>;

/// The reviews of every game of `results` (by game, in its order) for the students who
/// played it, one game at a time: each position's search has a fresh engine table
/// (6 MB), and one at a time keeps the referee small (tests/arena.rs holds it under
/// 64 MB).
pub fn reviews(results: &Results, strength: Strength) -> Vec<GameReviews> {
    results
        .games
        .iter()
        .map(|played| game_reviews(results.students, played, strength))
        .collect()
}

fn game_reviews(students: usize, played: &Played, strength: Strength) -> GameReviews {
    [(played.white, Color::White), (played.black, Color::Black)]
        .into_iter()
        .filter(|&(player, _)| player < students)
        .map(|(player, color)| {
            let game = &played.game;
            (player, review(game.start, &game.moves, color, strength))
        })
        .collect()
}

fn square_text(square: crate::board::Square) -> String {
    square.to_string()
}

/// A position as an 8x8 grid (`W` white, `B` black, `.` empty) with coordinates,
/// then the side to move.
pub fn board_text(position: Position) -> String {
    let cells: Vec<char> = (0..64)
        .map(|i| {
            let bit = 1u64 << i;
            if position.white & bit != 0 {
                'W'
            } else if position.black & bit != 0 {
                'B'
            } else {
                '.'
            }
        })
        .collect();
    let mut lines = grid_lines(&cells);
    lines.push(format!("{:?} to move", position.to_move));
    lines.join("\n")
}

fn move_json(m: &MoveReview) -> Value {
    json!({
        "move": m.ply + 1,
        "played": square_text(m.played),
        "best": square_text(m.best),
        "loss": m.loss(),
        "exact": m.exact(),
        "position": position_text(m.position),
    })
}

/// A game's `review` field: an object keyed by student, each with its colour, the
/// moves reviewed, the discs lost over them, and the worst moves (`move` the 1-based
/// move number, `played`, `best`, `loss` in discs, `exact`, `position`).
pub fn json_field(results: &Results, reviews: &GameReviews) -> Value {
    let mut field = Map::new();
    for (player, review) in reviews {
        // Keyed by the name as the report's `white` and `black` write it.
        field.insert(
            printable(&results.players[*player]).into_owned(),
            json!({
                "color": if review.player == Color::White { "white" } else { "black" },
                "moves_reviewed": review.moves.len(),
                "discs_lost": review.total_loss() + 0.0,
                "worst": review.worst(WORST).into_iter().map(move_json).collect::<Vec<_>>(),
            }),
        );
    }
    Value::Object(field)
}

/// Adds each game's `review` field to the JSON report `report` (its `games` in the
/// order of `results`).
pub fn add_to_json(report: &mut Value, results: &Results, reviews: &[GameReviews]) {
    if let Some(Value::Array(games)) = report.get_mut("games") {
        for (game, reviews) in games.iter_mut().zip(reviews) {
            let mut field = json_field(results, reviews);
            crate::printable::printable_json(&mut field);
            if let Value::Object(game) = game {
                game.insert("review".into(), field);
            }
        }
    }
}

/// One reviewed move in words: `move 23 c4 lost 8 discs (best d3, exact)`.
pub fn move_words(m: &MoveReview) -> String {
    format!(
        "move {} {} lost {} discs (best {}{})",
        m.ply + 1,
        m.played,
        trimmed(m.loss()),
        m.best,
        if m.exact() { ", exact" } else { "" }
    )
}

fn trimmed(value: f64) -> String {
    // `+ 0.0`: an empty sum is -0.
    let text = format!("{:.1}", value + 0.0);
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// The text report's section: each game's reviews, and the board of its forfeit.
pub fn text(results: &Results, reviews: &[GameReviews], strength: Strength) -> String {
    let mut out = format!("\n{}:\n", words(strength));
    for (k, (played, game_reviews)) in results.games.iter().zip(reviews).enumerate() {
        if game_reviews.is_empty() && played.game.forfeit.is_none() {
            continue;
        }
        out += &format!(
            "game {} ({} White vs {} Black):\n",
            k + 1,
            printable(&results.players[played.white]),
            printable(&results.players[played.black])
        );
        for (player, review) in game_reviews {
            let worst = review.worst(WORST);
            out += &format!(
                "  {}: {} moves reviewed, {} discs lost{}\n",
                printable(&results.players[*player]),
                review.moves.len(),
                trimmed(review.total_loss()),
                if worst.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; {}",
                        worst
                            .iter()
                            .map(|m| move_words(m))
                            .collect::<Vec<_>>()
                            .join("; ")
                    )
                }
            );
        }
        if let Some(forfeit) = &played.game.forfeit {
            let who = match forfeit.side {
                Color::White => played.white,
                Color::Black => played.black,
            };
            out += &format!(
                "  {} forfeits: {}\n",
                printable(&results.players[who]),
                forfeit.words()
            );
            for line in board_text(forfeit.position).lines() {
                out += &format!("    {line}\n");
            }
        }
    }
    out
}

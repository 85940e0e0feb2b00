//! UF CAP4053's six pairings (SPEC.md sections 2 and 3; `--format uf`, `--policy
//! uf`): each student's agent plays Black against the example AI (White) at the
//! pairing's level, one game from the standard start with Black to move; a pairing is
//! passed when the agent ends with at least the example AI's own black count in that
//! pairing (the example against itself, `data/uf/example_vs_example.txt`).

use std::io;

use super::game::{self, Player};
use super::protocol::nboard::NBoard;
use super::protocol::{Protocol, Terms};
use super::reference::Reference;
use super::schedule::{failures, Entrant, Played, Ready, Results, Tournament, Withdrawn};
use crate::arena::protocol::line::START;
use crate::course_search::uf::Level;

/// One graded pairing: the levels of Black (the student's) and White (the example
/// AI's), and the black discs the example AI itself ends with at Black's level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Black's level: the student's agent.
    pub black: Level,
    /// White's level: the example AI's.
    pub white: Level,
    /// The black discs needed: the example AI's own count as Black.
    pub needed: u32,
}

/// The six pairings the handout lists, in its order, with the example AI's black
/// counts (8, 56, 33, 50, 55, 39).
pub const PAIRINGS: [Pairing; 6] = [
    pairing(Level::Beginner, Level::Beginner, 8),
    pairing(Level::Intermediate, Level::Beginner, 56),
    pairing(Level::Intermediate, Level::Intermediate, 33),
    pairing(Level::Advanced, Level::Beginner, 50),
    pairing(Level::Advanced, Level::Intermediate, 55),
    pairing(Level::Advanced, Level::Advanced, 39),
];

const fn pairing(black: Level, white: Level, needed: u32) -> Pairing {
    Pairing {
        black,
        white,
        needed,
    }
}

/// A level's name as the handout writes it.
pub fn level_name(level: Level) -> &'static str {
    match level {
        Level::Beginner => "Beginner",
        Level::Intermediate => "Intermediate",
        Level::Advanced => "Advanced",
    }
}

impl Pairing {
    /// `Black-White`, as the handout names it (`Intermediate-Beginner`).
    pub fn label(self) -> String {
        format!("{}-{}", level_name(self.black), level_name(self.white))
    }
}

/// The depth `set depth` tells an NBoard agent for a level: the level's look-ahead
/// in plies (UF's depth 0 searches the one ply of its own move, so depth + 1).
pub fn nboard_depth(level: Level) -> u32 {
    level.depth() + 1
}

/// The example AI's names, as the report's opponents (`uf:beginner`, ...).
fn example(level: Level) -> Reference {
    Reference::Uf(level)
}

/// The terms of `protocol` as the pairings apply them, in words for the reports: an
/// NBoard agent's `set depth` is its level's; the last line says how the level is told.
pub fn terms_words(protocol: &dyn Protocol, terms: &Terms) -> Vec<String> {
    let mut words = if protocol.name() == "nboard" {
        let first = NBoard {
            depth: nboard_depth(Level::Beginner),
        };
        let told = format!("only `set depth {}`", nboard_depth(Level::Beginner));
        first
            .words(terms)
            .into_iter()
            .map(|line| line.replace(&told, "only `set depth N` of its level (below)"))
            .collect()
    } else {
        protocol.words(terms)
    };
    words.push(level_words(protocol));
    words
}

/// How the agent is told its level, in words for the reports: NBoard's `set depth`
/// (the one strength setting a protocol has), else not at all.
fn level_words(protocol: &dyn Protocol) -> String {
    if protocol.name() == "nboard" {
        let depths: Vec<String> = Level::ALL
            .iter()
            .map(|&l| format!("{} {}", level_name(l), nboard_depth(l)))
            .collect();
        format!(
            "levels: the agent's level in a pairing (Black's) is sent as `set depth N`, \
             the level's look-ahead in plies ({}); --nboard-depth plays no part",
            depths.join(", ")
        )
    } else {
        format!(
            "levels: {} passes no level: the agent is the same program in all six \
             pairings",
            protocol.name()
        )
    }
}

/// Plays every student's six games, `tournament.jobs` at a time: the student Black
/// (seated by the tournament's protocol; an NBoard agent told its level by `set
/// depth`, [`nboard_depth`]), the example AI White, from the standard start. The players: the students, then
/// `uf:beginner`, `uf:intermediate`, `uf:advanced`; the games student by student, in
/// [`PAIRINGS`]' order. The tournament's openings, games, ledger and shard play no part.
pub fn play(tournament: &Tournament, students: &[Entrant]) -> io::Result<Results> {
    let nboard = Level::ALL.map(|level| NBoard {
        depth: nboard_depth(level),
    });
    let opponents: Vec<Entrant> = Level::ALL
        .iter()
        .map(|&level| Entrant::Reference(example(level)))
        .collect();
    let entrants: Vec<&Entrant> = students.iter().chain(&opponents).collect();
    let ready = tournament.build_all(&entrants, &vec![true; entrants.len()])?;
    let build_failures = failures(&ready);
    let level_index = |level: Level| {
        Level::ALL
            .iter()
            .position(|&l| l == level)
            .expect("every level is in ALL")
    };
    let games = tournament.parallel(students.len() * PAIRINGS.len(), |i| {
        let (student, pairing) = (i / PAIRINGS.len(), PAIRINGS[i % PAIRINGS.len()]);
        let protocol: &dyn Protocol = if tournament.protocol.name() == "nboard" {
            &nboard[level_index(pairing.black)]
        } else {
            tournament.protocol
        };
        let mut black: Box<dyn Player + '_> = match &ready[student] {
            Ready::Built(built) => protocol.seat(built, tournament.sandbox, tournament.terms)?,
            Ready::Failed(fault) => Box::new(Withdrawn(fault.clone())),
            Ready::Reference(reference) => reference.seat(),
            Ready::Elsewhere => return Err(io::Error::other("a student was not built")),
        };
        let mut white = example(pairing.white).seat();
        let game = game::play(white.as_mut(), black.as_mut(), START)?;
        Ok(Played {
            white: students.len() + level_index(pairing.white),
            black: student,
            game,
        })
    })?;
    Ok(Results {
        players: entrants.iter().map(|e| e.name()).collect(),
        students: students.len(),
        build_failures,
        games,
        rounds: Vec::new(),
    })
}

/// The policy's terms in words.
pub fn words() -> String {
    let needed: Vec<String> = PAIRINGS
        .iter()
        .map(|p| format!("{} {}", p.label(), p.needed))
        .collect();
    format!(
        "grades (uf): the agent as Black against the UF example AI as White in the \
         handout's six pairings (Black's level-White's level), one game each from the \
         standard start, Black first; a pairing passed when the agent ends with at least \
         the example AI's own black count ({}); a forfeit fails it; a point per pairing \
         passed, of 6",
        needed.join(", ")
    )
}

/// `student`'s grade: (mark, points, max points, why). Its games as Black must be
/// the six pairings' in order, each against the pairing's example AI (as
/// [`play`] gives them); otherwise none is graded.
pub fn grade(results: &Results, student: usize) -> (String, f64, f64, String) {
    let games: Vec<&Played> = results
        .games
        .iter()
        .filter(|p| p.black == student || p.white == student)
        .collect();
    let as_played = games.len() == PAIRINGS.len()
        && games.iter().zip(PAIRINGS).all(|(p, pairing)| {
            p.black == student && results.players[p.white] == example(pairing.white).name()
        });
    if !as_played {
        return (
            "none".into(),
            0.0,
            PAIRINGS.len() as f64,
            "its games are not UF's six pairings (play them with --format uf)".into(),
        );
    }
    let mut passed = 0;
    let parts: Vec<String> = games
        .iter()
        .zip(PAIRINGS)
        .map(|(played, pairing)| {
            let label = pairing.label();
            let needed = pairing.needed;
            match &played.game.forfeit {
                // White is the example AI, in process: only the agent forfeits.
                Some(forfeit) => format!(
                    "{label} forfeited ({} at move {}; needs {needed}): fail",
                    forfeit.fault.reason.words(),
                    forfeit.number
                ),
                None => {
                    let (white, black) = played.game.discs();
                    let pass = black >= needed;
                    passed += usize::from(pass);
                    format!(
                        "{label} {black}-{white} (needs {needed}): {}",
                        if pass { "pass" } else { "fail" }
                    )
                }
            }
        })
        .collect();
    (
        format!("{passed}/{}", PAIRINGS.len()),
        passed as f64,
        PAIRINGS.len() as f64,
        parts.join("; "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course_search::uf::play_game;
    use crate::eval::uf::UfExample;
    use crate::rules::Rules;

    /// The thresholds are the example AI's own black counts: its games against itself
    /// end with them (as `data/uf/example_vs_example.txt` lists).
    #[test]
    fn the_thresholds_are_the_example_against_itself() {
        for pairing in PAIRINGS {
            let game = play_game(Rules::STANDARD, pairing.black, pairing.white, &UfExample);
            assert_eq!(
                game.end.black.count_ones(),
                pairing.needed,
                "{}",
                pairing.label()
            );
        }
        assert_eq!(Rules::STANDARD.start, START);
    }

    #[test]
    fn an_nboard_agent_is_told_its_levels_depth() {
        let terms = Terms {
            seconds: 1.0,
            seconds_text: "1".into(),
            start_allowance: std::time::Duration::ZERO,
            lax: false,
            build_seconds: std::time::Duration::from_secs(1),
            per_game: true,
        };
        let words = terms_words(&NBoard { depth: 8 }, &terms).join("\n");
        assert!(
            words.contains("only `set depth N` of its level (below)"),
            "{words}"
        );
        assert!(!words.contains("set depth 8"), "{words}");
        assert!(words.contains("(Beginner 1, Intermediate 2, Advanced 4)"));
        let umea = terms_words(&crate::arena::protocol::umea::Umea, &terms).join("\n");
        assert!(umea.ends_with(
            "levels: umea passes no level: the agent is the same program in all six pairings"
        ));
    }

    /// The six games of a student whose Black is `black(level)`.
    fn results_of(black: impl Fn(Level) -> Box<dyn Player>) -> Results {
        let games = PAIRINGS
            .iter()
            .map(|pairing| {
                let mut white = example(pairing.white).seat();
                let game = game::play(white.as_mut(), black(pairing.black).as_mut(), START);
                Played {
                    white: 1 + Level::ALL.iter().position(|&l| l == pairing.white).unwrap(),
                    black: 0,
                    game: game.unwrap(),
                }
            })
            .collect();
        Results {
            players: ["student", "uf:beginner", "uf:intermediate", "uf:advanced"]
                .map(String::from)
                .to_vec(),
            students: 1,
            build_failures: Vec::new(),
            games,
            rounds: Vec::new(),
        }
    }

    #[test]
    fn the_grade_counts_pairings_passed() {
        let exact = results_of(|level| example(level).seat());
        let (mark, points, max, why) = grade(&exact, 0);
        assert_eq!((mark.as_str(), points, max), ("6/6", 6.0, 6.0), "{why}");
        assert!(
            why.starts_with("Beginner-Beginner 8-56 (needs 8): pass; "),
            "{why}"
        );
        // Advanced at every level: 50-14 against Beginner falls short of 56.
        let advanced = results_of(|_| example(Level::Advanced).seat());
        let (mark, _, _, why) = grade(&advanced, 0);
        assert_eq!(mark, "5/6");
        assert!(
            why.contains("Intermediate-Beginner 50-14 (needs 56): fail"),
            "{why}"
        );
        let fault = super::super::game::Fault {
            reason: super::super::game::Reason::BuildFailed,
            answer: String::new(),
            detail: String::new(),
        };
        let withdrawn = results_of(|_| Box::new(Withdrawn(fault.clone())));
        let (mark, points, _, why) = grade(&withdrawn, 0);
        assert_eq!((mark.as_str(), points), ("0/6", 0.0));
        assert!(
            why.starts_with("Beginner-Beginner forfeited (build failed at move 1; needs 8): fail"),
            "{why}"
        );
        // Games that are not the pairings' grade nothing.
        let mut other = exact.clone();
        other.games.swap(0, 2);
        assert_eq!(grade(&other, 0).0, "none");
        other.games.pop();
        assert_eq!(grade(&other, 0).0, "none");
    }

    #[test]
    fn labels_and_depths() {
        assert_eq!(PAIRINGS[1].label(), "Intermediate-Beginner");
        assert_eq!(
            Level::ALL.map(nboard_depth),
            [1, 2, 4],
            "UF's depths 0, 1, 3 in plies"
        );
    }
}

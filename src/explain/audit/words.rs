//! A broken rule in words: one short first sentence (at which node the program does
//! what, and what the rule is), then the evidence, and the cause named only when the
//! student's own lines prove it.

use super::judge::{shown, Break, Rule};
use super::{Fit, Reading};
use crate::board::Geometry;
use crate::course_search::INFINITY;
use crate::explain::log::{self, Entry, LOG_START};
use crate::explain::mistake::Mistake;
use crate::explain::replay::{no_line_to_bracket, square_of, Position};
use crate::format::cs561::{Dialect, Problem};
use crate::printable::printable;

/// What the judge found: the first line that breaks a rule, the rule, and the cause
/// when the file proves one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The 1-based line of the file.
    pub line: usize,
    /// The node's path, `root > d3 > c3`.
    pub node: String,
    /// The cause, when the student's own lines prove it: the rule's own mistake, or
    /// the one reading that makes the line come true.
    pub mistake: Option<Mistake>,
    /// The first sentence: at which node the program does what, and the rule (at most
    /// 30 words).
    pub sentence: String,
    /// What follows it: the line the rules give there, the readings that fit.
    pub evidence: String,
    /// The path of the node whose board [`Finding::grid`] is (the parent's, for a
    /// child that is not the one the rules give).
    pub grid_node: String,
    /// That node's board as the student's moves make it, as a grid.
    pub grid: String,
    /// The readings that make the broken line come true.
    pub fits: Vec<Fit>,
    /// The broken rule's own mistake when the student's lines prove it whatever
    /// program wrote them (a rule of the model, never one program's way of breaking
    /// it): what can be named where several programs write the file alike.
    pub proven: Option<Mistake>,
    /// The explanation led by the broken rule's own sentence: [`Finding::sentence`]
    /// and [`Finding::evidence`], unless one reading leads them.
    pub by_rule: String,
}

/// The finding for the break `broken`, with the readings `fits`.
pub(super) fn finding(
    problem: &Problem,
    got: &[String],
    broken: Break,
    fits: Vec<Fit>,
    pass_holds: bool,
) -> Finding {
    let entries: Vec<Entry> = got[LOG_START..].iter().map(|l| Entry::parse(l)).collect();
    let at = broken
        .index
        .checked_sub(LOG_START)
        .and_then(|i| entries.get(i));
    let name = broken.path.last().cloned().unwrap_or_default();
    let line = broken.index + 1;
    let depth = broken.depth;
    let kind = if log::is_max_depth(depth) {
        "MAX"
    } else {
        "MIN"
    };
    let theirs = at.map_or(String::new(), |e| printable(e.name).into_owned());
    // (no move on the path: the node's board is the input's, whatever the flips)
    let board_certain = broken.path.iter().skip(1).all(|n| n == "pass");
    // (the student's line after the broken one)
    let next = at.and_then(|_| entries.get(broken.index + 1 - LOG_START));
    // (a node that opens with its infinity and closes on the next line: children
    // searched and not printed)
    let closes_at_once = at
        .and_then(Entry::value)
        .is_some_and(|v| v.abs() == INFINITY)
        && next.is_some_and(|e| Some(e.name) == at.map(|a| a.name) && e.depth == Some(depth));
    // (the student's next line is a shallower node's, or there is none: their node
    // has no child line at any depth)
    let childless = at.is_some() && next.is_none_or(|e| e.depth.is_some_and(|d| d < depth));
    let (rule_mistake, sentence, evidence) = match &broken.rule {
        Rule::RootLine => {
            let mistake = match at {
                Some(e) if e.name == "root" && e.depth == Some(1) => Some(Mistake::DepthFromOne),
                // (misnamed only when the name is all that differs)
                Some(e)
                    if e.name != "root"
                        && e.depth == Some(0)
                        && e.values == ["-Infinity", "-Infinity", "Infinity"][..e.values.len().min(3)]
                        && !e.values.is_empty() =>
                {
                    Some(Mistake::MisnamedNodes)
                }
                _ => None,
            };
            (
                mistake,
                "The log's first line must be the root, `root,0,-Infinity,-Infinity,Infinity`; \
                 yours is another node or depth."
                    .to_string(),
                String::new(),
            )
        }
        Rule::LeafExpanded { at_cutoff: true } => {
            let blocked = broken.node.board.moves() == 0 && broken.node.board.pass().moves() == 0;
            let next_is_pass = entries
                .get(broken.index - LOG_START + 1)
                .is_some_and(|e| e.name == "pass");
            let hand_written = blocked && next_is_pass && broken.node.consecutive_passes == 0;
            let sentence = format!(
                "{name} (line {line}) is at the cut-off depth {}, so it is a leaf printed once \
                 with E; your program expands it: its children follow.",
                problem.depth
            );
            let evidence = if hand_written {
                "Neither side can move there: your program tests for the game's end before \
                 the cut-off depth, and writes the two passes by hand."
                    .to_string()
            } else {
                String::new()
            };
            let mistake = if hand_written {
                Mistake::HandWrittenGameOver
            } else {
                Mistake::CutoffDepth
            };
            (Some(mistake), sentence, evidence)
        }
        Rule::LeafExpanded { at_cutoff: false } => (
            (problem.dialect == crate::format::cs561::Dialect::S2017)
                .then_some(Mistake::GameEndsLate),
            format!(
                "The game is over at {name} (line {line}), so it is a leaf printed once with E; \
                 your program expands it: its children follow."
            ),
            game_over_reason(&broken),
        ),
        Rule::InnerAsLeaf { moves } => {
            if closes_at_once {
                (
                    (depth + 1 == problem.depth).then_some(Mistake::MissingLeafLines),
                    format!(
                        "{name} (line {line}) opens and closes with no child's line between; \
                         every child is printed, leaves too, before its parent's next line."
                    ),
                    String::new(),
                )
            } else if moves.is_empty() {
                let no_pass_anywhere = !entries.iter().any(|e| e.name == "pass");
                (
                    (no_pass_anywhere && broken.node.consecutive_passes == 0)
                        .then_some(Mistake::NoPassNode),
                    format!(
                        "{name} (line {line}) cannot move{} and the game is not over there, so \
                         it gets one child, pass; your program makes it a leaf.",
                        if board_certain { "" } else { " on the rules' board" }
                    ),
                    pass_history(&broken),
                )
            } else {
                (
                    None,
                    format!(
                        "{name} (line {line}) is above the cut-off depth and has moves ({}), so \
                         it is expanded; your program prints it as a leaf.",
                        list(moves, 4)
                    ),
                    pass_history(&broken),
                )
            }
        }
        Rule::LeafValue { want } => {
            let got_value = at.and_then(Entry::value);
            let opening = got_value.is_some_and(|v| v.abs() == INFINITY);
            let what = if opening {
                "the starting value of an inner node".to_string()
            } else {
                "another value".to_string()
            };
            (
                // (E is never an infinity; another number may come from another board)
                opening.then_some(Mistake::WrongLeafValue),
                format!(
                    "Leaf {name} (line {line}) prints E of its board, {}; yours prints {}, {what}.",
                    shown(*want),
                    at.and_then(|e| e.values.first()).map_or("nothing".into(), |v| printable(v).into_owned())
                ),
                if board_certain {
                    "E is counted for the player named on the input; no move leads to this \
                     leaf, so its board is the input's."
                        .into()
                } else {
                    "E is counted for the player named on the input, on the board the path's \
                     moves make; if your board differs (a flip), the value follows it."
                        .into()
                },
            )
        }
        Rule::OpeningValue { want } => {
            let got_value = at.and_then(Entry::value);
            let window = at.and_then(|e| e.alpha().zip(e.beta()));
            let fail_hard = match (got_value, window) {
                // (fail-hard opens a MAX node with max(alpha, -Infinity), a MIN node
                // with min(beta, Infinity))
                (Some(v), Some((a, b))) => {
                    v.abs() != INFINITY && v == if log::is_max_depth(depth) { a } else { b }
                }
                _ => false,
            };
            (
                Some(if fail_hard {
                    Mistake::FailHard
                } else {
                    Mistake::WrongOpeningValue
                }),
                format!(
                    "{name} (line {line}) is a {kind} node, so it opens with {}; yours opens \
                     with {}.",
                    shown(*want),
                    at.and_then(|e| e.values.first()).map_or("nothing".into(), |v| printable(v).into_owned())
                ),
                String::new(),
            )
        }
        Rule::Window { want, opening, cut } => {
            let got = at.and_then(|e| e.alpha().zip(e.beta()));
            let mistake = match (opening, cut) {
                (false, true) => Some(Mistake::UpdateBeforeCutoff).filter(|_| got.is_some_and(|g| g != *want)),
                _ => Some(Mistake::WrongWindow),
            };
            let sentence = if *opening {
                format!(
                    "{name} (line {line}) opens with the alpha and beta its parent holds, {}, \
                     {}; yours prints {}.",
                    shown(want.0),
                    shown(want.1),
                    window_text(got)
                )
            } else if *cut {
                format!(
                    "{name} (line {line}) has reached its cut-off, so it prints alpha and beta \
                     unchanged, {}, {}; yours prints {}.",
                    shown(want.0),
                    shown(want.1),
                    window_text(got)
                )
            } else {
                format!(
                    "After its child, {kind} node {name} (line {line}) updates its {} to {}; \
                     yours prints alpha, beta {}.",
                    if log::is_max_depth(depth) { "alpha" } else { "beta" },
                    shown(if log::is_max_depth(depth) { want.0 } else { want.1 }),
                    window_text(got)
                )
            };
            (mistake, sentence, String::new())
        }
        Rule::WrongChild {
            want,
            moves,
            visited,
        } => {
            let siblings = siblings(&entries, broken.index - LOG_START, depth + 1);
            // (a move child beside the pass in the student's own lines: their program
            // finds a move there, so whatever its board the pass is one too many)
            let own_move = siblings.iter().find(|s| square_of(s).is_some());
            let (mistake, what) = if let (true, Some(own)) = (theirs == "pass", own_move) {
                (
                    Some(Mistake::ExtraPass),
                    format!("passes, yet plays {own} there too, later in your log"),
                )
            } else if theirs == "pass" && !moves.is_empty() && depth == 0 {
                // (the root's moves are the input's: a program that finds none there most
                // often read the input wrong, its player line's CR say)
                (
                    None,
                    "passes: it finds no move for the player; check how it reads input.txt \
                     (a CR left on the player line matches no disc)"
                        .to_string(),
                )
            } else if theirs == "pass" && !moves.is_empty() {
                // (the board here is the rules' when no move led to it, or when the
                // lines under the pass hold on it; else the program's board may be
                // another, where the side has no move)
                (
                    (board_certain || pass_holds).then_some(Mistake::ExtraPass),
                    if board_certain || pass_holds {
                        "passes".to_string()
                    } else {
                        "passes; your board there may differ (an earlier move's flips)"
                            .to_string()
                    },
                )
            } else if square_of(&theirs).is_none() && theirs != "pass" {
                // (`root` for a cell, or a NUL for the digit of the cell the rules give,
                // misname that child; any other name is no cell's whatever it stands
                // for, a misprinted name or a move off the board)
                let nul_digit = theirs.replace("\\u{0}", "1") == *want;
                let misnamed = theirs == "root" || nul_digit;
                (
                    Some(if misnamed {
                        Mistake::MisnamedNodes
                    } else {
                        Mistake::NoCellName
                    }),
                    format!("prints a node named {theirs}, which is no cell of the board"),
                )
            } else if visited.contains(&theirs) {
                // (a move searched twice under one node, whatever the board)
                (
                    Some(Mistake::DuplicateMoves),
                    format!("goes to {theirs} again, a move it has searched there already"),
                )
            } else if moves.contains(&theirs) {
                let later = siblings.iter().any(|s| s == want);
                (
                    Some(if later {
                        Mistake::MoveOrder
                    } else {
                        Mistake::MissingMove
                    }),
                    format!("goes to {theirs}"),
                )
            } else {
                // (named only when the program's board cannot differ from the rules'
                // there in a way that makes the move legal: see `no_line_to_bracket`)
                let certain = board_certain
                    || square_of(&theirs)
                        .is_some_and(|s| no_line_to_bracket(broken.node.board, s));
                (
                    certain.then_some(Mistake::IllegalMove),
                    if certain {
                        format!("plays {theirs}, which brackets no disc")
                    } else {
                        format!(
                            "plays {theirs}, not legal on the rules' board; your board may \
                             differ (an earlier move's flips)"
                        )
                    },
                )
            };
            let rule = if want == "pass" {
                "it cannot move, so its one child is pass".to_string()
            } else {
                format!("its next child in positional order is {want}")
            };
            (
                mistake,
                format!("At {name} (line {line}) {rule}; your program {what}."),
                format!("The legal moves there: {}.", if moves.is_empty() { "none".into() } else { list(moves, 12) }),
            )
        }
        Rule::ChildMissing {
            want,
            value,
            window,
            leaf,
            first,
        } => {
            let next_same = at.is_some_and(|e| e.name == name && e.depth == Some(depth));
            if want == "pass" {
                (
                    Some(Mistake::NoPassNode),
                    format!(
                        "{name} cannot move, so it has one child, pass; your program prints \
                         none before line {line}."
                    ),
                    String::new(),
                )
            } else if *first {
                (
                    (*leaf && next_same).then_some(Mistake::MissingLeafLines),
                    format!(
                        "{name}'s first child is {want}; your program prints no child's line \
                         before line {line}."
                    ),
                    String::new(),
                )
            } else {
                (
                    (*leaf && next_same).then_some(Mistake::MissingLeafLines),
                    format!(
                        "{name} (line {line}) has not reached its cut-off, {} against alpha {} \
                         and beta {}, so it goes on to {want}; your program leaves it.",
                        shown(*value),
                        shown(window.0),
                        shown(window.1)
                    ),
                    String::new(),
                )
            }
        }
        Rule::ExtraChild {
            after_cut,
            children,
        } => {
            let duplicate = children.contains(&theirs);
            let mistake = if *after_cut {
                Mistake::PrunedTooLate
            } else if duplicate {
                Mistake::DuplicateMoves
            } else {
                Mistake::IllegalMove
            };
            let sentence = if *after_cut {
                format!(
                    "{name} has reached its cut-off (v >= beta at MAX, v <= alpha at MIN, \
                     equality too), so it returns; your program goes on to {theirs} (line {line})."
                )
            } else {
                format!(
                    "{name} has no child after {}; your program goes on to {theirs} (line {line}).",
                    children.last().map_or("its last", String::as_str)
                )
            };
            (Some(mistake), sentence, String::new())
        }
        Rule::NoLineAfterChild { cut } => (
            cut.then_some(Mistake::NoLineAtCutoff),
            format!(
                "{name} prints its line after each child{}; your program goes on to line {line} \
                 without it.",
                if *cut { ", also the one that cuts it off" } else { "" }
            ),
            String::new(),
        ),
        Rule::ClosingName { want } => (
            Some(Mistake::MisnamedNodes),
            format!("Line {line} is {want}'s line after its child; yours names it {theirs}."),
            String::new(),
        ),
        Rule::BackedUpValue {
            want,
            before,
            child,
        } => {
            let got_value = at.and_then(Entry::value);
            let last_child = got_value == Some(*child) && *want != *child;
            let (op, best) = if log::is_max_depth(depth) { ("max", "highest") } else { ("min", "lowest") };
            (
                Some(if last_child {
                    Mistake::LastChildValue
                } else {
                    Mistake::WrongBackedUpValue
                }),
                format!(
                    "After a child, {name} (line {line}) takes the {best} value so far, {op}({}, \
                     {}) = {}; yours prints {}.",
                    shown(*before),
                    shown(*child),
                    shown(*want),
                    got_value.map_or("another".into(), shown)
                ),
                if last_child {
                    "Your line shows the last child's value, not the running best.".into()
                } else {
                    String::new()
                },
            )
        }
        Rule::EndsEarly => (
            Some(Mistake::MissingLines),
            format!("The file ends at line {line}, inside the tree: {name} has not printed its last line."),
            String::new(),
        ),
        Rule::GoesOn => (
            Some(Mistake::ExtraLines),
            format!("The root's last line ends the log; your file goes on at line {line}."),
            String::new(),
        ),
        Rule::NextBoard { chosen, .. } => (
            Some(Mistake::WrongBoard),
            match chosen {
                Some(c) => format!(
                    "Your root's children make {c} the first with the best value, so the next \
                     board is the board after {c}; yours differs at line {line}."
                ),
                None => format!(
                    "The root passes or is a leaf, so the next board is the input board; yours \
                     differs at line {line}."
                ),
            },
            String::new(),
        ),
    };
    // (a reading that the broken node's own next lines refute names nothing while
    // another holds past the node)
    let (standing, refuted): (Vec<&Fit>, Vec<&Fit>) = if fits.iter().any(|f| !f.within_node) {
        fits.iter().partition(|f| !f.within_node)
    } else {
        (fits.iter().collect(), Vec::new())
    };
    let distinct: Vec<Mistake> = {
        let mut seen: Vec<Mistake> = Vec::new();
        for fit in &standing {
            if !seen.contains(&fit.mistake.kind()) {
                seen.push(fit.mistake.kind());
            }
        }
        seen
    };
    let proven = proven(problem, &broken, rule_mistake, board_certain, childless);
    let mistake = match distinct.as_slice() {
        [] => rule_mistake.or(proven),
        [one] => Some(*one),
        _ => proven,
    };
    let mut by_rule = join(&sentence, &evidence);
    // (a cause found by one reading leads: the rule's own sentence becomes evidence)
    let (sentence, evidence) = match (distinct.as_slice(), standing.first()) {
        ([one], Some(_)) => (
            format!(
                "At {} (line {line}): {}; the rule: {}.",
                match &broken.rule {
                    // (the line is the child's)
                    Rule::WrongChild { want, .. } => want,
                    _ => &name,
                },
                one.label(),
                one.rule()
            ),
            join(&sentence, &evidence),
        ),
        _ => (sentence, evidence),
    };
    let mut evidence = evidence;
    if let Some(text) = readings_text(&standing, &refuted, mistake, &name) {
        evidence = join(&evidence, &text);
        if let Some(text) = readings_text(&standing, &refuted, proven, &name) {
            by_rule = join(&by_rule, &text);
        }
    }
    Finding {
        line,
        node: match &broken.rule {
            // (the line is the child's: the node the rules give there)
            Rule::WrongChild { want, .. } => format!("{} > {want}", broken.path.join(" > ")),
            _ => broken.path.join(" > "),
        },
        mistake,
        sentence,
        evidence,
        grid_node: broken.path.join(" > "),
        grid: Position {
            board: broken.node.board,
            player: broken.node.player,
        }
        .grid(),
        fits,
        proven,
        by_rule,
    }
}

/// The broken rule's own mistake when the student's lines prove it whatever program
/// wrote them; `rule_mistake` is the one the rule's words name. A leaf of the input's
/// board (or printed with an infinity, which E never is) that is not E; a node
/// expanded after two passes of the student's own lines, or at a full board (which
/// stays full whatever the flips), or in the revised release a node above the cut-off
/// not after two passes with no child line (`childless`); and the rules whose lines
/// alone break them (a window, a backed-up value, the next board the student's own
/// root values choose).
fn proven(
    problem: &Problem,
    broken: &Break,
    rule_mistake: Option<Mistake>,
    board_certain: bool,
    childless: bool,
) -> Option<Mistake> {
    let revised = problem.dialect == Dialect::S2017;
    let node = broken.node;
    match &broken.rule {
        Rule::LeafValue { .. } => {
            (board_certain || rule_mistake.is_some()).then_some(Mistake::WrongLeafValue)
        }
        Rule::LeafExpanded { at_cutoff: false } => {
            (revised || node.passes >= 2 || node.board.empty(Geometry::STANDARD) == 0)
                .then_some(Mistake::MisplacedLeaf)
        }
        Rule::InnerAsLeaf { .. } => (revised && childless).then_some(Mistake::MisplacedLeaf),
        // (a move or a pass the board of another program may make right)
        Rule::WrongChild { .. } => rule_mistake.filter(|m| {
            matches!(
                m,
                Mistake::ExtraPass | Mistake::IllegalMove | Mistake::MisnamedNodes
            )
        }),
        Rule::ExtraChild { after_cut, .. } => after_cut.then_some(Mistake::PrunedTooLate),
        Rule::ChildMissing { .. } => None,
        _ => rule_mistake.filter(|m| !m.is_simulated()),
    }
}

/// The readings that make the line come true, in words: those that stand, then those
/// the node's own next lines refute; `None` when there are none.
fn readings_text(
    fits: &[&Fit],
    refuted: &[&Fit],
    named: Option<Mistake>,
    node: &str,
) -> Option<String> {
    if fits.is_empty() {
        return None;
    }
    let each: Vec<String> = fits
        .iter()
        .map(|f| {
            let reach = match f.breaks_at {
                None => "then your whole log holds".to_string(),
                Some(i) => format!("then your log holds to line {}", i + 1),
            };
            format!("{} ({reach})", reading_words(f.reading))
        })
        .collect();
    let text = match named {
        Some(m) if fits.len() == 1 || fits.iter().all(|f| f.mistake.kind() == m) => {
            format!("Your line comes true if {}.", each.join("; or if "))
        }
        _ => format!(
            "Your line comes true under more than one reading, so the cause is not certain: \
             if {}.",
            each.join("; or if ")
        ),
    };
    let refuted: String = refuted
        .iter()
        .map(|f| {
            format!(
                " It also comes true if {}, but then your line {} breaks it, inside {node}.",
                reading_words(f.reading),
                f.breaks_at.map_or(0, |i| i + 1)
            )
        })
        .collect();
    Some(text + &refuted)
}

/// A reading in words, as the condition that makes a line come true.
fn reading_words(reading: Reading) -> &'static str {
    match reading {
        Reading::Rules | Reading::AcceptPassAt(_) => "the rules hold",
        Reading::InputCr => {
            "the player is read with the CR of its line, matching no disc, so the root passes \
             and X moves below it"
        }
        Reading::OneDirectionFlips => "a move flips only the last direction that brackets discs",
        Reading::NoDiagonalFlips => "moves and flips leave the diagonals out",
        Reading::MovesAcrossGaps => {
            "the move generator walks on over empty cells to the mover's disc"
        }
        Reading::MovesAcrossLaterGaps => {
            "the move generator walks on over empty cells to the mover's disc once past two \
             of the opponent's discs"
        }
        Reading::FlipsAcrossGaps => {
            "a move fills every cell up to the mover's disc, over empty cells too"
        }
        Reading::WrapAround => "a line walks off one row's edge onto the next row",
        Reading::DuplicateMoves => "a move is listed once per direction that brackets discs",
        Reading::OtherPlayersE => "E is counted for the other player",
        Reading::SideToMoveE => "E is counted for the side to move (negated at MIN)",
        Reading::CutoffOneDeeper => "the cut-off depth is one more (depth > D)",
        Reading::CutoffOneEarlier => "the cut-off depth is one less",
        Reading::OtherEndRule => "the other release's end-of-game rule applies",
        Reading::GameEndsEarly => "a blocked node after a pass ends the game",
        Reading::PassTestOnParent => "a blocked node whose parent passed ends the game",
        Reading::StalePassFlag => "a pass flag set by an earlier pass of the search is never reset",
        Reading::PassFlagsPerSide => {
            "each side's pass flag is a global that backing up never restores, and a node is \
             a leaf whenever both are set"
        }
        Reading::GameOverAsPass => {
            "a move after which neither side can move (a colour wiped out) is printed as pass, \
             with a pass chain under it"
        }
        Reading::BlockedBeforeCutoff => {
            "a node where neither side can move is tested before the cut-off depth: printed as \
             pass and expanded"
        }
        Reading::StrictPruning => "pruning needs a strict inequality",
        Reading::UpdateBeforeCutoff => "alpha or beta is updated before the cut-off test",
        Reading::NoPruning => "nothing is ever pruned",
        Reading::FailHard => "values are fail-hard (max(alpha, v))",
    }
}

/// Why the game is over at the node.
fn game_over_reason(broken: &Break) -> String {
    let node = broken.node;
    if node.consecutive_passes >= 2 {
        return "Two passes in a row end the game.".into();
    }
    if node.passes >= 2 {
        "The path from the root holds two passes, which ends the game in this release.".into()
    } else {
        "The board is full or one colour has no disc, which ends the game in this release.".into()
    }
}

/// The passes before the node, for a node the program ends early.
fn pass_history(broken: &Break) -> String {
    let passes = broken.node.passes;
    match (broken.node.consecutive_passes, passes) {
        (0, 0) => "No pass is on its path.".into(),
        (c, p) => {
            format!("Its path holds {p} pass(es), {c} right before it; two in a row end the game.")
        }
    }
}

/// The names printed at `depth` under the same parent from entry `from` on.
fn siblings(entries: &[Entry], from: usize, depth: u32) -> Vec<String> {
    entries[from..]
        .iter()
        .take_while(|e| e.depth.is_some_and(|d| d >= depth))
        .filter(|e| e.depth == Some(depth))
        .map(|e| e.name.to_string())
        .collect()
}

fn window_text(window: Option<(i32, i32)>) -> String {
    window.map_or("other values".into(), |(a, b)| {
        format!("{}, {}", shown(a), shown(b))
    })
}

fn list(names: &[String], at_most: usize) -> String {
    let mut text = names
        .iter()
        .take(at_most)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > at_most {
        text += ", ...";
    }
    text
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a} {b}"),
    }
}

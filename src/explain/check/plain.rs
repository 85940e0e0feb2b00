//! The plain rules' reading of a log line that differs: what the rule is at that
//! node (a leaf's E, a node's opening value, a cut-off, a pass, the order of moves)
//! and how the student's line departs from it, without the catalogue.

use super::*;

/// Explains a difference in the log at entry `j` (0-based after the header).
pub(super) fn explain_log_line(
    exp: &[Entry],
    act: &[Entry],
    j: usize,
    path: &[&str],
) -> (Option<Mistake>, String) {
    let (Some(e), Some(a)) = (exp.get(j), act.get(j)) else {
        return if j >= act.len() {
            (
                Some(Mistake::MissingLines),
                format!(
                    "the file ends here; the expected log has {} more line(s), up to the \
                     root's last line",
                    exp.len() - j
                ),
            )
        } else {
            (
                Some(Mistake::ExtraLines),
                format!(
                    "the expected log ends with the root's last line; the file goes on \
                     with {} more line(s)",
                    act.len() - j
                ),
            )
        };
    };
    if j == 0 && a.name == "root" && a.depth == Some(1) && e.depth == Some(0) {
        return (
            Some(Mistake::DepthFromOne),
            "the root is at depth 0 and its children at depth 1; your depths count the root \
             as 1 (and a search that counts so also stops one ply early)"
                .into(),
        );
    }
    if j > 0 && e.name != a.name && (a.name == "root" || a.name.contains('\0')) {
        return (
            Some(Mistake::MisnamedNodes),
            format!(
                "expected node {} here; your line names it {}: a node is named by its cell, \
                 column letter then row digit (a1 to h8), and only the root is `root`",
                e.name,
                shown(a.name)
            ),
        );
    }
    let floats: Vec<Option<i32>> = a.values.iter().map(|v| log::parse_float_value(v)).collect();
    let infinities: Vec<Option<i32>> = a
        .values
        .iter()
        .map(|v| log::parse_infinity_spelling(v))
        .collect();
    let spelled = a
        .values
        .iter()
        .zip(&infinities)
        .find_map(|(text, infinity)| infinity.map(|_| *text));
    if let (Some(spelled), true) = (spelled, floats.iter().all(Option::is_none)) {
        return (Some(Mistake::InfSpelling), infinity_spelling_text(spelled));
    }
    if floats.iter().any(Option::is_some) {
        let as_integers: Vec<Option<i32>> = a
            .values
            .iter()
            .zip(floats.iter().zip(&infinities))
            .map(|(text, (float, infinity))| float.or(*infinity).or_else(|| log::parse_value(text)))
            .collect();
        let expected: Vec<Option<i32>> = e.values.iter().map(|v| log::parse_value(v)).collect();
        let same = e.name == a.name && e.depth == a.depth && as_integers == expected;
        let lines = act
            .iter()
            .filter(|x| x.values.iter().any(|v| log::parse_float_value(v).is_some()))
            .count();
        return (
            Some(Mistake::FloatValues),
            format!(
                "values are whole numbers or Infinity/-Infinity: print `0`, not `0.0` (the \
                 handout's `c5,2,0.0` is a typo); {lines} line(s) of the file print floats{}",
                if same {
                    ", and this one is right but for that"
                } else {
                    ", and this one differs even read as whole numbers"
                }
            ),
        );
    }
    let name = e.name;
    if e.name == a.name && e.depth == a.depth {
        return explain_same_node(exp, act, j);
    }
    if e.name == "pass" && a.name == "pass" && a.depth.map(|d| d + 1) == e.depth {
        return (
            Some(Mistake::PassCostsNoDepth),
            format!(
                "a pass uses up a ply like a move: this pass is at depth {}, one deeper than \
                 its parent, and the cut-off depth counts it; your log gives it its parent's \
                 depth {} (and so searches one ply deeper below it)",
                show_depth(e),
                show_depth(a)
            ),
        );
    }
    if e.name == "pass" && a.name != "pass" {
        let parent = path.len().checked_sub(2).map_or("the parent", |i| path[i]);
        return (
            Some(Mistake::NoPassNode),
            format!(
                "the side to move at {parent} has no legal move, so {parent} has exactly one \
                 child, `pass` (same board, other player, one ply deeper); your log has {} \
                 instead",
                a.name
            ),
        );
    }
    if a.name == "pass" && e.name != "pass" {
        return (
            Some(Mistake::ExtraPass),
            format!(
                "a `pass` child is made only when the side to move has no legal move, and \
                 only two passes in a row end the game (the older releases: also a second \
                 pass anywhere on the path, a full board or a colour gone); expected {name} \
                 here"
            ),
        );
    }
    let before = j.checked_sub(1).and_then(|i| exp.get(i));
    match (e.depth, a.depth, before) {
        (Some(de), Some(da), Some(parent)) if de > da && !log::is_first_print(exp, j - 1) => (
            Some(Mistake::PrunedTooEarly),
            format!(
                "{} ({}, value {}, alpha {}, beta {}) has not reached its cut-off, so it goes on \
                 to its next child {name}; your log leaves it here",
                parent.name,
                kind(parent),
                parent.values.first().copied().unwrap_or("?"),
                parent.values.get(1).copied().unwrap_or("?"),
                parent.values.get(2).copied().unwrap_or("?"),
            ),
        ),
        (Some(de), Some(da), Some(node)) if da > de && node.reaches_cutoff() => (
            Some(Mistake::PrunedTooLate),
            format!(
                "{}, so it prunes: it returns at once without visiting {} (equality prunes \
                 too: v >= beta at MAX, v <= alpha at MIN)",
                cutoff_rule(node),
                a.name
            ),
        ),
        (Some(de), Some(da), _) if de == da => {
            let later = later_siblings(exp, j);
            if later.contains(&a.name) {
                return (
                    Some(Mistake::MoveOrder),
                    format!(
                        "expected {name} here: your log visits {} first. Children come in \
                         positional order, upper rows first and left first within a row \
                         (a1, b1, ..., h1, a2, ...): {name} before {}",
                        a.name,
                        later.join(", ")
                    ),
                );
            }
            let order = if square_order(e.name) < square_order(a.name) {
                format!("your log skips {name}")
            } else {
                format!(
                    "your log has {}, which the expected tree does not visit here",
                    a.name
                )
            };
            (
                None,
                format!(
                    "expected node {name} here: {order}. A node has one child for every \
                     legal move (all 8 directions, every bracketed line), in positional order"
                ),
            )
        }
        _ => (
            None,
            format!(
                "expected node {name} at depth {}, found {}",
                show_depth(e),
                a.name
            ),
        ),
    }
}

/// What is wrong with a value that spells infinity otherwise than the course
/// (`inf`, `-infinity`, `2147483647`; see [`log::parse_infinity_spelling`]).
fn infinity_spelling_text(spelled: &str) -> String {
    let why = if spelled.bytes().any(|b| b.is_ascii_digit()) {
        ": an extreme integer (Java's Integer.MAX_VALUE, say) used for infinity and \
         printed as a number"
    } else if spelled.trim_start_matches(['-', '+']) == "inf" {
        " (Python's str of float('inf'), C's printf of INFINITY)"
    } else {
        ""
    };
    format!(
        "infinities print as the words `Infinity` and `-Infinity`; your line prints \
         `{}`{why}",
        shown(spelled)
    )
}

/// The first entry, from `j` on, where an inner node prints v = alpha = beta (its
/// value reached its bound exactly, the window updated) and its next line is another
/// child: what a program that does not prune on equality writes.
fn goes_on_after_equality(entries: &[Entry], j: usize) -> Option<usize> {
    (j..entries.len().saturating_sub(1)).find(|&i| {
        let x = &entries[i];
        let finite = x.value().is_some_and(|v| v.abs() < INFINITY);
        let child = entries[i + 1]
            .depth
            .zip(x.depth)
            .is_some_and(|(c, d)| c == d + 1);
        finite
            && x.value() == x.alpha()
            && x.value() == x.beta()
            && !log::is_first_print(entries, i)
            && child
    })
}

/// The names of the siblings that follow the node first printed at `j`, in order.
fn later_siblings<'a>(entries: &[Entry<'a>], j: usize) -> Vec<&'a str> {
    let Some(depth) = entries[j].depth else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for (i, entry) in entries.iter().enumerate().skip(j + 1) {
        match entry.depth {
            Some(d) if d < depth.saturating_sub(1) => break,
            Some(d) if d == depth && log::is_first_print(entries, i) => names.push(entry.name),
            _ => {}
        }
    }
    names
}

fn show_depth(entry: &Entry) -> String {
    entry.depth.map_or("?".into(), |d| d.to_string())
}

/// `a1` = 0, ..., `h8` = 63; anything else sorts after.
pub(super) fn square_order(name: &str) -> usize {
    square_of(name).map_or(usize::MAX, |square| usize::from(square.index()))
}

/// The same node on both sides, printed with different values.
fn explain_same_node(exp: &[Entry], act: &[Entry], j: usize) -> (Option<Mistake>, String) {
    let (e, a) = (&exp[j], &act[j]);
    let name = e.name;
    let entry_value = if e.is_max() { -INFINITY } else { INFINITY };
    let bound = if e.is_max() { a.alpha() } else { a.beta() };
    let opens = log::is_first_print(exp, j) && !log::is_leaf(exp, j);
    if opens && e.value() == Some(entry_value) && a.value() != e.value() && a.value() == bound {
        return (
            Some(Mistake::FailHard),
            format!(
                "{name} ({}) starts at {} before its first child, whatever the window: its \
                 value is v, the best of its children so far; alpha and beta have their own \
                 columns. Your line prints {} there, the node's {}: values printed as \
                 max(alpha, v) at MAX and min(beta, v) at MIN (fail-hard)",
                kind(e),
                e.values.first().copied().unwrap_or("?"),
                a.values.first().copied().unwrap_or("?"),
                if e.is_max() { "alpha" } else { "beta" }
            ),
        );
    }
    if j == 0 && e.value() == Some(-INFINITY) && a.value() == Some(INFINITY) {
        return (
            Some(Mistake::WrongRootPlayer),
            format!(
                "the root is a MAX node (the player named on the input moves and is MAX, X or \
                 O alike): it starts at -Infinity; your root starts at {}",
                a.values.first().copied().unwrap_or("?")
            ),
        );
    }
    let depth = e.depth.unwrap_or(0);
    let child_is_pass = |entries: &[Entry]| {
        entries
            .get(j + 1)
            .is_some_and(|c| c.name == "pass" && c.depth == Some(depth + 1))
    };
    if child_is_pass(exp) && !child_is_pass(act) {
        return (
            Some(Mistake::NoPassNode),
            format!(
                "the side to move at {name} has no legal move, so {name} has exactly one \
                 child, `pass` (same board, other player, one ply deeper); only a pass that \
                 follows a pass ends the game. Your log has no pass here"
            ),
        );
    }
    if child_is_pass(act) && log::is_leaf(exp, j) {
        return (
            Some(Mistake::ExtraPass),
            format!(
                "{name} is a leaf in the expected tree (the cut-off depth, or the game is \
                 over under this release's rule), printed once with its value; your log \
                 gives it a `pass` child"
            ),
        );
    }
    let deepest = exp.iter().filter_map(|x| x.depth).max().unwrap_or(0);
    let has_child = |entries: &[Entry]| {
        entries
            .get(j + 1)
            .is_some_and(|c| c.depth == Some(depth + 1))
    };
    if log::is_leaf(exp, j) && has_child(act) {
        return if depth == deepest {
            (
                Some(Mistake::CutoffDepth),
                format!(
                    "{name} is at depth {depth}, the cut-off depth D, so it is a leaf: printed \
                     once with E(s). The root is at depth 0, and a node at depth D is never \
                     expanded; your log goes on below it"
                ),
            )
        } else {
            (
                None,
                format!(
                    "{name} is a leaf in the expected tree although it is above the cut-off \
                     depth: the game is over there under this release's rule (two passes in \
                     a row; the older releases also end on a full board, a colour gone or a \
                     second pass). Your log expands it"
                ),
            )
        };
    }
    if has_child(exp) && !has_child(act) && log::is_first_print(exp, j) {
        return (
            Some(Mistake::CutoffDepth),
            format!(
                "{name} is at depth {depth}, above the cut-off depth (the expected tree goes down \
                 to depth {deepest}), so it is expanded: its children follow. Your log makes it \
                 a leaf; only nodes at depth D (the root is at depth 0) or where the game is \
                 over are leaves"
            ),
        );
    }
    if log::is_leaf(exp, j) {
        return match (e.value(), a.value()) {
            (Some(ev), Some(av)) if ev != 0 && av == -ev => (
                Some(Mistake::WrongRootPlayer),
                format!(
                    "the leaf's value is negated: E(s) is always counted for the player named \
                     on the input (MAX), also at MIN nodes and also when that player is O; \
                     expected {ev}, found {av}"
                ),
            ),
            (ev, av) if ev != av => (
                None,
                format!(
                    "the leaf's value differs: E(s) = sum of the weights under the root \
                     player's discs - sum under the opponent's; expected {}, found {}",
                    e.values.first().copied().unwrap_or("?"),
                    a.values.first().copied().unwrap_or("?")
                ),
            ),
            _ => (
                None,
                format!(
                    "a leaf prints the alpha and beta it received from its parent; expected \
                     {}",
                    e.values.get(1..).map_or(String::new(), |v| v.join(","))
                ),
            ),
        };
    }
    let next_act = act.get(j + 1).and_then(|x| x.depth);
    let next_exp = exp.get(j + 1).and_then(|x| x.depth);
    if !log::is_first_print(exp, j) && e.reaches_cutoff() {
        if next_act == Some(depth + 1) {
            let equality = e.value() == if e.is_max() { e.beta() } else { e.alpha() };
            return (
                Some(Mistake::PrunedTooLate),
                format!(
                    "{}, so it prunes: it prints alpha and beta unchanged and returns at once; \
                     your log updates them and goes on to the next child{}",
                    cutoff_rule(e),
                    if equality {
                        " (equality prunes: v >= beta at MAX, v <= alpha at MIN, not only >)"
                    } else {
                        ""
                    }
                ),
            );
        }
        let updated = |x: &Entry| {
            if x.is_max() {
                x.alpha() == x.value()
            } else {
                x.beta() == x.value()
            }
        };
        if e.value() == a.value() && updated(a) && !updated(e) {
            // A program that prunes only on a strict inequality prints this very line
            // at an equality; it shows itself where it goes on after one.
            if let Some(later) = goes_on_after_equality(act, j) {
                return (
                    Some(Mistake::PrunedTooLate),
                    format!(
                        "{}, so it prunes: it prints its value with alpha and beta \
                         UNCHANGED and returns. Your line updates {} instead, and at line \
                         {} your log goes on to another child after a node's value reached \
                         its bound exactly (v = alpha = beta): your program prunes only on a \
                         strict inequality (v > beta, v < alpha); equality prunes too",
                        cutoff_rule(e),
                        if e.is_max() { "alpha" } else { "beta" },
                        later + LOG_START + 1
                    ),
                );
            }
            return (
                Some(Mistake::UpdateBeforeCutoff),
                format!(
                    "{}, so it prunes: it prints its value with alpha and beta UNCHANGED \
                     ({}, {}) and returns; your line updates {} first, as the handout's \
                     example wrongly shows. (A program that prunes only on v > beta or \
                     v < alpha prints this line too; yours does not go on after such a line \
                     anywhere in this file, so the updated window is the likelier cause: \
                     give --input to be sure.)",
                    cutoff_rule(e),
                    e.values.get(1).copied().unwrap_or("?"),
                    e.values.get(2).copied().unwrap_or("?"),
                    if e.is_max() { "alpha" } else { "beta" }
                ),
            );
        }
    }
    if !log::is_first_print(exp, j)
        && !e.reaches_cutoff()
        && next_exp == Some(depth + 1)
        && next_act.is_some_and(|d| d < depth)
    {
        return (
            Some(Mistake::PrunedTooEarly),
            format!(
                "{name} ({}) has not reached its cut-off (v >= beta at MAX, v <= alpha at MIN), \
                 so it updates {} and goes on to its next child; your log prunes here",
                kind(e),
                if e.is_max() { "alpha" } else { "beta" }
            ),
        );
    }
    let fields = ["value", "alpha", "beta"];
    let which: Vec<String> = fields
        .iter()
        .enumerate()
        .filter(|&(i, _)| e.values.get(i) != a.values.get(i))
        .map(|(i, field)| {
            format!(
                "{field} expected {}, found {}",
                e.values.get(i).copied().unwrap_or("(none)"),
                a.values.get(i).copied().unwrap_or("(none)")
            )
        })
        .collect();
    (
        None,
        format!(
            "{name} ({}) prints differently: {}",
            kind(e),
            which.join("; ")
        ),
    )
}

//! The command line of `tree`: a search drawn as a page (or an outline), ours or a
//! student's log, marked where it parts from ours.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use super::grader::{print_out, read, write_whole, GraderUsageError};
use super::DialectArg;
use crate::explain::check;
use crate::explain::replay::Position;
use crate::format::cs561::{self, Dialect};
use crate::format::Style;
use crate::grading::batch;
use crate::printable::printable;
use crate::tree::diff::Diff;
use crate::tree::{self as picture, page, parse_path, Limits, Tree};

/// The input `tree` reads when none is named, as the solver does.
const DEFAULT_INPUT: &str = "input.txt";

/// Arguments of `reversi tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// The input to solve and draw [default: ./input.txt, like the solver; with
    /// --log, used only if it exists]. With --log, only its board is used (to show
    /// the board at every node and name the moves a cut-off skipped).
    input: Option<PathBuf>,
    /// Draw this output file's log (a student's, say) instead of solving the input;
    /// with the input, the page opens on where it first differs from ours.
    #[arg(long, value_name = "PATH")]
    log: Option<PathBuf>,
    /// The homework release of the input [default: told by the input].
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// Draw nodes down to this depth (the root is at depth 0); deeper ones are
    /// counted on their ancestor.
    #[arg(long, value_name = "DEPTH")]
    depth: Option<u32>,
    /// Draw one node (a path of moves from the root: "d3 c3"), its subtree, and the
    /// path to it with the nodes beside it; the rest is counted.
    #[arg(long, value_name = "PATH")]
    focus: Option<String>,
    /// The most nodes a page holds: the first ones visited; the rest are counted and
    /// the page says how to narrow it (--focus, --depth).
    #[arg(long, value_name = "N", default_value_t = picture::DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: u64,
    /// The HTML file to write; `-` writes standard output.
    #[arg(short, long, value_name = "PATH", default_value = "tree.html")]
    output: PathBuf,
    /// Print the tree as indented text on standard output instead of HTML.
    #[arg(long)]
    text: bool,
    /// Write a practice page instead: a small generated case's whole move tree, on
    /// which to mark the nodes alpha-beta does not search and fill in v, α and β,
    /// then check the answers against our log, line by line.
    #[arg(long, conflicts_with_all = ["input", "log", "text", "focus", "depth"])]
    practice: bool,
    /// The practice case's seed (the same seed, the same case).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "practice")]
    seed: u64,
}

/// `reversi tree`: writes the page (or prints the outline).
pub fn tree(args: &TreeArgs) -> Result<()> {
    if args.practice {
        let html = picture::practice::practice(args.seed).html();
        if args.output == Path::new("-") {
            return print_out(&html);
        }
        return write_whole(&args.output, html.as_bytes());
    }
    let default_input = Path::new(DEFAULT_INPUT);
    let input = match &args.input {
        Some(path) => Some(path.as_path()),
        None => default_input.exists().then_some(default_input),
    };
    let problem = match input {
        Some(path) => {
            let bytes = read(path)?;
            let dialect = args.dialect.map(Dialect::from);
            Some(cs561::parse(&bytes, dialect).with_context(|| path.display().to_string())?)
        }
        None => None,
    };
    let solve = |problem: &cs561::Problem| batch::solve_problem(problem, Style::default());
    let (output, title) = match (&args.log, &problem, input) {
        (Some(log), _, _) => {
            let boards = input.map_or(String::new(), |i| format!(", boards from {}", i.display()));
            (
                read(log)?,
                format!("Traverse log of {}{boards}", log.display()),
            )
        }
        (None, Some(problem), Some(input)) => {
            if problem.task == cs561::Task::Greedy {
                let path = input.display().to_string();
                return Err(GraderUsageError::GreedyHasNoLog { path }.into());
            }
            let search = match problem.task {
                cs561::Task::Minimax => "Minimax",
                _ => "Alpha-beta",
            };
            let title = format!(
                "{search} tree of {}: {} to move, depth {}",
                input.display(),
                char::from(problem.player.symbol()),
                problem.depth
            );
            (solve(problem), title)
        }
        _ => {
            let path = DEFAULT_INPUT.to_string();
            return Err(GraderUsageError::NoInput { path }.into());
        }
    };
    let text = String::from_utf8_lossy(&output);
    let root = problem.as_ref().map(Position::root);
    let mut limits = Limits {
        depth: args.depth,
        focus: args.focus.as_deref().map(parse_path).unwrap_or_default(),
        max_nodes: usize::try_from(args.max_nodes).unwrap_or(usize::MAX),
    };
    let name = args
        .log
        .as_deref()
        .map_or("our output".into(), |log| log.display().to_string());
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    let mut comparison = None;
    let mut ours = None;
    if let (Some(_), Some(problem), Some(root)) = (&args.log, &problem, root) {
        if !check::log_fits_input(root, picture::log_entries(&text)) {
            warnings.push(format!(
                "{}: boards are drawn down to the first move that is not legal (marked); \
                 if the log is from another case, name that case's input",
                check::input_does_not_fit("this log")
            ));
        }
        let expected = solve(problem);
        let report = check::check_with_input(&expected, &output, false, Some(problem));
        if report.difference.is_some() {
            ours = Some(expected);
        }
        match report.difference {
            None => notes.push("Identical to our output.".to_string()),
            Some(d) => match d.line {
                Some(line) => {
                    comparison = Some(page::Comparison {
                        line,
                        expected: d.expected,
                        actual: d.actual,
                        mistake: d.mistake.map(|m| m.label().to_string()),
                        explanation: d.explanation,
                    })
                }
                None => notes.push(format!(
                    "The same lines as our output, but not the same bytes: {}",
                    d.explanation
                )),
            },
        }
    }
    let mut drawn =
        Tree::from_output(&text, root, &limits).with_context(|| printable(&name).into_owned())?;
    if let Some(line) = comparison.as_ref().map(|c| c.line) {
        // A difference past the nodes kept: focus on it instead.
        if drawn.dropped.total() > 0 && !drawn.keeps_line(line) {
            limits.focus = picture::path_to_line(&text, line);
            if limits
                .depth
                .is_some_and(|d| (d as usize) < limits.focus.len())
            {
                limits.depth = None;
            }
            drawn = Tree::from_output(&text, root, &limits)
                .with_context(|| printable(&name).into_owned())?;
        }
        drawn.mark_line(line);
    }
    // The student's tree against ours, node by node, marked on the page.
    let diff = ours.map(|ours| {
        let changes = check::tree_changes(&ours, &output);
        let ours = String::from_utf8_lossy(&ours);
        let our_tree = Tree::from_output(&ours, root, &limits).ok();
        Diff::new(&drawn, our_tree.as_ref(), &changes)
    });
    // The node outlined is where the trees first part, in search order: for a node
    // only ours has, the node it hangs under, not the last line printed before it.
    if let Some(first) = diff.as_ref().and_then(|d| d.first) {
        drawn.differs = Some(first);
    }
    if args.text {
        for warning in &warnings {
            eprintln!("reversi: warning: {}", printable(warning));
        }
        return print_out(&drawn.outline());
    }
    let page_text = page::PageText {
        title,
        notes,
        warnings,
        comparison,
        diff,
    };
    let html = page::html(&drawn, root, &page_text);
    if args.output == Path::new("-") {
        return print_out(&html);
    }
    write_whole(&args.output, html.as_bytes())
}

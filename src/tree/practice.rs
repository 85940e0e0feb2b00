//! Practice: a small generated case drawn as its whole move tree (every move, each
//! leaf with its evaluation), on which a student marks the nodes alpha-beta does not
//! search and fills in v, α and β of the inner nodes, then checks the answers
//! against our traverse log, line by line. The page holds our answers (it is for
//! practice, not for grading).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Limits, Tree};
use crate::explain::replay::Position;
use crate::format::cs561::{Dialect, Problem, Task};
use crate::format::Style;
use crate::grading::batch::{solve_problem, ArgsSyntax, CaseOptions};
use crate::grading::gen::{self, Category, GenOptions};

/// The practice page's script, written by hand.
const SCRIPT: &str = include_str!("practice.js");

/// The most nodes a practice tree has (every move down to the depth).
const MAX_NODES: usize = 40;

/// The cut-off depth of practice cases.
const DEPTH: u32 = 2;

/// A practice case: the problem, its whole move tree (minimax, every node) and our
/// alpha-beta log.
#[derive(Clone, Debug)]
pub struct Practice {
    /// The case.
    pub problem: Problem,
    /// The seed it was made from.
    pub seed: u64,
    /// Every node down to the depth, each leaf with its evaluation.
    pub whole: Tree,
    /// Our alpha-beta search of it.
    pub ours: Tree,
}

fn tree_of(problem: &Problem, task: Task) -> Tree {
    let problem = Problem {
        task,
        dialect: if task == Task::Minimax {
            Dialect::F2014
        } else {
            problem.dialect
        },
        ..problem.clone()
    };
    let output =
        String::from_utf8(solve_problem(&problem, Style::default())).expect("our output is UTF-8");
    Tree::from_output(&output, Some(Position::root(&problem)), &Limits::default())
        .expect("our output is a tree")
}

/// Makes the practice case of `seed`: the first generated case (openings and middle
/// games at depth 2) whose whole tree has at most 40 nodes and whose alpha-beta
/// search skips at least one move.
pub fn practice(seed: u64) -> Practice {
    for attempt in 0u64.. {
        let options = GenOptions {
            count: 2,
            seed: seed.wrapping_add(attempt.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            categories: vec![Category::Opening, Category::Midgame],
            dialect: Dialect::S2017,
            style: Style::default(),
            max_lines: 200,
            task: Task::AlphaBeta,
            depth: Some(DEPTH),
        };
        let Ok(cases) = gen::generate(&options, &NoArgs) else {
            continue;
        };
        for case in cases {
            let whole = tree_of(&case.problem, Task::Minimax);
            if whole.nodes.len() > MAX_NODES {
                continue;
            }
            let ours = tree_of(&case.problem, Task::AlphaBeta);
            let prunes = ours.nodes.iter().any(|n| {
                n.cut
                    .as_ref()
                    .is_some_and(|c| c.skipped.as_ref().is_some_and(|s| !s.is_empty()))
            });
            if prunes {
                return Practice {
                    problem: case.problem,
                    seed,
                    whole,
                    ours,
                };
            }
        }
    }
    unreachable!("the attempts go on until a case fits")
}

/// Practice cases have no `args` file.
struct NoArgs;

impl ArgsSyntax for NoArgs {
    fn parse(&self, _: &str) -> Result<CaseOptions, String> {
        Ok(CaseOptions::default())
    }
    fn render(&self, _: &CaseOptions) -> String {
        String::new()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Practice {
    /// The page's data: `nodes`: for each node of the whole tree, `[name, parent or
    /// -1, depth, leaf value or null, path, searched, asked]`; `answers`: for each asked
    /// node, our v, α, β (its last line); `log`: our log, `[file line, text, node]`.
    pub fn data(&self) -> String {
        let ours_by_path: HashMap<String, usize> = (0..self.ours.nodes.len())
            .map(|n| (self.ours.path_text(n), n))
            .collect();
        let json = |text: &str| {
            serde_json::to_string(text)
                .expect("a string is JSON")
                .replace('<', "\\u003c")
        };
        let mut nodes = Vec::new();
        let mut answers = Vec::new();
        let mut whole_of_ours = vec![0; self.ours.nodes.len()];
        for (n, node) in self.whole.nodes.iter().enumerate() {
            let path = self.whole.path_text(n);
            let searched = ours_by_path.get(&path).copied();
            if let Some(o) = searched {
                whole_of_ours[o] = n;
            }
            let leaf = node.children.is_empty();
            let asked = !leaf && searched.is_some();
            if let (true, Some(o)) = (asked, searched) {
                let print = self.ours.last_print(o).expect("a node prints");
                let fields: Vec<String> =
                    (0..3).map(|i| json(print.field(i).unwrap_or(""))).collect();
                answers.push(format!("\"{n}\":[{}]", fields.join(",")));
            }
            let value = if leaf {
                self.whole.value(n).map_or("null".into(), json)
            } else {
                "null".into()
            };
            nodes.push(format!(
                "[{},{},{},{value},{},{},{}]",
                json(&node.name),
                node.parent.map_or(-1, |p| p as i64),
                node.depth,
                json(&path),
                searched.is_some(),
                asked
            ));
        }
        let log: Vec<String> = self
            .ours
            .prints
            .iter()
            .map(|p| {
                let node = &self.ours.nodes[p.node];
                format!(
                    "[{},{},{}]",
                    p.line,
                    json(&format!("{},{},{}", node.name, node.depth, p.fields)),
                    whole_of_ours[p.node]
                )
            })
            .collect();
        format!(
            "{{\"nodes\":[{}],\n\"answers\":{{{}}},\n\"log\":[{}]}}",
            nodes.join(",\n"),
            answers.join(","),
            log.join(",\n")
        )
    }

    /// The whole page. No outside resources.
    pub fn html(&self) -> String {
        let player = char::from(self.problem.player.symbol());
        let title = format!(
            "Practice: alpha-beta, {player} to move, depth {} (seed {})",
            self.problem.depth, self.seed
        );
        let mut board = String::new();
        let cells = Position::root(&self.problem).cells();
        for row in cells.as_bytes().chunks(8) {
            let _ = writeln!(board, "{}", String::from_utf8_lossy(row));
        }
        format!(
            r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>{style}{own}</style>
</head>
<body class="practice">
<header>
<h1>{title}</h1>
<div class="note">Below is every move down to depth {depth}, each leaf with its evaluation ({player} is MAX; X black, O white). Search it with alpha-beta as the homework does (moves in positional order; prune when v >= β at MAX, v <= α at MIN). Tick "not searched" on each node alpha-beta never visits (the first one of a pruned branch is enough), and fill in v, α and β of the inner nodes as each prints them on its last line. Then press Check: your answers are compared with our traverse log, line by line.</div>
<div class="note">Another case: <code>reversi tree --practice --seed N</code>. The answers are in this page (it is for practice).</div>
<div id="controls"><button id="check">Check</button> <button id="reveal">Show our log</button> <span id="practice-result"></span></div>
</header>
<main>
<div id="practice-tree"></div>
<aside id="detail"><h2>The position</h2><pre class="start">{board}</pre><div id="practice-log"></div></aside>
</main>
<script type="application/json" id="data">{data}</script>
<script>{SCRIPT}</script>
</body>
</html>
"#,
            title = escape(&title),
            style = super::page::STYLE,
            own = PRACTICE_STYLE,
            depth = self.problem.depth,
            board = escape(&board),
            data = self.data(),
        )
    }
}

/// The practice page's own style, after the tree page's.
const PRACTICE_STYLE: &str = "
#practice-tree { flex: 1; overflow: auto; padding: 8px 14px; }
.prow { display: flex; align-items: center; gap: 8px; height: 30px; white-space: nowrap; }
.prow .pbox { border: 1px solid #999; border-radius: 5px; padding: 1px 6px; background: #fff; display: inline-flex; gap: 6px; align-items: center; }
.prow.min .pbox { background: #eef2ff; }
.prow.leaf .pbox { background: #fffbe8; }
.prow input[type=text] { width: 64px; }
.prow .right { outline: 2px solid #2e7d32; background: #eaf6ea; }
.prow .wrong { outline: 2px solid #d00; background: #ffe6e6; }
.prow .mark { font-weight: bold; }
.prow .mark.right { color: #2e7d32; outline: none; background: none; }
.prow .mark.wrong { color: #d00; outline: none; background: none; }
#practice-result { font-weight: bold; }
#practice-log table { border-collapse: collapse; font-size: 12px; }
#practice-log td { border: 1px solid #ddd; padding: 1px 5px; text-align: left; }
#practice-log tr.wrong td { background: #ffe6e6; }
#practice-log tr.right td { background: #eaf6ea; }
pre.start { font-size: 14px; line-height: 1.2; }
body.practice aside { width: 560px; }
#practice-log td:nth-child(2) { white-space: nowrap; }
";

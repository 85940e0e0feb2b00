//! `reversi tree`: the structure of the rebuilt tree and of its SVG, collapsing, and
//! drawing a log without an input or with a wrong move.

use std::fs;
use std::process::Command;

use reversi::format::cs561;
use reversi::format::Style;
use reversi::grader::batch::solve_problem;
use reversi::grader::replay::Position;
use reversi::grader::tree::{html, svg, Tree};

fn case(path: &str) -> Vec<u8> {
    fs::read(format!("{}/testcases/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The tree of a case's input, solved by our solver, drawn to `collapse_below`.
fn tree_of(input: &str, collapse_below: u32) -> Tree {
    let problem = cs561::parse(&case(input), None).unwrap();
    let output = String::from_utf8(solve_problem(&problem, Style::default())).unwrap();
    let lines: Vec<&str> = output.split("\r\n").collect();
    let root = Position::root(&problem);
    Tree::from_output(&lines, Some(root), collapse_below).unwrap()
}

#[test]
fn handout_example_outline() {
    // c4 is cut off after c3: e3 and c5 are named as pruned.
    insta::assert_snapshot!(tree_of("handout/s2017-example/input.txt", 4).outline());
}

#[test]
fn pass_chain_outline() {
    insta::assert_snapshot!(tree_of("cs561/s2017/case4/input.txt", 4).outline());
}

#[test]
fn small_tree_svg() {
    insta::assert_snapshot!(svg(&tree_of("cs561/s2017/case1/input.txt", 4)));
}

#[test]
fn the_page_is_self_contained() {
    let page = html(
        &tree_of("handout/s2017-example/input.txt", 4),
        "example <1>",
        Some("a note & more"),
    );
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<title>example &lt;1&gt;</title>"));
    assert!(page.contains(r#"<div class="note">a note &amp; more</div>"#));
    let outside = page.replace("http://www.w3.org/2000/svg", "");
    for reference in ["http:", "https:", "src=", "<link", "@import", "url("] {
        assert!(!outside.contains(reference), "{reference}");
    }
    assert_eq!(page.matches("<g class=\"node").count(), 15);
    assert_eq!(page.matches("data-board=").count(), 15);
    assert_eq!(
        page.matches("class=\"node max leaf chosen\"").count(),
        1,
        "c3 ends the chosen line"
    );
}

#[test]
fn deep_trees_collapse_below_a_depth() {
    let full = tree_of("cs561/s2017/case3/input.txt", 10);
    let collapsed = tree_of("cs561/s2017/case3/input.txt", 1);
    assert_eq!(
        full.root.size(),
        collapsed.root.size(),
        "every node is counted"
    );
    assert!(collapsed
        .root
        .children
        .iter()
        .all(|c| c.children.is_empty()));
    insta::assert_snapshot!(collapsed.outline());
}

#[test]
fn a_students_log_without_the_input() {
    // The handout's typo: c4 prints beta already updated; no boards, so the cut-off
    // is shown without the names of the pruned moves.
    let text = String::from_utf8(case("handout/s2017-example/output.txt")).unwrap();
    let text = text.replace("c4,1,-3,-3,Infinity", "c4,1,-3,-3,-3");
    let lines: Vec<&str> = text.split("\r\n").collect();
    let tree = Tree::from_output(&lines, None, 4).unwrap();
    let c4 = &tree.root.children[1];
    assert!(c4.cut && c4.pruned.is_empty() && c4.board.is_none());
    assert_eq!(
        c4.pruned_label().as_deref(),
        Some("✂ cut-off: the rest is pruned")
    );
}

#[test]
fn an_illegal_move_has_no_board() {
    let problem = cs561::parse(&case("handout/s2017-example/input.txt"), None).unwrap();
    let text = String::from_utf8(case("handout/s2017-example/output.txt")).unwrap();
    let text = text.replace("e3,2,0,-Infinity,-3", "a1,2,0,-Infinity,-3");
    let lines: Vec<&str> = text.split("\r\n").collect();
    let root = Position::root(&problem);
    let tree = Tree::from_output(&lines, Some(root), 4).unwrap();
    let d3 = &tree.root.children[0];
    assert!(d3.board.is_some() && d3.children[1].name == "a1" && d3.children[1].board.is_none());
}

#[test]
fn a_broken_log_is_refused() {
    let lines = [
        "Node,Depth,Value,Alpha,Beta",
        "root,0,-Infinity,-Infinity,Infinity",
        "c3,2,1,2,3",
    ];
    let error = Tree::from_output(&lines, None, 4).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 3: c3 at depth 2 has no parent at depth 1"
    );
}

#[test]
fn command_line() {
    let bin = env!("CARGO_BIN_EXE_reversi");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.html");
    let input = format!(
        "{}/testcases/handout/s2017-example/input.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let status = Command::new(bin)
        .args(["tree", &input, "-o", out.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(fs::read_to_string(&out).unwrap().contains("<svg"));
    let text = Command::new(bin)
        .args(["tree", &input, "--text"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).starts_with("root MAX"));
}

#[test]
fn without_an_input_argument_it_reads_input_txt_like_the_solver() {
    let bin = env!("CARGO_BIN_EXE_reversi");
    let dir = tempfile::tempdir().unwrap();
    let missing = Command::new(bin)
        .args(["tree", "--text"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr),
        "reversi: input.txt: no such file (name an input file, a log with --log PATH, or both)\n"
    );
    fs::write(
        dir.path().join("input.txt"),
        case("handout/s2017-example/input.txt"),
    )
    .unwrap();
    let found = Command::new(bin)
        .args(["tree", "--text"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(found.status.success());
    let named = Command::new(bin)
        .args(["tree", "input.txt", "--text"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(found.stdout, named.stdout);
    assert!(String::from_utf8_lossy(&found.stdout).contains("pruned: e3 c5"));
}

#[test]
fn a_students_log_with_its_input_shows_where_it_differs() {
    let dir = tempfile::tempdir().unwrap();
    let text = String::from_utf8(case("handout/s2017-example/output.txt")).unwrap();
    let student = dir.path().join("student.txt");
    fs::write(
        &student,
        text.replace("c4,1,-3,-3,Infinity", "c4,1,-3,-3,-3"),
    )
    .unwrap();
    let input = format!(
        "{}/testcases/handout/s2017-example/input.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let bin = env!("CARGO_BIN_EXE_reversi");
    let page = Command::new(bin)
        .args([
            "tree",
            &input,
            "--log",
            student.to_str().unwrap(),
            "-o",
            "-",
        ])
        .output()
        .unwrap();
    let page = String::from_utf8(page.stdout).unwrap();
    assert!(page.contains(
        "first difference from our output: line 21, root &gt; c4: alpha/beta updated at a cutoff"
    ));
    assert_eq!(page.matches(" differs\"").count(), 1);
    assert!(page.contains(r#"<g class="node min differs" data-path="root &gt; c4""#));
}

#[test]
fn a_missing_line_marks_the_node_printed_before_it() {
    // A log that stops before the root's last line (line 38): the difference is
    // marked on e6, printed last, on line 37.
    let text = String::from_utf8(case("handout/s2017-example/output.txt")).unwrap();
    let lines: Vec<&str> = text.split("\r\n").take(37).collect();
    let mut tree = Tree::from_output(&lines, None, 4).unwrap();
    assert!(tree.mark_line(38));
    let e6 = tree.root.children.last().unwrap();
    assert!(e6.name == "e6" && e6.differs && !tree.root.differs);
    assert!(!tree.mark_line(3), "no node is printed before the log");
}

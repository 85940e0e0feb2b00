//! `reversi tree`: the rebuilt tree (outline snapshots), its cut-offs, the limits
//! (depth, focus, node count), drawing a log without an input or with a wrong move,
//! the page's structure and escaping, and the command line. The pages in a real
//! browser: `tests/tree_browser.rs`.

use std::fs;
use std::process::Command;

use reversi::explain::replay::Position;
use reversi::format::cs561;
use reversi::format::Style;
use reversi::grading::batch::solve_problem;
use reversi::tree::page::{data, html, PageText};
use reversi::tree::{parse_path, Limits, Tree, TreeError};

fn case(path: &str) -> String {
    fs::read_to_string(format!("{}/testcases/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn case_path(path: &str) -> String {
    format!("{}/testcases/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Our output for an input, and the input's root position.
fn solved(input: &str) -> (String, Position) {
    let problem = cs561::parse(input.as_bytes(), None).unwrap();
    let output = String::from_utf8(solve_problem(&problem, Style::default())).unwrap();
    (output, Position::root(&problem))
}

/// The tree of a case's input, solved by our solver, with `limits`.
fn tree_of(input: &str, limits: &Limits) -> Tree {
    let (output, root) = solved(&case(input));
    Tree::from_output(&output, Some(root), limits).unwrap()
}

fn everything() -> Limits {
    Limits::default()
}

fn node_at(tree: &Tree, path: &str) -> usize {
    (0..tree.nodes.len())
        .find(|&n| tree.path_text(n) == path)
        .unwrap_or_else(|| panic!("no node {path}"))
}

#[test]
fn handout_example_outline() {
    // c4 is cut off after c3, which is marked as the cause: e3 and c5 are skipped.
    // f5 and e6 cut off on their last child: said so, nothing skipped.
    insta::assert_snapshot!(tree_of("handout/s2017-example/input.txt", &everything()).outline());
}

#[test]
fn pass_chain_outline() {
    insta::assert_snapshot!(tree_of("cs561/s2017/case4/input.txt", &everything()).outline());
}

#[test]
fn cut_offs_name_their_cause_and_the_moves_skipped() {
    let tree = tree_of("handout/s2017-example/input.txt", &everything());
    let c4 = node_at(&tree, "root > c4");
    let cut = tree.nodes[c4].cut.as_ref().unwrap();
    assert_eq!(cut.by_node, Some(node_at(&tree, "root > c4 > c3")));
    assert_eq!(
        cut.skipped.as_deref(),
        Some(&["e3".to_string(), "c5".into()][..])
    );
    assert_eq!(
        tree.cut_text(c4).unwrap(),
        "c3 returned -3 <= alpha -3 at this MIN node: e3, c5 were not searched"
    );
    let f5 = node_at(&tree, "root > f5");
    assert_eq!(
        tree.cut_text(f5).unwrap(),
        "f6 returned -3 <= alpha -3 at this MIN node: f6 was its last move, so none was skipped"
    );
    assert!(tree.nodes[node_at(&tree, "root > d3")].cut.is_none());
    assert!(tree.nodes[0].cut.is_none(), "the root never cuts off");
}

#[test]
fn nodes_keep_every_line_and_the_order_of_their_visits() {
    let tree = tree_of("handout/s2017-example/input.txt", &everything());
    assert_eq!((tree.visits, tree.log_lines), (15, 29));
    let visits: Vec<u64> = tree.nodes.iter().map(|n| n.visit).collect();
    assert_eq!(visits, (1..=15).collect::<Vec<u64>>());
    let d3 = node_at(&tree, "root > d3");
    let lines: Vec<usize> = tree.nodes[d3]
        .prints
        .iter()
        .map(|&p| tree.prints[p].line)
        .collect();
    assert_eq!(lines, [11, 13, 15, 17]);
}

#[test]
fn a_depth_limit_counts_the_deeper_nodes_on_their_ancestors() {
    let full = tree_of("cs561/s2017/case3/input.txt", &everything());
    let limits = Limits {
        depth: Some(1),
        ..everything()
    };
    let shallow = tree_of("cs561/s2017/case3/input.txt", &limits);
    assert_eq!(full.visits, shallow.visits);
    assert_eq!(
        shallow.nodes.len() as u64 + shallow.dropped.depth,
        full.nodes.len() as u64
    );
    assert!(shallow.nodes.iter().all(|n| n.depth <= 1));
    let counted: u64 = shallow.nodes.iter().map(|n| n.hidden).sum();
    assert_eq!(counted, shallow.dropped.depth);
    insta::assert_snapshot!(shallow.outline());
}

#[test]
fn a_focus_keeps_the_path_its_neighbours_and_the_subtree() {
    let limits = Limits {
        focus: parse_path("root > c4 > c3"),
        ..everything()
    };
    let tree = tree_of("handout/s2017-example/input.txt", &limits);
    let names: Vec<String> = (0..tree.nodes.len()).map(|n| tree.path_text(n)).collect();
    assert_eq!(
        names,
        [
            "root",
            "root > d3",
            "root > c4",
            "root > c4 > c3",
            "root > f5",
            "root > e6"
        ]
    );
    assert_eq!(tree.focus, Some(3));
    assert_eq!(tree.dropped.focus, 9);
    assert_eq!(tree.nodes[node_at(&tree, "root > d3")].hidden, 3);
    assert_eq!(parse_path("d3 c3"), parse_path("d3,c3"));
    let missing = Limits {
        focus: parse_path("d3 h8"),
        ..everything()
    };
    let (output, root) = solved(&case("handout/s2017-example/input.txt"));
    assert_eq!(
        Tree::from_output(&output, Some(root), &missing)
            .unwrap_err()
            .to_string(),
        "--focus d3 h8: root > d3 has no child h8 (its children: c3, e3, c5)"
    );
    let too_deep = Limits {
        depth: Some(1),
        ..limits
    };
    assert!(matches!(
        Tree::from_output(&output, Some(root), &too_deep),
        Err(TreeError::FocusBelowDepth { .. })
    ));
}

#[test]
fn a_node_limit_keeps_the_first_nodes_with_all_their_lines() {
    let limits = Limits {
        max_nodes: 4,
        ..everything()
    };
    let tree = tree_of("handout/s2017-example/input.txt", &limits);
    assert_eq!(tree.nodes.len(), 4);
    assert_eq!(tree.dropped.count, 11);
    // The root and d3 keep every line they printed, also those after the limit.
    assert_eq!(tree.nodes[0].prints.len(), 5);
    assert_eq!(tree.nodes[0].hidden, 3 + 7, "c4, f5, e6 and their children");
    assert_eq!(tree.nodes[1].hidden, 1, "c5");
    assert_eq!(
        tree.nodes[0].cut, None,
        "a root never cuts off, kept or not"
    );
}

#[test]
fn a_students_log_without_the_input() {
    // The handout's typo: c4 prints beta already updated; no boards, so the cut-off
    // is shown without the names of the moves it skipped.
    let text =
        case("handout/s2017-example/output.txt").replace("c4,1,-3,-3,Infinity", "c4,1,-3,-3,-3");
    let tree = Tree::from_output(&text, None, &everything()).unwrap();
    let c4 = node_at(&tree, "root > c4");
    assert!(tree.nodes[c4].position.is_none());
    assert_eq!(tree.nodes[c4].cut.as_ref().unwrap().skipped, None);
    assert_eq!(
        tree.cut_text(c4).unwrap(),
        "c3 returned -3 <= alpha -3 at this MIN node: the moves after it, if any, were not \
         searched (the input names them)"
    );
}

#[test]
fn an_illegal_move_has_no_board() {
    let input = case("handout/s2017-example/input.txt");
    let problem = cs561::parse(input.as_bytes(), None).unwrap();
    let text = case("handout/s2017-example/output.txt")
        .replace("e3,2,0,-Infinity,-3", "a1,2,0,-Infinity,-3");
    let tree = Tree::from_output(&text, Some(Position::root(&problem)), &everything()).unwrap();
    let a1 = node_at(&tree, "root > d3 > a1");
    assert!(tree.nodes[a1].illegal && tree.nodes[a1].position.is_none());
    assert!(tree
        .outline()
        .contains("    a1 MAX #4 [14: 0,-Infinity,-3] not-a-legal-move\n"));
}

#[test]
fn a_broken_log_is_refused() {
    let text = "Node,Depth,Value,Alpha,Beta\nroot,0,-Infinity,-Infinity,Infinity\nc3,2,1,2,3";
    let error = Tree::from_output(text, None, &everything()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 3: c3 at depth 2 has no parent at depth 1"
    );
    let no_depth = "Node,Depth,Value,Alpha,Beta\nroot,x,1";
    assert_eq!(
        Tree::from_output(no_depth, None, &everything())
            .unwrap_err()
            .to_string(),
        "line 2: expected name,depth,value,..."
    );
    assert_eq!(
        Tree::from_output("Node,Depth,Value,Alpha,Beta\n", None, &everything()),
        Err(TreeError::Empty)
    );
    let escaped = "Node,Depth,Value,Alpha,Beta\nroot,0,1\n\u{1b}[2J,3,1";
    assert_eq!(
        Tree::from_output(escaped, None, &everything())
            .unwrap_err()
            .to_string(),
        "line 3: \\u{1b}[2J at depth 3 has no parent at depth 2"
    );
}

#[test]
fn a_missing_line_marks_the_node_printed_before_it() {
    // A log that stops before the root's last line (line 38): the difference is
    // marked on e6, printed last, on line 37.
    let text = case("handout/s2017-example/output.txt");
    let cut: Vec<&str> = text.split("\r\n").take(37).collect();
    let mut tree = Tree::from_output(&cut.join("\r\n"), None, &everything()).unwrap();
    let e6 = tree.mark_line(38).unwrap();
    assert_eq!(tree.path_text(e6), "root > e6");
    assert_eq!(tree.differs, Some(e6));
    assert_eq!(tree.mark_line(3), None, "no node is printed before the log");
}

#[test]
fn outline_text_from_a_log_is_escaped_for_terminals() {
    let text = case("handout/s2017-example/output.txt").replace("\r\nc5,2,", "\r\nc\u{1b}[2J5,2,");
    let tree = Tree::from_output(&text, None, &everything()).unwrap();
    let outline = tree.outline();
    assert!(!outline.contains('\u{1b}'));
    assert!(outline.contains("c\\u{1b}[2J5 MAX #5"));
}

#[test]
fn the_page_is_self_contained_and_escapes_what_the_log_says() {
    let text = case("handout/s2017-example/output.txt").replacen(
        "\r\nc3,2,",
        "\r\n</script><img src=x onerror=alert(1)>,2,",
        1,
    );
    let tree = Tree::from_output(&text, None, &everything()).unwrap();
    let page_text = PageText {
        title: "example <1>".into(),
        notes: vec!["a note & more".into()],
        ..PageText::default()
    };
    let page = html(&tree, None, &page_text);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<title>example &lt;1&gt;</title>"));
    assert!(page.contains(r#"<div class="note">a note &amp; more</div>"#));
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "the data and the script"
    );
    assert!(page.contains(r#""\u003c/script>\u003cimg src=x onerror=alert(1)>""#));
    for reference in ["http:", "https:", "src=\"", "<link", "@import", "url("] {
        assert!(!page.contains(reference), "{reference}");
    }
}

#[test]
fn the_page_data() {
    // The compact form the script reads (see page.rs): case1 is small.
    let tree = tree_of("cs561/s2017/case1/input.txt", &everything());
    let (_, root) = solved(&case("cs561/s2017/case1/input.txt"));
    insta::assert_snapshot!(data(&tree, Some(root), None, None));
}

fn reversi(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn command_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let out = reversi(&["tree", &input, "-o", "t.html"], dir.path());
    assert!(out.status.success());
    let page = fs::read_to_string(dir.path().join("t.html")).unwrap();
    assert!(page.contains(r#"<script type="application/json" id="data">"#));
    let text = reversi(&["tree", &input, "--text"], dir.path());
    assert!(String::from_utf8_lossy(&text.stdout).starts_with("root MAX #1"));
    let shallow = reversi(&["tree", &input, "--text", "--depth", "1"], dir.path());
    // 5 nodes, 4 counts of nodes not kept, and the cut-offs found all the same: c4's
    // with its 2 skipped moves, f5's, e6's.
    assert_eq!(
        String::from_utf8_lossy(&shallow.stdout).lines().count(),
        5 + 4 + 5
    );
    let focused = reversi(&["tree", &input, "--text", "--focus", "c4"], dir.path());
    let focused = String::from_utf8_lossy(&focused.stdout);
    assert!(focused.contains("  d3 MIN #2 ") && focused.contains("    +3 not kept"));
    let missing = reversi(&["tree", &input, "--focus", "d3 h8"], dir.path());
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr),
        "reversi: our output: --focus d3 h8: root > d3 has no child h8 (its children: c3, e3, c5)\n"
    );
    let limited = reversi(&["tree", &input, "--max-nodes", "3", "-o", "-"], dir.path());
    assert!(String::from_utf8_lossy(&limited.stdout)
        .contains("This page shows the first 3 of the log's 15 nodes"));
}

#[test]
fn without_an_input_argument_it_reads_input_txt_like_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    let missing = reversi(&["tree", "--text"], dir.path());
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
    let found = reversi(&["tree", "--text"], dir.path());
    assert!(found.status.success());
    let named = reversi(&["tree", "input.txt", "--text"], dir.path());
    assert_eq!(found.stdout, named.stdout);
    assert!(String::from_utf8_lossy(&found.stdout).contains("e3, c5 were not searched"));
}

#[test]
fn a_students_log_with_its_input_opens_where_it_differs() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        case("handout/s2017-example/output.txt").replace("c4,1,-3,-3,Infinity", "c4,1,-3,-3,-3");
    fs::write(dir.path().join("student.txt"), text).unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let outline = reversi(
        &["tree", &input, "--log", "student.txt", "--text"],
        dir.path(),
    );
    let outline = String::from_utf8(outline.stdout).unwrap();
    assert_eq!(outline.matches("DIFFERS").count(), 1);
    assert!(outline.contains("  c4 MIN #6 [19: Infinity,-3,Infinity | 21: -3,-3,-3] DIFFERS\n"));
    let page = reversi(
        &["tree", &input, "--log", "student.txt", "-o", "-"],
        dir.path(),
    );
    let page = String::from_utf8(page.stdout).unwrap();
    assert!(page.contains(
        // (the handout's typo at c4 alone: no program of the catalogue writes it, but
        // the student's own tree shows it: c4 prunes, its next line says so, and prints
        // its beta updated)
        "First difference from our output: line 21, at root &gt; c4 (outlined in red): \
         alpha/beta updated at a cutoff (the handout's typo)"
    ));
    assert!(page.contains("\"openAt\":5,\n\"differs\":5,"));
}

#[test]
fn a_log_from_another_case_warns_as_check_does() {
    let dir = tempfile::tempdir().unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let other = case_path("cs561/s2017/case1/output.txt");
    let out = reversi(&["tree", &input, "--log", &other, "--text"], dir.path());
    assert!(out.status.success());
    let warning = format!(
        "reversi: warning: {}: boards are drawn down to the first move that is not legal \
         (marked); if the log is from another case, name that case's input\n",
        reversi::explain::check::input_does_not_fit("this log")
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), warning);
    let ours = case_path("handout/s2017-example/output.txt");
    let fits = reversi(&["tree", &input, "--log", &ours, "--text"], dir.path());
    assert!(fits.stderr.is_empty());
}

#[test]
fn a_difference_past_the_node_limit_is_focused_on() {
    // The root's last line differs; with room for 3 nodes the page focuses on it.
    let dir = tempfile::tempdir().unwrap();
    let text = case("handout/s2017-example/output.txt").replace("e6,1,-3,-3,0", "e6,1,-3,-3,7");
    fs::write(dir.path().join("student.txt"), text).unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let outline = reversi(
        &[
            "tree",
            &input,
            "--log",
            "student.txt",
            "--max-nodes",
            "3",
            "--text",
        ],
        dir.path(),
    );
    let outline = String::from_utf8(outline.stdout).unwrap();
    assert!(outline.contains("  e6 MIN #12 [31: Infinity,-3,Infinity | 33: 0,-3,0 | 35: 0,-3,0 | 37: -3,-3,7] DIFFERS"), "{outline}");
}

#[test]
fn a_difference_outside_the_log_is_explained_in_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let ours = case("handout/s2017-example/output.txt");
    let mut board = ours.split("\r\n").collect::<Vec<_>>();
    board[1] = "***X****";
    fs::write(dir.path().join("board.txt"), board.join("\r\n")).unwrap();
    fs::write(dir.path().join("lf.txt"), ours.replace("\r\n", "\n")).unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let page = |log: &str| {
        let out = reversi(&["tree", &input, "--log", log, "-o", "-"], dir.path());
        String::from_utf8(out.stdout).unwrap()
    };
    let board = page("board.txt");
    assert!(board.contains(
        "<div class=\"difference\" id=\"difference\">First difference from our output: \
         line 2: wrong next board</div>\n<div class=\"note\">the next board is the one after d3"
    ));
    assert!(board.contains("\"differs\":-1,"));
    assert!(page("lf.txt").contains(
        "<div class=\"note\">The same lines as our output, but not the same bytes: expected \
         CRLF"
    ));
}

#[test]
fn a_students_tree_against_ours() {
    use reversi::explain::check::tree_changes;
    use reversi::tree::diff::Diff;
    let (ours, root) = solved(&case("handout/s2017-example/input.txt"));
    let limits = everything();
    let our_tree = Tree::from_output(&ours, Some(root), &limits).unwrap();
    // Strict pruning: e3 and c5 after c4's cut-off are extra, c4 cuts off elsewhere.
    let strict = case("handout/students/strict-pruning.txt");
    let drawn = Tree::from_output(&strict, Some(root), &limits).unwrap();
    let diff = Diff::new(
        &drawn,
        Some(&our_tree),
        &tree_changes(ours.as_bytes(), strict.as_bytes()),
    );
    let paths = |nodes: Vec<usize>| -> Vec<String> {
        nodes.into_iter().map(|n| drawn.path_text(n)).collect()
    };
    assert_eq!(
        paths(diff.extra.clone()),
        ["root > c4 > e3", "root > c4 > c5"]
    );
    assert_eq!(
        paths(diff.changed.iter().map(|(n, _)| *n).collect()),
        ["root > c4", "root > f5", "root > e6"]
    );
    assert_eq!(
        diff.our_cuts,
        [(
            node_at(&drawn, "root > c4"),
            "ours: ✂ c3 returned -3 <= alpha -3 at this MIN node: e3, c5 were not searched"
                .to_string()
        )]
    );
    assert!(diff.missing.is_empty());
    // Pruned too early at d3: e3 and c5 are ours alone, hung under d3.
    let early: String = ours
        .split("\r\n")
        .enumerate()
        .filter(|&(i, _)| !(13..=16).contains(&i))
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\r\n");
    let drawn = Tree::from_output(&early, Some(root), &limits).unwrap();
    let diff = Diff::new(
        &drawn,
        Some(&our_tree),
        &tree_changes(ours.as_bytes(), early.as_bytes()),
    );
    let d3 = node_at(&drawn, "root > d3");
    let missing: Vec<(usize, &str, u64)> = diff
        .missing
        .iter()
        .map(|m| (m.under, m.name.as_str(), m.below))
        .collect();
    assert_eq!(missing, [(d3, "e3", 0), (d3, "c5", 0)]);
    assert_eq!(diff.missing[0].lines, ["e3,2,0,-Infinity,-3"]);
}

/// A log that skips children ours searches marks, as where the trees part, the node
/// those children hang under (d3), not the last node printed before them.
#[test]
fn missing_children_mark_the_node_they_hang_under() {
    let dir = tempfile::tempdir().unwrap();
    let expected = fs::read(case_path("handout/s2017-example/output.txt")).unwrap();
    let lines: Vec<&[u8]> = expected.split(|&b| b == b'\n').collect();
    // Lines 14-17: e3 and c5 under d3, and d3 after each.
    let kept: Vec<&[u8]> = lines[..13].iter().chain(&lines[17..]).copied().collect();
    fs::write(dir.path().join("log.txt"), kept.join(&b'\n')).unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let output = reversi(
        &["tree", &input, "--log", "log.txt", "--text", "--depth", "1"],
        dir.path(),
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let marked: Vec<&str> = text.lines().filter(|l| l.ends_with("DIFFERS")).collect();
    assert_eq!(marked.len(), 1, "{text}");
    assert!(marked[0].trim_start().starts_with("d3 MIN"), "{text}");
}

//! `reversi tree`'s pages in a real browser: headless Chromium, driven through
//! chromedriver (WebDriver) by fantoccini. The tests click to open and close nodes,
//! press keys, step through the log, search, and read the DOM; they save
//! screenshots under `target/tree-screenshots/`.
//!
//! WebDriver rather than `chromium --dump-dom`: a dump shows the page once, after
//! loading, while these tests need real clicks (which WebDriver refuses on an
//! element that is hidden or covered) and key presses, and the DOM after each.
//! Chromium and chromedriver are Debian's `chromium` and `chromium-driver`, which
//! `make test` installs; without them these tests fail, they do not skip.

use std::fs;

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::json;

use reversi::explain::check::input_does_not_fit;
use reversi::explain::replay::Position;
use reversi::format::cs561;
use reversi::tree::{Limits, Tree};

#[path = "tree_browser/browser.rs"]
mod browser;
use browser::*;

#[test]
fn the_handout_example_explains_its_cut_offs_and_steps_through_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let url = page(dir.path(), "handout", &[&input]);
    let (tree, root) = tree_of(&case("handout/s2017-example/input.txt"), None);
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        // Every cut-off explained under its node, in the same words as the outline.
        let cuts: Vec<String> = (0..tree.nodes.len())
            .filter_map(|n| tree.cut_text(n))
            .map(|text| format!("✂ {text}"))
            .collect();
        assert_eq!(texts(&client, ".row.cutrow .text").await, cuts);
        assert_eq!(
            cuts[0],
            "✂ c3 returned -3 <= alpha -3 at this MIN node: e3, c5 were not searched"
        );
        assert_eq!(texts(&client, ".row.skip .name").await, ["e3", "c5"]);
        // The child that caused each cut-off is marked, and its edge drawn as the cause.
        let c4 = node_at(&tree, "root > c4");
        let c4_c3 = node_at(&tree, "root > c4 > c3");
        let causes = texts(&client, ".row.node:has(.badge.cause) .name").await;
        assert_eq!(causes, ["c3", "f6", "f6"]);
        let edges = js(
            &client,
            &format!(
                "return document.querySelectorAll('{} .line.h.cause').length",
                row(c4_c3)
            ),
        )
        .await;
        assert_eq!(edges, json!(1));
        // Each node shows the order of its visit and every line it printed.
        let c4_text = text(&client, &row(c4)).await;
        assert!(
            c4_text.contains("#6") && c4_text.contains("lines 19, 21"),
            "{c4_text}"
        );
        // 15 nodes, 3 cut-off rows, 2 skipped moves; closing c4 hides 4 rows.
        assert_eq!(tree_attribute(&client, "data-rows").await, 20);
        click(&client, &format!("{} .tog", row(c4))).await;
        assert_eq!(tree_attribute(&client, "data-rows").await, 16);
        assert_eq!(
            texts(&client, ".row.skip .name").await,
            Vec::<String>::new()
        );
        click(&client, &format!("{} .tog", row(c4))).await;
        assert_eq!(tree_attribute(&client, "data-rows").await, 20);
        // Keys: down to d3, left closes it, right opens it again.
        click(&client, &format!("{} .name", row(0))).await;
        press(&client, Key::Down).await;
        assert_eq!(selected(&client).await, node_at(&tree, "root > d3"));
        assert_eq!(text(&client, "#detail h2").await, "root > d3");
        press(&client, Key::Left).await;
        assert_eq!(tree_attribute(&client, "data-rows").await, 17);
        press(&client, Key::Right).await;
        assert_eq!(tree_attribute(&client, "data-rows").await, 20);
        // The step through the log: each line in turn, the node and what changed.
        click(&client, "#step-first").await;
        assert!(text(&client, "#step-status")
            .await
            .starts_with("line 10 (1 of 29)"));
        assert_eq!(selected(&client).await, 0);
        click(&client, "#step-next").await;
        click(&client, "#step-next").await;
        click(&client, "#step-next").await;
        let status = text(&client, "#step-status").await;
        assert!(
            status.starts_with("line 13 (4 of 29): d3,1,-3,-Infinity,-3")
                && status.contains("back at root > d3: v ∞ → -3, β ∞ → -3 — "),
            "{status}"
        );
        let d3 = node_at(&tree, "root > d3");
        assert_eq!(texts(&client, ".row.current .name").await, ["d3"]);
        assert_eq!(
            texts(&client, &format!("{} .changed", row(d3))).await,
            ["v -3", "β -3"]
        );
        assert_eq!(
            texts(&client, ".row.future .name").await[..3],
            ["e3", "c5", "c4"],
            "nodes not visited yet are faded"
        );
        click(&client, "#step-last").await;
        assert!(texts(&client, ".row.current").await.is_empty());
        // A node's board, replayed in the page, is the one the rules give.
        let d3_c3 = node_at(&tree, "root > d3 > c3");
        click(&client, &format!("{} .name", row(d3_c3))).await;
        let board = client.find(Locator::Id("board")).await.unwrap();
        let cells = root.at(&["root", "d3", "c3"]).unwrap().cells();
        assert_eq!(board.attr("data-cells").await.unwrap(), Some(cells));
        screenshot(&client, "handout").await;
    });
}

#[test]
fn a_depth_6_tree_draws_only_the_rows_on_screen_and_finds_a_path() {
    let dir = tempfile::tempdir().unwrap();
    let start = case("handout/s2017-example/input.txt").replacen("\r\n2\r\n", "\r\n6\r\n", 1);
    let input = dir.path().join("input.txt");
    fs::write(&input, &start).unwrap();
    let url = page(dir.path(), "depth6", &[input.to_str().unwrap()]);
    let (tree, _) = tree_of(&start, None);
    assert!(tree.nodes.len() > 1000, "{}", tree.nodes.len());
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        screenshot(&client, "depth-6").await;
        let drawn = tree_attribute(&client, "data-drawn").await;
        assert!(drawn < 60, "{drawn} rows drawn");
        // A path typed in the search box: opened, selected and scrolled to.
        let target = tree.nodes[tree.nodes.len() - 1].parent.unwrap();
        let path = tree.path(target)[1..].join(" ");
        let search = client.find(Locator::Id("search")).await.unwrap();
        search.send_keys(&path).await.unwrap();
        click(&client, "#search-form button").await;
        assert_eq!(selected(&client).await, target);
        assert_eq!(text(&client, "#detail h2").await, tree.path_text(target));
        let visible = js(
            &client,
            "const r = document.querySelector('.row.selected .box').getBoundingClientRect(); \
             const t = document.getElementById('tree').getBoundingClientRect(); \
             return r.top >= t.top && r.bottom <= t.bottom",
        )
        .await;
        assert_eq!(visible, json!(true), "the node found is on screen");
        // A path the tree does not have is answered with the children it does have.
        search.clear().await.unwrap();
        search.send_keys("d3 h8").await.unwrap();
        search.send_keys(&Key::Enter.to_string()).await.unwrap();
        assert_eq!(
            text(&client, "#search-message").await,
            "root > d3 has no child h8 here (its children: c3, e3, c5)"
        );
        // Everything open: tens of thousands of rows, still only a screenful drawn.
        click(&client, "#expand-all").await;
        let rows = tree_attribute(&client, "data-rows").await;
        assert!(rows > tree.nodes.len(), "{rows}");
        assert!(tree_attribute(&client, "data-drawn").await < 60);
        click(&client, "#tree").await;
        press(&client, Key::End).await;
        assert_eq!(selected(&client).await, tree.nodes.len() - 1);
        click(&client, "#collapse-all").await;
        assert_eq!(
            tree_attribute(&client, "data-rows").await,
            1 + tree.nodes[0].children.len()
        );
    });
}

#[test]
fn a_students_log_opens_on_its_first_difference_with_both_lines_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let typo =
        case("handout/s2017-example/output.txt").replace("c4,1,-3,-3,Infinity", "c4,1,-3,-3,-3");
    let log = dir.path().join("student.txt");
    fs::write(&log, &typo).unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let url = page(
        dir.path(),
        "student",
        &[&input, "--log", log.to_str().unwrap()],
    );
    let (tree, _) = tree_of(&case("handout/s2017-example/input.txt"), Some(&typo));
    let c4 = node_at(&tree, "root > c4");
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        screenshot(&client, "student-mistake").await;
        assert_eq!(
            text(&client, "#difference").await,
            "First difference from our output: line 21, at root > c4 (outlined in red): alpha/beta \
             updated at a cutoff (the handout's typo)"
        );
        // The node the header names is the one outlined, selected and shown.
        assert_eq!(selected(&client).await, c4);
        let outlined = texts(&client, ".row.differs .name").await;
        assert_eq!(outlined, ["c4"]);
        assert_eq!(text(&client, "#detail h2").await, "root > c4");
        let row_text = text(&client, &row(c4)).await;
        assert!(
            row_text.contains("expected: c4,1,-3,-3,Infinity")
                && row_text.contains("yours: c4,1,-3,-3,-3"),
            "{row_text}"
        );
        let table = texts(&client, "#detail table.compare tr").await;
        assert_eq!(
            table,
            ["nodedepthvαβ", "expectedc41-3-3Infinity", "yoursc41-3-3-3"]
        );
        assert_eq!(
            texts(&client, "#detail .compare td.diff").await,
            ["Infinity", "-3"]
        );
        // The side panel names the mistake once, in the explanation's first sentence.
        let explain = text(&client, "#detail .compare .explain").await;
        let label = "alpha/beta updated at a cutoff (the handout's typo)";
        assert_eq!(explain.matches(label).count(), 1, "{explain}");
        assert!(explain.starts_with("At c4 (line 21): "), "{explain}");
    });
}

#[test]
fn the_side_tables_show_every_column_at_1400_by_900() {
    // A student's line with infinities in every field: the widest the comparison
    // and the node's own table get.
    let dir = tempfile::tempdir().unwrap();
    let wide = case("handout/s2017-example/output.txt")
        .replace("c4,1,-3,-3,Infinity", "c4,1,-Infinity,-Infinity,-Infinity");
    let log = dir.path().join("student.txt");
    fs::write(&log, &wide).unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let url = page(
        dir.path(),
        "wide",
        &[&input, "--log", log.to_str().unwrap()],
    );
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        screenshot(&client, "wide-side-tables").await;
        assert_eq!(text(&client, "#detail h2").await, "root > c4");
        // Every table (the comparison and the node's lines) ends inside the panel's
        // content box (a collapsed border may stand half a pixel out), and the panel
        // does not scroll sideways.
        let fit = js(
            &client,
            "const aside = document.getElementById('detail');
             const style = getComputedStyle(aside);
             const right = aside.getBoundingClientRect().right - parseFloat(style.paddingRight)
               - (aside.offsetWidth - aside.clientWidth);
             const tables = [...aside.querySelectorAll('table')];
             return [tables.length, aside.scrollWidth <= aside.clientWidth,
                     tables.every(t => t.getBoundingClientRect().right <= right + 1.5)];",
        )
        .await;
        assert_eq!(
            fit,
            json!([2, true, true]),
            "a side table is wider than its panel"
        );
        assert_eq!(
            texts(&client, "#detail table.compare tr").await[2],
            "yoursc41-Infinity-Infinity-Infinity"
        );
    });
}

#[test]
fn a_log_from_another_case_is_drawn_with_the_check_warning_and_escaped() {
    let dir = tempfile::tempdir().unwrap();
    // case1's log, a node renamed with markup, drawn with the handout's input.
    let other = case("cs561/s2017/case1/output.txt").replacen(
        "\r\nc4,1,",
        "\r\n</script><b id=\"injected\">c4</b>,1,",
        1,
    );
    assert!(other.contains("</script>"));
    let log = dir.path().join("other.txt");
    fs::write(&log, &other).unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let url = page(
        dir.path(),
        "other",
        &[&input, "--log", log.to_str().unwrap()],
    );
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        let warning = text(&client, ".warning").await;
        assert!(
            warning.starts_with(&input_does_not_fit("this log")),
            "{warning}"
        );
        assert_eq!(
            js(
                &client,
                "return document.querySelectorAll('#injected').length"
            )
            .await,
            json!(0)
        );
        let names = texts(&client, ".row.node .name").await;
        assert!(
            names.contains(&"</script><b id=\"injected\">c4</b>".to_string()),
            "{names:?}"
        );
        assert!(texts(&client, ".badge.illegal").await.len() == 1);
    });
}

#[test]
fn a_log_past_the_node_limit_says_what_it_shows_and_how_to_narrow_it() {
    let dir = tempfile::tempdir().unwrap();
    let start = case("handout/s2017-example/input.txt").replacen("\r\n2\r\n", "\r\n5\r\n", 1);
    let input = dir.path().join("input.txt");
    fs::write(&input, &start).unwrap();
    let input = input.to_str().unwrap().to_string();
    let url = page(dir.path(), "limited", &[&input, "--max-nodes", "300"]);
    let focused = page(
        dir.path(),
        "focused",
        &[&input, "--max-nodes", "300", "--focus", "f5 f4"],
    );
    let (whole, _) = tree_of(&start, None);
    let visits = whole.visits;
    let problem = cs561::parse(start.as_bytes(), None).unwrap();
    let output = reversi::grading::batch::solve_problem(&problem, Default::default());
    let limits = Limits {
        max_nodes: 300,
        ..Limits::default()
    };
    let root = Some(Position::root(&problem));
    let tree = Tree::from_output(&String::from_utf8(output).unwrap(), root, &limits).unwrap();
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        let notes = texts(&client, ".note").await;
        assert!(
            notes.iter().any(|n| n.starts_with(&format!(
                "This page shows the first 300 of the log's {} nodes",
                reversi::tree::page::group(visits)
            )) && n.contains("--focus \"d3\"")),
            "{notes:?}"
        );
        // The root's children visited after the first 300 nodes are counted under it.
        let hidden = tree.nodes[0].hidden;
        assert!(hidden > 0);
        click(&client, "#tree").await;
        press(&client, Key::End).await;
        let counted = texts(&client, ".row.hidden .text").await;
        assert_eq!(
            counted.last().unwrap(),
            &format!("+{hidden} nodes below not drawn in this page (see the note at the top)")
        );
        press(&client, Key::Home).await;
        click(&client, &format!("{} .tog", row(0))).await;
        assert_eq!(
            texts(&client, &format!("{} .badge.more", row(0))).await,
            [format!("+{hidden} not drawn")]
        );
        client.goto(&focused).await.unwrap();
        assert_eq!(text(&client, "#detail h2").await, "root > f5 > f4");
        let notes = texts(&client, ".note").await;
        assert!(
            notes[0].starts_with("Focused on root > f5 > f4"),
            "{notes:?}"
        );
    });
}

/// Steps from the log's first line to the `index`-th (0-based) with the `n` key.
async fn step_to(client: &Client, index: usize) {
    click(client, "#step-first").await;
    press_text(client, &"n".repeat(index)).await;
}

async fn press_text(client: &Client, keys: &str) {
    if keys.is_empty() {
        return;
    }
    let tree = client.find(Locator::Id("tree")).await.unwrap();
    tree.send_keys(keys).await.unwrap();
}

#[test]
fn stepping_shows_the_state_after_the_line_and_no_later_one() {
    let dir = tempfile::tempdir().unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    let url = page(dir.path(), "steps", &[&input]);
    let (tree, _) = tree_of(&case("handout/s2017-example/input.txt"), None);
    let c4 = node_at(&tree, "root > c4");
    let c4_c3 = node_at(&tree, "root > c4 > c3");
    let f5 = node_at(&tree, "root > f5");
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        // Line 20 (the 11th line of the log): c4's c3 has just returned, c4 has not
        // printed its line after it: nothing says it cuts off.
        step_to(&client, 10).await;
        let status = text(&client, "#step-status").await;
        assert!(
            status.starts_with("line 20 (11 of 29): c3,2,-3,-3,Infinity"),
            "{status}"
        );
        assert!(!status.contains("cut-off"), "{status}");
        assert!(texts(&client, ".row.cutrow").await.is_empty());
        assert!(texts(&client, ".row.skip").await.is_empty());
        assert!(texts(&client, ".badge.cut, .badge.cause").await.is_empty());
        let c4_text = text(&client, &row(c4)).await;
        assert!(c4_text.ends_with("#6line 19"), "{c4_text}");
        // A node the log has not reached says only that.
        let f5_text = text(&client, &row(f5)).await;
        assert!(f5_text.ends_with("f5MINnot visited yet"), "{f5_text}");
        screenshot(&client, "step-line-20").await;
        // Line 21: c4 prints -3 <= alpha -3, the cut-off, and says so.
        press_text(&client, "n").await;
        let why = text(&client, "#step-why").await;
        assert_eq!(
            why,
            "c3 returned -3; v = min(∞, -3) = -3; v -3 <= α -3: cut-off, e3 and c5 are not \
             searched; α, β unchanged: it returns -3"
        );
        assert_eq!(
            texts(&client, ".row.cutrow .text").await,
            ["✂ c3 returned -3 <= alpha -3 at this MIN node: e3, c5 were not searched"]
        );
        assert_eq!(texts(&client, ".row.skip .name").await, ["e3", "c5"]);
        assert_eq!(
            texts(&client, &format!("{} .badge", row(c4_c3))).await,
            ["✂ caused the cut-off"]
        );
        screenshot(&client, "step-line-21").await;
        // Every alpha/beta update is explained at its line: the root after d3.
        step_to(&client, 8).await;
        assert_eq!(
            text(&client, "#step-why").await,
            "d3 returned -3; v = max(-∞, -3) = -3; α = max(-∞, -3) = -3"
        );
        // ... and in the panel, beside each line the node printed so far.
        assert_eq!(
            texts(&client, "#detail table.prints td.why").await,
            [
                "the root: v starts at -∞, α -∞, β ∞",
                "d3 returned -3; v = max(-∞, -3) = -3; α = max(-∞, -3) = -3"
            ]
        );
        // A node entered gets its window from its parent.
        step_to(&client, 1).await;
        assert_eq!(
            text(&client, "#step-why").await,
            "enters: v starts at ∞ (MIN); α -∞, β ∞ passed down from root"
        );
        // After the end, the n key starts again, like the next button.
        click(&client, "#step-last").await;
        assert_eq!(texts(&client, ".row.cutrow").await.len(), 3);
        press_text(&client, "n").await;
        assert!(text(&client, "#step-status")
            .await
            .starts_with("line 10 (1 of 29)"));
        // The key to the discs, and the status in plain words.
        let legend = text(&client, ".legend").await;
        assert!(legend.contains("X: black discs") && legend.contains("O: white discs"));
        assert!(legend.contains("X to move at the root: MAX"), "{legend}");
        assert_eq!(
            text(&client, "#status").await,
            "This page holds 15 of the log's 15 nodes (29 log lines). Opened as now, the tree \
             has 15 rows (nodes, cut-offs, moves not searched); the 15 near the view are drawn."
        );
    });
}

/// Whether the box of the row matching `css` lies inside the tree's view.
async fn in_view(client: &Client, css: &str) -> bool {
    let script = format!(
        "const e = document.querySelector({}); if (!e) return false; \
         const r = e.querySelector('.box').getBoundingClientRect(); \
         const t = document.getElementById('tree').getBoundingClientRect(); \
         return r.top >= t.top && r.bottom <= t.bottom",
        json!(css)
    );
    js(client, &script).await == json!(true)
}

#[test]
fn a_students_tree_is_drawn_against_ours_node_by_node() {
    let dir = tempfile::tempdir().unwrap();
    let input = case_path("handout/s2017-example/input.txt");
    // Strict pruning: e3 and c5 searched after c4's cut-off.
    let strict = case_path("handout/students/strict-pruning.txt");
    let late = page(dir.path(), "late", &[&input, "--log", &strict]);
    // Pruned too early: d3 stops after c3, so e3 and c5 are missing.
    let ours = case("handout/s2017-example/output.txt");
    let lines: Vec<&str> = ours.split("\r\n").collect();
    let early: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| !(13..=16).contains(&i))
        .map(|(_, l)| *l)
        .collect();
    assert_eq!(
        &lines[13..=16],
        [
            "e3,2,0,-Infinity,-3",
            "d3,1,-3,-Infinity,-3",
            "c5,2,0,-Infinity,-3",
            "d3,1,-3,-Infinity,-3"
        ]
    );
    let log = dir.path().join("early.txt");
    fs::write(&log, early.join("\r\n")).unwrap();
    let early = page(
        dir.path(),
        "early",
        &[&input, "--log", log.to_str().unwrap()],
    );
    let (tree, _) = tree_of(
        &case("handout/s2017-example/input.txt"),
        Some(&case("handout/students/strict-pruning.txt")),
    );
    let c4 = node_at(&tree, "root > c4");
    in_chromium(|client| async move {
        client.goto(&late).await.unwrap();
        screenshot(&client, "diff-late").await;
        assert!(text(&client, "#diff-summary")
            .await
            .starts_with("Your tree against ours, node by node: 0 only in ours (missing from yours, green), 2 only in yours (extra, purple), 3 in both"));
        assert_eq!(texts(&client, ".row.extra .name").await, ["e3", "c5"]);
        assert_eq!(
            texts(&client, ".row.changed .name").await,
            ["c4", "f5", "e6"]
        );
        // At c4, our cut-off beside the student's.
        let cut_rows = texts(&client, ".row.cutrow .text").await;
        assert_eq!(
            cut_rows[..2],
            [
                "ours: ✂ c3 returned -3 <= alpha -3 at this MIN node: e3, c5 were not searched",
                "yours: ✂ c5 returned 0, so v = -3 <= alpha -3 at this MIN node: c5 was its last move, so none was skipped"
            ]
        );
        // The difference is selected, in view, its explanation beside it.
        assert_eq!(selected(&client).await, c4);
        assert!(in_view(&client, ".row.differs").await);
        let explain = text(&client, "#detail .compare .explain").await;
        // (no pruning at all writes the same file on this case: check names neither)
        assert!(
            explain.starts_with("At c4 (line 21) 2 known mistakes each write your file")
                && explain.contains("Ambiguous: 2 mistakes"),
            "{explain}"
        );
        assert!(
            explain.contains("(strict-pruning), no pruning at all (no-pruning)"),
            "{explain}"
        );
        client.goto(&early).await.unwrap();
        screenshot(&client, "diff-early").await;
        assert_eq!(texts(&client, ".row.missing .name").await, ["e3", "c5"]);
        let missing = texts(&client, ".row.missing").await;
        assert!(
            missing[0].contains("only in ours: your log never visits it")
                && missing[0].contains("ours prints e3,2,0,-Infinity,-3"),
            "{missing:?}"
        );
        // The check explanation does not ask for the input the page was made with.
        let explained = text(&client, "#detail").await;
        assert!(!explained.contains("--input"), "{explained}");
    });
}

#[test]
fn a_deep_log_wrong_far_down_opens_with_the_difference_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let start = case("handout/s2017-example/input.txt").replacen("\r\n2\r\n", "\r\n6\r\n", 1);
    let input = dir.path().join("input.txt");
    fs::write(&input, &start).unwrap();
    let problem = cs561::parse(start.as_bytes(), None).unwrap();
    let ours = String::from_utf8(reversi::grading::batch::solve_problem(
        &problem,
        Default::default(),
    ))
    .unwrap();
    // Line 1512 of the file gets another value.
    let mut lines: Vec<String> = ours.split("\r\n").map(str::to_string).collect();
    let mut fields: Vec<String> = lines[1511].split(',').map(str::to_string).collect();
    let value: i64 = fields[2].parse().unwrap_or(0);
    fields[2] = (value + 100).to_string();
    lines[1511] = fields.join(",");
    let log = dir.path().join("student.txt");
    fs::write(&log, lines.join("\r\n")).unwrap();
    let url = page(
        dir.path(),
        "deep",
        &[input.to_str().unwrap(), "--log", log.to_str().unwrap()],
    );
    let (tree, _) = tree_of(&start, Some(&lines.join("\r\n")));
    let node = tree.prints.iter().find(|p| p.line == 1512).unwrap().node;
    let path = tree.path_text(node);
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        screenshot(&client, "deep-difference").await;
        let heading = text(&client, "#difference").await;
        assert!(
            heading.starts_with(&format!(
                "First difference from our output: line 1512, at {path}"
            )),
            "{heading}"
        );
        assert_eq!(selected(&client).await, node);
        assert!(
            in_view(&client, ".row.differs").await,
            "the difference is on screen"
        );
        assert_eq!(text(&client, "#detail h2").await, path);
        assert!(text(&client, "#detail .compare .explain")
            .await
            .starts_with("Line 1512 differs"));
        // The path of the rows on top stays above the tree.
        let bar = text(&client, "#pathbar").await;
        assert!(bar.starts_with("in root"), "{bar}");
    });
}

/// Fills the practice page with our answers (from our solver's log, not from the
/// page), `wrong_root_value` giving the root another v.
async fn answer_practice(client: &Client, ours: &Tree, wrong_root_value: Option<&str>) {
    let paths: std::collections::HashMap<String, usize> = (0..ours.nodes.len())
        .map(|n| (ours.path_text(n), n))
        .collect();
    let ticks: Vec<String> = serde_json::from_value(
        js(
            client,
            "return [...document.querySelectorAll('input[type=checkbox]')].map(e => e.dataset.path)",
        )
        .await,
    )
    .unwrap();
    for path in ticks {
        let parent = path.rsplit_once(" > ").map(|(p, _)| p.to_string()).unwrap();
        if !paths.contains_key(&path) && paths.contains_key(&parent) {
            click(
                client,
                &format!("input[type=checkbox][data-path={}]", json!(path)),
            )
            .await;
        }
    }
    let fields: Vec<(String, String)> = serde_json::from_value(
        js(
            client,
            "return [...document.querySelectorAll('input[type=text]')].map(e => [e.dataset.path, e.dataset.field])",
        )
        .await,
    )
    .unwrap();
    for (path, field) in fields {
        let Some(&node) = paths.get(&path) else {
            continue;
        };
        let k: usize = field.parse().unwrap();
        let mut value = ours.last_print(node).unwrap().field(k).unwrap().to_string();
        if let (Some(wrong), 0, 0) = (wrong_root_value, node, k) {
            value = wrong.to_string();
        }
        let css = format!("input[data-path={}][data-field=\"{k}\"]", json!(path));
        let input = client.find(Locator::Css(&css)).await.unwrap();
        input.send_keys(&value).await.unwrap();
    }
}

#[test]
fn practice_grades_a_right_answer_right_and_a_wrong_one_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let url = page(dir.path(), "practice", &["--practice", "--seed", "3"]);
    // Our answers, from our solver's log of the same case.
    let problem = reversi::tree::practice::practice(3).problem;
    let output = reversi::grading::batch::solve_problem(&problem, Default::default());
    let ours = Tree::from_output(
        &String::from_utf8(output).unwrap(),
        Some(Position::root(&problem)),
        &Limits::default(),
    )
    .unwrap();
    let root_line = ours.last_print(0).unwrap().line;
    assert!(ours.nodes.iter().any(|n| n.cut.is_some()));
    in_chromium(|client| async move {
        client.goto(&url).await.unwrap();
        answer_practice(&client, &ours, None).await;
        click(&client, "#check").await;
        let result = text(&client, "#practice-result").await;
        assert!(
            result.starts_with("All ") && result.ends_with(" answers right."),
            "{result}"
        );
        assert!(texts(&client, ".wrong").await.is_empty());
        assert!(!texts(&client, "#practice-log tr.right").await.is_empty());
        screenshot(&client, "practice-right").await;
        client.goto(&url).await.unwrap();
        answer_practice(&client, &ours, Some("99")).await;
        click(&client, "#check").await;
        let result = text(&client, "#practice-result").await;
        assert!(result.starts_with("1 of "), "{result}");
        assert_eq!(
            js(&client, "return [...document.querySelectorAll('input.wrong')].map(e => e.dataset.path + ' ' + e.dataset.field)").await,
            json!(["root 0"])
        );
        // Line by line: the root's last line is the one marked wrong, and says why.
        assert_eq!(
            js(&client, "return [...document.querySelectorAll('#practice-log tr.wrong')].map(e => e.dataset.line)").await,
            json!([root_line.to_string()])
        );
        let why = text(&client, "#practice-log tr.wrong").await;
        assert!(why.contains("✗ v 99, ours "), "{why}");
        screenshot(&client, "practice-wrong").await;
    });
}

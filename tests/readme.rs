//! The README's examples cannot drift: every ```console block is run, each `$ `
//! command by `sh` in a fresh folder that sees the repository's `testcases/`, with
//! `reversi` this build, and its output (stdout and stderr) compared with the lines
//! the README shows. A line `...` stands for any number of lines, and `...` inside a
//! line for any text.

use std::fs;
use std::path::Path;
use std::process::Command;

/// One command of a console block and the output the README shows for it.
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
}

fn examples(readme: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut block: Option<Vec<Example>> = None;
    let mut continued = false;
    for (index, line) in readme.lines().enumerate() {
        match &mut block {
            None if line.trim_start() == "```console" => block = Some(Vec::new()),
            None => {}
            Some(_) if line.trim_start() == "```" => blocks.push(block.take().unwrap()),
            Some(examples) => {
                if continued {
                    let last = examples.last_mut().unwrap();
                    last.command.push('\n');
                    last.command.push_str(line);
                } else if let Some(command) = line.strip_prefix("$ ") {
                    examples.push(Example {
                        line: index + 1,
                        command: command.to_string(),
                        shown: Vec::new(),
                    });
                } else {
                    let last = examples.last_mut().expect("output before a command");
                    last.shown.push(line.to_string());
                }
                continued = line.ends_with('\\');
            }
        }
    }
    blocks
}

/// Whether `actual` matches `shown`, with `...` lines and `...` inside lines as wildcards.
fn matches(shown: &[String], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => match actual.split_first() {
            Some((line, others)) => line_matches(first, line) && matches(rest, others),
            None => false,
        },
    }
}

fn line_matches(shown: &str, actual: &str) -> bool {
    match shown.split_once(" ... ") {
        Some((prefix, suffix)) => {
            actual.starts_with(prefix)
                && actual.ends_with(suffix)
                && actual.len() >= shown.len() - 5
        }
        None => shown.trim_end() == actual.trim_end(),
    }
}

#[test]
fn every_console_example_of_the_readme_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_reversi"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let blocks = examples(&readme);
    assert!(
        blocks.len() >= 5,
        "the README's console blocks were not found"
    );
    for block in blocks {
        // Each block in a fresh folder: commands of a block share it.
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(root.join("testcases"), dir.path().join("testcases")).unwrap();
        for example in block {
            let output = Command::new("sh")
                .arg("-c")
                .arg(format!("{{ {}\n}} 2>&1", example.command))
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&output.stdout);
            let actual: Vec<&str> = text.lines().collect();
            assert!(
                matches(&example.shown, &actual),
                "README.md line {}: `{}` printed\n{text}\nbut the README shows\n{}",
                example.line,
                example.command,
                example.shown.join("\n")
            );
        }
    }
}

#[test]
fn wildcards_match_what_they_should() {
    let shown: Vec<String> = ["a", "...", "z ... end"].map(String::from).to_vec();
    assert!(matches(&shown, &["a", "b", "c", "z 1 2 end"]));
    assert!(matches(&shown, &["a", "z x end"]));
    assert!(!matches(&shown, &["a", "b"]));
    assert!(!matches(&shown, &["b", "z x end"]));
}

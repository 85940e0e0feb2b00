//! The documents' examples cannot drift: every ```console block of README.md and of
//! docs/*.md is run, each `$ ` command by `sh` in a fresh folder that sees the
//! repository's `testcases/`, with `reversi` this build, and its output (stdout and
//! stderr) compared with the lines the document shows. A line `...` stands for any
//! number of lines, and `...` inside a line for any text. Examples too slow for CI or
//! needing special hardware go in ```sh or ```text blocks, which are not run. The
//! README also stays within its length.

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

/// The most lines the README may have: the depth goes to docs/.
const README_MAX_LINES: usize = 450;

/// Runs every console block of the document `name` (relative to the repository).
fn run_console_blocks(name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let document = fs::read_to_string(root.join(name)).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_reversi"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for block in examples(&document) {
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
                "{name} line {}: `{}` printed\n{text}\nbut the document shows\n{}",
                example.line,
                example.command,
                example.shown.join("\n")
            );
        }
    }
}

/// The documents under docs/, by name.
fn documents() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_console_example_of_the_readme_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        examples(&readme).len() >= 5,
        "the README's console blocks were not found"
    );
    run_console_blocks("README.md");
}

#[test]
fn every_console_example_of_the_documents_prints_what_it_shows() {
    let names = documents();
    assert!(
        names.len() >= 5,
        "the documents under docs/ were not found: {names:?}"
    );
    for name in names {
        run_console_blocks(&name);
    }
}

#[test]
fn the_readme_stays_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lines = fs::read_to_string(root.join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the depth to docs/"
    );
}

/// Links from README.md and docs/*.md to files of the repository lead somewhere.
#[test]
fn links_to_documents_lead_to_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names = documents();
    names.push("README.md".into());
    for name in names {
        let text = fs::read_to_string(root.join(&name)).unwrap();
        let folder = root.join(&name).parent().unwrap().to_path_buf();
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let target = &rest[..rest.find(')').unwrap_or(rest.len())];
            let file = target.split('#').next().unwrap();
            if file.is_empty() || file.contains("://") {
                continue;
            }
            assert!(
                folder.join(file).exists(),
                "{name}: the link to {target} leads to no file"
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

/// `reversi --help` and the README agree: every command of the list and every option
/// of the solver is in the README.
#[test]
fn the_readme_names_every_command_and_solver_option() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let help = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let commands = help
        .split("Commands:\n")
        .nth(1)
        .expect("a command list")
        .split("\n\n")
        .next()
        .unwrap();
    let names: Vec<&str> = commands
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|&name| name != "help")
        .collect();
    assert!(names.contains(&"engine"), "{names:?}");
    for name in names {
        assert!(
            readme.contains(&format!("reversi {name}")),
            "`reversi {name}` is in `reversi --help` but not in the README"
        );
    }
    let options = help.split("Options:\n").nth(1).expect("an option list");
    for word in options.split_whitespace() {
        let Some(option) = word.strip_prefix("--") else {
            continue;
        };
        let option = option.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
        if option.is_empty() || option == "help" || option == "version" {
            continue;
        }
        assert!(
            readme.contains(&format!("--{option}")),
            "--{option} is in `reversi --help` but not in the README"
        );
    }
}

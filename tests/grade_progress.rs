//! `grade`'s progress on a terminal: cases done of all, cases a second, the time
//! left, students done and the one being graded, its name escaped.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;

use std::fs;
use std::process::{Command, Stdio};

use sandboxed::{pty, root, BIN};

#[test]
fn the_progress_of_a_class_shows_on_a_terminal_with_names_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for name in ["ann", "evil\u{1b}[2J"] {
        let folder = class.join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("hw.sh"), format!("sleep 0.4; exec {BIN}\n")).unwrap();
    }
    let (master, slave) = pty();
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut file = fs::File::from(master);
        // Until the grader closes its side (EIO once no process holds the slave).
        let _ = std::io::Read::read_to_end(&mut file, &mut seen);
        seen
    });
    let output = Command::new(BIN)
        .args(["grade", class.to_str().unwrap(), "--cases"])
        .arg(root().join("testcases/cs561/s2017"))
        .args([
            "--run",
            "sh {submission}/hw.sh",
            "--read-only",
            BIN,
            "-j",
            "1",
        ])
        .stdin(Stdio::null())
        .stderr(Stdio::from(slave))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let seen = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert!(
        seen.contains(" cases, ") && seen.contains(" left; ") && seen.contains("/2 students"),
        "{seen:?}"
    );
    assert!(seen.contains("now ann"), "{seen:?}");
    assert!(seen.contains("now evil\\u{1b}[2J"), "{seen:?}");
    assert!(!seen.contains("\u{1b}[2J"), "{seen:?}");
    // The rows on stdout, whole.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("ann "), "{stdout}");
}

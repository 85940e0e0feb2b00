//! `reversi grade` without `--run`: each submission graded by what it holds (Python 2
//! or 3, Java compiled with javac, C++ with g++), with real compilers and
//! interpreters; an interpreter the sandbox cannot see refused before any case; and
//! paths with spaces in `grade --run` and `batch --against`.

#[path = "common/grading.rs"]
mod grading;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use grading::{official, reversi, text, BIN};

/// Python 2.7 as pyenv installs it (in root's private home), where present.
const PYTHON2: &str = "/root/.pyenv/versions/2.7.18";

/// A class whose programs, in each language, start this binary (shown to them
/// read-only), so each passes if its language is built and run right.
fn class(dir: &Path) {
    let write = |path: &str, text: String| {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write(
        "py3/hw1cs561s2017.py",
        format!("import subprocess, sys\nsys.exit(subprocess.call([{BIN:?}]))\n"),
    );
    write(
        "java nested/hw1/agent.java",
        format!(
            "public class agent {{ public static void main(String[] a) throws Exception {{\n\
             Process p = new ProcessBuilder({BIN:?}).inheritIO().start();\n\
             System.exit(p.waitFor()); }} }}\n"
        ),
    );
    write("java nested/hw1/Helper.java", "class Helper {}\n".into());
    write(
        "cpp/main.cpp",
        format!(
            "#include <unistd.h>\nint main() {{ execl({BIN:?}, \"reversi\", (char *)0); \
             return 1; }}\n"
        ),
    );
    write("cpp-error/main.cpp", "int main() { return x; }\n".into());
    write("empty/readme.txt", "my program is on my laptop\n".into());
}

fn grade(class: &Path, extra: &[&str]) -> Output {
    grade_in(class, extra, None)
}

/// `grade` with `TMPDIR` set to `tmp`, if given.
fn grade_in(class: &Path, extra: &[&str], tmp: Option<&Path>) -> Output {
    let cases = official();
    let mut args = vec![
        "grade",
        class.to_str().unwrap(),
        "--cases",
        cases.to_str().unwrap(),
        "--read-only",
        BIN,
        "--timeout",
        "10",
    ];
    args.extend_from_slice(extra);
    let mut command = Command::new(BIN);
    if let Some(tmp) = tmp {
        command.env("TMPDIR", tmp);
    }
    command.args(&args).output().unwrap()
}

#[test]
fn a_mixed_class_is_graded_by_what_each_submission_holds() {
    let dir = tempfile::tempdir().unwrap();
    class(dir.path());
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("class.csv");
    let reports = out.path().join("reports");
    let tmp = out.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let output = grade_in(
        dir.path(),
        &[
            "--csv",
            csv.to_str().unwrap(),
            "--reports",
            reports.to_str().unwrap(),
        ],
        Some(&tmp),
    );
    // Nothing of the builds or the runs stays behind.
    assert_eq!(fs::read_dir(&tmp).unwrap().count(), 0);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{stdout}"))
            .to_string()
    };
    for passing in ["py3 ", "java nested ", "cpp "] {
        assert!(row(passing).contains("5/5 passed"), "{stdout}");
    }
    assert!(
        row("cpp-error").contains("COMPILE ERROR: the build failed (exit status 1)")
            && row("cpp-error").contains("was not declared"),
        "{stdout}"
    );
    assert!(
        row("empty").contains("MISSING FILE: no hw1cs561s2017.py, *.java or *.cpp"),
        "{stdout}"
    );
    // The report says where the program was found, and what it is.
    let java = fs::read_to_string(reports.join("java nested.txt")).unwrap();
    assert!(
        java.contains("Program:   hw1/agent.java (Java, one folder down)"),
        "{java}"
    );
    let cpp = fs::read_to_string(reports.join("cpp-error.txt")).unwrap();
    assert!(cpp.contains("Program:   main.cpp (C++)"), "{cpp}");
    assert!(cpp.contains("COMPILE ERROR: "), "{cpp}");
    // Every student has every case, a build failure as COMPILE ERROR in each.
    let table = fs::read_to_string(&csv).unwrap();
    let line = table.lines().find(|l| l.starts_with("cpp-error")).unwrap();
    assert!(line.ends_with(&",COMPILE ERROR".repeat(5)), "{table}");
    let line = table.lines().find(|l| l.starts_with("empty")).unwrap();
    assert!(line.ends_with(&",MISSING FILE".repeat(5)), "{table}");
}

#[test]
fn python2_by_its_shebang_runs_where_the_sandbox_shows_it() {
    let python = Path::new(PYTHON2).join("bin/python2.7");
    if !python.is_file() {
        eprintln!("skipped: no Python 2.7 at {PYTHON2}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("ann/hw1cs561s2017.py");
    fs::create_dir_all(program.parent().unwrap()).unwrap();
    fs::write(
        &program,
        format!(
            "#!/usr/bin/env python2\nimport subprocess, sys\nprint >>sys.stderr, 'py2'\n\
             sys.exit(subprocess.call([{BIN:?}]))\n"
        ),
    )
    .unwrap();
    let python = python.to_str().unwrap();
    // Not shown: refused before any case, naming the folder to show.
    let refused = grade(dir.path(), &["--python2", python]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = text(&refused.stderr);
    assert!(
        stderr.contains(&format!("show it with --read-only {PYTHON2}")),
        "{stderr}"
    );
    assert!(refused.stdout.is_empty());
    let output = grade(dir.path(), &["--python2", python, "--read-only", PYTHON2]);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("5/5 passed"),
        "{stdout}{}",
        text(&output.stderr)
    );
}

/// As root: under a separate user, an interpreter in root's private home cannot be
/// reached whatever is shown: refused up front, not a CRASH per case.
#[test]
fn an_interpreter_a_separate_user_cannot_reach_is_refused() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: a separate user needs root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let bin = home.join("python/bin");
    fs::create_dir_all(&bin).unwrap();
    fs::copy("/bin/true", bin.join("python2")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&home, fs::Permissions::from_mode(0o700)).unwrap();
    let class = dir.path().join("class");
    fs::create_dir_all(class.join("ann")).unwrap();
    fs::write(class.join("ann/hw1cs561s2017.py"), "#!/usr/bin/python2\n").unwrap();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    for case in ["case1", "case2"] {
        fs::create_dir(cases.join(case)).unwrap();
        for file in ["input.txt", "output.txt"] {
            fs::copy(
                official().join(case).join(file),
                cases.join(case).join(file),
            )
            .unwrap();
        }
    }
    for path in [dir.path(), &class, &class.join("ann")] {
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }
    fs::set_permissions(&cases, fs::Permissions::from_mode(0o700)).unwrap();
    let python = bin.join("python2");
    let output = reversi(&[
        "grade",
        class.to_str().unwrap(),
        "--cases",
        cases.to_str().unwrap(),
        "--sandbox",
        "separate-user",
        "--python2",
        python.to_str().unwrap(),
        "--read-only",
        home.join("python").to_str().unwrap(),
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot reach this program") && stderr.contains("is mode 700"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn paths_with_spaces_work_in_grade_and_batch() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("class/ann lee");
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join("my hw.sh"), format!("exec {BIN}\n")).unwrap();
    for run in [
        "sh \"{submission}/my hw.sh\"",
        "sh '{submission}/my hw.sh'",
        "sh {submission}/my\\ hw.sh",
    ] {
        let cases = official();
        let output = reversi(&[
            "grade",
            dir.path().join("class").to_str().unwrap(),
            "--cases",
            cases.to_str().unwrap(),
            "--run",
            run,
            "--read-only",
            BIN,
        ]);
        let stdout = text(&output.stdout);
        assert!(
            stdout.contains("5/5 passed"),
            "{run}: {stdout}{}",
            text(&output.stderr)
        );
    }
    let script = folder.join("my hw.sh");
    let against = format!("sh '{}'", script.display());
    let output = reversi(&[
        "batch",
        official().to_str().unwrap(),
        "--against",
        &against,
        "--read-only",
        folder.to_str().unwrap(),
        "--read-only",
        BIN,
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("5 cases: 5 passed"), "{stdout}");
}

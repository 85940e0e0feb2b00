//! No name or file name of a student's or a platform's is read as an option: a
//! Gradescope name starting with `-` grades normally, a Java main class that is not
//! a Java identifier (`@input.txt`, which the `java` launcher reads as a file of
//! arguments) is COMPILE ERROR with that reason, and sources and folders named like
//! options build and run as any other. Each attack also checks that nothing outside
//! the run changed or stayed behind: the cases unchanged, the grader's TMPDIR empty.

#[path = "common/grading.rs"]
mod grading;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use grading::{official, package_hw_sh, text, BIN};

/// A copy of the official cases in `dir`.
fn cases_in(dir: &Path) -> PathBuf {
    let cases = dir.join("cases");
    for case in 1..=5 {
        let to = cases.join(format!("case{case}"));
        fs::create_dir_all(&to).unwrap();
        for file in ["input.txt", "output.txt"] {
            let from = official().join(format!("case{case}")).join(file);
            fs::copy(from, to.join(file)).unwrap();
        }
    }
    cases
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .map(|e| {
            let bytes = if e.file_type().is_file() {
                fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (e.path().to_path_buf(), bytes)
        })
        .collect()
}

/// Grades `class` against `cases` by the languages, with `TMPDIR` set to a fresh
/// folder; asserts that the cases did not change and that the folder is left empty,
/// and returns the rows.
fn grade_languages(dir: &Path, class: &Path, cases: &Path) -> String {
    let tmp = dir.join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    let before = snapshot(cases);
    let output = Command::new(BIN)
        .args(["grade", class.to_str().unwrap(), "--cases"])
        .arg(cases)
        .args(["--read-only", BIN, "--timeout", "10"])
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        text(&output.stderr)
    );
    assert_eq!(snapshot(cases), before, "the cases changed");
    let left: Vec<_> = fs::read_dir(&tmp).unwrap().flatten().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    stdout
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn row<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no row for {name}:\n{stdout}"))
}

#[test]
fn a_main_class_that_is_no_java_identifier_is_a_compile_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases_in(dir.path());
    let class = dir.path().join("class");
    // `java -cp prog.jar @input.txt` would read the case's input as arguments, and
    // start the class its first word names.
    let cheat = format!(
        "class Main {{ public static void main(String[] a) throws Exception {{\n\
         Process p = new ProcessBuilder({BIN:?}).inheritIO().start();\n\
         System.exit(p.waitFor()); }} }}\n"
    );
    write(&class.join("argfile/@input.txt.java"), &cheat);
    write(&class.join("argfile/Other.java"), "class Other {}\n");
    write(&class.join("option/-version.java"), &cheat);
    let stdout = grade_languages(dir.path(), &class, &cases);
    for (student, class_name) in [("argfile", "@input.txt"), ("option", "-version")] {
        let row = row(&stdout, student);
        assert!(
            row.contains(&format!(
                "COMPILE ERROR: the main class {class_name} (from {class_name}.java) is not a \
                 valid Java identifier"
            )),
            "{stdout}"
        );
        assert!(row.contains("0/5 points"), "{stdout}");
    }
}

#[test]
fn sources_and_folders_named_like_options_build_and_run() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases_in(dir.path());
    let class = dir.path().join("class");
    // g++ and javac read `-o...` as an option and `@...` as a file of arguments.
    write(
        &class.join("-cpp/-o.cpp"),
        &format!(
            "#include <unistd.h>\nint main() {{ execl({BIN:?}, \"reversi\", (char *)0); \
             return 1; }}\n"
        ),
    );
    write(
        &class.join("-cpp/@args.cpp"),
        "int helper() { return 1; }\n",
    );
    write(
        &class.join("-py/hw1cs561s2017.py"),
        &format!("import subprocess, sys\nsys.exit(subprocess.call([{BIN:?}]))\n"),
    );
    write(
        &class.join("-java/agent.java"),
        &format!(
            "public class agent {{ public static void main(String[] a) throws Exception {{\n\
             Process p = new ProcessBuilder({BIN:?}).inheritIO().start();\n\
             System.exit(p.waitFor()); }} }}\n"
        ),
    );
    write(&class.join("-java/-d.java"), "class Helper {}\n");
    let stdout = grade_languages(dir.path(), &class, &cases);
    for student in ["-cpp", "-py", "-java"] {
        assert!(row(&stdout, student).contains("5/5 passed"), "{stdout}");
    }
}

/// A Gradescope submission whose student's name starts with `-` grades as any other.
#[test]
fn a_gradescope_name_starting_with_a_dash_grades_normally() {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let zip = dir.path().join("autograder.zip");
    let cases = cases_in(dir.path());
    package_hw_sh("gradescope", &cases, &zip, &[]);
    let root = dir.path().join("autograder");
    let mut archive = zip::ZipArchive::new(fs::File::open(&zip).unwrap()).unwrap();
    archive.extract(root.join("source")).unwrap();
    let submission = root.join("submission");
    fs::create_dir_all(&submission).unwrap();
    fs::copy(BIN, submission.join("solver")).unwrap();
    fs::write(
        submission.join("hw.sh"),
        "exec \"$(dirname \"$0\")/solver\"\n",
    )
    .unwrap();
    fs::write(
        root.join("submission_metadata.json"),
        r#"{"users": [{"name": "-Ann Lee", "email": "ann@example.edu"}]}"#,
    )
    .unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o711)).unwrap();
    let before = snapshot(&cases);
    let status = Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER", &root)
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    let results: serde_json::Value =
        serde_json::from_slice(&fs::read(root.join("results/results.json")).unwrap()).unwrap();
    let report = results["output"].as_str().unwrap_or_default();
    assert_eq!(results["score"].as_f64(), Some(5.0), "{results}");
    assert!(report.contains("-Ann Lee"), "{report}");
    assert_eq!(snapshot(&cases), before);
    let left: Vec<_> = fs::read_dir(&tmp).unwrap().flatten().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

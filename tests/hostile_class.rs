//! A class graded at once (`grade -j 2`) under both sandboxes: two honest students
//! and one who takes its output from elsewhere (`tests/hostile/cheat.sh`): the other
//! students' programs and files beside its folder, the grader's own binary through
//! /proc, a `reversi` on PATH or linked to it. The honest pass; the cheat gets no
//! point and none of the others' secrets; nothing stays behind.

#[macro_use]
#[path = "common/sandboxed.rs"]
mod sandboxed;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sandboxed::{grader, hostile, Attack, Launch, Mode, Traces, World, BIN};
use walkdir::WalkDir;

/// Every file under `dir` with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), fs::read(e.path()).unwrap()))
        .collect()
}

/// Makes a submission folder `name` in `class`, readable by all as an unpacked
/// class is, holding `hw.sh` with `script` and a secret file; returns the secret.
fn student(class: &Path, name: &str, script: &str) -> String {
    let folder = class.join(name);
    fs::create_dir(&folder).unwrap();
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(folder.join("hw.sh"), script).unwrap();
    let secret = format!("SECRET-{name}-{}", std::process::id());
    fs::write(folder.join("secret.txt"), &secret).unwrap();
    secret
}

every_sandbox! {
    /// The cheat finds neither the others' programs nor the grader's binary: the
    /// honest students pass, the cheat fails every case and shows no secret.
    fn a_student_cannot_use_the_others_or_the_grader(mode) {
        let _one = sandboxed::one_at_a_time();
        let world = World::new();
        let class = world.path().join("class");
        fs::create_dir(&class).unwrap();
        fs::set_permissions(&class, fs::Permissions::from_mode(0o755)).unwrap();
        let honest = "exec \"$(dirname \"$0\")/reversi\"\n";
        let mut secrets = Vec::new();
        for name in ["alice", "bob"] {
            secrets.push(student(&class, name, honest));
            // The solver is the honest students' own program, beside their script.
            let solver = class.join(name).join("reversi");
            if fs::hard_link(BIN, &solver).is_err() {
                fs::copy(BIN, &solver).unwrap();
            }
        }
        let cheat = fs::read_to_string(hostile().join("cheat.sh")).unwrap();
        student(&class, "mallory", &cheat);
        let before = files(&class);
        let cases_before = world.snapshot();
        let reports = world.path().join("reports");
        let traces = Traces::now();
        let bin_dir = Path::new(BIN).parent().unwrap().display().to_string();
        let mut args = vec![
            "grade",
            class.to_str().unwrap(),
            "--cases",
            world.cases.to_str().unwrap(),
            "--run",
            "sh {submission}/hw.sh",
            "--timeout",
            "5",
            "-j",
            "2",
            "--reports",
            reports.to_str().unwrap(),
        ];
        args.extend(mode.flags());
        let grading = grader(
            &world,
            &args,
            Launch {
                // The TA has `reversi` on PATH.
                path: Some(format!("{bin_dir}:/usr/bin:/bin")),
                ..Launch::default()
            },
        );
        let what = format!("cheat.sh in a class ({mode:?})");
        sandboxed::nothing_stayed(&what, &world, &traces, &grading);
        assert_eq!(files(&class), before, "{what}: a submission changed");
        assert_eq!(world.snapshot(), cases_before, "{what}: the cases changed");
        let stdout = &grading.stdout;
        assert_eq!(grading.code, Some(0), "{what}: {stdout}{}", grading.stderr);
        let row = |name: &str| {
            stdout
                .lines()
                .find(|l| l.starts_with(name))
                .unwrap_or_else(|| panic!("{what}: no row for {name}: {stdout}"))
                .to_string()
        };
        for name in ["alice", "bob"] {
            assert!(row(name).contains("2/2 passed"), "{what}: {stdout}");
        }
        let mallory = row("mallory");
        assert!(mallory.contains("0/2 passed"), "{what}: the cheat passed: {stdout}");
        // A FAIL or NO OUTPUT: a CRASH is the cheat showing what it read.
        assert!(
            !mallory.contains("CRASH") && !mallory.contains("TIMEOUT"),
            "{what}: {stdout}"
        );
        let mut shown = vec![stdout.clone(), grading.stderr.clone()];
        shown.extend(files(&reports).into_values().map(|b| String::from_utf8_lossy(&b).into_owned()));
        for text in &shown {
            for secret in &secrets {
                assert!(!text.contains(secret.as_str()), "{what}: {secret} shown: {text}");
            }
        }
    }
}

/// The grader installed under `/usr` for the length of a test, removed after it.
struct Installed {
    folder: PathBuf,
    binary: PathBuf,
}

impl Installed {
    fn new(mode: Mode) -> Installed {
        let folder = PathBuf::from(format!(
            "/usr/local/lib/reversi-hostile-{}-{mode:?}",
            std::process::id()
        ));
        fs::create_dir_all(&folder).unwrap();
        let binary = folder.join("reversi");
        fs::copy(BIN, &binary).unwrap();
        Installed { folder, binary }
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.folder);
    }
}

every_sandbox! {
    /// A grader installed under /usr (where every run sees the system folders) is
    /// out of reach all the same: a program can neither run it to write the expected
    /// output nor copy it.
    fn the_grader_installed_under_usr_cannot_be_run(mode) {
        let installed = Installed::new(mode);
        let binary = installed.binary.display().to_string();
        Attack::new("run_grader.sh", mode, "NO OUTPUT")
            .args(&[&binary])
            .launch(Launch {
                binary: Some(installed.binary.clone()),
                ..Launch::default()
            })
            .run();
    }
}

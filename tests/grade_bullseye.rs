//! The bundles of `reversi package` on an older platform image than the one they are
//! built on: Debian 11 (bullseye, glibc 2.31), a root made by `make bullseye` with
//! debootstrap, and bundles holding the statically linked binary that `make static
//! STATIC_PROFILE=static-check` builds (`make test` makes both). The platforms'
//! scripts run inside that root as a container runs an image: as root, the root
//! mounted as / by bubblewrap under a writable overlay layer of the container's own.
//! Gradescope's `setup.sh` runs once, into a layer of its own (the autograder's
//! image), then `run_autograder` per submission in a fresh container of that image;
//! Vocareum's `grade.sh` in a student's work folder. And the binary under test,
//! linked dynamically against a newer glibc, does not run there.

#[path = "common/grading.rs"]
mod grading;
#[path = "common/validators.rs"]
mod validators;

use std::ffi::CString;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use grading::{official, text, BIN};
use validators::validate_gradescope;

/// Root's PATH in Debian.
const ROOT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// The Debian 11 root (`make bullseye`).
fn bullseye() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bullseye");
    assert!(
        root.join("etc/debian_version").is_file(),
        "{}: missing; run `make bullseye` (as root; it needs debootstrap)",
        root.display()
    );
    root
}

/// The statically linked binary (`make static STATIC_PROFILE=static-check`), in the
/// target folder of the binary under test.
fn static_binary() -> PathBuf {
    let target = Path::new(BIN).parent().and_then(Path::parent).unwrap();
    let binary = target.join("x86_64-unknown-linux-gnu/static-check/reversi");
    assert!(
        binary.is_file(),
        "{}: missing; run `make static STATIC_PROFILE=static-check`",
        binary.display()
    );
    binary
}

/// A container: read-only layers (a root, and what earlier containers wrote) under
/// a writable layer of its own, which outlives its runs (files put there before a
/// run are in the container; what a run writes stays there for the test to read).
struct Container {
    /// The read-only layers, lowest first.
    layers: Vec<PathBuf>,
    /// `upper/` (the container's own layer), `work/` (the overlay's), `merged/`.
    folder: tempfile::TempDir,
}

impl Container {
    fn new(layers: &[&Path]) -> Container {
        let folder = tempfile::tempdir().unwrap();
        for name in ["upper", "work", "merged"] {
            fs::create_dir(folder.path().join(name)).unwrap();
        }
        Container {
            layers: layers.iter().map(|layer| layer.to_path_buf()).collect(),
            folder,
        }
    }

    /// The container's own layer, to use as a layer of later containers.
    fn layer(&self) -> PathBuf {
        self.folder.path().join("upper")
    }

    /// Where the container's own layer holds `inside` (an absolute path in the
    /// container), its parent folders made.
    fn file(&self, inside: &str) -> PathBuf {
        let path = self.layer().join(inside.trim_start_matches('/'));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        path
    }

    /// Runs `script` with bash as root in the container, in the folder `cwd`, with a
    /// clean environment and `env`: the overlay mounted in a mount namespace of its
    /// own, then the host's bubblewrap with it as / in namespaces of their own (but
    /// the network, for apt-get), keeping root's capabilities. The separate users'
    /// leases are the host's, shared with every grader on the machine.
    fn run(&self, cwd: &str, env: &[(&str, &str)], script: &str) -> Output {
        let leases = Path::new("/run/reversi-sandbox-uids");
        fs::create_dir_all(leases).unwrap();
        fs::set_permissions(leases, fs::Permissions::from_mode(0o700)).unwrap();
        let merged = self.folder.path().join("merged");
        let lower: Vec<String> = self
            .layers
            .iter()
            .rev()
            .map(|layer| layer.display().to_string())
            .collect();
        let options = CString::new(format!(
            "lowerdir={},upperdir={},workdir={}",
            lower.join(":"),
            self.layer().display(),
            self.folder.path().join("work").display()
        ))
        .unwrap();
        let target = CString::new(merged.display().to_string()).unwrap();
        let mut command = Command::new("bwrap");
        command
            .arg("--bind")
            .arg(&merged)
            .arg("/")
            .args(["--proc", "/proc", "--dev", "/dev"])
            .args(["--ro-bind", "/sys", "/sys"])
            .args(["--ro-bind", "/etc/resolv.conf", "/etc/resolv.conf"])
            .arg("--bind")
            .arg(leases)
            .arg(leases)
            .args(["--unshare-pid", "--unshare-ipc", "--unshare-uts"])
            .args(["--die-with-parent", "--cap-add", "ALL", "--clearenv"])
            .args(["--setenv", "PATH", ROOT_PATH])
            .args(["--setenv", "HOME", "/root"]);
        for (name, value) in env {
            command.args(["--setenv", name, value]);
        }
        command.args(["--chdir", cwd, "--", "bash", "-c", script]);
        // SAFETY: only unshare and mount, on strings made before the fork.
        unsafe {
            command.pre_exec(move || {
                let failed = || Err(std::io::Error::last_os_error());
                if libc::unshare(libc::CLONE_NEWNS) != 0 {
                    return failed();
                }
                let flags = libc::MS_REC | libc::MS_PRIVATE;
                let none = std::ptr::null();
                if libc::mount(none, c"/".as_ptr(), none, flags, none.cast()) != 0 {
                    return failed();
                }
                let overlay = c"overlay".as_ptr();
                if libc::mount(
                    overlay,
                    target.as_ptr(),
                    overlay,
                    0,
                    options.as_ptr().cast(),
                ) != 0
                {
                    return failed();
                }
                Ok(())
            });
        }
        command.output().unwrap_or_else(|e| {
            panic!(
                "cannot start the container (an overlay mounted at {}, then bwrap): {e}",
                merged.display()
            )
        })
    }
}

/// Writes a bundle for `platform` to `out` with `binary` and the official cases,
/// grading `sh {submission}/hw.sh`.
fn package(platform: &str, binary: Option<&Path>, out: &Path) {
    let mut command = Command::new(BIN);
    command
        .args(["package", platform, "--cases"])
        .arg(official());
    command.args(["--run", "sh {submission}/hw.sh", "--timeout", "10"]);
    command.args(["--apt", "python3", "--out"]).arg(out);
    if let Some(binary) = binary {
        command.arg("--binary").arg(binary);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
}

/// A submission whose program is the static binary run with `flags`.
fn submission(folder: &Path, flags: &str) {
    fs::create_dir_all(folder).unwrap();
    fs::copy(static_binary(), folder.join("solver")).unwrap();
    fs::write(
        folder.join("hw.sh"),
        format!("exec \"$(dirname \"$0\")/solver\" {flags}\n"),
    )
    .unwrap();
}

/// What a run printed, for a failure's message.
fn printed(output: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

/// Gradescope builds the autograder's image from the bundle: the zip unpacked in
/// `/autograder/source`, `setup.sh` run there, `run_autograder` copied to
/// `/autograder/run_autograder`.
fn gradescope_image(zip: &Path, root: &Path) -> (Container, Output) {
    let image = Container::new(&[root]);
    let mut archive = zip::ZipArchive::new(fs::File::open(zip).unwrap()).unwrap();
    archive.extract(image.file("/autograder/source")).unwrap();
    let output = image.run(
        "/autograder/source",
        &[],
        "bash ./setup.sh && cp run_autograder /autograder/run_autograder",
    );
    (image, output)
}

#[test]
fn the_gradescope_bundle_sets_up_and_grades_on_debian_11() {
    let root = bullseye();
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    package("gradescope", Some(&static_binary()), &zip);
    let (image, setup) = gradescope_image(&zip, &root);
    assert!(setup.status.success(), "setup.sh: {}", printed(&setup));
    // setup.sh installed bubblewrap from bullseye's packages.
    assert!(image.layer().join("usr/bin/bwrap").is_file());
    // Each submission in a fresh container of the image.
    let grade = |flags: &str| {
        let container = Container::new(&[&root, &image.layer()]);
        submission(&container.file("/autograder/submission"), flags);
        fs::write(
            container.file("/autograder/submission_metadata.json"),
            r#"{"users": [{"name": "Ann Lee", "email": "ann@example.edu"}]}"#,
        )
        .unwrap();
        let run = container.run("/autograder", &[], "/autograder/run_autograder");
        assert!(run.status.success(), "run_autograder: {}", printed(&run));
        let results = container.file("/autograder/results/results.json");
        validate_gradescope(&results);
        let value: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
        (value, printed(&run))
    };
    let (passes, log) = grade("");
    let report = passes["output"].as_str().unwrap();
    assert_eq!(passes["score"].as_f64(), Some(5.0), "{report}\n{log}");
    assert!(report.starts_with("Student:   Ann Lee\n"), "{report}");
    // bullseye's bubblewrap (0.4.1) lacks options the sandbox gives it, so the
    // grader falls back to a separate user, as in a container without namespaces.
    assert!(
        report.contains("Isolation: a separate unprivileged user"),
        "{report}\n{log}"
    );
    let tests = passes["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 5);
    assert!(
        tests.iter().all(|test| test["status"] == "passed"),
        "{report}"
    );
    let (fails, log) = grade("--eol lf");
    let report = fails["output"].as_str().unwrap();
    assert_eq!(fails["score"].as_f64(), Some(0.0), "{report}\n{log}");
    assert!(report.contains("line ends only (CRLF vs LF)"), "{report}");
    let tests = fails["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 5);
    assert!(
        tests.iter().all(|test| test["status"] == "failed"),
        "{report}"
    );
}

#[test]
fn the_vocareum_bundle_grades_on_debian_11() {
    let root = bullseye();
    let container = Container::new(&[&root]);
    let library = container.file("/voc/asnlib");
    package("vocareum", Some(&static_binary()), &library);
    submission(&container.file("/home/student/work"), "");
    let run = container.run(
        "/home/student/work",
        &[
            ("ASNLIB", "/voc/asnlib"),
            ("vocareumGradeFile", "/voc/grade.csv"),
            ("vocareumReportFile", "/voc/report.txt"),
        ],
        "bash /voc/asnlib/grade.sh",
    );
    let report = fs::read_to_string(container.file("/voc/report.txt")).unwrap_or_default();
    assert!(
        run.status.success(),
        "grade.sh: {}\n{report}",
        printed(&run)
    );
    assert_eq!(
        fs::read_to_string(container.file("/voc/grade.csv")).unwrap(),
        "Correctness,5\n",
        "{report}"
    );
    assert!(report.starts_with("VOC_NO_REPORT_OUTPUT\n"), "{report}");
    assert!(report.contains("Score:     5/5 points"), "{report}");
    assert!(report.contains("Isolation: a separate unprivileged user"));
}

/// The binary under test needs a newer glibc than Debian 11's: a bundle holding it
/// fails `setup.sh` there, saying why and what to bundle instead.
#[test]
fn a_dynamically_linked_binary_does_not_run_on_debian_11() {
    let root = bullseye();
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    package("gradescope", None, &zip);
    let (_, setup) = gradescope_image(&zip, &root);
    let stderr = text(&setup.stderr);
    assert_eq!(setup.status.code(), Some(1), "{}", printed(&setup));
    assert!(
        stderr.contains("version `GLIBC_2.3") && stderr.contains("not found"),
        "{stderr}"
    );
    assert!(
        stderr.contains("does not run on this image") && stderr.contains("make static"),
        "{stderr}"
    );
}

//! docs/grading.md's Slurm array job, taken from the page and run on a one-node
//! Slurm cluster started here (Debian's `slurmctld`, `slurmd` and `munge`, `make
//! slurm`), with its own configuration, key, ports and folders: its three shards
//! merged are the reports of one grading of the whole class (times aside).

#[path = "common/grading.rs"]
mod grading;

use std::collections::BTreeMap;
use std::fs;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;
use serde_json::Value;

use grading::{junit_without_times, official, official_copy, text, without_times, BIN};

/// The daemons of the cluster, ended (and their logs shown on failure) when dropped.
struct Cluster {
    daemons: Vec<Child>,
    dir: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for daemon in &mut self.daemons {
            let _ = daemon.kill();
            let _ = daemon.wait();
        }
        if std::thread::panicking() {
            for log in ["munged.log", "slurmctld.log", "slurmd.log"] {
                let text = fs::read_to_string(self.dir.join(log)).unwrap_or_default();
                eprintln!("--- {log}\n{text}");
            }
        }
    }
}

/// A free TCP port of 127.0.0.1.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// This machine's short host name, which slurmctld wants as its `SlurmctldHost`.
fn host_name() -> String {
    let mut buffer = [0u8; 256];
    // SAFETY: gethostname writes at most the buffer's length.
    assert_eq!(
        unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) },
        0
    );
    let name = String::from_utf8_lossy(&buffer)
        .trim_end_matches('\0')
        .to_string();
    name.split('.').next().unwrap().to_string()
}

/// Starts munged, slurmctld and slurmd (as children, in the foreground) with their
/// configuration and state in `dir`; returns the cluster and its `slurm.conf`.
fn start_cluster(dir: &Path) -> (Cluster, PathBuf) {
    for program in ["munged", "slurmctld", "slurmd", "sbatch"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
            .output()
            .unwrap();
        assert!(
            found.status.success(),
            "{program} is missing: run `make slurm` (Debian's slurmctld, slurmd, \
             slurm-client and munge)"
        );
    }
    let munge = dir.join("munge");
    for folder in ["munge", "state", "spool"] {
        fs::create_dir_all(dir.join(folder)).unwrap();
    }
    fs::set_permissions(&munge, fs::Permissions::from_mode(0o700)).unwrap();
    let key: Vec<u8> = (0..1024u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    fs::write(munge.join("munge.key"), key).unwrap();
    fs::set_permissions(munge.join("munge.key"), fs::Permissions::from_mode(0o400)).unwrap();
    let socket = munge.join("munge.socket");
    let at = |name: &str| dir.join(name).display().to_string();
    let host = host_name();
    let conf = dir.join("slurm.conf");
    fs::write(
        &conf,
        format!(
            "ClusterName=reversi\nSlurmctldHost={host}(127.0.0.1)\nSlurmctldPort={}\n\
             SlurmdPort={}\nSlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\n\
             AuthInfo=socket={}\nCredType=cred/munge\nStateSaveLocation={}\n\
             SlurmdSpoolDir={}\nSlurmctldPidFile={}\nSlurmdPidFile={}\n\
             SlurmctldLogFile={}\nSlurmdLogFile={}\nProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\nSelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n\
             MpiDefault=none\nSwitchType=switch/none\nJobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\nReturnToService=2\n\
             NodeName=reversi-node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
             PartitionName=main Nodes=reversi-node Default=YES MaxTime=INFINITE State=UP\n",
            free_port(),
            free_port(),
            socket.display(),
            at("state"),
            at("spool"),
            at("slurmctld.pid"),
            at("slurmd.pid"),
            at("slurmctld.log"),
            at("slurmd.log"),
        ),
    )
    .unwrap();
    let daemon = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .env("SLURM_CONF", &conf)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut cluster = Cluster {
        daemons: Vec::new(),
        dir: dir.to_path_buf(),
    };
    let key = munge.join("munge.key").display().to_string();
    let (pid, seed, log) = (
        munge.join("munged.pid").display().to_string(),
        munge.join("seed").display().to_string(),
        at("munged.log"),
    );
    let socket_arg = socket.display().to_string();
    cluster.daemons.push(daemon(
        "munged",
        &[
            "-F",
            "-f",
            "--key-file",
            &key,
            "--socket",
            &socket_arg,
            "--pid-file",
            &pid,
            "--seed-file",
            &seed,
            "--log-file",
            &log,
        ],
    ));
    let start = Instant::now();
    while !socket.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "munged did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    cluster.daemons.push(daemon("slurmctld", &["-D", "-i"]));
    cluster
        .daemons
        .push(daemon("slurmd", &["-D", "-N", "reversi-node"]));
    // Until the node is up and idle.
    loop {
        let state = Command::new("sinfo")
            .args(["-h", "-o", "%T"])
            .env("SLURM_CONF", &conf)
            .output()
            .unwrap();
        if text(&state.stdout).trim() == "idle" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the node is not up"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    (cluster, conf)
}

/// A Python program that writes each official case's expected output for its input
/// (the cases are not readable to it: the test writes them in), but for `wrong`.
fn python_student(folder: &Path, wrong: &[&str]) {
    let mut answers = BTreeMap::new();
    for case in ["case1", "case2", "case3", "case4", "case5"] {
        let read = |file: &str| {
            String::from_utf8(fs::read(official().join(case).join(file)).unwrap()).unwrap()
        };
        let output = if wrong.contains(&case) {
            "wrong".to_string()
        } else {
            read("output.txt")
        };
        answers.insert(read("input.txt"), output);
    }
    let answers = serde_json::to_string(&answers).unwrap();
    fs::create_dir_all(folder).unwrap();
    fs::write(
        folder.join("hw1cs561s2017.py"),
        format!(
            "#!/usr/bin/env python3\nimport json\nanswers = json.loads({answers:?})\n\
             text = open('input.txt', newline='').read()\n\
             open('output.txt', 'w', newline='').write(answers[text])\n"
        ),
    )
    .unwrap();
}

/// A class of Python students: right, wrong on two cases, crashing, without their
/// program.
fn class(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    python_student(&class.join("alice"), &[]);
    python_student(&class.join("bob"), &["case2", "case4"]);
    python_student(&class.join("dave"), &[]);
    python_student(&class.join("gina"), &["case5"]);
    fs::create_dir_all(class.join("carol")).unwrap();
    fs::write(
        class.join("carol/hw1cs561s2017.py"),
        "raise SystemExit(3)\n",
    )
    .unwrap();
    fs::create_dir_all(class.join("erin")).unwrap();
    class
}

/// docs/grading.md's Slurm script: its `sh` block that starts `#!/bin/sh` and
/// `#SBATCH`.
fn documented_script() -> String {
    let page =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/grading.md")).unwrap();
    let start = page
        .find("```sh\n#!/bin/sh\n#SBATCH")
        .expect("the Slurm script")
        + 6;
    let end = start + page[start..].find("```").unwrap();
    page[start..end].to_string()
}

#[test]
fn the_documented_slurm_array_job_grades_the_class_in_shards() {
    let dir = tempfile::tempdir().unwrap();
    let class = class(dir.path());
    let cases = official_copy(dir.path());
    let (_cluster, conf) = start_cluster(&dir.path().join("slurm"));
    // The script as the page has it, its paths and program those of this test.
    let script = documented_script()
        .replace("/srv/class", class.to_str().unwrap())
        .replace("/srv/cases", cases.to_str().unwrap())
        .replace("reversi grade", &format!("{BIN} grade"));
    let jobs = dir.path().join("jobs");
    fs::create_dir_all(&jobs).unwrap();
    fs::write(jobs.join("grade.sbatch"), script).unwrap();
    // (three tasks, not the page's eight; one CPU each, so that two run at once)
    let submitted = Command::new("sbatch")
        .args(["--wait", "--array=1-3", "--cpus-per-task=1", "grade.sbatch"])
        .current_dir(&jobs)
        .env("SLURM_CONF", &conf)
        .output()
        .unwrap();
    let logs: String = (1..=3)
        .map(|k| fs::read_to_string(jobs.join(format!("shard-{k}.log"))).unwrap_or_default())
        .collect();
    assert!(
        submitted.status.success(),
        "{}{}\n{logs}",
        text(&submitted.stdout),
        text(&submitted.stderr)
    );
    // The page's merge.
    for kind in ["class.csv", "class.xml", "class.json", "reports"] {
        let mut merge = Command::new(BIN);
        merge.args(["grade", "merge", "-o"]).arg(jobs.join(kind));
        for k in 1..=3 {
            merge.arg(jobs.join(format!("shard-{k}")).join(kind));
        }
        let merged = merge.output().unwrap();
        assert!(merged.status.success(), "{}", text(&merged.stderr));
        assert!(text(&merged.stdout).contains("6 students from 3 reports"));
    }
    // One grading of the whole class, as the script grades a shard.
    let whole = dir.path().join("whole");
    fs::create_dir_all(&whole).unwrap();
    let at = |name: &str| whole.join(name);
    let graded = Command::new(BIN)
        .arg("grade")
        .arg(&class)
        .arg("--cases")
        .arg(&cases)
        .args(["-j", "2", "--csv"])
        .arg(at("class.csv"))
        .arg("--junit")
        .arg(at("class.xml"))
        .arg("--reports")
        .arg(at("reports"))
        .arg("--json")
        .output()
        .unwrap();
    assert!(graded.status.success(), "{}", text(&graded.stderr));
    fs::write(at("class.json"), &graded.stdout).unwrap();
    let read = |folder: &Path, name: &str| fs::read_to_string(folder.join(name)).unwrap();
    let table = read(&jobs, "class.csv");
    assert_eq!(table, read(&whole, "class.csv"));
    assert!(table.contains("\nalice,5,5,5,5,5,"), "{table}");
    assert!(table.contains("\nbob,3,5,3,3,5,"), "{table}");
    assert_eq!(
        junit_without_times(&read(&jobs, "class.xml")),
        junit_without_times(&read(&whole, "class.xml"))
    );
    let json = |folder: &Path| {
        let mut report: Value = serde_json::from_str(&read(folder, "class.json")).unwrap();
        // (each shard's report names its shard; the merged one keeps the first's)
        report.as_object_mut().unwrap().remove("shard");
        without_times(report)
    };
    assert_eq!(json(&jobs), json(&whole));
    for entry in fs::read_dir(whole.join("reports")).unwrap() {
        let name = Path::new("reports").join(entry.unwrap().file_name());
        let name = name.to_str().unwrap();
        assert_eq!(read(&jobs, name), read(&whole, name), "{name}");
    }
}

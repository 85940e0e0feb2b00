//! The referee's own cost per move (`reversi arena`, issue 71's "cheap to referee"):
//! one Umea answer of a trivial agent (a shell script that prints `pass`) asked for,
//! run in the sandbox and judged as a game does (its private run folder seeded from
//! its build, the run's cgroup read, the answer read and checked, the folder kept
//! for the next move), against the same script started bare, without a referee.
//! The difference is what refereeing adds to each move. docs/performance.md has the
//! figures and how to reproduce them.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use reversi::arena::game::judge;
use reversi::arena::protocol::umea::Umea;
use reversi::arena::protocol::{Agent, Protocol, Speaks, Terms};
use reversi::format::umea::{parse_position, position_text};
use reversi::sandbox::{Isolation, Limits, Sandbox};

fn per_move(c: &mut Criterion) {
    let folder = tempfile::tempdir().unwrap();
    let script = folder.path().join("othello.sh");
    fs::write(&script, "#!/bin/sh\necho pass\n").unwrap();
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    let limits = Limits {
        wall: Duration::from_secs(10),
        run_cpu: Some(Duration::from_secs(5)),
        ..Limits::default()
    };
    let sandbox = Sandbox::new(Isolation::Bubblewrap, limits, &[])
        .or_else(|_| Sandbox::new(Isolation::SeparateUser, limits, &[]))
        .expect("bubblewrap, or root for a separate user");
    eprintln!("sandbox: {}", sandbox.isolation().words());
    let terms = Terms {
        seconds: 1.0,
        seconds_text: "1".into(),
        start_allowance: Duration::from_millis(500),
        lax: false,
        build_seconds: Duration::from_secs(10),
        per_game: false,
    };
    let agent = Agent {
        name: "trivial".into(),
        folder: Some(folder.path().to_path_buf()),
        command: "./othello.sh".into(),
        speaks: Speaks::Tournament,
    };
    let built = Umea.build(&agent, &sandbox, &terms).unwrap().unwrap();
    // A position where the side to move has no move: `pass` is the legal answer.
    let position = parse_position(&format!("W{}E", "X".repeat(63))).unwrap();
    assert_eq!(position.board().moves(), 0);
    let mut group = c.benchmark_group("arena");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("umea move refereed in the sandbox", |b| {
        let mut seat = Umea.seat(&built, &sandbox, &terms).unwrap();
        b.iter(|| {
            let answer = seat.answer(position, 1).unwrap();
            let said = answer.verdict.unwrap();
            judge(position, said, &answer.text).unwrap()
        })
    });
    group.bench_function("the same agent started bare", |b| {
        b.iter(|| {
            let output = Command::new(&script)
                .arg(position_text(position))
                .arg("1")
                .arg("0")
                .current_dir(folder.path())
                .output()
                .unwrap();
            assert_eq!(output.stdout, b"pass\n");
        })
    });
    group.finish();
}

criterion_group!(benches, per_move);
criterion_main!(benches);

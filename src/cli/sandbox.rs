//! The sandbox flags shared by the commands that run students' programs (`batch
//! --against`, `umea match`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};

use crate::sandbox::{wall_net, Isolation, Limits, Sandbox, SandboxError};

/// The sandbox asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SandboxKind {
    /// bubblewrap: own namespaces, read-only system, no network (refused where it
    /// cannot work).
    Bubblewrap,
    /// A separate unprivileged user, for containers where bubblewrap cannot work
    /// (Gradescope, Vocareum); needs root, and cases unreadable to others.
    SeparateUser,
    /// bubblewrap where it works, else a separate user (as root).
    Auto,
}

/// How students' programs are confined and limited.
#[derive(Debug, Args)]
#[command(next_help_heading = "Sandbox (students' programs)")]
pub struct SandboxArgs {
    /// How to confine the programs.
    #[arg(long, value_enum, default_value_t = SandboxKind::Bubblewrap)]
    sandbox: SandboxKind,
    /// Run the programs unconfined (no bubblewrap): they can read the expected
    /// outputs and change any file you can. Only for programs you trust.
    #[arg(long, conflicts_with = "sandbox")]
    no_sandbox: bool,
    /// Show this file or folder to the programs, read-only, at the same path: the
    /// submission, an interpreter outside /usr (repeat for more).
    #[arg(long, value_name = "PATH")]
    read_only: Vec<PathBuf>,
    /// CPU time of each process, in seconds (SIGXCPU past it).
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    cpu_time: u64,
    /// Memory of each process, and of the whole run where cgroups can be made, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    memory: u64,
    /// Processes and threads of a run at once (needs cgroups: run as root).
    #[arg(long, value_name = "N", default_value_t = 128)]
    processes: u64,
    /// Size of any one file a program writes, and of its /tmp, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    file_size: u64,
}

impl SandboxArgs {
    /// These flags with their values, for a grading's journal: what decides verdicts.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let kind = match (self.no_sandbox, self.sandbox) {
            (true, _) => "none",
            (false, SandboxKind::Bubblewrap) => "bubblewrap",
            (false, SandboxKind::SeparateUser) => "separate-user",
            (false, SandboxKind::Auto) => "auto",
        };
        let read_only: Vec<String> = self
            .read_only
            .iter()
            .map(|path| path.display().to_string())
            .collect();
        vec![
            ("--sandbox", kind.into()),
            ("--read-only", read_only.join(" ")),
            ("--cpu-time", self.cpu_time.to_string()),
            ("--memory", self.memory.to_string()),
            ("--processes", self.processes.to_string()),
            ("--file-size", self.file_size.to_string()),
        ]
    }

    /// The sandbox of `batch` and `grade`: each run gets `timeout` of CPU time (all
    /// its processes and threads) and the wall-time net of [`wall_net`].
    pub fn timed(&self, timeout: Duration) -> Result<Sandbox> {
        self.with_limits(wall_net(timeout), Some(timeout))
    }

    /// The sandbox these flags ask for, with wall time `wall`; warns on stderr when
    /// it is none.
    pub fn sandbox(&self, wall: Duration) -> Result<Sandbox> {
        self.with_limits(wall, None)
    }

    fn with_limits(&self, wall: Duration, run_cpu: Option<Duration>) -> Result<Sandbox> {
        let limits = Limits {
            wall,
            run_cpu,
            cpu: Duration::from_secs(self.cpu_time.max(1)),
            memory: self.memory.max(1) << 20,
            processes: self.processes.max(1),
            file_size: self.file_size.max(1) << 20,
        };
        if self.no_sandbox {
            eprintln!(
                "reversi: warning: --no-sandbox: the programs run unconfined, with your \
                 rights; they can read the expected outputs and change your files"
            );
            return Ok(Sandbox::new(
                Isolation::Unsandboxed,
                limits,
                &self.read_only,
            )?);
        }
        let first = match self.sandbox {
            SandboxKind::SeparateUser => Isolation::SeparateUser,
            SandboxKind::Bubblewrap | SandboxKind::Auto => Isolation::Bubblewrap,
        };
        let sandbox = match Sandbox::new(first, limits, &self.read_only) {
            Err(SandboxError::Unavailable { reason }) if self.sandbox == SandboxKind::Auto => {
                eprintln!(
                    "reversi: note: bubblewrap cannot work here ({reason}); the programs \
                     run as a separate user instead"
                );
                Sandbox::new(Isolation::SeparateUser, limits, &self.read_only)
            }
            result => result,
        }?;
        for gap in sandbox.isolation().gaps() {
            eprintln!("reversi: warning: {gap}");
        }
        Ok(sandbox)
    }
}

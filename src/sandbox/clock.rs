//! A run's clocks: the CPU time of all its processes and threads (from its cgroup
//! where there is one, else from `/proc` and the child's rusage), and whether the
//! machine was loaded by others while it ran.

use std::fs;
use std::io;
use std::os::unix::process::ExitStatusExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Ending, Limits, STOP};

/// Clock ticks of `/proc`'s times (`USER_HZ`, 100 on every Linux).
const TICKS_PER_SECOND: u64 = 100;

/// The share of the machine's CPU that others (not the run) used while it ran above
/// which the machine counts as loaded.
const LOADED_SHARE: f64 = 0.2;

/// Where a run's CPU time is read while it runs.
#[derive(Debug)]
pub(super) enum CpuMeter {
    /// cgroup v2's `cpu.stat` (`usage_usec`).
    CgroupV2(std::path::PathBuf),
    /// cgroup v1's `cpuacct.usage` (nanoseconds).
    CgroupV1(std::path::PathBuf),
    /// No cgroup: the processes descending from the run's first one, or owned by
    /// its separate user, summed from `/proc` (those that ended and were waited for
    /// included, in their parents' times).
    Processes {
        /// The run's first process.
        root: i32,
        /// The run's separate user.
        uid: Option<libc::uid_t>,
    },
}

impl CpuMeter {
    /// The CPU time the run has used so far; `None` where it cannot be read.
    pub(super) fn used(&self) -> Option<Duration> {
        match self {
            CpuMeter::CgroupV2(path) => {
                let text = fs::read_to_string(path).ok()?;
                let usec = text
                    .lines()
                    .find_map(|line| line.strip_prefix("usage_usec "))?
                    .trim()
                    .parse()
                    .ok()?;
                Some(Duration::from_micros(usec))
            }
            CpuMeter::CgroupV1(path) => {
                let nanos = fs::read_to_string(path).ok()?.trim().parse().ok()?;
                Some(Duration::from_nanos(nanos))
            }
            CpuMeter::Processes { root, uid } => Some(ticks(processes_ticks(*root, *uid))),
        }
    }

    /// Whether this meter reads the cheap counter of a cgroup (else it walks
    /// `/proc`, which is done less often).
    pub(super) fn cheap(&self) -> bool {
        !matches!(self, CpuMeter::Processes { .. })
    }
}

fn ticks(count: u64) -> Duration {
    Duration::from_millis(count * 1000 / TICKS_PER_SECOND)
}

/// One process's line of `/proc/PID/stat`: its parent, its owner, and its CPU ticks
/// with those of its children that ended and were waited for.
struct Stat {
    pid: i32,
    parent: i32,
    uid: Option<u32>,
    ticks: u64,
}

fn stat_of(pid: i32) -> Option<Stat> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name, in parentheses, may hold anything: the fields start after its end.
    let rest = &text[text.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
    // stime cutime cstime: fields 3 to 17 of stat(5), here 0 to 14.
    let parent = fields.get(1)?.parse().ok()?;
    let ticks = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().unwrap_or(0))
        .sum();
    use std::os::unix::fs::MetadataExt;
    let uid = fs::metadata(format!("/proc/{pid}")).ok().map(|m| m.uid());
    Some(Stat {
        pid,
        parent,
        uid,
        ticks,
    })
}

/// The CPU ticks of `root` and its descendants, and of the processes of `uid`.
fn processes_ticks(root: i32, uid: Option<libc::uid_t>) -> u64 {
    let stats: Vec<Stat> = fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
        .filter_map(stat_of)
        .collect();
    let mut inside = vec![root];
    let mut total = 0;
    // Parents come before their children in pid order but for pids that wrapped:
    // walk until nothing new joins.
    let mut counted = vec![false; stats.len()];
    loop {
        let mut grew = false;
        for (at, stat) in stats.iter().enumerate() {
            if counted[at] {
                continue;
            }
            let owned = uid.is_some() && stat.uid == uid;
            if stat.pid == root || owned || inside.contains(&stat.parent) {
                counted[at] = true;
                inside.push(stat.pid);
                total += stat.ticks;
                grew = true;
            }
        }
        if !grew {
            return total;
        }
    }
}

/// The machine's CPU ticks so far, busy and in all, from `/proc/stat`.
#[derive(Clone, Copy, Debug)]
pub(super) struct MachineTicks {
    busy: u64,
    all: u64,
}

impl MachineTicks {
    /// Now; `None` where `/proc/stat` cannot be read.
    pub(super) fn now() -> Option<MachineTicks> {
        let text = fs::read_to_string("/proc/stat").ok()?;
        let line = text.lines().find(|l| l.starts_with("cpu "))?;
        let fields: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|f| f.parse().unwrap_or(0))
            .collect();
        // user nice system idle iowait irq softirq steal (guest is in user already).
        let all: u64 = fields.iter().take(8).sum();
        let idle = fields.get(3).copied().unwrap_or(0) + fields.get(4).copied().unwrap_or(0);
        Some(MachineTicks {
            busy: all.saturating_sub(idle),
            all,
        })
    }

    /// Whether, from `self` until `later`, others than a run that used `used` of CPU
    /// kept more than [`LOADED_SHARE`] of the machine busy.
    pub(super) fn loaded_until(self, later: MachineTicks, used: Duration) -> bool {
        let all = later.all.saturating_sub(self.all);
        if all == 0 {
            return false;
        }
        let used = used.as_millis() as u64 * TICKS_PER_SECOND / 1000;
        let others = later.busy.saturating_sub(self.busy).saturating_sub(used);
        others as f64 > LOADED_SHARE * all as f64
    }
}

/// The CPU time of a child and its descendants that were waited for, from the
/// rusage `wait4` gave.
pub(super) fn rusage_time(usage: &libc::rusage) -> Duration {
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// The wall time of a run whose CPU time is limited to `cpu`: three times as much
/// and a second more, a net that catches a program that sleeps or waits.
pub fn wall_net(cpu: Duration) -> Duration {
    cpu * 3 + Duration::from_secs(1)
}

/// How a run's wait ended: how the run did, and its CPU time as the child's
/// rusage counts it (its descendants that were waited for included).
pub(super) struct Waited {
    /// How it ended.
    pub(super) ending: Ending,
    /// The rusage's CPU time.
    pub(super) rusage: Duration,
    /// The meter's last reading before the end.
    pub(super) metered: Option<Duration>,
}

/// What a run's wait watches.
pub(super) struct Watch<'a> {
    /// The run's first process.
    pub(super) pid: i32,
    /// Its limits.
    pub(super) limits: &'a Limits,
    /// Its CPU time.
    pub(super) meter: &'a CpuMeter,
    /// When it started.
    pub(super) started: Instant,
    /// When it is ended whatever its limits ([`Ending::Deadline`]).
    pub(super) deadline: Option<Instant>,
    /// Whether its files passed their bound, where they are measured (no tmpfs).
    pub(super) files_over: Option<&'a dyn Fn() -> bool>,
    /// Set by the caller to end the run (a conversation over): as [`STOP`], for this
    /// run alone.
    pub(super) halt: Option<&'a AtomicBool>,
}

impl Watch<'_> {
    /// Waits for the run's first process to end (reaping it), killing its process
    /// group when [`STOP`] is set, its wall time runs out, the meter reads its CPU
    /// time limit, its files pass their bound, or the deadline comes; `sample` is called about every
    /// 50 ms.
    pub(super) fn wait(&self, sample: &mut dyn FnMut()) -> io::Result<Waited> {
        wait(self, sample)
    }
}

fn wait(watch: &Watch, sample: &mut dyn FnMut()) -> io::Result<Waited> {
    let Watch {
        pid,
        limits,
        meter,
        started,
        deadline,
        files_over,
        halt,
    } = *watch;
    let mut step = Duration::from_millis(1);
    let (mut sampled, mut metered_at) = (started, started);
    let mut metered = None;
    let reap = |flags: i32| -> io::Result<Option<(i32, Duration)>> {
        loop {
            let mut status = 0;
            // SAFETY: wait4 on our own child, with valid out-pointers.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            let reaped = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
            match reaped {
                0 => return Ok(None),
                r if r == pid => return Ok(Some((status, rusage_time(&usage)))),
                _ => {
                    let error = io::Error::last_os_error();
                    if error.kind() != io::ErrorKind::Interrupted {
                        return Err(error);
                    }
                }
            }
        }
    };
    loop {
        if let Some((status, rusage)) = reap(libc::WNOHANG)? {
            let ending = ending_of(std::process::ExitStatus::from_raw(status));
            return Ok(Waited {
                ending,
                rusage,
                metered,
            });
        }
        let now = Instant::now();
        if now.duration_since(sampled) >= Duration::from_millis(50) {
            sample();
            sampled = now;
        }
        let every = if meter.cheap() { 10 } else { 100 };
        if limits.run_cpu.is_some() && now.duration_since(metered_at).as_millis() >= every {
            metered = meter.used().or(metered);
            metered_at = now;
        }
        let stopped = STOP.load(Ordering::SeqCst) || halt.is_some_and(|h| h.load(Ordering::SeqCst));
        let over_cpu = limits
            .run_cpu
            .is_some_and(|limit| metered.is_some_and(|used| used >= limit));
        let over_wall = started.elapsed() >= limits.wall;
        let over_files = files_over.is_some_and(|over| over());
        let past_deadline = deadline.is_some_and(|deadline| now >= deadline);
        if stopped || over_cpu || over_wall || over_files || past_deadline {
            // SAFETY: kill(2) on the child's own process group (it made a session of
            // its own); the child is not reaped yet, so the group is its own.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            let (_, rusage) = reap(0)?.unwrap_or((0, Duration::ZERO));
            let ending = if stopped {
                Ending::Stopped
            } else if over_files {
                Ending::FilesTooLarge
            } else if past_deadline && !over_cpu && !over_wall {
                Ending::Deadline
            } else if over_cpu {
                Ending::CpuTime
            } else {
                Ending::WallTime
            };
            return Ok(Waited {
                ending,
                rusage,
                metered,
            });
        }
        let mut left = limits.wall.saturating_sub(started.elapsed());
        if let Some(deadline) = deadline {
            left = left.min(deadline.saturating_duration_since(Instant::now()));
        }
        std::thread::sleep(step.min(left));
        step = (step * 2).min(Duration::from_millis(10));
    }
}

/// How a run ended, from its status. Every program runs under `sh -c`, which reports a
/// command killed by a signal as 128 + the signal (and bubblewrap passes that on).
fn ending_of(status: std::process::ExitStatus) -> Ending {
    if let Some(signal) = status.signal() {
        return Ending::Signal(signal);
    }
    match status.code().unwrap_or(-1) {
        code @ 129..=192 => Ending::Signal(code - 128),
        code => Ending::Exited(code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_processes_of_this_test_count_their_cpu_time() {
        let start = std::time::Instant::now();
        let mut x = 0u64;
        while start.elapsed() < Duration::from_millis(300) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let meter = CpuMeter::Processes {
            root: std::process::id() as i32,
            uid: None,
        };
        assert!(meter.used().unwrap() >= Duration::from_millis(200));
        let before = MachineTicks::now().unwrap();
        let after = MachineTicks::now().unwrap();
        assert!(after.all >= before.all);
    }
}

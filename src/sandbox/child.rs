//! What the child does between fork and exec, all prepared before the fork: the
//! cgroup, the rlimits, a session, the separate user, the descriptors, Landlock and
//! seccomp.

use std::io;
use std::sync::Arc;

use super::cgroup::Cgroup;
use super::{confine, Limits};

/// Files a process may have open at once.
const OPEN_FILES: u64 = 256;

/// What the child does between fork and exec, prepared before the fork.
pub(super) struct ChildSide {
    /// `cgroup.procs` files to write its pid to.
    pub(super) joins: Vec<i32>,
    pub(super) limits: RawLimits,
    /// Descriptors bubblewrap needs (its seccomp programs); all others above 2 close.
    pub(super) keep: Vec<i32>,
    pub(super) fence: Option<confine::Fence>,
    pub(super) filter: Option<Arc<confine::Filter>>,
}

impl ChildSide {
    /// Joins the cgroup, sets the rlimits, makes a session of its own (no terminal),
    /// becomes the separate user, closes every descriptor past 2 on exec, and enforces
    /// Landlock and seccomp: async-signal-safe system calls only.
    pub(super) fn enter(&mut self) -> io::Result<()> {
        let mut digits = [0u8; 20];
        // SAFETY: getpid, write and setsid are async-signal-safe.
        unsafe {
            let pid = format_pid(libc::getpid(), &mut digits);
            for &fd in &self.joins {
                // A cgroup that cannot be joined leaves its limit to the rlimits.
                libc::write(fd, pid.as_ptr().cast(), pid.len());
            }
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        self.limits.apply()?;
        confine::only_standard_descriptors(&self.keep)?;
        if let Some(fence) = &mut self.fence {
            fence.enforce()?;
        }
        if let Some(filter) = &self.filter {
            filter.install()?;
        }
        Ok(())
    }
}

/// The rlimits of a run, as the child sets them.
#[derive(Clone, Copy)]
pub(super) struct RawLimits {
    cpu: u64,
    memory: u64,
    file_size: u64,
    processes: u64,
    /// The separate user to become, if any.
    uid: Option<libc::uid_t>,
}

impl RawLimits {
    /// The rlimits of `limits` for a run as `uid`. Where the run's `cgroup` bounds
    /// its memory and processes, the rlimits stand a little behind it (a quarter more
    /// data, one more process), so that a run that grows stops at the cgroup, which
    /// counts the refusal and lets the report name the limit, rather than at the
    /// rlimit, which counts nothing.
    pub(super) fn of(
        limits: &Limits,
        uid: Option<libc::uid_t>,
        cgroup: Option<&Cgroup>,
    ) -> RawLimits {
        let (memory, processes) = match cgroup {
            Some(cgroup) if cgroup.memory_events.is_some() => (
                limits.memory.saturating_add(limits.memory / 4),
                limits.processes + 1,
            ),
            Some(_) => (limits.memory, limits.processes + 1),
            None => (limits.memory, limits.processes),
        };
        RawLimits {
            cpu: limits.cpu.as_secs().max(1),
            memory,
            file_size: limits.file_size,
            processes,
            uid,
        }
    }

    /// Sets the limits on the calling process (async-signal-safe).
    fn apply(self) -> io::Result<()> {
        let set = |resource, soft: u64, hard: u64| {
            let limit = libc::rlimit {
                rlim_cur: soft as libc::rlim_t,
                rlim_max: hard as libc::rlim_t,
            };
            // SAFETY: setrlimit reads the struct we pass.
            if unsafe { libc::setrlimit(resource, &limit) } == 0 {
                Ok(())
            } else {
                Err(io::Error::last_os_error())
            }
        };
        // SIGXCPU at the soft limit, SIGKILL a second later.
        set(libc::RLIMIT_CPU, self.cpu, self.cpu + 1)?;
        set(libc::RLIMIT_DATA, self.memory, self.memory)?;
        set(libc::RLIMIT_FSIZE, self.file_size, self.file_size)?;
        set(libc::RLIMIT_NOFILE, OPEN_FILES, OPEN_FILES)?;
        set(libc::RLIMIT_CORE, 0, 0)?;
        if let Some(uid) = self.uid {
            // The leased user runs nothing else, so its count is the run's.
            set(libc::RLIMIT_NPROC, self.processes, self.processes)?;
            // SAFETY: plain system calls on values; groups are dropped first, then
            // the group, then the user (after which none of them can be regained).
            let failed = unsafe {
                libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(uid) != 0
                    || libc::setuid(uid) != 0
            };
            if failed {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// The digits of `pid` in `buffer`, without allocating.
pub(super) fn format_pid(pid: libc::pid_t, buffer: &mut [u8; 20]) -> &[u8] {
    let mut n = pid.unsigned_abs();
    let mut start = buffer.len();
    loop {
        start -= 1;
        buffer[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buffer[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pids_are_formatted_without_allocating() {
        let mut buffer = [0; 20];
        assert_eq!(format_pid(0, &mut buffer), b"0");
        assert_eq!(format_pid(4_194_304, &mut buffer), b"4194304");
    }
}

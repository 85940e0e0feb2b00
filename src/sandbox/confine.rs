//! The kernel's own confinement of a run, under bubblewrap's namespaces or a separate
//! user: a seccomp filter (both modes) and a Landlock ruleset (the separate user, which
//! has no mount namespace to hide the file system).
//!
//! Everything is prepared in the grader before the fork; the child only makes system
//! calls on it (prctl, landlock_restrict_self, seccomp), which allocate nothing.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, Scope, ABI,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The Landlock ABI of the running kernel (0: none).
pub fn landlock_abi() -> i32 {
    static ABI_VERSION: OnceLock<i32> = OnceLock::new();
    *ABI_VERSION.get_or_init(|| {
        // SAFETY: landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) only
        // returns the ABI version (or fails).
        let version = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<u8>(),
                0usize,
                1u32,
            )
        };
        i32::try_from(version).unwrap_or(0).max(0)
    })
}

/// The system calls a run may not make, and what it gets instead: `EPERM` for sockets
/// of any family (inet, inet6, unix, abstract, netlink), ptrace and reading other
/// processes' memory, terminal injection (TIOCSTI, TIOCLINUX), SysV IPC and POSIX
/// message queues, keyrings, new namespaces, mounts, BPF, perf, io_uring and the
/// module and reboot calls; `ENOSYS` for clone3 (whose flags a filter cannot read, so
/// the C library falls back to clone, whose flags it can); and every x32 system call.
#[derive(Debug)]
pub struct Filter {
    programs: Vec<BpfProgram>,
}

/// Calls refused outright.
const REFUSED: &[libc::c_long] = &[
    libc::SYS_socket,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
    libc::SYS_kcmp,
    libc::SYS_shmget,
    libc::SYS_shmat,
    libc::SYS_shmctl,
    libc::SYS_shmdt,
    libc::SYS_msgget,
    libc::SYS_msgsnd,
    libc::SYS_msgrcv,
    libc::SYS_msgctl,
    libc::SYS_semget,
    libc::SYS_semop,
    libc::SYS_semctl,
    libc::SYS_semtimedop,
    libc::SYS_mq_open,
    libc::SYS_mq_unlink,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_name_to_handle_at,
    libc::SYS_open_by_handle_at,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_syslog,
];

/// The terminal ioctls that push input or drive the console.
const TERMINAL_IOCTLS: &[u64] = &[libc::TIOCSTI, 0x541C /* TIOCLINUX */];

/// The clone flags that make namespaces.
const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWCGROUP as u64,
];

impl Filter {
    /// Compiles the filter for this machine's architecture.
    pub fn new() -> io::Result<Filter> {
        let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(io::Error::other)?;
        let condition = |index, len, op, value| {
            SeccompCondition::new(index, len, op, value).map_err(io::Error::other)
        };
        let rule = |conditions| SeccompRule::new(conditions).map_err(io::Error::other);
        let mut refused: BTreeMap<i64, Vec<SeccompRule>> =
            REFUSED.iter().map(|&call| (call, Vec::new())).collect();
        let ioctls = TERMINAL_IOCTLS
            .iter()
            .map(|&request| {
                rule(vec![condition(
                    1,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::Eq,
                    request,
                )?])
            })
            .collect::<io::Result<Vec<_>>>()?;
        refused.insert(libc::SYS_ioctl, ioctls);
        let clones = NAMESPACE_FLAGS
            .iter()
            .map(|&flag| {
                rule(vec![condition(
                    0,
                    SeccompCmpArgLen::Qword,
                    SeccompCmpOp::MaskedEq(flag),
                    flag,
                )?])
            })
            .collect::<io::Result<Vec<_>>>()?;
        refused.insert(libc::SYS_clone, clones);
        let compile = |rules, action| -> io::Result<BpfProgram> {
            SeccompFilter::new(rules, SeccompAction::Allow, action, arch)
                .and_then(BpfProgram::try_from)
                .map_err(io::Error::other)
        };
        let eperm = compile(refused, SeccompAction::Errno(libc::EPERM as u32))?;
        let clone3 = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
        let enosys = compile(clone3, SeccompAction::Errno(libc::ENOSYS as u32))?;
        let mut programs = vec![eperm, enosys];
        if arch == TargetArch::x86_64 {
            programs.push(no_x32());
        }
        Ok(Filter { programs })
    }

    /// Installs the filter on the calling process, after `PR_SET_NO_NEW_PRIVS`
    /// (async-signal-safe: for the child between fork and exec).
    pub fn install(&self) -> io::Result<()> {
        for program in &self.programs {
            seccompiler::apply_filter(program).map_err(|_| io::Error::last_os_error())?;
        }
        Ok(())
    }

    /// The programs as files for bubblewrap's `--add-seccomp-fd` (close-on-exec, to
    /// be kept open for bwrap alone).
    pub fn files(&self) -> io::Result<Vec<File>> {
        self.programs.iter().map(program_file).collect()
    }
}

/// A filter that refuses every x32 system call (number with bit 30 set) with ENOSYS:
/// they would pass the x86-64 filters by other numbers.
fn no_x32() -> BpfProgram {
    use seccompiler::sock_filter;
    const LD_W_ABS: u16 = 0x20;
    const JGE_K: u16 = 0x35;
    const RET_K: u16 = 0x06;
    let ins = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    vec![
        // seccomp_data.nr
        ins(LD_W_ABS, 0, 0, 0),
        ins(JGE_K, 0, 1, 0x4000_0000),
        ins(RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
        ins(RET_K, 0, 0, libc::SECCOMP_RET_ALLOW),
    ]
}

/// A memory file holding `program`'s instructions, rewound.
fn program_file(program: &BpfProgram) -> io::Result<File> {
    // SAFETY: memfd_create reads a NUL-terminated name.
    let fd = unsafe { libc::memfd_create(c"reversi-seccomp".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fd is a new descriptor we own.
    let mut file = File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    // SAFETY: sock_filter is repr(C) plain data, 8 bytes an instruction.
    let bytes = unsafe {
        std::slice::from_raw_parts(
            program.as_ptr().cast::<u8>(),
            std::mem::size_of_val(program.as_slice()),
        )
    };
    file.write_all(bytes)?;
    std::io::Seek::rewind(&mut file)?;
    Ok(file)
}

/// What a run may reach of the file system under Landlock.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    /// Read and execute, with everything beneath.
    pub read: Vec<PathBuf>,
    /// Read, write, make and remove, with everything beneath.
    pub write: Vec<PathBuf>,
    /// Device files a program may read, write and ioctl (`/dev/null` and friends).
    pub devices: Vec<PathBuf>,
}

/// The folder `top` as rules that reach everything beneath it but `hidden`: where
/// `hidden` lies under `top`, each folder on the way down is replaced by its other
/// entries (Landlock can only allow, never carve a path out of what it allows).
pub fn beneath_all_but(top: &Path, hidden: &Path) -> Vec<PathBuf> {
    let Ok(top) = top.canonicalize() else {
        return Vec::new();
    };
    if !hidden.starts_with(&top) || hidden == top {
        return vec![top];
    }
    let mut rules = Vec::new();
    let mut here = top;
    while here != hidden {
        let Some(next) = hidden
            .strip_prefix(&here)
            .ok()
            .and_then(|rest| rest.components().next())
            .map(|step| here.join(step))
        else {
            break;
        };
        let entries = std::fs::read_dir(&here).into_iter().flatten().flatten();
        // Links are left out: a rule on one would stand for its target, which may be
        // `hidden`; those leading elsewhere reach a target that has a rule of its own.
        rules.extend(
            entries
                .filter(|e| e.file_type().is_ok_and(|t| !t.is_symlink()))
                .map(|e| e.path())
                .filter(|path| *path != next),
        );
        here = next;
    }
    rules
}

/// The devices every program may use.
pub const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// A Landlock ruleset ready to be enforced by the child: the file system as `reach`
/// says, no TCP bind or connect, no abstract unix socket or signal outside the run.
#[derive(Debug)]
pub struct Fence {
    ruleset: Option<RulesetCreated>,
}

impl Fence {
    /// The ruleset for `reach`; `None` where the kernel has no Landlock. Paths that do
    /// not exist are left out.
    pub fn new(reach: &Reach) -> io::Result<Option<Fence>> {
        if landlock_abi() < 1 {
            return Ok(None);
        }
        let abi = ABI::V6;
        let failed = |e: landlock::RulesetError| io::Error::other(e.to_string());
        let mut ruleset = Ruleset::default()
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(AccessFs::from_all(abi))
            .map_err(failed)?
            .handle_access(AccessNet::from_all(abi))
            .map_err(failed)?
            .scope(Scope::from_all(abi))
            .map_err(failed)?
            .create()
            .map_err(failed)?;
        let groups = [
            (&reach.read, AccessFs::from_read(abi)),
            (&reach.write, AccessFs::from_all(abi)),
            (
                &reach.devices,
                AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::IoctlDev,
            ),
        ];
        for (paths, access) in groups {
            for path in paths {
                let Ok(fd) = PathFd::new(path) else {
                    continue;
                };
                ruleset = ruleset
                    .add_rule(PathBeneath::new(fd, access))
                    .map_err(failed)?;
            }
        }
        Ok(Some(Fence {
            ruleset: Some(ruleset),
        }))
    }

    /// Enforces the ruleset on the calling process (async-signal-safe: prctl and
    /// landlock_restrict_self on a descriptor made before the fork). Once only.
    pub fn enforce(&mut self) -> io::Result<()> {
        match self.ruleset.take() {
            Some(ruleset) => ruleset
                .restrict_self()
                .map(drop)
                .map_err(|_| io::Error::last_os_error()),
            None => Ok(()),
        }
    }
}

/// Marks every descriptor from 3 up close-on-exec but those of `keep`, which lose the
/// flag (async-signal-safe): only standard input, output and error (and bubblewrap's
/// filters) reach the program, whatever the grader inherited.
pub fn only_standard_descriptors(keep: &[RawFd]) -> io::Result<()> {
    let mut from: u32 = 3;
    let mut kept = [0 as RawFd; 8];
    let count = keep.len().min(kept.len());
    kept[..count].copy_from_slice(&keep[..count]);
    kept[..count].sort_unstable();
    for &fd in &kept[..count] {
        // SAFETY: fcntl on a descriptor number; a closed one only fails.
        unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
        let fd = fd as u32;
        if fd > from {
            cloexec_range(from, fd - 1)?;
        }
        from = from.max(fd + 1);
    }
    cloexec_range(from, u32::MAX)
}

/// close_range(first, last, CLOSE_RANGE_CLOEXEC), or a loop where the kernel lacks it.
fn cloexec_range(first: u32, last: u32) -> io::Result<()> {
    // SAFETY: close_range only changes descriptor flags.
    let done = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            first,
            last,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if done == 0 {
        return Ok(());
    }
    // SAFETY: getrlimit fills the struct; fcntl on descriptor numbers.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        let end = (limit.rlim_cur.min(1 << 20) as u32).min(last.saturating_add(1));
        for fd in first..end {
            libc::fcntl(fd as RawFd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
    Ok(())
}

/// The raw descriptors of `files`.
pub fn raw_fds(files: &[File]) -> Vec<RawFd> {
    files.iter().map(AsRawFd::as_raw_fd).collect()
}

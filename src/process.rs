//! Running other programs (students' solvers, match players): a shell command line in
//! a process group of its own, waited for with a time limit, and on a timeout killed
//! together with everything it started, so that nothing keeps its pipes open.

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::time::Duration;

use wait_timeout::ChildExt;

/// `sh -c COMMAND` (`cmd /C` elsewhere than Unix), to start in a process group of its
/// own. Arguments added to it become `$0`, `$1`, ... of the command line.
pub fn shell(command: &str) -> Command {
    #[cfg(unix)]
    let shell = {
        use std::os::unix::process::CommandExt;
        let mut shell = Command::new("sh");
        shell.arg("-c").arg(command).process_group(0);
        shell
    };
    #[cfg(not(unix))]
    let shell = {
        let mut shell = Command::new("cmd");
        shell.arg("/C").arg(command);
        shell
    };
    shell
}

/// Waits for `child` at most `limit`. Past it, kills the child's process group (on
/// Unix; elsewhere the child alone), reaps the child and returns `None`.
pub fn wait_or_kill(child: &mut Child, limit: Duration) -> io::Result<Option<ExitStatus>> {
    if let Some(status) = child.wait_timeout(limit)? {
        return Ok(Some(status));
    }
    // Not reaped yet, so the group is still the program's: end all of it.
    kill_group(child);
    child.wait()?;
    Ok(None)
}

#[cfg(unix)]
fn kill_group(child: &mut Child) {
    // The child leads its own process group (see `shell`).
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group; it touches
        // no memory of ours. Failure (the group is gone) is fine.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(child: &mut Child) {
    child.kill().ok();
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_hung_command_and_its_children_are_killed_at_the_limit() {
        use std::io::Read;
        let started = Instant::now();
        // The shell starts a child that would outlive it, holding its output open.
        let mut child = shell("sleep 30 & sleep 30")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let status = wait_or_kill(&mut child, Duration::from_millis(200)).unwrap();
        assert!(status.is_none());
        // The output ends only when every process of the group is gone.
        child
            .stdout
            .take()
            .unwrap()
            .read_to_end(&mut Vec::new())
            .unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the child's child was left running"
        );
    }

    #[test]
    fn arguments_reach_the_command_line() {
        let out = shell("echo \"$1-$2\"")
            .args(["sh", "a", "b"])
            .output()
            .unwrap();
        assert_eq!(out.stdout, b"a-b\n");
    }
}

//! Stopping every run at once: what Ctrl-C, `SIGTERM` and `SIGHUP` do to a grader.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by [`stop_all`]: runs end at once and no new one starts.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// Ends every run now and refuses new ones (what Ctrl-C does to a grader). Only
/// stores to an atomic: safe in a signal handler.
pub fn stop_all() {
    STOP.store(true, Ordering::SeqCst);
}

/// Makes Ctrl-C, `SIGTERM` and `SIGHUP` call [`stop_all`]: the running programs are
/// killed, no more start, and each run's folder is removed as it ends, so that the
/// grader can report what was done and leave nothing behind. A second such signal
/// ends the grader at once (each handler is reset as it runs). A signal that is
/// ignored (`nohup`, a background job) stays ignored.
pub fn stop_on_signals() {
    extern "C" fn on_signal(_: libc::c_int) {
        stop_all();
    }
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: sigaction on zero-initialised structures; the handler only stores
        // to an atomic (async-signal-safe).
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut current) != 0
                || current.sa_sigaction == libc::SIG_IGN
            {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Whether [`stop_all`] was called: the flag a batch checks before starting a case.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

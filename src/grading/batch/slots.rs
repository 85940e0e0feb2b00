//! The grading's shares of the machine: program runs allowed at once (slots), a run
//! alone holding every slot, and the time budget a run must fit in.

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The row of a case not run for the grading's time budget.
pub const BUDGET_SPENT: &str = "not run: the grading's time budget was spent";

/// The row of a case whose run the end of the grading's time budget ended.
pub const BUDGET_ENDED: &str = "not run: the grading's time budget ended while it ran (every \
                                process of the run was killed)";

/// Whether `deadline` (if any) leaves room for `worst` from now.
pub fn covers(deadline: Option<Instant>, worst: Duration) -> bool {
    deadline.is_none_or(|deadline| Instant::now() + worst <= deadline)
}

/// Whether `deadline` (if any) is still to come: a case or a build starts then,
/// however long it may take, since the sandbox ends at the deadline whatever still
/// runs ([`crate::sandbox::Sandbox::until`]), and an honest run ends well within its
/// limits.
pub fn time_left(deadline: Option<Instant>) -> bool {
    deadline.is_none_or(|deadline| Instant::now() < deadline)
}

/// Program runs allowed at once, shared by batches run side by side: a slot one
/// batch leaves free while its last case runs goes to the next batch's cases. A run
/// may also hold every slot, to run alone.
pub struct Slots {
    count: usize,
    state: Mutex<SlotState>,
    freed: Condvar,
}

/// The free slots, and how many runs wait to hold them all (before whom no other
/// run starts).
struct SlotState {
    free: usize,
    waiting_for_all: usize,
}

impl Slots {
    /// `count` runs at once.
    pub fn new(count: usize) -> Slots {
        Slots {
            count: count.max(1),
            state: Mutex::new(SlotState {
                free: count.max(1),
                waiting_for_all: 0,
            }),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SlotState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a free slot and holds it until the guard is dropped.
    fn hold(&self) -> HeldSlots<'_> {
        let mut state = self.lock();
        while state.free == 0 || state.waiting_for_all > 0 {
            state = self.freed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.free -= 1;
        HeldSlots(self, 1)
    }

    /// Waits until every slot is free (no run starts meanwhile) and holds them all.
    fn hold_all(&self) -> HeldSlots<'_> {
        let mut state = self.lock();
        state.waiting_for_all += 1;
        while state.free < self.count {
            state = self.freed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.free = 0;
        state.waiting_for_all -= 1;
        HeldSlots(self, self.count)
    }
}

/// Slots of [`Slots`], given back when dropped.
struct HeldSlots<'a>(&'a Slots, usize);

impl Drop for HeldSlots<'_> {
    fn drop(&mut self) {
        self.0.lock().free += self.1;
        self.0.freed.notify_all();
    }
}

/// The slots a run of a case holds: one, or all of them to run it again alone; and
/// the grading's deadline.
pub(super) struct Turn<'a> {
    slots: &'a Slots,
    held: Option<HeldSlots<'a>>,
    /// When the grading's time budget ends.
    pub(super) deadline: Option<Instant>,
    /// When the run that counts began, where the case was run again alone.
    pub(super) again: Option<Instant>,
}

impl<'a> Turn<'a> {
    /// Waits for a slot of `slots`.
    pub(super) fn take(slots: &'a Slots, deadline: Option<Instant>) -> Turn<'a> {
        Turn {
            slots,
            held: Some(slots.hold()),
            deadline,
            again: None,
        }
    }

    /// Gives back the slot held and waits to hold every slot: what runs next runs
    /// alone (of the grader's runs).
    pub(super) fn alone(&mut self) {
        if self.held.as_ref().is_some_and(|h| h.1 == self.slots.count) {
            return;
        }
        self.held = None;
        self.held = Some(self.slots.hold_all());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::thread;

    #[test]
    fn a_run_alone_waits_for_every_slot_and_no_run_starts_meanwhile() {
        let slots = Slots::new(2);
        let first = Turn::take(&slots, None);
        let started = AtomicUsize::new(0);
        thread::scope(|scope| {
            let mut alone = Turn::take(&slots, None);
            scope.spawn(|| {
                alone.alone();
                // Both slots held: the first turn was given back.
                assert_eq!(started.load(Ordering::SeqCst), 0);
                drop(alone);
            });
            thread::sleep(Duration::from_millis(50));
            // Waiting to run alone: a new run waits too.
            scope.spawn(|| {
                let _turn = Turn::take(&slots, None);
                started.fetch_add(1, Ordering::SeqCst);
            });
            thread::sleep(Duration::from_millis(50));
            assert_eq!(started.load(Ordering::SeqCst), 0);
            drop(first);
        });
        assert_eq!(started.load(Ordering::SeqCst), 1);
        assert_eq!(slots.lock().free, 2);
    }
}

//! A class graded: two students side by side, sharing the runs' slots, each
//! student's progress and grade told to the caller in the students' order.

use super::{grade_student, GradeOptions, StudentGrade, Submission};
use crate::grading::batch::{self, CaseResult, Slots, Verdict};
use crate::sandbox::SandboxError;

/// How grading a class goes, for [`grade_class`]'s caller.
pub enum ClassEvent<'g> {
    /// Cases finished, of all the class's.
    Progress {
        /// Cases finished.
        done: usize,
        /// Cases in all (students times cases).
        total: usize,
    },
    /// A student's grade, in the students' order: every student before it was
    /// given before.
    Graded(&'g StudentGrade),
    /// The cases of a student being graded that are done so far, in case order (a
    /// prefix of the cases), each time it grows.
    Partial {
        /// The student.
        student: &'g Submission,
        /// The cases done.
        results: &'g [CaseResult],
    },
}

/// Grades `submissions`, `options.jobs` program runs at once in all: two students
/// side by side (one with a single job), sharing the runs' [`Slots`], so that a slot
/// one student leaves free while its last case runs goes to the next student's
/// cases. `on_event` gets the progress and each grade in the students' order. Stops
/// starting students once `options.stop` is set; the first sandbox error ends it
/// (after the students being graded finish).
pub fn grade_class(
    submissions: &[Submission],
    options: &GradeOptions,
    on_event: &mut dyn FnMut(ClassEvent),
) -> Result<Vec<StudentGrade>, SandboxError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;
    let stopped = || options.stop.is_some_and(|stop| stop.load(Ordering::SeqCst));
    let total = submissions.len() * options.cases.len();
    let slots = Slots::new(options.jobs);
    let shared = GradeOptions {
        slots: Some(&slots),
        ..*options
    };
    let side_by_side = if options.jobs >= 2 { 2 } else { 1 };
    let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let (sender, receiver) = mpsc::channel();
    let mut ready: Vec<Option<StudentGrade>> = (0..submissions.len()).map(|_| None).collect();
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..side_by_side {
            let sender = sender.clone();
            let (next, done, shared) = (&next, &done, &shared);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= submissions.len() || stopped() {
                    break;
                }
                let mut seen = 0;
                let mut so_far: Vec<CaseResult> = Vec::new();
                let student = &submissions[index];
                let graded = if batch::time_left(shared.deadline) {
                    grade_student(student, shared, &mut |update| {
                        done.fetch_add(update.done - seen, Ordering::SeqCst);
                        seen = update.done;
                        if !update.in_order.is_empty() {
                            so_far.extend(update.in_order.iter().map(|r| (*r).clone()));
                            let _ = sender.send((index, Message::Partial(so_far.clone())));
                        }
                    })
                } else {
                    let (cases, points, spent) = (shared.cases, shared.points, batch::BUDGET_SPENT);
                    Ok(StudentGrade::not_run(
                        &student.name,
                        Verdict::NotRun,
                        spent,
                        cases,
                        points,
                    ))
                };
                let failed = graded.is_err();
                if sender.send((index, Message::Graded(graded))).is_err() || failed {
                    break;
                }
            });
        }
        drop(sender);
        let mut given = 0;
        loop {
            match receiver.recv_timeout(std::time::Duration::from_millis(100)) {
                Ok((index, Message::Partial(results))) => {
                    on_event(ClassEvent::Partial {
                        student: &submissions[index],
                        results: &results,
                    });
                }
                Ok((index, Message::Graded(Ok(grade)))) => ready[index] = Some(grade),
                Ok((_, Message::Graded(Err(failure)))) => {
                    error.get_or_insert(failure);
                    next.store(submissions.len(), Ordering::SeqCst);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            on_event(ClassEvent::Progress {
                done: done.load(Ordering::SeqCst),
                total,
            });
            while let Some(grade) = ready.get(given).and_then(Option::as_ref) {
                on_event(ClassEvent::Graded(grade));
                given += 1;
            }
        }
    });
    if let Some(error) = error {
        return Err(error);
    }
    // (students not started, once stopped, have no grade)
    Ok(ready.into_iter().flatten().collect())
}

/// What a student's grading thread tells [`grade_class`].
enum Message {
    /// The cases done so far.
    Partial(Vec<CaseResult>),
    /// The grade.
    Graded(Result<StudentGrade, SandboxError>),
}

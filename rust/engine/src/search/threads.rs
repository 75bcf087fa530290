//! The helper threads of parallel searches, kept between searches.
//!
//! A search runs for one move and a game asks for one after another; starting its threads
//! anew each time costs tens of microseconds per thread on a virtual machine, and a fresh
//! thread's allocations are slower until its heap is warm. A search with several threads
//! borrows a set of [`Workers`] kept here and gives it back when done.

use crate::workers::Workers;
use std::sync::{Mutex, MutexGuard};

/// Idle sets kept at most (searches running at once beyond that start their own).
const KEEP: usize = 4;

/// The sets kept for every search of this process.
static KEPT: Kept = Kept(Mutex::new(Vec::new()));

/// Calls `job(i)` for every `i` in `0..threads` at once (`job(0)` on this thread), on kept
/// helpers where there are some; one after another on this thread if no thread can start.
/// A panic in a job reaches the caller after every job is done.
pub fn run_on_threads(threads: usize, job: &(dyn Fn(usize) + Sync)) {
    KEPT.run(threads, job);
}

/// Idle sets of helpers, each with the process that started it.
struct Kept(Mutex<Vec<(u32, Workers)>>);

impl Kept {
    fn idle(&self) -> MutexGuard<'_, Vec<(u32, Workers)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// [`run_on_threads`] with the sets kept here.
    fn run(&self, threads: usize, job: &(dyn Fn(usize) + Sync)) {
        if threads <= 1 {
            return job(0);
        }
        let me = std::process::id();
        let Some(mut workers) = self.borrow(me, threads) else {
            return (0..threads).for_each(job);
        };
        workers.run(job); // a panic drops these helpers instead of keeping them
        let mut idle = self.idle();
        if idle.len() < KEEP {
            idle.push((me, workers));
        }
    }

    /// A kept set of `threads` threads started by process `me`, or a new one (`None` if
    /// threads cannot start).
    fn borrow(&self, me: u32, threads: usize) -> Option<Workers> {
        let mut idle = self.idle();
        // After a fork the child has none of its parent's helper threads: joining them (as
        // dropping would) cannot work, so their handles are let go without it.
        let mut i = 0;
        while i < idle.len() {
            if idle[i].0 == me {
                i += 1;
            } else {
                std::mem::forget(idle.swap_remove(i).1);
            }
        }
        let found = idle.iter().position(|(_, w)| w.threads() == threads);
        let found = found.map(|i| idle.swap_remove(i).1);
        drop(idle);
        found.or_else(|| Workers::new(threads))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::thread::ThreadId;

    /// The thread that ran index 1 of a two-thread job on `kept`.
    fn helper_of(kept: &Kept) -> ThreadId {
        let id = Mutex::new(None);
        kept.run(2, &|i| {
            if i == 1 {
                *id.lock().unwrap() = Some(std::thread::current().id());
            }
        });
        let id = id.into_inner().unwrap();
        id.expect("index 1 ran")
    }

    #[test]
    fn every_index_runs_once_and_the_helpers_are_kept_for_the_next_job() {
        let kept = Kept(Mutex::new(Vec::new()));
        let runs: Vec<AtomicUsize> = (0..3).map(|_| AtomicUsize::new(0)).collect();
        kept.run(3, &|i| {
            runs[i].fetch_add(1, Ordering::SeqCst);
        });
        assert!(runs.iter().all(|r| r.load(Ordering::SeqCst) == 1));
        let first = helper_of(&kept);
        assert_ne!(first, std::thread::current().id());
        assert_eq!(helper_of(&kept), first);
        assert_eq!(
            kept.idle().len(),
            2,
            "a set of two threads and one of three"
        );
    }

    #[test]
    fn sets_started_by_another_process_are_let_go() {
        let kept = Kept(Mutex::new(Vec::new()));
        let stale = helper_of(&kept);
        kept.idle()[0].0 = std::process::id().wrapping_add(1); // as a forked child sees them
        assert_ne!(helper_of(&kept), stale);
        assert_eq!(kept.idle().len(), 1);
    }

    #[test]
    fn a_panic_reaches_the_caller_and_the_set_is_not_kept() {
        let kept = Kept(Mutex::new(Vec::new()));
        let r = std::panic::catch_unwind(|| kept.run(2, &|i| assert!(i == 0, "helper fails")));
        assert!(r.is_err());
        assert!(kept.idle().is_empty());
    }
}

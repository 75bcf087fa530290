//! A few helper threads that stay awake between the short parallel calls of a batch.
//!
//! A `VectorEnv` step is short (hundreds of microseconds for thousands of games) and comes
//! right after the previous one. A general pool puts its threads to sleep between calls and
//! the caller to sleep while it waits; on a virtual machine each sleep and wake costs tens of
//! microseconds, a large part of a step. These helpers keep spinning for a moment after a job
//! (`SPIN`) and the caller spins while it waits, so a run of steps pays no wake-up at all.

use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Games a thread must have to be worth its share (handing work over costs about a
/// microsecond).
pub const MIN_GAMES_PER_THREAD: usize = 256;

/// How long an idle helper waits for the next job, spinning, before it sleeps.
const SPIN: Duration = Duration::from_micros(300);

/// A job: called once with each index `0..threads` (0 on the calling thread).
type Job<'a> = dyn Fn(usize) + Sync + 'a;

/// What the caller and the helpers share.
#[derive(Default)]
struct Shared {
    /// Bumped for every job, and once more to stop.
    generation: AtomicU64,
    /// The current job, its lifetime erased: only read between its start and the moment the
    /// caller has seen every helper finish it.
    job: Mutex<Option<&'static Job<'static>>>,
    /// Helpers done with the current job.
    done: AtomicUsize,
    /// The first panic of a helper in the current job.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// Helpers asleep (waiting on `wake`).
    sleepers: AtomicUsize,
    sleep: Mutex<()>,
    wake: Condvar,
    stop: AtomicBool,
}

/// Locks, ignoring poisoning (nothing guarded can be left half-written).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// `threads - 1` helper threads; the caller is the first thread.
pub struct Workers {
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Workers({} threads)", self.helpers.len() + 1)
    }
}

impl Workers {
    /// Starts `threads - 1` helpers (none for one thread); `None` if a thread cannot start.
    pub fn new(threads: usize) -> Option<Self> {
        let mut workers = Workers::single();
        for index in 1..threads.max(1) {
            let shared = workers.shared.clone();
            let helper = std::thread::Builder::new()
                .name(format!("regalia-batch-{index}"))
                .spawn(move || help(&shared, index))
                .ok()?;
            workers.helpers.push(helper);
        }
        Some(workers)
    }

    /// No helpers: every job runs on the calling thread (the fallback when threads cannot start).
    pub fn single() -> Self {
        Workers {
            shared: Arc::new(Shared::default()),
            helpers: Vec::new(),
        }
    }

    /// Threads a job runs on (the caller's and the helpers).
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Calls `job(i)` for every `i` in `0..threads()` at once (`job(0)` on this thread) and
    /// returns when all are done; a panic in any of them is resumed here, after all are done.
    pub fn run(&mut self, job: &Job<'_>) {
        let s = &*self.shared;
        // SAFETY: the erased reference is dropped from `s.job` below, after every helper has
        // reported the job done (helpers read it only after a generation bump and before
        // their `done` increment), so no helper uses it once this call returns or unwinds.
        let erased = unsafe { std::mem::transmute::<&Job<'_>, &'static Job<'static>>(job) };
        *lock(&s.job) = Some(erased);
        s.done.store(0, Ordering::SeqCst);
        s.generation.fetch_add(1, Ordering::SeqCst);
        if s.sleepers.load(Ordering::SeqCst) > 0 {
            let _guard = lock(&s.sleep);
            s.wake.notify_all();
        }
        let mine = catch_unwind(AssertUnwindSafe(|| job(0)));
        let mut spins = 0u32;
        while s.done.load(Ordering::Acquire) < self.helpers.len() {
            spins = spins.saturating_add(1);
            if spins < 1 << 14 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        *lock(&s.job) = None;
        if let Some(p) = lock(&s.panic).take() {
            resume_unwind(p);
        }
        if let Err(p) = mine {
            resume_unwind(p);
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        let s = &*self.shared;
        s.stop.store(true, Ordering::SeqCst);
        s.generation.fetch_add(1, Ordering::SeqCst);
        {
            let _guard = lock(&s.sleep);
            s.wake.notify_all();
        }
        for h in self.helpers.drain(..) {
            let _ = h.join();
        }
    }
}

/// A helper's life: wait for a job (spinning for a while, then asleep), run its share, report.
fn help(s: &Shared, index: usize) {
    let mut seen = 0;
    loop {
        let idle = Instant::now();
        let mut spins = 0u32;
        loop {
            let g = s.generation.load(Ordering::SeqCst);
            if g != seen {
                seen = g;
                break;
            }
            spins = spins.wrapping_add(1);
            if spins % 64 != 0 || idle.elapsed() < SPIN {
                std::hint::spin_loop();
                continue;
            }
            let mut guard = lock(&s.sleep);
            s.sleepers.fetch_add(1, Ordering::SeqCst);
            while s.generation.load(Ordering::SeqCst) == seen {
                guard = s.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
            s.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
        if s.stop.load(Ordering::SeqCst) {
            return;
        }
        let job = *lock(&s.job);
        if let Some(job) = job {
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| job(index))) {
                lock(&s.panic).get_or_insert(p);
            }
        }
        s.done.fetch_add(1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_runs_once_per_job_on_its_own_thread() {
        let mut w = Workers::new(3).expect("threads start");
        assert_eq!(w.threads(), 3);
        for round in 0..200u64 {
            let hits: Vec<AtomicU64> = (0..3).map(|_| AtomicU64::new(0)).collect();
            w.run(&|i| {
                hits[i].fetch_add(round + 1, Ordering::SeqCst);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::SeqCst) == round + 1));
            if round % 50 == 0 {
                std::thread::sleep(SPIN * 3); // the helpers fall asleep and are woken
            }
        }
    }

    #[test]
    fn a_panic_in_a_helper_reaches_the_caller_after_all_are_done() {
        let mut w = Workers::new(2).expect("threads start");
        let finished = AtomicUsize::new(0);
        let r = catch_unwind(AssertUnwindSafe(|| {
            w.run(&|i| {
                if i == 1 {
                    panic!("helper fails");
                }
                finished.fetch_add(1, Ordering::SeqCst);
            })
        }));
        assert!(r.is_err());
        assert_eq!(finished.load(Ordering::SeqCst), 1);
        w.run(&|_| {
            finished.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(finished.load(Ordering::SeqCst), 3);
    }
}

//! [`GilCell`]: the mutable part of a frozen `#[pyclass]`, borrow-checked like a `RefCell`
//! with its flag guarded by the GIL instead of by atomics.
//!
//! PyO3 guards every mutable (not `frozen`) pyclass with an atomic borrow flag, so each method
//! call costs a locked compare-exchange and an atomic release. A frozen class that keeps its
//! state in a `GilCell` checks borrows with plain loads and stores instead: every borrow
//! takes a [`Python`] token, and a guard never leaves the thread and attached scope it was
//! made in, so the GIL orders every touch of the flag. A conflict raises what PyO3 raises
//! for one (`RuntimeError`, "Already borrowed" / "Already mutably borrowed").
//!
//! On a free-threaded interpreter (`Py_GIL_DISABLED`) attached threads run in parallel, so
//! there the cell is a `std::sync::RwLock` used only through its non-blocking `try_*`
//! methods: the same semantics, with atomics.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

#[cfg(not(Py_GIL_DISABLED))]
use std::cell::{Ref as ReadGuard, RefCell as Cell, RefMut as WriteGuard};
#[cfg(Py_GIL_DISABLED)]
use std::sync::{
    RwLock as Cell, RwLockReadGuard as ReadGuard, RwLockWriteGuard as WriteGuard, TryLockError,
};

/// A value borrowed, shared or exclusive, only by a thread attached to the interpreter.
pub struct GilCell<T>(Cell<T>);

// SAFETY: `RefCell` is not `Sync` because its borrow flag is a plain `Cell`; here every
// access to the flag is ordered by the GIL (this impl exists only where there is one):
// - The flag is touched only by `borrow`/`borrow_mut`, which take a `Python<'py>` token, so
//   the calling thread holds the GIL, and by dropping a guard. A guard holds a
//   `Python<'py>` and a `Ref`/`RefMut`, so it is neither `Send` nor `Sync`: it stays on the
//   thread that made it, and no other thread can even refer to it. Its `'py` keeps it inside
//   the attached scope it was made in (`Python::attach` is higher-ranked over `'py`). Inside
//   that scope the GIL is released only in `Python::detach`, whose closure and result must
//   be `Ungil` (`Send` on stable; on nightly, not holding a `Python`): so no guard is taken,
//   held or dropped there. Hence every flag access happens with the GIL held, and the GIL's
//   release and acquire order accesses from different threads (only one runs at a time).
// - The value is reached only through guards, exclusive ones made only when the flag shows
//   no other borrow. Any attached thread may take a guard, so `T: Send` (a `&mut T` on
//   another thread) and `T: Sync` (a `&T` on several) are required. A thread may pass the
//   `&T` of a guard kept alive on its own stack into detached work (work on other threads
//   while it waits): that is sharing `&T`, again `T: Sync`, and the flag stays borrowed.
#[cfg(not(Py_GIL_DISABLED))]
unsafe impl<T: Send + Sync> Sync for GilCell<T> {}

/// A shared borrow of a [`GilCell`]; it cannot leave the thread or attached scope (`'py`).
pub struct GilRef<'a, 'py, T> {
    guard: ReadGuard<'a, T>,
    _py: PhantomData<Python<'py>>,
}

/// An exclusive borrow of a [`GilCell`]; it cannot leave the thread or attached scope (`'py`).
pub struct GilRefMut<'a, 'py, T> {
    guard: WriteGuard<'a, T>,
    _py: PhantomData<Python<'py>>,
}

impl<T> GilCell<T> {
    /// A cell holding `value`.
    pub fn new(value: T) -> Self {
        GilCell(Cell::new(value))
    }

    /// Borrows the value shared; `RuntimeError` while it is borrowed exclusively.
    pub fn borrow<'a, 'py>(&'a self, _py: Python<'py>) -> PyResult<GilRef<'a, 'py, T>> {
        #[cfg(not(Py_GIL_DISABLED))]
        let guard = self.0.try_borrow().ok();
        #[cfg(Py_GIL_DISABLED)]
        let guard = match self.0.try_read() {
            Ok(g) => Some(g),
            // A panic is caught where it happens and turned into an exception: the value
            // is left as it was then, as it would be in a `RefCell`.
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        };
        let guard = guard.ok_or_else(|| PyRuntimeError::new_err("Already mutably borrowed"))?;
        Ok(GilRef {
            guard,
            _py: PhantomData,
        })
    }

    /// Borrows the value exclusively; `RuntimeError` while it is borrowed at all.
    pub fn borrow_mut<'a, 'py>(&'a self, _py: Python<'py>) -> PyResult<GilRefMut<'a, 'py, T>> {
        #[cfg(not(Py_GIL_DISABLED))]
        let guard = self.0.try_borrow_mut().ok();
        #[cfg(Py_GIL_DISABLED)]
        let guard = match self.0.try_write() {
            Ok(g) => Some(g),
            // As in `borrow`.
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        };
        let guard = guard.ok_or_else(|| PyRuntimeError::new_err("Already borrowed"))?;
        Ok(GilRefMut {
            guard,
            _py: PhantomData,
        })
    }
}

impl<T> Deref for GilRef<'_, '_, T> {
    type Target = T;
    /// The borrowed value.
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T> Deref for GilRefMut<'_, '_, T> {
    type Target = T;
    /// The borrowed value.
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T> DerefMut for GilRefMut<'_, '_, T> {
    /// The borrowed value.
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

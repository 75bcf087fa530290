//! What the interpreter reaches in a pyclass without PyO3's wrappers, for the two things a
//! Python loop over a game touches on every step besides ``legal_actions``.
//!
//! - [`BoolMember`], a read-only `bool` attribute. A `#[getter]` is a getset descriptor: every
//!   read goes through the generic attribute lookup, a C call into PyO3's trampoline, a borrow
//!   of the state and a new reference to a bool. A struct member of type `Py_T_OBJECT_EX` is
//!   a pointer at a fixed place in the object, which CPython reads itself (and, from 3.11,
//!   specializes into a single load at the call site).
//! - A method of one argument (`METH_O`, [`add_method_o`]): the interpreter hands over the
//!   argument as it is, where PyO3's methods take the fast-call convention and parse their
//!   positional and keyword arguments on every call.

use crate::errors::panic_error;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::pyclass::boolean_struct::True;
use pyo3::PyClass;
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, Ordering};

/// A `bool` kept as a pointer to Python's `True` or `False`, the layout of a
/// `Py_T_OBJECT_EX` member (see [`add_bool_member`]).
///
/// It holds no reference of its own: `True` and `False` live as long as the interpreter, and
/// a reader takes its own reference to what it reads. It is atomic so that a free-threaded
/// interpreter may read it while it is set.
#[repr(transparent)]
pub struct BoolMember(AtomicPtr<ffi::PyObject>);

/// Python's `True` or `False`.
fn py_bool(value: bool) -> *mut ffi::PyObject {
    // SAFETY: these only take the address of the interpreter's two static bools.
    unsafe {
        if value {
            ffi::Py_True()
        } else {
            ffi::Py_False()
        }
    }
}

impl BoolMember {
    /// A member holding `value`.
    pub fn new(value: bool) -> Self {
        BoolMember(AtomicPtr::new(py_bool(value)))
    }

    /// Sets the value.
    pub fn set(&self, value: bool) {
        self.0.store(py_bool(value), Ordering::Relaxed);
    }
}

/// Adds to the frozen class `T` the read-only attribute `name` (documented by `doc`): the
/// [`BoolMember`] that `member` picks out of a `T`, located within every object of `T` by
/// where it lies in `instance`.
pub fn add_bool_member<T: PyClass<Frozen = True> + Sync>(
    instance: &Bound<'_, T>,
    member: fn(&T) -> &BoolMember,
    name: &'static CStr,
    doc: &'static CStr,
) -> PyResult<()> {
    let py = instance.py();
    let ty = py.get_type::<T>();
    let object = instance.as_ptr() as usize;
    let at = member(instance.get()) as *const BoolMember as usize;
    // A `T` is stored inline in its Python object, past the object's header.
    let size: usize = ty.getattr("__basicsize__")?.extract()?;
    let offset = at
        .checked_sub(object)
        .filter(|&o| o >= size_of::<ffi::PyObject>() && o + size_of::<BoolMember>() <= size)
        .ok_or_else(|| PyTypeError::new_err("a member must lie within its object"))?;
    // The interpreter keeps a pointer to the definition for as long as the class lives: one
    // leaked per class, made once at import.
    let def = Box::leak(Box::new(ffi::PyMemberDef {
        name: name.as_ptr(),
        type_code: ffi::Py_T_OBJECT_EX,
        offset: offset as ffi::Py_ssize_t,
        flags: ffi::Py_READONLY,
        doc: doc.as_ptr(),
    }));
    // SAFETY: `ty` is a live type object and `def` lives forever; the result is a new
    // reference, or null with an exception set.
    let descr =
        unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewMember(ty.as_type_ptr(), def))? };
    ty.setattr(name.to_string_lossy().as_ref(), descr)
}

/// Adds to the class `T` the method `name` of one positional argument (`METH_O`, documented by
/// `doc`, which starts with its text signature): the interpreter hands it its argument as
/// it is, with no parsing of positional and keyword arguments. `meth` must wrap its body
/// in [`call_method_o`].
pub fn add_method_o<T: PyClass>(
    py: Python<'_>,
    name: &'static CStr,
    doc: &'static CStr,
    meth: unsafe extern "C" fn(*mut ffi::PyObject, *mut ffi::PyObject) -> *mut ffi::PyObject,
) -> PyResult<()> {
    let ty = py.get_type::<T>();
    // As for a member, the definition must outlive the class: leaked once at import.
    let def = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer { PyCFunction: meth },
        ml_flags: ffi::METH_O,
        ml_doc: doc.as_ptr(),
    }));
    // SAFETY: as in `add_bool_member`.
    let descr =
        unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewMethod(ty.as_type_ptr(), def))? };
    ty.setattr(name.to_string_lossy().as_ref(), descr)
}

/// The body of a `METH_O` method of `T`: `body` run on `slf` and `arg`, its result `None`,
/// or null with its error raised; a panic is caught and raised as `RegaliaError`.
///
/// PyO3 does not count the thread as attached here (its own trampoline would): a `Py`
/// handle that `body` lets go of is released at PyO3's next call instead of at once (a
/// `Bound` is released at once, as anywhere).
///
/// # Safety
/// The thread must be attached; `slf` must be a live instance of `T` and `arg` a live object,
/// both borrowed for the call (what the interpreter guarantees a `METH_O` method of `T`).
pub unsafe fn call_method_o<T: PyClass>(
    slf: *mut ffi::PyObject,
    arg: *mut ffi::PyObject,
    body: impl for<'py> FnOnce(Python<'py>, &Bound<'py, T>, &Bound<'py, PyAny>) -> PyResult<()>,
) -> *mut ffi::PyObject {
    // SAFETY: the caller's promises.
    let py = unsafe { Python::assume_attached() };
    let (slf, arg) = unsafe {
        (
            Bound::from_borrowed_ptr(py, slf).cast_into_unchecked::<T>(),
            Bound::from_borrowed_ptr(py, arg),
        )
    };
    let done = catch_unwind(AssertUnwindSafe(|| body(py, &slf, &arg)))
        .unwrap_or_else(|p| Err(panic_error(p)));
    match done {
        // SAFETY: `None` is a live object; the caller gets a new reference.
        Ok(()) => unsafe { ffi::Py_NewRef(ffi::Py_None()) },
        Err(e) => {
            e.restore(py);
            std::ptr::null_mut()
        }
    }
}

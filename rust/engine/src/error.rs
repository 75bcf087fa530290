//! The engine's error type; the Python layer maps each kind to its exception class.

use std::fmt;

/// What went wrong, with a message meant for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An action that is not legal in the current state (the state is unchanged).
    IllegalAction(String),
    /// An unknown game, an unknown option or an option value out of range.
    InvalidOption(String),
    /// A saved state that is malformed, tampered with, or of another game or version.
    InvalidState(String),
    /// A bad argument: a seat or seed out of range, a wrong buffer size.
    InvalidArgument(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::IllegalAction(m)
            | Error::InvalidOption(m)
            | Error::InvalidState(m)
            | Error::InvalidArgument(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

/// The engine's result type.
pub type Result<T> = std::result::Result<T, Error>;

//! One module per game: the rules, the encodings, the observations, and their unit tests.

pub mod duell_der_drachen;
pub mod duo;
pub mod duo_regna;
pub mod regine;
pub mod regnum;

//! One module per game: the rules, the encodings, the observations, and their unit tests.

pub mod duo_regna;

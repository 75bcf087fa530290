//! Embeds every rules page (`docs/rules/GAME.md`, the one source of truth) in the extension,
//! so that `regalia rules GAME` works from an installed wheel without a copy that could drift;
//! and sets PyO3's cfgs (`Py_GIL_DISABLED`, for `gil_cell`) for this crate.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    pyo3_build_config::use_pyo3_cfgs();
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let rules_dir = Path::new(&manifest).join("../../docs/rules");
    println!("cargo:rerun-if-changed={}", rules_dir.display());
    let mut pages: Vec<(String, String)> = fs::read_dir(&rules_dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .filter_map(|p| {
                    let stem = p.file_stem()?.to_str()?.to_owned();
                    let full = fs::canonicalize(&p).ok()?.to_str()?.to_owned();
                    Some((stem, full))
                })
                .collect()
        })
        .unwrap_or_default();
    pages.sort();
    let mut code = String::from("/// Every rules page: (game id, Markdown text).\npub const RULES_PAGES: &[(&str, &str)] = &[\n");
    for (name, path) in &pages {
        println!("cargo:rerun-if-changed={path}");
        writeln!(code, "    ({name:?}, include_str!({path:?})),").expect("writing to a String");
    }
    code.push_str("];\n");
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("rules_pages.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}

//! libFuzzer target: `regalia_engine::fuzz::options` on every registered game.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regalia_engine::fuzz::options(data);
});

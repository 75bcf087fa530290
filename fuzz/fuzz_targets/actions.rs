//! libFuzzer target: `regalia_engine::fuzz::actions` on every registered game.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regalia_engine::fuzz::actions(data);
});

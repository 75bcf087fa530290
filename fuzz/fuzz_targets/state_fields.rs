//! libFuzzer target: `regalia_engine::fuzz::state_fields` (saved states changed field by
//! field) on every registered game.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regalia_engine::fuzz::state_fields(data);
});

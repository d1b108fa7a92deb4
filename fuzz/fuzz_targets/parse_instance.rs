//! Arbitrary bytes through the instance reader: see `check_instance` in
//! `tests/fuzz_checks/mod.rs` for what must hold.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_checks/mod.rs"]
mod fuzz_checks;

fuzz_target!(|data: &[u8]| fuzz_checks::check_instance(data));

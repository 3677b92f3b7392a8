//! Sheet and bestiary loading from bytes, as `solum char show` and `--bestiary` read them:
//! the bounded decoding, then the parse and the rules' checks. Nothing may panic.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use solum_expanded::creature::{Bestiary, parse_bestiary};
use solum_cli::storage::{decode, parse_character};

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.toml");
    let Ok(text) = decode(path, data.to_vec()) else {
        return;
    };
    if let Ok(hero) = parse_character(path, &text) {
        // What loads must also survive the arithmetic of play.
        let mut hero = hero;
        hero.take_damage(u32::MAX);
        hero.heal(u32::MAX);
        let _ = hero.max_hit_points();
    }
    if let Ok(file) = parse_bestiary(&text) {
        let _ = Bestiary::shipped().add(file);
    }
});

//! Dice notation: any text is parsed; what parses is printed and parsed back to the same
//! tree, rolled with a seed and with the bytes as typed dice, and its exact odds computed
//! (the limits keep each of these quick). Nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use solum_dice::{SeededDice, TypedDice};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expr) = solum_notation::parse(text) else {
        return;
    };
    let printed = expr.to_string();
    let back = solum_notation::parse(&printed).expect("the printer writes what the parser reads");
    assert_eq!(back, expr, "{printed}");
    let _ = solum_notation::roll(&expr, &mut SeededDice::new(data.len() as u64));
    let typed: Vec<u32> = data.iter().map(|&b| u32::from(b % 20) + 1).collect();
    let _ = solum_notation::roll(&expr, &mut TypedDice::new(typed));
    let _ = solum_notation::distribution(&expr);
});

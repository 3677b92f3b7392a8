//! CPU time of rolling, for `perf stat -e task-clock` or a profile: `raw` d6 from the seeded
//! generator, or whole So1um Expanded `check`s of 4 dice against Tough (5), 50 million dice
//! either way. Run with `cargo run --release -p solum-bench --example roll -- raw|check|outcome`
//! (`outcome` hands every outcome on whole, as divan does with a benchmark's return value).

use solum_dice::{DiceSource, SeededDice};
use solum_expanded::check::{CheckSpec, roll_check};
use solum_expanded::{Difficulty, Pool};
use std::hint::black_box;
use std::time::Instant;

const DICE: u32 = 50_000_000;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut dice = SeededDice::new(1);
    let start = Instant::now();
    let mut sum = 0u32;
    match mode.as_str() {
        "raw" => {
            for _ in 0..DICE {
                sum = sum.wrapping_add(dice.roll(black_box(6)).expect("seeded"));
            }
        }
        "check" => {
            let spec = CheckSpec::new(Pool::new(4).expect("a pool"), Difficulty::TOUGH);
            for _ in 0..DICE / 4 {
                let outcome = roll_check(black_box(&spec), &mut dice).expect("seeded");
                sum = sum.wrapping_add(outcome.result);
            }
        }
        "outcome" => {
            // The whole outcome handed on (as divan does with a benchmark's return value).
            let spec = CheckSpec::new(Pool::new(4).expect("a pool"), Difficulty::TOUGH);
            for _ in 0..DICE / 4 {
                black_box(roll_check(black_box(&spec), &mut dice).expect("seeded"));
            }
        }
        _ => {
            eprintln!("usage: roll raw|check|outcome");
            std::process::exit(2);
        }
    }
    black_box(sum);
    let ns = start.elapsed().as_secs_f64() * 1e9 / f64::from(DICE);
    println!("{mode}: {ns:.2} ns a die (wall clock)");
}

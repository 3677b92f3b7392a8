//! Times the sum of exploding dice as the icepool comparison does (`10d10_explode_depth2`,
//! `10d10_explode_depth9`: the die, its explosion and the sum, in the first call of a fresh
//! process), then the mean of warm calls, by `sum_of` (the structured sum of exploding
//! dice) and by `sum_by_squares` (convolutions only), and checks that both agree.
//!
//! `cargo run --release -p solum-dice --example explode_sum [DEPTH [DICE [SIDES]]]`
//! (default: depth 9, 10 dice, d10). With `COLD_ONLY=1` it prints the cold time of
//! `sum_of` alone (microseconds), for a median over fresh processes; with `PRE=1` as well,
//! after the same sum of d8s first (the code warm, nothing of the d10s computed). With
//! `PHASES=1` it times the die, its explosion and the sum apart, cold; with `FAST_ONLY=1`
//! it stops after the warm `sum_of` (for a profile of it alone).

use std::hint::black_box;
use std::time::Instant;

use solum_dice::Distribution;

fn arg(i: usize, default: u32) -> u32 {
    std::env::args()
        .nth(i)
        .map_or(default, |a| a.parse().expect("a number"))
}

fn main() {
    let (depth, dice, sides) = (arg(1, 9), arg(2, 10), arg(3, 10));
    let run = || Distribution::die(sides).explode(depth).sum_of(dice);
    if std::env::var_os("PRE").is_some() {
        black_box(Distribution::die(8).explode(depth).sum_of(dice));
    }
    if std::env::var_os("PHASES").is_some() {
        // The die, its explosion and the sum timed apart in a fresh process.
        let t0 = Instant::now();
        let die = black_box(Distribution::die(sides));
        let t1 = Instant::now();
        let g = black_box(die.explode(depth));
        let t2 = Instant::now();
        black_box(g.sum_of(dice));
        let t3 = Instant::now();
        let us = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e6;
        println!("{:.1} {:.1} {:.1}", us(t0, t1), us(t1, t2), us(t2, t3));
        return;
    }
    let start = Instant::now();
    let fast = black_box(run());
    let cold = start.elapsed().as_secs_f64() * 1e6;
    if std::env::var_os("COLD_ONLY").is_some() {
        println!("{cold:.1}");
        return;
    }
    let warm = mean(|| black_box(run()));
    if std::env::var_os("FAST_ONLY").is_some() {
        // For a profile of `sum_of` alone.
        println!("sum_of {warm:.1} us warm");
        return;
    }
    let general_run = || Distribution::die(sides).explode(depth).sum_by_squares(dice);
    let start = Instant::now();
    let general = black_box(general_run());
    let general_cold = start.elapsed().as_secs_f64() * 1e6;
    let general_warm = mean(|| black_box(general_run()));
    assert_eq!(
        fast, general,
        "the structured sum and the convolutions disagree"
    );
    println!(
        "{dice}d{sides} exploding {depth} times: sum_of {cold:.1} us cold, {warm:.1} us warm; \
         sum_by_squares {general_cold:.1} us cold (after sum_of), {general_warm:.1} us warm"
    );
}

/// Mean time of one call in microseconds (the answer dropped each time), over about 0.3 s.
fn mean(f: impl Fn() -> Distribution) -> f64 {
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed().as_secs_f64() < 0.3 {
        f();
        calls += 1;
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(calls)
}

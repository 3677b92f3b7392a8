//! Times the sum of exploding dice as the icepool comparison does (`10d10_explode_depth2`,
//! `10d10_explode_depth9`): the first call of a fresh process (cold), then the mean of warm
//! calls, by the shortcut for exploding dice (`sum_of`) and by convolutions only
//! (`sum_by_squares`), and checks that both agree.
//!
//! `cargo run --release -p solum-dice --example explode_sum [DEPTH [DICE [SIDES]]]`
//! (default: depth 9, 10 dice, d10).

use std::hint::black_box;
use std::time::Instant;

use solum_dice::Weights;

fn arg(i: usize, default: u32) -> u32 {
    std::env::args()
        .nth(i)
        .map_or(default, |a| a.parse().expect("a number"))
}

fn main() {
    let (depth, dice, sides) = (arg(1, 9), arg(2, 10), arg(3, 10));
    let run = || Weights::die(sides).explode(depth).sum_of(dice);
    if let Some(k) = std::env::var_os("SPIN") {
        // For `perf stat`: only the shortcut, a fixed number of times.
        let k: u32 = k.to_str().and_then(|k| k.parse().ok()).expect("SPIN=count");
        for _ in 0..k {
            black_box(run());
        }
        return;
    }
    let faults = || -> u64 {
        std::fs::read_to_string("/proc/self/stat")
            .unwrap()
            .split(' ')
            .nth(9)
            .unwrap()
            .parse()
            .unwrap()
    };
    let f0 = faults();
    let start = Instant::now();
    let fast = black_box(run());
    let cold = start.elapsed().as_secs_f64() * 1e6;
    let f1 = faults();
    if std::env::var_os("PHASES").is_some() {
        eprintln!("faults {}", f1 - f0);
    }
    if std::env::var_os("COLD_ONLY").is_some() {
        println!("{cold:.1}");
        return;
    }
    let warm = mean(|| black_box(run()));
    if std::env::var_os("SHORTCUT_ONLY").is_some() {
        println!("sum_of {cold:.1} us cold, {warm:.1} us warm");
        return;
    }
    let start = Instant::now();
    let general = black_box(Weights::die(sides).explode(depth).sum_by_squares(dice));
    let general_cold = start.elapsed().as_secs_f64() * 1e6;
    let general_warm = mean(|| black_box(Weights::die(sides).explode(depth).sum_by_squares(dice)));
    assert_eq!(fast, general, "the shortcut and the general path disagree");
    println!(
        "{dice}d{sides} exploding {depth} times: sum_of {cold:.1} us cold, {warm:.1} us warm; \
         sum_by_squares {general_cold:.1} us cold, {general_warm:.1} us warm"
    );
}

/// Mean time of one call in microseconds, over about 0.3 s.
fn mean(f: impl Fn() -> Weights) -> f64 {
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed().as_secs_f64() < 0.3 {
        f();
        calls += 1;
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(calls)
}

//! What the first call of a fresh process pays: 4d6 keep highest 3 timed three times in a
//! row (`cold`), after the harness's warm-up, 3d7 keep highest 2 (`cold warm`), and warm on average (`cold spin`).
//! Run with `cargo run --release -p solum-bench --example cold [warm|spin]`.

use solum_dice::{Distribution, Pool};
use std::hint::black_box;
use std::time::Instant;
fn t(label: &str, f: impl FnOnce() -> Distribution) {
    let s = Instant::now();
    let w = black_box(f());
    let e = s.elapsed().as_secs_f64() * 1e6;
    println!("{label}: {e:.2} us ({})", w.is_small());
}
fn main() {
    if std::env::args().nth(1).as_deref() == Some("spin") {
        let s = Instant::now();
        spin();
        println!(
            "warm each: {:.2} us",
            s.elapsed().as_secs_f64() * 1e6 / 200_000.0
        );
        return;
    }
    let s = Instant::now();
    let _ = black_box(Instant::now());
    println!("instant: {:.2} us", s.elapsed().as_secs_f64() * 1e6);
    if std::env::args().nth(1).as_deref() == Some("warm") {
        t("warm-up (3d7 keep highest 2)", || {
            Pool::new(Distribution::die(7), 3).keep_highest(2)
        });
    }
    t("first", || {
        Pool::new(Distribution::die(6), 4).keep_highest(3)
    });
    t("second", || {
        Pool::new(Distribution::die(6), 4).keep_highest(3)
    });
    t("third", || {
        Pool::new(Distribution::die(6), 4).keep_highest(3)
    });
}
fn spin() {
    for _ in 0..200_000 {
        black_box(Pool::new(Distribution::die(6), 4).keep_highest(3));
    }
}

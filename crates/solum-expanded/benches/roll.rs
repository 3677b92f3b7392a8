//! Rolling speed: raw d6 from the seeded generator against a whole check that keeps every
//! die. Run with `cargo bench -p solum-expanded --bench roll`.
//!
//! divan reports time per iteration and, with the item counts, dice per second: a check of
//! 4 dice counts 4 items, so its "items/s" is dice per second, comparable per die with the
//! raw d6 rows (a fair comparison per die); per check it is the time of one iteration.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use solum_dice::{DiceSource, SeededDice};
use solum_expanded::check::{CheckSpec, roll_check};
use solum_expanded::{Difficulty, Pool};

fn main() {
    divan::main();
}

/// One d6 straight from the generator (monomorphic call).
#[divan::bench]
fn raw_d6(bencher: Bencher) {
    let mut dice = SeededDice::new(1);
    bencher
        .counter(ItemsCount::new(1usize))
        .bench_local(|| dice.roll(black_box(6)).unwrap());
}

/// One d6 through `&mut dyn DiceSource`, as a rule sees the generator.
#[divan::bench]
fn raw_d6_dyn(bencher: Bencher) {
    let mut seeded = SeededDice::new(1);
    let dice: &mut dyn DiceSource = black_box(&mut seeded);
    bencher
        .counter(ItemsCount::new(1usize))
        .bench_local(|| dice.roll(black_box(6)).unwrap());
}

/// The bare rule of a check: n dice, the highest against 5, nothing kept.
#[divan::bench(args = [4, 16])]
fn bare_check(bencher: Bencher, n: usize) {
    let mut seeded = SeededDice::new(1);
    let dice: &mut dyn DiceSource = black_box(&mut seeded);
    bencher.counter(ItemsCount::new(n)).bench_local(|| {
        let mut top = 0;
        for _ in 0..n {
            top = top.max(dice.roll(black_box(6)).unwrap());
        }
        top >= 5
    });
}

/// A whole check of n dice against Tough (5), its outcome keeping every die: the `Result`
/// is built whole (`black_box` sees all of it), looked at and dropped within the
/// iteration, as a caller does. Returned from the closure instead (`check_returned`), each
/// outcome is moved out of its `Result` and stored in divan's buffer for a deferred drop,
/// and the time includes that copy (see docs/performance.md).
#[divan::bench(args = [4, 16])]
fn check(bencher: Bencher, n: usize) {
    let spec = CheckSpec::new(Pool::new(n as u64).unwrap(), Difficulty::TOUGH);
    let mut dice = SeededDice::new(1);
    bencher.counter(ItemsCount::new(n)).bench_local(|| {
        let outcome = roll_check(black_box(&spec), &mut dice);
        black_box(&outcome);
        assert!(outcome.is_ok());
    });
}

/// The same check with its outcome unwrapped and returned to divan (stored for a deferred
/// drop).
#[divan::bench(args = [4, 16])]
fn check_returned(bencher: Bencher, n: usize) {
    let spec = CheckSpec::new(Pool::new(n as u64).unwrap(), Difficulty::TOUGH);
    let mut dice = SeededDice::new(1);
    bencher
        .counter(ItemsCount::new(n))
        .bench_local(|| roll_check(black_box(&spec), &mut dice).unwrap());
}

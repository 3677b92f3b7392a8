//! Times the sums behind `solum odds 1000d6` and its neighbours: `Distribution::sum_of` (the
//! recurrence of `power.rs` past `u128`) against `sum_by_squares` (the convolutions by
//! squaring it replaced, one Kronecker multiplication each), then `outcomes` (every weight
//! reduced to an exact fraction, what `solum odds --json` prints): the median of 5 calls each.
//!
//! `cargo run --release -p solum-dice --example big_sums`

use std::hint::black_box;
use std::time::Instant;

use solum_dice::Distribution;

fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[2]
}

fn main() {
    for (label, sides, n) in [
        ("1000d6", 6, 1000),
        ("500d6", 6, 500),
        ("100d20", 20, 100),
        ("100d100", 100, 100),
        ("50d6", 6, 50),
    ] {
        let die = Distribution::die(sides);
        let sum = die.sum_of(n);
        assert_eq!(sum, die.sum_by_squares(n), "{label}: both ways agree");
        let fast = median_ms(|| {
            black_box(die.sum_of(black_box(n)));
        });
        let squares = median_ms(|| {
            black_box(die.sum_by_squares(black_box(n)));
        });
        let fractions = median_ms(|| {
            black_box(sum.outcomes());
        });
        println!(
            "{label}: {} values, sum_of {fast:.3} ms, sum_by_squares {squares:.3} ms, \
             outcomes {fractions:.3} ms (medians of 5)",
            sum.support_size()
        );
    }
}

//! Times `Weights::to_distribution` (every weight reduced to an exact fraction) on the sums
//! behind `solum odds 1000d6 --json` and `solum odds 10d10!`: the median of 5 calls.
//!
//! `cargo run --release -p solum-dice --example to_distribution`

use std::hint::black_box;
use std::time::Instant;

use solum_dice::Weights;

fn main() {
    for (label, w) in [
        ("1000d6", Weights::die(6).sum_of(1000)),
        ("100d20", Weights::die(20).sum_of(100)),
        (
            "10d10 exploding 9 times",
            Weights::die(10).explode(9).sum_of(10),
        ),
        (
            "10d10 exploding 20 times",
            Weights::die(10).explode(20).sum_of(10),
        ),
    ] {
        let mut times: Vec<f64> = (0..5)
            .map(|_| {
                let start = Instant::now();
                black_box(w.to_distribution());
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!(
            "{label}: {} values, to_distribution {:.3} ms (median of 5)",
            w.probabilities_f64().len(),
            times[2]
        );
    }
}

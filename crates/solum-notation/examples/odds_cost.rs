//! Measures exact odds against their estimate: for each expression given, the estimated
//! work and bytes, the work counted, the time and the peak memory of the process so far.
//! A calibration tool for the limits (run it in a release build, one expression per run
//! for a clean peak): `cargo run --release -p solum-notation --example odds_cost -- 1000d6`.

use std::time::Instant;

fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn main() {
    // ODDS_COST_FORCE=1 lifts the limits, to time what they refuse.
    let force = std::env::var_os("ODDS_COST_FORCE").is_some();
    for text in std::env::args().skip(1) {
        let expr = match solum_notation::parse(&text) {
            Ok(e) => e,
            Err(e) => {
                println!("{text}: {e}");
                continue;
            }
        };
        let est = solum_notation::estimate::bound(&expr);
        let start = Instant::now();
        let mut work = if force {
            solum_notation::Work::with_limits(u64::MAX, u64::MAX)
        } else {
            solum_notation::Work::new()
        };
        let r = solum_notation::distribution_with(&expr, &mut work);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{text}\test_work {:?}\test_bytes {:?}\tspent {}\t{:.3} s\tpeak {} MiB\t{}",
            est.as_ref().map(|b| b.work),
            est.as_ref().map(|b| b.bytes),
            work.spent(),
            secs,
            peak_kib() / 1024,
            match r {
                Ok(w) => format!(
                    "ok {} values, {} bits (estimated {:?})",
                    w.support_size(),
                    w.denominator_big().bits(),
                    est.as_ref().map(|b| b.bits)
                ),
                Err(e) => format!("refused: {e}"),
            }
        );
    }
}

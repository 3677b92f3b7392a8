//! The odds budget: any expression the limits admit computes its exact odds within 2 s and
//! 500 MB (peak bytes allocated, counted by the allocator), or this target panics. The bytes
//! are read as text when they parse, else decoded into the shapes that cost the most: big
//! sums, kept pools, explosions, `max`/`min`/`*`/`/` between distributions, the family's
//! terms, numbers near the largest that may be written.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use peak_alloc::PeakAlloc;

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

const TIME: Duration = Duration::from_secs(2);
const BYTES: usize = 500_000_000;

/// Reads one byte at a time, 0 past the end.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        b
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[usize::from(self.next()) % from.len()]
    }
}

fn shape(b: &mut Bytes, depth: u32) -> String {
    let kind = if depth == 0 { b.next() % 5 } else { b.next() % 8 };
    match kind {
        0..=2 => {
            let n = b.pick(&[1u32, 2, 3, 10, 50, 100, 200, 300, 500, 1000]);
            let s = b.pick(&["2", "6", "10", "20", "100", "1000", "F", "%"]);
            let tail = match b.next() % 6 {
                0 => format!("kh{}", n.div_ceil(2)),
                1 => "!".to_owned(),
                2 => "!!".to_owned(),
                3 => ">=5".to_owned(),
                4 => "ro1".to_owned(),
                _ => String::new(),
            };
            format!("{n}d{s}{tail}")
        }
        3 => b
            .pick(&["1", "5", "1000", "1000000", "999999", "524288"])
            .to_owned(),
        4 => b
            .pick(&["dt(d12)", "dt(d4)", "solum(30)", "solum(5, vs 9)", "sol(40, second)", "una(40, +2)"])
            .to_owned(),
        5 | 6 => {
            let op = b.pick(&["+", "-", "*", "/"]);
            format!("({}){op}({})", shape(b, depth - 1), shape(b, depth - 1))
        }
        _ => {
            let f = b.pick(&["max", "min"]);
            let n = 2 + usize::from(b.next() % 3);
            let args: Vec<String> = (0..n).map(|_| shape(b, depth - 1)).collect();
            format!("{f}({})", args.join(","))
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = match std::str::from_utf8(data) {
        Ok(t) if solum_notation::parse(t).is_ok() => t.to_owned(),
        _ => shape(&mut Bytes(data), 4),
    };
    let Ok(expr) = solum_notation::parse(&text) else {
        return;
    };
    if solum_notation::estimate::check(&expr).is_err() {
        return;
    }
    let base = PEAK.current_usage();
    PEAK.reset_peak_usage();
    let start = Instant::now();
    let _ = solum_notation::weights(&expr);
    let took = start.elapsed();
    let peak = PEAK.peak_usage().saturating_sub(base);
    assert!(took < TIME, "{text}: admitted, took {took:?}");
    assert!(peak < BYTES, "{text}: admitted, held {peak} bytes");
});

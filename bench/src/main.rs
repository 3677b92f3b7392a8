//! The Rust side of `bench/compare.sh`: the same exact distributions as
//! `bench/icepool_sweeps.py`, each sweep timed in-process (the computation only; the
//! conversion to floats for the comparison comes after the clock stops).
//!
//! `solum-bench sweeps` times the exact engine (`Distribution`, integer weights), `solum-bench
//! public` the systems' public odds functions for the same sweeps (the same type, or exact
//! `Prob` verdicts where the function gives those), and
//! `solum-bench throughput` rolls So1um Expanded checks against the raw generator. Each
//! run prints one JSON object; `solum-bench sweeps NAME` runs one sweep only, and the script
//! runs each sweep in processes of its own so every query is cold (after the warm-up both
//! sides share, [`warm_up`]), then times it again warm.

use std::hint::black_box;
use std::time::Instant;

use num_traits::{One, Zero};
use serde_json::{Value, json};
use solum_dice::{DiceSource, Distribution, Pool, Prob, SeededDice, prob_to_f64};
use solum_dietype::DieType;
use solum_expanded::check::{CheckSpec, OpposedSpec, roll_check};
use solum_expanded::{Difficulty, odds as expanded};
use solum_sol::odds as sol;
use solum_soluna::odds as soluna;

/// A pool of So1um Expanded dice.
fn pool(n: u32) -> solum_expanded::Pool {
    solum_expanded::Pool::new(u64::from(n)).expect("a valid pool")
}

/// Explosion depth of the die-type sweep (as in the Python script).
const DIETYPE_DEPTH: u32 = 4;

fn floats(w: &Distribution) -> Value {
    json!(w.probabilities_f64())
}

fn dist_floats(d: &Distribution) -> Value {
    json!(
        d.outcomes()
            .iter()
            .map(|(v, p)| (*v, prob_to_f64(p)))
            .collect::<Vec<_>>()
    )
}

/// The warm-up both sides run before any sweep's clock starts (icepool: the same query,
/// `d7.pool(3).highest(2).sum()`, in `bench/icepool_sweeps.py`): the sum of the 2 highest of
/// 3d7, a die no sweep uses. It pays the process's first touch of the engine's code and heap
/// (Python's import does as much for icepool) without computing anything a sweep reuses; the
/// engine keeps no cache either way. It is timed like a sweep, so the clock's own first
/// use is not counted in the first sweep either.
///
/// Before it, the Rust side writes and frees [`HEAP_TOUCH`] bytes of heap, computing
/// nothing: a fresh Rust process has touched almost no heap, while Python's import leaves
/// megabytes of it touched. Each page touched for the first time is a page fault (about
/// 1.5 µs here: 13 of them were 25 of the 30 µs of a cold `so1um_result_1_30`), which is
/// the process's cost, not the engine's. Then it reads the program's code
/// ([`preload_code`]) unless `SOLUM_BENCH_NO_PRELOAD` is set. Returns the warm-up's time and
/// whether the code was read.
fn warm_up() -> (f64, bool) {
    black_box(vec![1u8; HEAP_TOUCH]);
    // After the heap's touch: reading the code first made 4d6 keep 3 0.06 µs slower.
    let preloaded = std::env::var_os("SOLUM_BENCH_NO_PRELOAD").is_none() && preload_code();
    let start = Instant::now();
    black_box(vec![Pool::new(Distribution::die(7), 3).keep_highest(2)]);
    (start.elapsed().as_secs_f64() * 1000.0, preloaded)
}

/// Reads all of this program's code once before any clock starts, through
/// `/proc/self/mem`: that maps each of its pages into the process and brings the code into
/// the caches, so a sweep's first call into code the warm-up did not run no longer pays
/// to fetch it. It warms the caches, not only the page tables (10d10 exploding twice: 9.4
/// µs cold without it, 9.2 µs when one byte of each page is read, which maps the pages and
/// no more, 6.0 µs with all of the code read); docs/performance.md gives the figures with
/// and without it. Best effort: `false` where `/proc` cannot be read or a read fails.
fn preload_code() -> bool {
    use std::os::unix::fs::FileExt;
    let (Ok(maps), Ok(exe), Ok(mem)) = (
        std::fs::read_to_string("/proc/self/maps"),
        std::fs::read_link("/proc/self/exe"),
        std::fs::File::open("/proc/self/mem"),
    ) else {
        return false;
    };
    let (mut found, mut read) = (false, true);
    let mut chunk = [0u8; 4096];
    for line in maps.lines() {
        // start-end perms offset device inode path (the path may hold spaces).
        let mut rest = line;
        let mut field = || {
            let (f, r) = rest
                .trim_start()
                .split_once(char::is_whitespace)
                .unwrap_or((rest.trim_start(), ""));
            rest = r;
            f
        };
        let (range, perms) = (field(), field());
        let _ = (field(), field(), field());
        if !perms.contains('x') || std::path::Path::new(rest.trim()) != exe {
            continue;
        }
        let Some((Ok(start), Ok(end))) = range
            .split_once('-')
            .map(|(a, b)| (u64::from_str_radix(a, 16), u64::from_str_radix(b, 16)))
        else {
            continue;
        };
        found = true;
        read &= (start..end)
            .step_by(chunk.len())
            .all(|at| mem.read_at(&mut chunk, at).is_ok_and(|n| n > 0));
    }
    found && read
}

/// Heap written and freed before the warm-up: under glibc's mmap and trim thresholds
/// (128 KiB), so it stays in the process's heap after it is freed.
const HEAP_TOUCH: usize = 120 * 1024;

/// Warm repeats of a sweep after its cold run, by the cold run's time (the same rule as in
/// `bench/icepool_sweeps.py`): three under 100 ms, one under 2 s, none past that.
fn warm_repeats(cold_ms: f64) -> usize {
    if cold_ms < 100.0 {
        3
    } else if cold_ms < 2000.0 {
        1
    } else {
        0
    }
}

/// Times `run` once after the warm-up (cold: nothing of this sweep computed before in this
/// process), then again as often as [`warm_repeats`] says (warm: the median is reported),
/// and converts its results afterwards; `None` when the command line names another sweep
/// (each sweep runs in a process of its own).
fn sweep<T>(name: &str, run: impl Fn() -> Vec<T>, convert: impl Fn(&T) -> Value) -> Option<Value> {
    if std::env::args().nth(2).is_some_and(|only| only != name) {
        return None;
    }
    let (warm_up_ms, code_preloaded) = warm_up();
    let start = Instant::now();
    let out = black_box(run());
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let mut warm: Vec<f64> = (0..warm_repeats(ms))
        .map(|_| {
            let start = Instant::now();
            black_box(run());
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    warm.sort_by(f64::total_cmp);
    let warm_ms = warm.get(warm.len() / 2).copied();
    eprintln!("solum {name}: {ms:.4} ms cold, {warm_ms:?} ms warm");
    Some(json!({
        "name": name,
        "ms": ms,
        "warm_ms": warm_ms,
        "warm_up_ms": warm_up_ms,
        "code_preloaded": code_preloaded,
        "dists": out.iter().map(convert).collect::<Vec<_>>(),
    }))
}

fn opposed_pairs(max: u32) -> impl Iterator<Item = (u32, u32)> {
    (1..=max).flat_map(move |a| (1..=max).map(move |b| (a, b)))
}

fn largest_cases(flips: std::ops::RangeInclusive<i32>) -> Vec<(u32, i32)> {
    (1..=20u32)
        .flat_map(|n| flips.clone().map(move |k| (n, k)))
        .collect()
}

/// The integer engine on every sweep.
fn sweeps() -> Vec<Value> {
    [
        sweep(
            "so1um_result_1_30",
            || {
                (1..=30)
                    .map(|n| expanded::result_distribution(pool(n)))
                    .collect()
            },
            floats,
        ),
        sweep(
            "so1um_opposed_1_6",
            || {
                opposed_pairs(6)
                    .map(|(a, b)| expanded::opposed_weights(&OpposedSpec::new(pool(a), pool(b))))
                    .collect()
            },
            floats,
        ),
        sweep(
            "sol_hits_glitch_1_50",
            || {
                (1..=50)
                    .flat_map(|n| {
                        let t = sol::test_weights(n, None);
                        [t.hits, t.glitch]
                    })
                    .collect()
            },
            floats,
        ),
        sweep(
            "soluna_largest_1_20_flips_0_3",
            || {
                largest_cases(0..=3)
                    .into_iter()
                    .map(|(n, k)| soluna::largest_distribution(n, k).expect("within the limits"))
                    .collect()
            },
            floats,
        ),
        sweep(
            "soluna_largest_1_20_flips_-1_3",
            || {
                largest_cases(-1..=3)
                    .into_iter()
                    .map(|(n, k)| soluna::largest_distribution(n, k).expect("within the limits"))
                    .collect()
            },
            floats,
        ),
        sweep(
            "dietype_explode_depth4",
            || {
                DieType::ALL
                    .iter()
                    .map(|&d| solum_dietype::odds::explosion_weights(d, DIETYPE_DEPTH))
                    .collect()
            },
            floats,
        ),
        sweep(
            "keep_highest_3_of_4d6",
            || vec![Pool::new(Distribution::die(6), 4).keep_highest(3)],
            floats,
        ),
        sweep(
            "10d10_explode_depth9",
            || vec![Distribution::die(10).explode(9).sum_of(10)],
            floats,
        ),
        sweep(
            "10d10_explode_depth2",
            || vec![Distribution::die(10).explode(2).sum_of(10)],
            floats,
        ),
        sweep(
            "so1um_opposed_1_10",
            || {
                opposed_pairs(10)
                    .map(|(a, b)| expanded::opposed_weights(&OpposedSpec::new(pool(a), pool(b))))
                    .collect()
            },
            floats,
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The public functions, with exact fractions, on the sweeps the systems' odds answer.
fn public() -> Vec<Value> {
    let verdicts = |o: &expanded::OpposedOdds| {
        json!([
            [-1, prob_to_f64(&o.lose)],
            [0, prob_to_f64(&o.draw)],
            [1, prob_to_f64(&o.win)]
        ])
    };
    vec![
        sweep(
            "so1um_result_1_30",
            || {
                (1..=30)
                    .map(|n| expanded::result_distribution(pool(n)))
                    .collect()
            },
            dist_floats,
        ),
        sweep(
            "so1um_opposed_1_6",
            || {
                opposed_pairs(6)
                    .map(|(a, b)| expanded::opposed_odds(&OpposedSpec::new(pool(a), pool(b))))
                    .collect()
            },
            verdicts,
        ),
        sweep(
            "sol_hits_glitch_1_50",
            || {
                (1..=50)
                    .flat_map(|n| {
                        let t = sol::test_odds(n, 1, None);
                        let glitch = Distribution::from_fractions(
                            [(0, Prob::one() - &t.glitch), (1, t.glitch)],
                            Prob::zero(),
                        );
                        [t.hits, glitch]
                    })
                    .collect()
            },
            dist_floats,
        ),
        sweep(
            "soluna_largest_1_20_flips_0_3",
            || {
                largest_cases(0..=3)
                    .into_iter()
                    .map(|(n, k)| soluna::largest_distribution(n, k).expect("within the limits"))
                    .collect()
            },
            dist_floats,
        ),
        sweep(
            "soluna_largest_1_20_flips_-1_3",
            || {
                largest_cases(-1..=3)
                    .into_iter()
                    .map(|(n, k)| soluna::largest_distribution(n, k).expect("within the limits"))
                    .collect()
            },
            dist_floats,
        ),
        sweep(
            "dietype_distribution_1e-12",
            || {
                DieType::ALL
                    .iter()
                    .map(|&d| solum_dietype::odds::distribution(d))
                    .collect()
            },
            dist_floats,
        ),
        sweep(
            "so1um_opposed_1_10",
            || {
                opposed_pairs(10)
                    .map(|(a, b)| expanded::opposed_odds(&OpposedSpec::new(pool(a), pool(b))))
                    .collect()
            },
            verdicts,
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Rounds of each rolling measurement, interleaved; the best round of each is reported, so
/// that a round another process interrupted does not count (the machine is shared).
const ROUNDS: usize = 7;

/// Dice a second over `dice` dice, drawn 4 a call of `roll`.
fn rate(dice: u32, mut roll: impl FnMut() -> u32) -> f64 {
    let start = Instant::now();
    let mut drawn = 0;
    let mut sum = 0u32;
    while drawn < dice {
        sum = sum.wrapping_add(roll());
        drawn += 4;
    }
    black_box(sum);
    f64::from(dice) / start.elapsed().as_secs_f64()
}

/// Checks of 4 dice against Tough (5) rolled a second, against d6 drawn a second from the
/// same seeded generator. A check against 5 never needs the Rule of 6 chain, so it rolls
/// exactly 4 dice and the fair comparison per die is checks × 4. Each measurement runs
/// [`ROUNDS`] times, interleaved with the others, and its best round is reported.
fn throughput() -> Value {
    const DICE: u32 = 4_000_000;
    let spec = CheckSpec::new(pool(4), Difficulty::TOUGH);
    let (mut checks_dice, mut raw, mut raw_dyn, mut bare) = (0f64, 0f64, 0f64, 0f64);
    for round in 0..ROUNDS {
        let seed = round as u64;
        // Whole checks, each outcome keeping every die (4 dice a call).
        let mut dice = SeededDice::new(seed);
        checks_dice = checks_dice.max(rate(DICE, || {
            u32::from(
                roll_check(black_box(&spec), &mut dice)
                    .expect("seeded")
                    .passed,
            )
        }));
        // Raw d6 straight from the generator, 4 a call.
        let mut dice = SeededDice::new(seed);
        raw = raw.max(rate(DICE, || {
            let mut s = 0;
            for _ in 0..4 {
                s += dice.roll(black_box(6)).expect("seeded");
            }
            s
        }));
        // The same through `&mut dyn DiceSource`, as a rule sees the generator.
        let mut seeded = SeededDice::new(seed);
        let dyn_dice: &mut dyn DiceSource = black_box(&mut seeded);
        raw_dyn = raw_dyn.max(rate(DICE, || {
            let mut s = 0;
            for _ in 0..4 {
                s += dyn_dice.roll(black_box(6)).expect("seeded");
            }
            s
        }));
        // The bare rule: 4 dice through `&mut dyn DiceSource`, one call per die, the
        // highest against 5, nothing kept. `roll_check` draws its pool in one call
        // (`roll_into`) and keeps every die in its outcome (inline: no allocation).
        let mut seeded = SeededDice::new(seed);
        let dyn_dice: &mut dyn DiceSource = black_box(&mut seeded);
        bare = bare.max(rate(DICE, || {
            let mut top = 0;
            for _ in 0..4 {
                top = top.max(dyn_dice.roll(black_box(6)).expect("seeded"));
            }
            u32::from(top >= 5)
        }));
    }
    json!({
        "name": "rolling_throughput",
        "rounds": ROUNDS,
        "checks_per_s": checks_dice / 4.0,
        "dice_per_s_in_checks": checks_dice,
        "raw_d6_per_s": raw,
        "raw_d6_per_s_dyn": raw_dyn,
        "raw_over_check_dice": raw / checks_dice,
        "raw_over_checks": raw / (checks_dice / 4.0),
        "bare_checks_per_s": bare / 4.0,
        "checks_over_bare": bare / checks_dice,
        "ns_per_die_raw": 1e9 / raw,
        "ns_per_die_in_checks": 1e9 / checks_dice,
    })
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let out = match mode.as_str() {
        "sweeps" => json!({"sweeps": sweeps()}),
        "public" => json!({"sweeps": public()}),
        "throughput" => throughput(),
        _ => {
            eprintln!("usage: solum-bench sweeps|public [NAME] | throughput");
            std::process::exit(2);
        }
    };
    println!("{out}");
}

//! Exact Sol'una odds, up to the limit of exact odds (40 dice). Run with
//! `cargo bench -p solum-soluna --bench soluna`.
#![allow(clippy::unwrap_used)] // test code: an unwrap that fails is a test that fails

use divan::black_box;
use solum_soluna::odds::largest_distribution;

fn main() {
    divan::main();
}

/// The distribution of the largest group, pool and net flips as given.
#[divan::bench(args = [(5, 0), (20, -5), (20, 5), (20, 0), (40, -5), (40, 0), (40, 40), (40, -40), (40, 1000), (40, -1000)])]
fn exact_largest(args: (u32, i32)) -> solum_dice::Distribution {
    largest_distribution(black_box(args.0), black_box(args.1)).unwrap()
}

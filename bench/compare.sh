#!/usr/bin/env bash
# Exact engine against icepool: the same exact distributions computed by icepool 2.1.3
# (bench/icepool_sweeps.py) and by solum (bench/src/main.rs, release build), each sweep in
# fresh processes of its own (RUNS of them, 3 unless set) so every query is cold. Before the
# clock both sides run the same warm-up query (the 2 highest of 3d7, a die no sweep uses), so
# the first touch of code and heap is not counted on either side and no cache helps a
# sweep (solum also reads all of its code once first, which brings it into the CPU caches:
# preload_code in bench/src/main.rs); then the sweep is timed again warm. Prints one JSON
# object per sweep with the median times, their ratio and whether every probability agrees
# within 1e-9, then the rolling throughput. Needs python3 (3.10+), network access to PyPI
# once, and cargo.
#
# usage: bench/compare.sh            (from the repository root or anywhere inside it)
#        RUNS=5 bench/compare.sh
#        SOLUM_BENCH_NO_PRELOAD=1 bench/compare.sh   (solum's code not read before the clock)
#
# The virtual environment lives in target/icepool-venv (never committed; `cargo clean`
# removes it). No test runs this script.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/target/icepool-venv"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import icepool, sys; sys.exit(icepool.__version__ != "2.1.3")' 2>/dev/null; then
    "$venv/bin/pip" install --quiet "icepool==2.1.3"
fi

cargo build --release -p solum-bench >&2
bench="$root/target/release/solum-bench"

sweeps=(
    so1um_result_1_30 so1um_opposed_1_6 sol_hits_glitch_1_50
    soluna_largest_1_20_flips_0_3 soluna_largest_1_20_flips_-1_3 dietype_explode_depth4
    keep_highest_3_of_4d6 10d10_explode_depth9 10d10_explode_depth2 so1um_opposed_1_10
    dietype_distribution_1e-12
)
# Each sweep in a process of its own, RUNS times: every query is cold (no cache of another
# sweep or of an earlier run helps), and the median is reported.
runs="${RUNS:-3}"
for i in $(seq 1 "$runs"); do
    echo "run $i of $runs" >&2
    for s in "${sweeps[@]}"; do
        "$venv/bin/python" bench/icepool_sweeps.py "$s" >"$work/icepool-$i-$s.json"
        "$bench" sweeps "$s" >"$work/solum-$i-$s.json"
        "$bench" public "$s" >"$work/public-$i-$s.json"
    done
done

python3 bench/compare.py "$work"/icepool-*.json -- "$work"/solum-*.json -- "$work"/public-*.json
"$bench" throughput

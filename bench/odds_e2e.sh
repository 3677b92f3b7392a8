#!/usr/bin/env bash
# `solum odds EXPR` end to end against icepool 2.1.3 (bench/odds_e2e.py): whole processes,
# medians of RUNS (5 unless set). Builds solum in release and the icepool virtual
# environment (target/icepool-venv, as bench/compare.sh) first.
#
# usage: bench/odds_e2e.sh [EXPR ...]      e.g. bench/odds_e2e.sh 1000d6
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="$root/target/icepool-venv"
if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import icepool, sys; sys.exit(icepool.__version__ != "2.1.3")' 2>/dev/null; then
    "$venv/bin/pip" install --quiet "icepool==2.1.3"
fi
cargo build --release --locked -p solum-cli >&2
python3 bench/odds_e2e.py "$root/target/release/solum" "$venv/bin/python" "$@"

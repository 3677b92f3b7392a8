"""Merges the icepool runs and the solum runs (JSON files named on the command line, one
process each) into one JSON object per sweep: name, icepool_ms, solum_ms (medians over the
processes of the cold time, after the shared warm-up), ratio, agree (every probability within
1e-9; an outcome missing on one side counts as 0 there), max_diff, and the warm times
(icepool_warm_ms, solum_warm_ms: medians of each process's warm median) and their ratio
(ratio_warm) where both sides measured them.

usage: compare.py ICEPOOL_JSON... -- SOLUM_JSON... [-- SOLUM_PUBLIC_JSON...]
"""

import json
import statistics
import sys

TOLERANCE = 1e-9
# The order of the sweeps in the output (the rows first).
ORDER = [
    "so1um_result_1_30",
    "so1um_opposed_1_6",
    "sol_hits_glitch_1_50",
    "soluna_largest_1_20_flips_0_3",
    "soluna_largest_1_20_flips_-1_3",
    "dietype_explode_depth4",
    "keep_highest_3_of_4d6",
    "10d10_explode_depth9",
    "10d10_explode_depth2",
    "so1um_opposed_1_10",
]


def load(paths):
    runs = [json.load(open(p)) for p in paths]
    by_name = {}
    for run in runs:
        for s in run["sweeps"]:
            by_name.setdefault(s["name"], []).append(s)
    return by_name


def warm(runs):
    """The median of the processes' warm times, or None if a process took none."""
    times = [r.get("warm_ms") for r in runs]
    if not times or any(t is None for t in times):
        return None
    return statistics.median(times)


def max_diff(a, b):
    if len(a) != len(b):
        return float("inf")
    worst = 0.0
    for da, db in zip(a, b):
        pa = {int(o): p for o, p in da}
        pb = {int(o): p for o, p in db}
        for o in set(pa) | set(pb):
            worst = max(worst, abs(pa.get(o, 0.0) - pb.get(o, 0.0)))
    return worst


def main():
    groups = [[]]
    for arg in sys.argv[1:]:
        if arg == "--":
            groups.append([])
        else:
            groups[-1].append(arg)
    icepool = load(groups[0])
    solum = load(groups[1])
    public = load(groups[2]) if len(groups) > 2 else {}
    for name, runs in sorted(solum.items(), key=lambda kv: ORDER.index(kv[0]) if kv[0] in ORDER else 99):
        solum_ms = statistics.median(r["ms"] for r in runs)
        row = {"name": name, "solum_ms": round(solum_ms, 4)}
        if name in icepool:
            ice_ms = statistics.median(r["ms"] for r in icepool[name])
            diff = max_diff(icepool[name][0]["dists"], runs[0]["dists"])
            row = {
                "name": name,
                "icepool_ms": round(ice_ms, 2),
                "solum_ms": round(solum_ms, 4),
                "ratio": round(ice_ms / solum_ms, 1),
                "agree": diff <= TOLERANCE,
                "max_diff": diff,
            }
            ice_warm, solum_warm = warm(icepool[name]), warm(runs)
            if ice_warm is not None and solum_warm is not None:
                row["icepool_warm_ms"] = round(ice_warm, 4)
                row["solum_warm_ms"] = round(solum_warm, 5)
                row["ratio_warm"] = round(ice_warm / solum_warm, 1)
        if name in public:
            pub_ms = statistics.median(r["ms"] for r in public[name])
            row["solum_exact_fractions_ms"] = round(pub_ms, 4)
            pub_warm = warm(public[name])
            if pub_warm is not None:
                row["solum_exact_fractions_warm_ms"] = round(pub_warm, 5)
            if name in icepool:
                row["ratio_exact_fractions"] = round(
                    statistics.median(r["ms"] for r in icepool[name]) / pub_ms, 1
                )
                d = max_diff(icepool[name][0]["dists"], public[name][0]["dists"])
                row["agree_exact_fractions"] = d <= TOLERANCE
        # Whether every solum run read its code before the clock (solum-bench's
        # preload_code; false where /proc could not be read).
        row["solum_code_preloaded"] = all(r.get("code_preloaded", False) for r in runs)
        print(json.dumps(row))
    for name, runs in public.items():
        if name not in solum:
            print(json.dumps({
                "name": name,
                "solum_exact_fractions_ms": round(statistics.median(r["ms"] for r in runs), 4),
            }))


if __name__ == "__main__":
    main()

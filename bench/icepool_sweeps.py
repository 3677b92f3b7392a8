"""The icepool side of `bench/compare.sh`: the same exact distributions as the Rust program
(`bench/src/main.rs`), each sweep timed in-process (the computation only, not the import,
the warm-up or the conversion to floats). Run once per process so every query is cold
(after the warm-up both sides share), then timed again warm; the shell script takes the
medians over its processes.

Prints one JSON object: {"sweeps": [{"name", "ms", "warm_ms", "dists": [[[outcome, p], ...], ...]}]}.
Each sweep's distributions are listed in the same order as the Rust program lists them.
"""

import json
import sys
import time

import icepool
from icepool import Again, Die, MultisetEvaluator, d6, d10

# Rule of 6 chain levels kept by solum_expanded::odds::result_distribution.
CHAIN_LEVELS = 16
# Explosion depth of the die-type sweep (levels of "a top face becomes two dice").
DIETYPE_DEPTH = 4
# Outcomes at or above this stand for explosions past the depth: neglected mass.
SENTINEL = 10**6


def so1um_result(n):
    """Highest of n d6; a 6 adds the chain: d6 exploding on 6 (6k + j)."""
    chain = d6.explode(depth=CHAIN_LEVELS - 1)
    return d6.pool(n).highest(1).sum().map(lambda h: h if h < 6 else 6 + chain)


def so1um_opposed(a, b):
    """1 win, 0 draw, -1 lose for the first side; both on a 6: chains decide (3/7, 1/7, 3/7)."""
    ha = d6.pool(a).highest(1).sum()
    hb = d6.pool(b).highest(1).sum()

    def verdict(x, y):
        if x == 6 and y == 6:
            return Die({1: 3, 0: 1, -1: 3})
        return (x > y) - (x < y)

    return icepool.map(verdict, ha, hb)


def sol_hits_glitch(n):
    pool = d6.pool(n)
    hits = pool.keep_outcomes([5, 6]).size()
    glitch = pool.keep_outcomes([1]).size() >= (n + 1) // 2
    return [hits, glitch.map(lambda g: int(g))]


# Sol'una flips: the closed form of solum_soluna::flips, ported line for line.
def largest(c):
    return max(c)


def grow_face(c, f, k):
    opp = 5 - f
    near = sum(c[g] for g in range(6) if g != f and g != opp)
    cheap = min(near, k)
    dear = min(c[opp], (k - cheap) // 2)
    return c[f] + cheap + dear


def grow(c, k):
    return max(grow_face(c, f, k) for f in range(6))


def cost_to_cap(c, m):
    excess = [max(x - m, 0) for x in c]
    room = [max(m - x, 0) for x in c]
    e, r = sum(excess), sum(room)
    if e > r:
        return None
    matched = min(e, r)
    for a in range(6):
        if excess[a] > 0:
            matched = min(matched, e - excess[a] + r - room[5 - a])
    return 2 * e - matched


def shrink(c, k):
    top = largest(c)
    n = sum(c)
    floor = min(max(-(-n // 6), 1), top)
    for m in range(floor, top + 1):
        cost = cost_to_cap(c, m)
        if cost is not None and cost <= k:
            return m
    return top


def largest_after(c, flips):
    if flips > 0:
        return grow(c, flips)
    if flips < 0:
        return shrink(c, -flips)
    return largest(c)


class LargestAfterFlips(MultisetEvaluator):
    """Collects the count of each face of the multiset, then plays the flips on it."""

    def __init__(self, flips):
        self.flips = flips

    def next_state(self, state, order, outcome, count):
        return (state or ()) + (count,)

    def final_outcome(self, final_state, order, outcomes, *sizes, **kwargs):
        counts = dict(zip(outcomes, final_state or ()))
        c = [counts.get(f, 0) for f in range(1, 7)]
        return largest_after(c, self.flips)

    def extra_inputs(self):
        return ()


def soluna(n, flips):
    return LargestAfterFlips(flips).evaluate(d6.pool(n))


def dietype(sides):
    """A top face becomes two more dice, DIETYPE_DEPTH levels deep; deeper is SENTINEL."""
    return Die(
        [*range(1, sides), Again + Again],
        again_depth=DIETYPE_DEPTH,
        again_end=SENTINEL,
    )


def sweeps():
    yield "so1um_result_1_30", lambda: [so1um_result(n) for n in range(1, 31)]
    yield "so1um_opposed_1_6", lambda: [
        so1um_opposed(a, b) for a in range(1, 7) for b in range(1, 7)
    ]
    yield "sol_hits_glitch_1_50", lambda: [
        d for n in range(1, 51) for d in sol_hits_glitch(n)
    ]
    yield "soluna_largest_1_20_flips_0_3", lambda: [
        soluna(n, k) for n in range(1, 21) for k in range(0, 4)
    ]
    yield "soluna_largest_1_20_flips_-1_3", lambda: [
        soluna(n, k) for n in range(1, 21) for k in range(-1, 4)
    ]
    yield "dietype_explode_depth4", lambda: [dietype(s) for s in (4, 6, 8, 10, 12)]
    yield "keep_highest_3_of_4d6", lambda: [d6.pool(4).highest(3).sum()]
    yield "10d10_explode_depth9", lambda: [10 @ d10.explode(depth=9)]
    yield "10d10_explode_depth2", lambda: [10 @ d10.explode(depth=2)]
    yield "so1um_opposed_1_10", lambda: [
        so1um_opposed(a, b) for a in range(1, 11) for b in range(1, 11)
    ]


def floats(die):
    total = die.denominator()
    return [[o, q / total] for o, q in die.items() if o < SENTINEL]


def warm_up():
    """The warm-up both sides run before any sweep's clock starts (solum: the same query,
    `warm_up` in bench/src/main.rs): the sum of the 2 highest of 3d7, a die no sweep uses.
    It runs icepool's pool evaluation once without computing anything a sweep reuses, and
    is timed like a sweep, so the clock's first use is not counted in the sweep either."""
    start = time.perf_counter()
    icepool.d(7).pool(3).highest(2).sum()
    return (time.perf_counter() - start) * 1000.0


def warm_repeats(cold_ms):
    """Warm repeats after the cold run, the same rule as the Rust side: three under 100 ms,
    one under 2 s, none past that."""
    if cold_ms < 100.0:
        return 3
    if cold_ms < 2000.0:
        return 1
    return 0


def main():
    only = set(sys.argv[1:])
    out = []
    for name, run in sweeps():
        if only and name not in only:
            continue
        warm_up_ms = warm_up()
        start = time.perf_counter()
        dists = run()
        ms = (time.perf_counter() - start) * 1000.0
        warm = []
        for _ in range(warm_repeats(ms)):
            start = time.perf_counter()
            run()
            warm.append((time.perf_counter() - start) * 1000.0)
        warm_ms = sorted(warm)[len(warm) // 2] if warm else None
        out.append({
            "name": name,
            "ms": ms,
            "warm_ms": warm_ms,
            "warm_up_ms": warm_up_ms,
            "dists": [floats(d) for d in dists],
        })
        print(f"icepool {name}: {ms:.3f} ms cold, {warm_ms} ms warm", file=sys.stderr)
    json.dump({"icepool": icepool.__version__, "sweeps": out}, sys.stdout)


if __name__ == "__main__":
    main()

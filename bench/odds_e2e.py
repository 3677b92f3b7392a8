"""End to end, as a user meets it: `solum odds EXPR` (text table) and `solum odds EXPR --json`
(every exact fraction printed) against a Python process that imports icepool, computes the
same exact distribution, reduces every probability to a fraction and prints them as JSON.
Whole processes, timed from outside (start to exit), RUNS of each (5 unless set), medians
reported with the load average before and after. No test runs it.

usage: python3 bench/odds_e2e.py SOLUM_BINARY ICEPOOL_PYTHON [EXPR ...]
       (bench/odds_e2e.sh builds solum and the icepool venv, then runs this)
"""

import json
import os
import statistics
import subprocess
import sys
import time

# solum's expression and the same distribution in icepool 2.1.3. Explosions: the notation
# stops after 20 (`MAX_EXPLOSIONS`); a compounding die (`!!`) sums like an exploding one.
QUERIES = {
    "1000d6": "1000 @ icepool.d6",
    "300d20": "300 @ icepool.d20",
    "100d100": "100 @ icepool.d100",
    "100d10": "100 @ icepool.d10",
    "40d6!!": "40 @ icepool.d6.explode(depth=20)",
    "10d10!": "10 @ icepool.d10.explode(depth=20)",
    "20d6kh10": "icepool.d6.pool(20).highest(10).sum()",
    "50d20kh25": "icepool.d20.pool(50).highest(25).sum()",
    "4d6kh3": "icepool.d6.pool(4).highest(3).sum()",
}

ICEPOOL = """
import json, sys
# `n @ die` recurses once a die (icepool 2.1.3): 1000d6 needs a higher limit.
sys.setrecursionlimit(100000)
from fractions import Fraction
import icepool
d = {expr}
den = d.denominator()
print(json.dumps({{str(o): str(Fraction(q, den)) for o, q in d.items()}}))
"""


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    solum, python = sys.argv[1], sys.argv[2]
    exprs = sys.argv[3:] or list(QUERIES)
    runs = int(os.environ.get("RUNS", "5"))
    for expr in exprs:
        load_before = os.getloadavg()[0]
        icepool_cmd = [python, "-c", ICEPOOL.format(expr=QUERIES[expr])]
        text = [timed([solum, "odds", expr]) for _ in range(runs)]
        js = [timed([solum, "odds", expr, "--json"]) for _ in range(runs)]
        ice = [timed(icepool_cmd) for _ in range(runs)]
        row = {
            "expr": expr,
            "solum_text_s": round(statistics.median(text), 4),
            "solum_json_s": round(statistics.median(js), 4),
            "icepool_s": round(statistics.median(ice), 4),
            "load": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        }
        row["icepool_over_solum_json"] = round(row["icepool_s"] / row["solum_json_s"], 2)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Checks attnx's LP solutions (JSON lines from attnx_lp_dump on stdin or in a file) against
SciPy's HiGHS: the optimal margin t* must agree to 1e-6 (absolute, scaled by 1 + |t*|), attnx
must have converged, both must agree on feasibility (t* > 0) when |t*| > 1e-6, and attnx's
solution x = (q, c, t), found by constraint generation, must satisfy every row of the full LP to
1e-9 (scaled by 1 + max|h|)."""
import json
import sys

import numpy as np
from scipy.optimize import linprog


def check(line_no, prob):
    n, m = prob["n"], prob["m"]
    G = np.array(prob["G"]).reshape(m, n)
    res = linprog(np.array(prob["c"]), A_ub=G, b_ub=np.array(prob["h"]), bounds=[(None, None)] * n, method="highs")
    if res.status != 0:
        return f"line {line_no}: HiGHS failed: {res.message}"
    t_highs = -res.fun
    t_ours = prob["t"]
    if not prob["converged"]:
        return f"line {line_no}: attnx did not converge (t = {t_ours}, HiGHS {t_highs})"
    if abs(t_ours - t_highs) > 1e-6 * (1 + abs(t_highs)):
        return f"line {line_no}: t* = {t_ours} but HiGHS gives {t_highs}"
    if abs(t_highs) > 1e-6 and (t_ours > 0) != (t_highs > 0):
        return f"line {line_no}: feasibility differs (t* = {t_ours}, HiGHS {t_highs})"
    h = np.array(prob["h"])
    excess = float(np.max(G @ np.array(prob["x"]) - h))
    if excess > 1e-9 * (1 + float(np.max(np.abs(h)))):
        return f"line {line_no}: attnx's x violates a row of the full LP by {excess}"
    return None


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    probs = [json.loads(l) for l in src if l.strip()]
    errors = [e for e in (check(i + 1, p) for i, p in enumerate(probs)) if e]
    feasible = sum(1 for p in probs if p["t"] > 0)
    its = [p["iterations"] for p in probs]
    rounds = [p["rounds"] for p in probs]
    print(f"lp_highs: {len(probs)} problems ({feasible} feasible), iterations {min(its)}-{max(its)}, "
          f"rounds {min(rounds)}-{max(rounds)}, {len(errors)} disagreements")
    for e in errors:
        print(e)
    if len(probs) < 30:
        print("lp_highs: too few problems")
        return 1
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

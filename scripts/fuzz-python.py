#!/usr/bin/env python3
"""attnx: a seeded fuzzer of the Python package's arguments (python/attnx; issue 47).

Calls attnx.explorer and attnx.survey with hostile arguments: attention of every shape and rank
(empty axes, not square, L = 1, L above the page's 4096 as zero-copy NumPy views or shared rows,
never allocated), dtypes (int, bool, object, complex, float16, strings, dates), NaN, +-inf and
values beyond float32, ragged and deeply nested lists, non-numbers inside; tokens of the wrong
length or type; layer and head out of range or not integers; rule, softmax, name, height, cli and
the explorer's settings (unknown names, values out of range, NaN, booleans as numbers). Each case
is a pure function of (seed, index) (--only I replays it and prints it) and ends as
  ok       a View (or Survey) came back, for arguments the package may take
  refused  a ValueError naming one of the arguments the case made hostile, raised before any HTML
           was made (the page's with_view was not called)
  BAD      any other exception, a refusal naming none of them, a View for an argument that must be
           refused, HTML made before the refusal, a case over --time-limit seconds or its memory
           growing by more than 512 MB
Standard library; NumPy cases too when NumPy is there. The page (dist/attnx.html) is found as the
package finds it ($ATTNX_HTML or the checkout's dist/).

    python3 scripts/fuzz-python.py [--seed N] [--cases N] [--only I] [--show N] [--json]
Exit status 1 when a case is BAD.
"""

import argparse
import json
import math
import os
import random
import resource
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import attnx  # noqa: E402
from attnx import _page  # noqa: E402

try:
    import numpy as np
except ImportError:  # the list cases still run
    np = None

MAX_L = 4096


def valid_matrix(rng, L):
    """An L x L row-stochastic matrix as nested lists."""
    rows = []
    for _ in range(L):
        row = [rng.random() + 0.01 for _ in range(L)]
        s = sum(row)
        rows.append([x / s for x in row])
    return rows


def nest(rng, L):
    """Valid attention of rank 2, 3 or 4 (lists), and its (layers, heads)."""
    rank = rng.choice([2, 3, 4])
    layers, heads = (rng.randint(1, 3) if rank == 4 else 1), (rng.randint(1, 3) if rank >= 3 else 1)
    heads_list = [valid_matrix(rng, L) for _ in range(heads)]
    if rank == 2:
        return heads_list[0], 1, 1
    if rank == 3:
        return heads_list, 1, heads
    return [heads_list for _ in range(layers)], layers, heads


def deep(n):
    x = [0.5]
    for _ in range(n):
        x = [x]
    return x


# Hostile attention as lists: (value, the names a refusal may give). L is small unless hostile.
def hostile_list(rng, L):
    m = valid_matrix(rng, L)
    i, j = rng.randrange(L), rng.randrange(L)
    kind = rng.randrange(14)
    if kind == 0:
        m[i][j] = rng.choice([float("nan"), float("inf"), 1e300, -1e300, 10 ** 400, -(10 ** 400), 3.5e38])
    elif kind == 1:
        m[i][j] = rng.choice(["0.5", None, True, [0.5], {}, b"x", complex(1, 1), object()])
    elif kind == 2:
        m[i] = m[i][:-1] if rng.random() < 0.5 else m[i] + [0.1]  # ragged
    elif kind == 3:
        m = [r[:-1] for r in m]  # L x (L-1): not square
    elif kind == 4:
        return rng.choice([[], [[]], [[0.5]], [1.0, 0.0], 0.5, "attention", None, {}, b"\x00"]), ["attention"]
    elif kind == 5:
        return deep(rng.choice([5, 50, 2000, 5000])), ["attention"]
    elif kind == 6:
        row = [1.0 / 4097] * 4097  # one shared row: 4097 x 4097 without allocating it
        return [row] * rng.choice([4097, 4096]), ["attention"]
    elif kind == 7:
        return [[m]] * 2 + [[[m[0]]]], ["attention"]  # layers of different shapes
    elif kind == 8:
        return tuple([m, m[:-1]]), ["attention"]
    elif kind == 9:
        return [[[[[m]]]]], ["attention"]  # rank 6
    elif kind == 10:
        return [[m, m], [m]], ["attention"]  # ragged heads
    elif kind == 11:
        return iter(m), ["attention"]
    elif kind == 12:
        return [[x for x in r] for r in m] if L > 1 else [[0.5]], ([] if L > 1 else ["attention"])
    else:
        return m, []
    return m, ["attention"]


def numpy_attention(rng, L):
    """Attention as a NumPy array (valid or hostile) and the names a refusal may give."""
    kind = rng.randrange(12)
    a = np.asarray(valid_matrix(rng, L), dtype=rng.choice(["float32", "float64", "float16"]))
    if kind == 0:
        dtype = rng.choice(["int32", "uint8", "int64"])
        return np.eye(L, dtype=dtype), []
    if kind == 1:
        dtype = rng.choice(["bool", "complex64", "complex128", "object", "U3", "datetime64[s]", "timedelta64[s]", "V4"])
        try:
            return np.zeros((L, L), dtype=dtype), ["attention"]
        except (TypeError, ValueError):
            return np.zeros((L, L), dtype="bool"), ["attention"]
    if kind == 2:
        a = a.astype("float64")
        a[rng.randrange(L), rng.randrange(L)] = rng.choice([np.nan, np.inf, 1e300, -1e300, 3.5e38])
        return a, ["attention"]
    if kind == 3:
        shape = rng.choice([(MAX_L + 1, MAX_L + 1), (100000, 100000), (2, MAX_L + 1, MAX_L + 1), (1, 1), (0, 0), (L, L, 0)])
        return np.broadcast_to(np.float32(0.5), shape), ["attention"]
    if kind == 4:
        shape = rng.choice([(L,), (1, 1, 1, L, L), (2, 1, 1, 1, L, L), (L, L + 1), ()])
        return np.broadcast_to(np.float32(0.5), shape), ["attention"]
    if kind == 5:
        return np.broadcast_to(a, (rng.randint(1, 3), rng.randint(1, 3), L, L)), []
    if kind == 6:
        return tuple(np.broadcast_to(a, (1, 2, L, L)) for _ in range(rng.randint(1, 3))), []  # as Hugging Face
    if kind == 7:
        return (np.broadcast_to(a, (2, 2, L, L)),) * 2, ["attention"]  # a batch of 2
    if kind == 8:
        return (np.broadcast_to(a, (1, 2, L, L)), np.broadcast_to(a, (1, 3, L, L))), ["attention"]
    if kind == 9:
        return np.asfortranarray(a), []
    if kind == 10:
        return a[:, ::-1], []
    return a, []


# Hostile values of the other arguments, and whether each may be accepted ("ok") or not.
TOKENS_BAD = [lambda L: ["t"] * (L + 1), lambda L: ["t"] * max(0, L - 1), lambda L: "t" * L, lambda L: b"t" * L,
              lambda L: [1] * L, lambda L: [None] * L, lambda L: 5, lambda L: (str(i) for i in range(L)),
              lambda L: [b"t"] * L, lambda L: [["t"]] * L]
TOKENS_OK = [lambda L: None, lambda L: ["<i data-fz=1>x</i>"] * L, lambda L: [""] * L, lambda L: tuple("t%d" % i for i in range(L)),
             lambda L: ["\u202e\x00\ud800"[:2]] * L, lambda L: ["x" * 1000] * L]
INDEX_BAD = [-1, 99, 1.0, 0.5, "0", None, True, False, float("nan"), 2 ** 70, [0]]
RULE_BAD = ["topk:0", "topk:-1", "x", "", "topk:1.5", "mass:2", "threshold:nan", 5, None, "topk:2;x", "<b>topk:2</b>"]
RULE_OK = ["topk:1", "topk:2", "mass:0.9", "threshold:0.2", "mass:1"]
SETTINGS_BAD = [("d", 0), ("d", 16385), ("d", 1.5), ("d", "64"), ("d", True), ("d", float("nan")), ("eps", float("inf")),
                ("tau", 1), ("tau", 0), ("budget", -1), ("budget", float("nan")), ("budget", 1e7), ("box", 0),
                ("construction", "xx"), ("construction", None), ("projection", "gauss"), ("seed", -1), ("seed", 2 ** 53),
                ("L", 16), ("pattern", "window"), ("view", "0,2,0,2"), ("nope", 1), ("__class__", 1), ("layer", 0)]
SETTINGS_OK = [("d", 64), ("eps", 0.5), ("construction", "lp"), ("construction", "opt"), ("budget", 5.3), ("seed", 7), ("tau", 0.2)]


def case(seed, index):
    """Case `index` under `seed`: (function name, args, kwargs, hostile names, description)."""
    rng = random.Random("%d:%d" % (seed, index))
    L = rng.randint(2, 12)
    bad, kw = [], {}
    if np is not None and rng.random() < 0.45:
        attention, names = numpy_attention(rng, L)
    elif rng.random() < 0.5:
        attention, names = hostile_list(rng, L)
    else:
        attention, layers, heads = nest(rng, L)
        names = []
    bad += names
    if rng.random() < 0.35:
        if rng.random() < 0.5:
            kw["tokens"] = rng.choice(TOKENS_BAD)(L); bad.append("tokens")
        else:
            kw["tokens"] = rng.choice(TOKENS_OK)(L)
    fn = rng.choice(["explorer", "explorer", "survey"])
    for arg in (["layer", "head"] if fn == "explorer" else []):
        if rng.random() < 0.2:
            kw[arg] = rng.choice(INDEX_BAD); bad.append(arg)
    if rng.random() < 0.25:
        kw["rule"] = rng.choice(RULE_BAD + RULE_OK)
        bad += ["rule"] if kw["rule"] in RULE_BAD else []
    for arg, pool in (("softmax", [True, False, 1, "yes", None]), ("name", ["a.npz", "", "a/b", "x" * 300, 5, "<b>.npz"]),
                      ("height", [860, 199, 10001, 500.0, True, "860"])):
        if rng.random() < 0.1:
            kw[arg] = rng.choice(pool)
            ok = (arg == "softmax" and isinstance(kw[arg], bool)) or kw[arg] in ("a.npz", "<b>.npz", 860)
            bad += [] if ok and not (arg == "height" and isinstance(kw[arg], bool)) else [arg]
    if fn == "survey" and rng.random() < 0.1:
        kw["cli"] = rng.choice(["/nonexistent/attnx", ROOT, 5, b"attnx"]); bad.append("cli")
    settings = dict(rng.choice(SETTINGS_BAD + SETTINGS_OK) for _ in range(rng.choice([0, 0, 1, 2])))
    for k, v in settings.items():
        kw[k] = v
        bad += [] if (k, v) in SETTINGS_OK else [k, "setting"]
    return fn, attention, kw, bad


def describe(x, depth=0):
    if np is not None and isinstance(x, np.ndarray):
        return "ndarray(shape=%s, dtype=%s)" % (x.shape, x.dtype)
    if isinstance(x, (list, tuple)):
        if depth > 2 or len(x) > 6:
            return "%s[len %d]" % (type(x).__name__, len(x))
        return "%s[%s]" % (type(x).__name__, ", ".join(describe(e, depth + 1) for e in x))
    return repr(x)[:40]


class Watch:
    """Counts calls of _page.with_view (the HTML being made)."""

    def __init__(self):
        self.calls, self.real = 0, _page.with_view

    def __enter__(self):
        def counted(view):
            self.calls += 1
            return self.real(view)
        _page.with_view = counted
        return self

    def __exit__(self, *exc):
        _page.with_view = self.real


def run_case(seed, index, time_limit):
    """(outcome, reason, description) of case index."""
    fn, attention, kw, bad = case(seed, index)
    text = "%s(%s, %s)" % (fn, describe(attention), ", ".join("%s=%s" % (k, describe(v)) for k, v in kw.items()))
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.monotonic()
    with Watch() as w:
        try:
            getattr(attnx, fn)(attention, **kw)
            outcome, reason = ("BAD", "accepted: %s must be refused" % ", ".join(sorted(set(bad)))) if bad else ("ok", "")
        except ValueError as e:
            msg = str(e)
            if w.calls:
                outcome, reason = "BAD", "HTML made before the refusal: %s" % msg[:200]
            elif not bad:
                outcome, reason = "BAD", "valid arguments refused: %s" % msg[:200]
            elif not any(n in msg for n in bad):
                outcome, reason = "BAD", "the refusal names none of %s: %s" % (", ".join(sorted(set(bad))), msg[:200])
            else:
                outcome, reason = "refused", msg[:200]
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            outcome, reason = "BAD", "%s: %s" % (type(e).__name__, str(e)[:200])
    elapsed = time.monotonic() - t0
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
    if elapsed > time_limit:
        outcome, reason = "BAD", "took %.1f s (%s)" % (elapsed, reason)
    elif grown > 512:
        outcome, reason = "BAD", "memory grew by %d MB (%s)" % (grown, reason)
    return outcome, reason, text


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cases", type=int, default=500)
    p.add_argument("--only", type=int, default=None)
    p.add_argument("--show", type=int, default=5)
    p.add_argument("--time-limit", type=float, default=10.0)
    p.add_argument("--json", action="store_true")
    o = p.parse_args(argv)
    try:
        _page.schema()
    except (FileNotFoundError, RuntimeError) as e:
        print("fuzz-python: %s" % e, file=sys.stderr)
        return 2
    indices = [o.only] if o.only is not None else range(o.cases)
    counts, bads = {"ok": 0, "refused": 0, "BAD": 0}, []
    for i in indices:
        outcome, reason, text = run_case(o.seed, i, o.time_limit)
        counts[outcome] += 1
        if outcome == "BAD":
            bads.append({"index": i, "reason": reason, "case": text})
        if o.only is not None:
            print("case %d: %s\n  %s\n  %s" % (i, outcome, text, reason))
    report = {"seed": o.seed, "cases": len(indices), "numpy": np is not None, "counts": counts, "bad": bads}
    if o.json:
        print(json.dumps(report))
    elif o.only is None:
        print("attnx Python fuzz: seed %d, %d cases (NumPy %s): ok %d, refused %d, BAD %d"
              % (o.seed, len(indices), "yes" if np is not None else "no", counts["ok"], counts["refused"], counts["BAD"]))
        for b in bads[:o.show]:
            print("  BAD case %d: %s\n    %s\n    replay: python3 scripts/fuzz-python.py --seed %d --only %d" % (b["index"], b["reason"], b["case"], o.seed, b["index"]))
    return 1 if bads else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

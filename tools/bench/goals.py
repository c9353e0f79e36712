#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's last lines: every cost goal judged, and the run held against the last.

usage: goals.py DIR          (DIR: build/bench)

Each benchmark writes DIR/NAME.json.  Two keys of it are read here:

  "goals":  [{"goal": "what is measured, in words", "figure": 0.93,
              "limit": 1.0, "cmp": "<=", "note": "what stands in the way"}, ...]
            a goal is met when figure cmp limit holds (cmp "<=" or ">="); the
            note, if any, is printed under a goal not met;
  "ratios": {"name": median, ...}
            every perfmon / perf_events ratio the benchmark measured, by a name
            that stays the same from run to run.

bench-ops' figures (ops.json, written before these keys existed) are read from its
own layout: the sample through the shim is a goal here, every operation's ratio a
ratio.

Repeat goal: the ratios of this run against those of the run before (a copy of
each file is kept in DIR/last/ and DIR/previous/: a file that differs from its
copy in last/ is a new run, and last/ moves to previous/).  Every ratio must agree
within 1%; the worst one is the figure.
"""
import json
import os
import shutil
import sys

REPEAT_LIMIT = 0.01


def ops_derived(data):
    """bench-ops' sample goal and its ratios, from its own layout."""
    ops = data.get("ops", {})
    goals, ratios = [], {}
    for name, op in ops.items():
        if "perfmon_over_perf" in op:
            ratios["ops." + name] = op["perfmon_over_perf"][1]
        if "per_sample_perfmon_over_perf" in op:
            ratios["ops." + name + ".per_sample"] = op["per_sample_perfmon_over_perf"][1]
    smp = ops.get("sample", {}).get("per_sample_perfmon_over_perf")
    if smp:
        goals.append({"goal": "a sample through the shim against perf_events' "
                              "(a page fault sampled into the ring)",
                      "figure": smp[1], "limit": 0.9, "cmp": "<="})
    return goals, ratios


def load(path):
    with open(path) as f:
        data = json.load(f)
    goals = list(data.get("goals", []))
    ratios = dict(data.get("ratios", {}))
    if os.path.basename(path) == "ops.json":
        g, r = ops_derived(data)
        goals += g
        ratios.update(r)
    return goals, ratios


def met(g):
    if g.get("cmp", "<=") == ">=":
        return g["figure"] >= g["limit"]
    return g["figure"] <= g["limit"]


def same(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def rotate(d, name):
    """Keep DIR/last/name and DIR/previous/name; the previous run's file, or None."""
    cur = os.path.join(d, name)
    last = os.path.join(d, "last", name)
    prev = os.path.join(d, "previous", name)
    os.makedirs(os.path.dirname(last), exist_ok=True)
    os.makedirs(os.path.dirname(prev), exist_ok=True)
    if os.path.exists(last) and not same(cur, last):
        shutil.copyfile(last, prev)
    shutil.copyfile(cur, last)
    return prev if os.path.exists(prev) else None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    names = sorted(n for n in os.listdir(d) if n.endswith(".json")) if os.path.isdir(d) else []
    nmet = nall = 0
    worst = None
    compared = 0
    print("\ngoals (%s):" % d)
    for name in names:
        try:
            goals, ratios = load(os.path.join(d, name))
        except (OSError, ValueError) as e:
            print("  %-8s %s: unreadable (%s)" % ("NOT MET", name, e))
            nall += 1
            continue
        for g in goals:
            ok = met(g)
            nall += 1
            nmet += ok
            print("  %-8s %s: %.3f (goal %s %g)" % ("met" if ok else "NOT MET", g["goal"],
                                                 g["figure"], g.get("cmp", "<="), g["limit"]))
            if not ok and g.get("note"):
                print("           in the way: " + g["note"])
        prev = rotate(d, name)
        if not prev or not ratios:
            continue
        try:
            _, before = load(prev)
        except (OSError, ValueError):
            continue
        for k, v in ratios.items():
            b = before.get(k)
            if not b or not v:
                continue
            compared += 1
            diff = abs(v / b - 1)
            if worst is None or diff > worst[0]:
                worst = (diff, name, k, b, v)
    if worst is None:
        print("  %-8s two runs agree within 1%% on every ratio: no earlier run to hold "
              "this one against (run make bench again)" % "NOT MET")
        nall += 1
    else:
        ok = worst[0] <= REPEAT_LIMIT
        nall += 1
        nmet += ok
        print("  %-8s two runs agree within 1%% on every ratio: %d ratios, the worst %.2f%% "
              "(%s %s: %.4f, then %.4f)" % ("met" if ok else "NOT MET", compared,
                                           100 * worst[0], worst[1], worst[2], worst[3],
                                           worst[4]))
    print("goals met: %d of %d" % (nmet, nall))


if __name__ == "__main__":
    main()

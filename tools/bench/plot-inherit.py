#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot of bench-inherit: the cost of counting children and threads.

usage: plot-inherit.py inherit.json out.png

One column per workload (fork, fork + exec, threads).  Top row: the cost per
child or thread (monitored less unmonitored) of the shim's attr.inherit,
perf_events' attr.inherit, pfmon and perf stat, median over the rounds with
bars from the 25th to the 75th percentile.  Bottom row: the ratios perfmon /
perf_events, with the goal's limit (1.0).  Drawn by gnuplot (gnuplot-nox).
"""
import json
import os
import subprocess
import sys
import tempfile

from plotlib import has_cairo

KINDS = [("fork", "fork + exit + wait", "children", "child"),
         ("exec", "fork + exec + exit + wait", "children", "child"),
         ("threads", "thread create + join", "threads", "thread")]
COSTS = [("shim", "shim (attr.inherit)"), ("perf", "perf\\_events (attr.inherit)"),
         ("pfmon", "pfmon (PFM\\_FL\\_INHERIT)"), ("perf-stat", "perf stat")]
RATIOS = [("shim", "shim / perf\\_events"), ("pfmon", "pfmon / perf stat")]


def write_dat(tmp, name, points, key, field):
    path = os.path.join(tmp, name + ".dat")
    with open(path, "w") as f:
        for p in points:
            p25, med, p75 = p[key][field]
            f.write("%d %g %g %g\n" % (p["n"], med, p25, p75))
    return path


def panel(title, xlabel, ylabel, plots, extra=()):
    return ["set title '%s'" % title, "set xlabel '%s'" % xlabel,
            "set ylabel '%s'" % ylabel] + list(extra) + ["plot " + ", ".join(plots)]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    curves = json.load(open(sys.argv[1])).get("curves")
    if not curves:
        sys.exit("plot-inherit: no curves in " + sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="plot-inherit.")
    term = "pngcairo size 1500,900" if has_cairo() else "png size 1500,900"
    script = ["set terminal " + term, "set output '%s'" % sys.argv[2],
              "set multiplot layout 2,3 title 'Counting children and threads, "
              "perfmon against perf\\_events (QEMU guest, instruction counting, same boot)'",
              "set logscale x 2", "set grid", "set key center right opaque box"]
    kinds = [k for k in KINDS if curves.get(k[0])]
    for kind, title, what, one in kinds:
        pts = sorted(curves[kind], key=lambda p: p["n"])
        plots = ["'%s' using 1:2:3:4 with yerrorlines lw 2 title '%s'"
                 % (write_dat(tmp, kind + "-" + m, pts, "cost", m), t)
                 for m, t in COSTS]
        script += panel(title, what + " (n)", "ns per " + one + ", median; bar: 25th-75th",
                        plots, ["set yrange [0:*]"])
    for kind, title, what, one in kinds:
        pts = sorted(curves[kind], key=lambda p: p["n"])
        plots = ["'%s' using 1:2:3:4 with yerrorlines lw 2 title '%s'"
                 % (write_dat(tmp, kind + "-r-" + m, pts, "ratio", m), t)
                 for m, t in RATIOS]
        plots.append("1 with lines dt 2 lc rgb 'black' title 'goal'")
        script += panel(title + ": ratio", what + " (n)",
                        "perfmon / perf\\_events per " + one, plots, ["set yrange [0:*]"])
    script.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(script).encode(), check=True)
    print("bench: " + sys.argv[2])


if __name__ == "__main__":
    main()

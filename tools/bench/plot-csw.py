#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot of bench-csw's curves: the cost of a context switch while counting.

usage: plot-csw.py csw.json out.png

One panel per sweep (threads sharing the CPU, events per thread, event sets
switched by timeout), each with perfmon's and perf_events' cost per switch (the
time per hand-off less the unmonitored one's, same round): the median over the
interleaved rounds, with bars from the 25th to the 75th percentile.  Log scale in
x (the points double or more) and y (perf's cost grows an order of magnitude above
perfmon's).  Drawn by gnuplot (gnuplot-nox).
"""
import json
import os
import subprocess
import sys
import tempfile

from plotlib import has_cairo

TOOLS = [("perfmon_per_switch", "perfmon"), ("perf_per_switch", "perf\\_events")]
TITLES = {
    "threads": ("monitored threads sharing the CPU (4 events each)", ""),
    "events": ("events per thread (2 threads)", ""),
    "sets": ("event sets switched every %g us of thread time (perf: as many groups at once)", "timeout"),
}


def panel(tmp, name, rows, timeout_ns):
    xlabel, fmt = TITLES.get(name, (name, ""))
    if fmt == "timeout":
        xlabel = xlabel % (timeout_ns / 1e3)
    lines = [
        "set title 'cost per context switch against %s'" % name,
        "set xlabel '%s'" % xlabel,
        "set ylabel 'ns per switch'",
        "set logscale x 2",
        "set logscale y 10",
        "set xrange [%g:%g]" % (min(r["x"] for r in rows) / 1.5, max(r["x"] for r in rows) * 1.5),
        "set xtics (%s)" % ", ".join("'%d' %d" % (r["x"], r["x"]) for r in rows),
        "set grid",
        "set key top left",
    ]
    plots = []
    for i, (key, title) in enumerate(TOOLS):
        data = os.path.join(tmp, "%s-%s.dat" % (name, key))
        with open(data, "w") as f:
            for r in sorted(rows, key=lambda r: r["x"]):
                p25, med, p75 = r[key]
                f.write("%d %g %g %g\n" % (r["x"], max(med, 1), max(p25, 1), max(p75, 1)))
        plots.append("'%s' using 1:2:3:4 with yerrorlines lc %d lw 2 pt 7 title '%s'"
                     % (data, i + 1, title))
    return lines + ["plot " + ", ".join(plots), "unset logscale", "unset xtics"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = json.load(open(sys.argv[1]))
    sweeps = data.get("sweeps")
    if not sweeps:
        sys.exit("plot-csw: no sweeps in " + sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="plot-csw.")
    n = len(sweeps)
    script = ["set terminal %s size 900,%d" % ("pngcairo" if has_cairo() else "png", 330 * n),
              "set output '%s'" % sys.argv[2],
              "set multiplot layout %d,1 title 'Context switches while counting, same boot "
              "(1 ns = 1 instruction; median, bar: 25th-75th percentile)'" % n]
    for name, rows in sweeps.items():
        script += panel(tmp, name, rows, data.get("timeout_ns", 0))
    script.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(script).encode(), check=True)
    print("bench: " + sys.argv[2])


if __name__ == "__main__":
    main()

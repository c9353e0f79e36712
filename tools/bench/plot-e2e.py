#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bar chart of bench-e2e's ratios: each tool's whole guest time over its reference's.

usage: plot-e2e.py e2e.json out.png

One group of bars per workload, one bar per comparison (perf stat, perf record
-F 1000 -g, perf record -c 64 -e page-faults through the shim over native;
pfmon over perf stat): the median of the interleaved rounds' ratios, with an
error bar from the 25th to the 75th percentile, and the goal's line at 1.0.
Drawn by gnuplot (gnuplot-nox).
"""
import json
import os
import sys
import tempfile

from plotlib import gnuplot_png

TITLES = {
    "stat": "perf stat: shim / native",
    "record-F": "perf record -F 1000 -g: shim / native",
    "record-c": "perf record -c 64 -e page-faults: shim / native",
    "pfmon": "pfmon / perf stat",
}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wls = json.load(open(sys.argv[1])).get("workloads")
    if not wls:
        sys.exit("plot-e2e: no workloads in " + sys.argv[1])
    names = list(wls)
    pairs = [p for p in TITLES if any(p in wls[w]["pairs"] for w in names)]
    tmp = tempfile.mkdtemp(prefix="plot-e2e.")
    width = 0.8 / len(pairs)
    plots = []
    for i, p in enumerate(pairs):
        data = os.path.join(tmp, p + ".dat")
        with open(data, "w") as f:
            for x, w in enumerate(names):
                r = wls[w]["pairs"].get(p)
                if r:
                    p25, med, p75 = r["ratio"]
                    f.write("%g %g %g %g\n" % (x - 0.4 + width * (i + 0.5), med, p25, p75))
        plots.append("'%s' using 1:2 with boxes fs solid 0.6 lc %d title '%s'"
                     % (data, i + 1, TITLES[p].replace("_", "\\_")))
        plots.append("'%s' using 1:2:3:4 with yerrorbars lc rgb 'black' lw 2 pt 7 ps 0.4 notitle"
                     % data)
    plots.append("1.0 with lines lc rgb 'red' dt 2 title 'goal: <= 1.0'")
    xtics = ", ".join("'%s' %d" % (w, x) for x, w in enumerate(names))
    gnuplot_png(sys.argv[2], [
        "set title 'The real tools end to end: whole guest time, ratio "
        "(QEMU, instruction counting, same boot)'",
        "set ylabel \"median of the rounds' ratios; bar: 25th-75th percentile\"",
        "set boxwidth %g" % width,
        "set xrange [-0.6:%g]" % (len(names) - 0.4),
        "set yrange [0:1.6]",
        "set xtics (%s)" % xtics,
        "set grid ytics",
        "set key top left font ',9'",
    ], plots)


if __name__ == "__main__":
    main()

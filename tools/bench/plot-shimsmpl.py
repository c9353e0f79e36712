#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot of bench-shimsmpl: the cost of a sample against the events sampling.

usage: plot-shimsmpl.py shimsmpl.json out.png

For n = 1, 2, 4 ... page-fault events sampling every fault: the median ns per
sample through perfmon's shim and through perf_events, with bars from the 25th
to the 75th percentile (left axis), and their ratio (right axis).  Drawn by
gnuplot (gnuplot-nox).
"""
import json
import os
import sys
import tempfile

from plotlib import gnuplot_png


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pts = json.load(open(sys.argv[1])).get("points")
    if not pts:
        sys.exit("plot-shimsmpl: no points in " + sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="plot-shimsmpl.")
    data = os.path.join(tmp, "points.dat")
    with open(data, "w") as f:
        for p in sorted(pts, key=lambda p: p["n"]):
            f.write("%d %s %s %s\n" % (p["n"], " ".join("%g" % v for v in (
                p["shim"][1], p["shim"][0], p["shim"][2])), " ".join("%g" % v for v in (
                p["perf"][1], p["perf"][0], p["perf"][2])), " ".join("%g" % v for v in (
                p["shim_over_perf"][1], p["shim_over_perf"][0], p["shim_over_perf"][2]))))
    gnuplot_png(sys.argv[2], [
        "set title 'A page-fault sample through the shim and through perf\\_events "
        "(QEMU guest, same boot)'",
        "set xlabel 'events sampling every fault (n)'",
        "set ylabel 'ns per sample, median over rounds; bar: 25th-75th percentile'",
        "set y2label 'shim / perf\\_events'",
        "set logscale x 2",
        "set yrange [0:*]",
        "set y2range [0:1.5]",
        "set y2tics",
        "set ytics nomirror",
        "set grid",
        "set key bottom right",
    ], [
        "'%s' using 1:2:3:4 with yerrorlines lc 1 lw 2 title 'perfmon shim'" % data,
        "'%s' using 1:5:6:7 with yerrorlines lc 2 lw 2 title 'perf\\_events'" % data,
        "'%s' using 1:8 axes x1y2 with linespoints lc 3 dt 2 title 'shim / perf\\_events'"
        % data,
    ])


if __name__ == "__main__":
    main()

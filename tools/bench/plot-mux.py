#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot of bench-mux's JSON: multiplexed-count error against the switch timeout.

usage: plot-mux.py mux.json out.png

For the phased workload and 2, 4 and 8 sets: the median over the runs of the mean
relative error, time interpolation (solid) and linear scaling (dashed), with bars
from the median to the worst run's mean error.  Drawn by gnuplot (gnuplot-nox).
"""
import json
import os
import sys
import tempfile

from plotlib import gnuplot_png


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = [r for r in json.load(open(sys.argv[1]))["mux"] if r["workload"] == "phased"]
    if not rows:
        sys.exit("plot-mux: no phased rows in " + sys.argv[1])
    sets = sorted({r["sets"] for r in rows})
    tmp = tempfile.mkdtemp(prefix="plot-mux.")
    plots = []
    for i, n in enumerate(sets):
        data = os.path.join(tmp, "sets%d.dat" % n)
        with open(data, "w") as f:
            for r in sorted((r for r in rows if r["sets"] == n), key=lambda r: r["timeout_ns"]):
                f.write("%g %g %g %g %g\n" % (
                    r["timeout_ns"] / 1e6,
                    100 * r["interp"]["mean_err_median"], 100 * r["interp"]["mean_err_max"],
                    100 * r["linear"]["mean_err_median"], 100 * r["linear"]["mean_err_max"]))
        plots.append("'%s' using 1:2:2:3 with yerrorlines lc %d lw 2 dt 1 "
                     "title '%d sets, interpolated'" % (data, i + 1, n))
        plots.append("'%s' using 1:4 with linespoints lc %d lw 1 dt 2 "
                     "title '%d sets, linear scaling'" % (data, i + 1, n))
    gnuplot_png(sys.argv[2], [
        "set title 'perfmon multiplexing: phased workload, mean error of the estimates'",
        "set xlabel 'set switch timeout (ms)'",
        "set ylabel 'mean relative error (%), median over runs; bar: worst run'",
        "set logscale x 2",
        "set yrange [0:50]",  # a stalled run can reach hundreds of percent
        "set grid",
        "set key top left",
    ], plots)


if __name__ == "__main__":
    main()

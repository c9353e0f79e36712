#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot of bench-ops' read sweep: the cost of reading n counts (1..8).

usage: plot-ops.py ops.json out.png

For pfm_read_pmds() (a system call), pfm_counts_read() (the counts page, no
system call, by a reader pfm_counts_prepare() made) and read() of a perf_events
group of n: the median ns per read over the interleaved rounds, with bars from
the 25th to the 75th percentile.  Log scale: the mapped read is two orders of
magnitude below the calls.  Drawn by gnuplot (gnuplot-nox).
"""
import json
import os
import sys
import tempfile

from plotlib import gnuplot_png

READERS = [
    ("pfm_read_pmds", "perfmon pfm\\_read\\_pmds()"),
    ("pfm_counts_read", "perfmon pfm\\_counts\\_read() (counts page)"),
    ("perf_read", "perf\\_events read() of the group"),
]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = json.load(open(sys.argv[1])).get("read_sweep")
    if not rows:
        sys.exit("plot-ops: no read_sweep in " + sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="plot-ops.")
    plots = []
    for i, (key, title) in enumerate(READERS):
        data = os.path.join(tmp, key + ".dat")
        with open(data, "w") as f:
            for r in sorted(rows, key=lambda r: r["n"]):
                p25, med, p75 = r[key]
                f.write("%d %g %g %g\n" % (r["n"], med, p25, p75))
        plots.append("'%s' using 1:2:3:4 with yerrorlines lc %d lw 2 title '%s'"
                     % (data, i + 1, title))
    gnuplot_png(sys.argv[2], [
        "set title 'Reading n software counts of the calling thread (QEMU TCG guest, same boot)'",
        "set xlabel 'counts read (n)'",
        "set ylabel 'ns per read, median over rounds; bar: 25th-75th percentile'",
        "set logscale y 10",
        "set xrange [0.5:8.5]",
        "set xtics 1",
        "set grid",
        "set key top left",
    ], plots)


if __name__ == "__main__":
    main()

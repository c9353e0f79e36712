#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot of bench-memscale: kernel memory per monitored thread and per event.

usage: plot-memscale.py memscale.json out.png

Two panels: bytes per monitored thread against the number of threads (a perfmon
context of four events per thread, the same group through the shim, a perf_events
group of four), and bytes per event against the events on one thread; medians
over the interleaved rounds with bars from the 25th to the 75th percentile, log
scale on x.  Drawn by gnuplot (gnuplot-nox).
"""
import json
import os
import subprocess
import sys
import tempfile

from plotlib import has_cairo

TOOLS = [
    ("perfmon", "perfmon context"),
    ("shim", "perf\\_event\\_open through the shim"),
    ("perf", "perf\\_events group"),
]
PANELS = [
    ("threads", "threads", "monitored threads (4 events each)", "bytes per thread"),
    ("events", "events", "events in one context / group on one thread", "bytes per event"),
]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = json.load(open(sys.argv[1]))
    tmp = tempfile.mkdtemp(prefix="plot-memscale.")
    lines = ["set terminal %s size 1200,520" % ("pngcairo" if has_cairo() else "png"),
             "set output '%s'" % sys.argv[2],
             "set multiplot layout 1,2 title 'Kernel memory of monitoring, "
             "perfmon against perf\\_events (same guest boot; median, bar 25th-75th)'"]
    for key, xkey, xlabel, ylabel in PANELS:
        rows = data.get(key)
        if not rows:
            sys.exit("plot-memscale: no %s in %s" % (key, sys.argv[1]))
        plots = []
        for i, (tool, title) in enumerate(TOOLS):
            if tool not in rows[0]:
                continue
            path = os.path.join(tmp, "%s-%s.dat" % (key, tool))
            with open(path, "w") as f:
                for r in sorted(rows, key=lambda r: r[xkey]):
                    p25, med, p75 = r[tool]["kernel"]
                    f.write("%d %g %g %g\n" % (r[xkey], med, p25, p75))
            plots.append("'%s' using 1:2:3:4 with yerrorlines lc %d lw 2 title '%s'"
                         % (path, i + 1, title))
        lines += ["set xlabel '%s'" % xlabel, "set ylabel '%s'" % ylabel,
                  "set logscale x 10" if key == "threads" else "set logscale x 2",
                  "set yrange [0:*]", "set grid",
                  "set key %s right" % ("center" if key == "threads" else "top"),
                  "plot " + ", ".join(plots)]
    lines.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(lines).encode(), check=True)
    print("bench: " + sys.argv[2])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot of bench-smpl: the cost per sample against the sampling rate.

usage: plot-smpl.py smpl.json out.png

Three panels, each with the three samplers (perf_events, the perf shim,
perfmon's default format), per thread (solid) and CPU-wide (dashed): the task
clock at 1, 10 and 50 kHz (ns per sample: the overhead over the samples), page
faults every 1..64 (the same, the faults between samples counted only), and page
faults net of counting (the batch counting the same event alone taken away).
Medians of the goals' phase (limits raised when it ran), bars from the 25th to
the 75th percentile.  The counting-included panel is on a log scale: the
counting of the faults between samples grows it with N.  Drawn by gnuplot
(gnuplot-nox).
"""
import json
import os
import subprocess
import sys
import tempfile

from plotlib import has_cairo

SAMPLERS = [("perf", "perf\\_events", 1), ("shim", "perf shim", 2),
            ("dfl", "perfmon default format", 3)]
# workload, key, title, x label, x scale, y scale
PANELS = [
    ("clock", "per_sample", "task clock: ns per sample", "sampling rate (kHz)", 1e-3,
     "unset logscale y; set yrange [0:*]; set key bottom right"),
    ("faults", "per_sample", "page faults: ns per sample (counting included)",
     "a sample every N page faults", 1, "set logscale y; set yrange [*:*]; set key top left"),
    ("faults", "net_per_sample", "page faults: ns per sample net of counting",
     "a sample every N page faults", 1, "unset logscale y; set yrange [0:*]"),
]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = json.load(open(sys.argv[1]))
    phase = next((p for p in data.get("phases", []) if p["name"] == data.get("goals_phase")),
                 None)
    if not phase:
        sys.exit("plot-smpl: no phase in " + sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="plot-smpl.")
    term = "pngcairo" if has_cairo() else "png"
    lines = ["set terminal %s size 1500,560" % term, "set output '%s'" % sys.argv[2],
             "set multiplot layout 1,3 title 'Sampling cost against the rate, perfmon "
             "and perf\\_events in the same guest boot (phase: %s limits; a ns is an "
             "instruction)'" % phase["name"],
             "set logscale x", "set grid", "set key font ',9'"]
    for wl, key, title, xlabel, xscale, yscale in PANELS:
        plots = []
        for curve in phase["curves"]:
            if curve["workload"] != wl:
                continue
            dash = 1 if curve["scope"] == "thread" else 2
            for name, label, color in SAMPLERS:
                path = os.path.join(tmp, "%s-%s-%s-%s.dat" % (wl, key, curve["scope"], name))
                with open(path, "w") as f:
                    for pt in curve["points"]:
                        p25, med, p75 = pt[name][key]
                        f.write("%g %g %g %g\n" % (pt["x"] * xscale, med, p25, p75))
                plots.append("'%s' using 1:2:3:4 with yerrorlines lc %d dt %d lw 2 "
                             "title '%s, %s'" % (path, color, dash, label, curve["scope"]))
        lines += [yscale, "set title '%s'" % title, "set xlabel '%s'" % xlabel,
                  "set ylabel 'ns per sample, median; bar: 25th-75th percentile'",
                  "plot " + ", ".join(plots)]
    lines.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(lines).encode(), check=True)
    print("bench: " + sys.argv[2])


if __name__ == "__main__":
    main()

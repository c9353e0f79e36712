# SPDX-License-Identifier: GPL-2.0
"""What the bench plots share: drawing a PNG with gnuplot (gnuplot-nox)."""
import subprocess


def has_cairo():
    out = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True)
    return b"pngcairo" in out.stdout + out.stderr


def gnuplot_png(out, settings, plots):
    """Draws plots (gnuplot plot clauses) into the PNG out, after the set lines."""
    script = "\n".join(
        ["set terminal pngcairo size 900,560" if has_cairo() else "set terminal png size 900,560",
         "set output '%s'" % out] + settings + ["plot " + ", ".join(plots)])
    subprocess.run(["gnuplot"], input=script.encode(), check=True)
    print("bench: " + out)

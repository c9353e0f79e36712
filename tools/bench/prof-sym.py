#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per function of one single-stepped call (prof-read.sh).

  prof-sym.py TRACE KALLSYMS USER_NM [--seq]

TRACE: one address per instruction, in order; KALLSYMS: the guest's text symbols
(address, type, name, [module]); USER_NM: nm -n of the guest program.  Prints, for
each function in the order it was first reached, the instructions spent in it
(self) and from its first to its last instruction (span: what it cost with what it
called, for a function entered once); --seq adds the run of functions in order.
"""
import bisect
import sys


def load(path, kernel):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 3 or p[1] not in "tTwW":
                continue
            name = p[2] + (" " + p[3] if kernel and len(p) > 3 else "")
            syms.append((int(p[0], 16), name))
    syms.sort()
    return syms


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seq = "--seq" in sys.argv
    trace = [int(line, 16) for line in open(args[0]) if line.strip()]
    syms = load(args[1], True) + load(args[2], False)
    syms.sort()
    addrs = [a for a, _ in syms]

    def name(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        if i < 0:
            return "?"
        return syms[i][1]

    names = [name(pc) for pc in trace]
    order, self_n, first, last = [], {}, {}, {}
    for k, n in enumerate(names):
        if n not in self_n:
            order.append(n)
            self_n[n] = 0
            first[n] = k
        self_n[n] += 1
        last[n] = k
    kern = sum(1 for pc in trace if pc >= 0xffff800000000000)
    print("total %d instructions: user %d, kernel %d" % (len(trace), len(trace) - kern, kern))
    print("%6s %6s  %s" % ("self", "span", "function (in order of first reach)"))
    for n in order:
        print("%6d %6d  %s" % (self_n[n], last[n] - first[n] + 1, n))
    if seq:
        print("\nsequence (function: instructions in a row)")
        prev, run = None, 0
        for n in names + [None]:
            if n == prev:
                run += 1
                continue
            if prev is not None:
                print("  %5d  %s" % (run, prev))
            prev, run = n, 1


main()

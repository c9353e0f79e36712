#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Line coverage of kernel/perfmon/ and arch/x86/perfmon/ (make coverage).

  cov.py ranges VMLINUX                    address ranges of perfmon's code, for
                                           the QEMU plugin (qemu_cov.c)
  cov.py guest VMLINUX HITS TSV UNCOVERED  lines reached in the guest: HITS is
                                           what the plugin wrote
  cov.py host TOP HOSTB TSV UNCOVERED      lines reached by the host unit tests and
                                           the simulator (gcov of their build)
  cov.py table NAME=TSV...                 the files side by side
  cov.py reach VMLINUX FUZZ_HITS HITS...   the fuzzer's lines of those any run
                                           reached (the reachable ones)
  cov.py below TSV UNCOVERED PERCENT       the files below PERCENT, with the
                                           functions that hold their lines never
                                           reached (and how many)

The debug kernel's perfmon objects carry line tables (-g; the rest of the kernel
has none).  A line counts when some instruction is attributed to it (the
innermost inline location, as addr2line would say); it is covered when one of
those instructions ran.  Code inlined from headers outside perfmon's
directories counts for those headers, and so not at all.

A TSV has one row per source file: file, lines with code, lines covered.
UNCOVERED lists the lines never reached, file:line: source text, by function.
"""
import bisect
import os
import re
import subprocess
import sys

DIRS = ('kernel/perfmon/', 'arch/x86/perfmon/')
ROW = re.compile(r'^(\S*)\s+(\d+|-)\s+(0x[0-9a-f]+|0)(\s+\d+)?(\s+x)?\s*$')


def ours(path):
    for d in DIRS:
        i = path.rfind(d)
        if i >= 0:
            return path[i:]
    return None


def line_rows(vmlinux):
    """[(start, end, file, line)] of every row of perfmon's line tables."""
    out = subprocess.run(['readelf', '--debug-dump=decodedline', '--wide', vmlinux], check=True,
                         capture_output=True, text=True).stdout
    rows, prev, cur = [], None, None
    for text in out.splitlines():
        m = ROW.match(text)
        if not m:
            t = text.strip()
            if t.endswith(':') and not t.startswith('Contents') and not t.startswith('File name'):
                cur = t[4:-1] if t.startswith('CU: ') else t[:-1]
            continue
        addr = int(m.group(3), 16)
        # a row runs to the next one; of rows at one address the last owns it
        if prev and addr > prev[0]:
            rows.append((prev[0], addr, prev[1], prev[2]))
        prev = None if m.group(2) == '-' else (addr, ours(cur or ''), int(m.group(2)))
    rows = [r for r in rows if r[2]]
    rows.sort()
    return rows


def functions(vmlinux):
    """Sorted [(addr, name)] of the kernel's functions."""
    out = subprocess.run(['nm', '--defined-only', vmlinux], check=True,
                         capture_output=True, text=True).stdout
    fns = []
    for text in out.splitlines():
        p = text.split()
        if len(p) == 3 and p[1] in 'tT':
            fns.append((int(p[0], 16), p[2]))
    fns.sort()
    return fns


def cmd_ranges(vmlinux):
    rows = line_rows(vmlinux)
    merged = []
    for s, e, _, _ in rows:
        # neighbours closer than 64 KiB share a range: a few dozen in all
        if merged and s - merged[-1][1] < 65536:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    for s, e in merged:
        print('%x %x' % (s, e))


def source_line(top, f, n):
    try:
        with open(os.path.join(top, f), errors='replace') as src:
            for i, text in enumerate(src, 1):
                if i == n:
                    return text.rstrip().strip()
    except OSError:
        pass
    return ''


def write_results(lines, hit, func_of, tsv, uncovered, top):
    files = sorted({f for f, _ in lines})
    with open(tsv, 'w') as out:
        for f in files:
            n = sum(1 for g, _ in lines if g == f)
            c = sum(1 for g, l in lines if g == f and (g, l) in hit)
            out.write('%s\t%d\t%d\n' % (f, n, c))
    with open(uncovered, 'w') as out:
        for f in files:
            miss = sorted(l for g, l in lines if g == f and (g, l) not in hit)
            last = None
            for l in miss:
                fn = func_of.get((f, l), '?')
                if fn != last:
                    out.write('%s: %s()\n' % (f, fn))
                    last = fn
                out.write('  %s:%d: %s\n' % (f, l, source_line(top, f, l)))


def cmd_guest(vmlinux, hits, tsv, uncovered):
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rows = line_rows(vmlinux)
    starts = [r[0] for r in rows]
    fns = functions(vmlinux)
    fstarts = [a for a, _ in fns]
    lines, func_of = set(), {}
    for s, _, f, l in rows:
        lines.add((f, l))
        if (f, l) not in func_of:
            i = bisect.bisect_right(fstarts, s) - 1
            func_of[(f, l)] = fns[i][1] if i >= 0 else '?'
    hit = hit_lines(rows, starts, hits)
    write_results(lines, hit, func_of, tsv, uncovered, top)


def hit_lines(rows, starts, hits):
    """The (file, line)s of the plugin's HITS file."""
    hit = set()
    with open(hits) as h:
        for text in h:
            try:
                pc = int(text, 16)
            except ValueError:
                continue
            i = bisect.bisect_right(starts, pc) - 1
            if i >= 0 and rows[i][0] <= pc < rows[i][1]:
                hit.add((rows[i][2], rows[i][3]))
    return hit


def cmd_reach(vmlinux, fuzz_hits, others):
    """
    The fuzzer's lines against those known to be reachable without a PMU: the
    lines any run reached (the fuzzer's and the OTHERS, the guest suite's
    say).  A line no run reaches is not counted: it may need a PMU, a failure
    no test makes, or a test no one wrote.
    """
    rows = line_rows(vmlinux)
    starts = [r[0] for r in rows]
    fuzz = hit_lines(rows, starts, fuzz_hits)
    reach = set(fuzz)
    for o in others:
        if os.path.exists(o):
            reach |= hit_lines(rows, starts, o)
    files = sorted({f for f, _ in reach})
    print('%-34s %9s %9s %7s' % ('file', 'reachable', 'fuzzer', '%'))
    for f in files:
        n = sum(1 for g, _ in reach if g == f)
        c = sum(1 for g, _ in fuzz if g == f)
        print('%-34s %9d %9d %6.1f%%' % (f, n, c, 100.0 * c / n))
    for d in DIRS + ('',):
        n = sum(1 for g, _ in reach if g.startswith(d))
        c = sum(1 for g, _ in fuzz if g.startswith(d))
        print('%-34s %9d %9d %6.1f%%' % ((d or 'all') + ' total', n, c,
                                        100.0 * c / n if n else 0))


def cmd_host(top, hostb, tsv, uncovered):
    """gcov of the host objects: the core (tests/host) and the drivers (tests/sim)."""
    lines, hit, func_of = set(), set(), {}
    pairs = [('kernel/perfmon', os.path.join(hostb, 'core')),
             ('kernel/perfmon/perf', os.path.join(hostb, 'core', 'perf')),
             ('arch/x86/perfmon', os.path.join(hostb, 'sim', 'x86'))]
    for srcdir, objdir in pairs:
        if not os.path.isdir(objdir):
            continue
        for gcda in sorted(os.listdir(objdir)):
            if not gcda.endswith('.gcda'):
                continue
            src = os.path.join(top, srcdir, gcda[:-5] + '.c')
            out = subprocess.run(['gcov', '-t', '-o', objdir, src], check=True,
                                 capture_output=True, text=True, cwd=objdir).stdout
            cur, fn = None, '?'
            for text in out.splitlines():
                p = text.split(':', 2)
                if len(p) < 3:
                    continue
                count, n, src = p[0].strip(), p[1].strip(), p[2]
                if n == '0' and src.startswith('Source:'):
                    cur = ours(src[7:])
                    continue
                if not cur or not n.isdigit() or n == '0':
                    continue
                # a definition starts at column 0: the lines below are its body
                m = re.match(r'^[A-Za-z_][\w\s\*]*?\b(\w+)\(', src)
                if m:
                    fn = m.group(1)
                if count == '-':
                    continue
                key = (cur, int(n))
                lines.add(key)
                if count not in ('#####', '====='):
                    hit.add(key)
                func_of[key] = fn
    write_results(lines, hit, func_of, tsv, uncovered, top)


def cmd_table(args):
    cols, data, files = [], {}, set()
    for a in args:
        name, _, path = a.partition('=')
        if not os.path.exists(path):
            continue
        cols.append(name)
        with open(path) as t:
            for text in t:
                f, n, c = text.split('\t')
                data[(name, f)] = (int(n), int(c))
                files.add(f)
    head = '%-30s' % 'file' + ''.join('%24s' % c for c in cols)
    print(head)
    print('-' * len(head))

    def cell(name, f):
        if (name, f) not in data:
            return '%24s' % '-'
        n, c = data[(name, f)]
        return '%24s' % ('%d/%d %5.1f%%' % (c, n, 100.0 * c / n if n else 0))

    for f in sorted(files):
        print('%-30s' % f + ''.join(cell(c, f) for c in cols))
    print('-' * len(head))
    for d in DIRS + ('',):
        row = '%-30s' % ((d or 'all') + ' total')
        for c in cols:
            n = sum(v[0] for k, v in data.items() if k[0] == c and k[1].startswith(d))
            h = sum(v[1] for k, v in data.items() if k[0] == c and k[1].startswith(d))
            row += '%24s' % ('%d/%d %5.1f%%' % (h, n, 100.0 * h / n if n else 0))
        print(row)


def cmd_below(tsv, uncovered, pct):
    low = []
    with open(tsv) as t:
        for text in t:
            f, n, c = text.split('\t')
            if int(n) and 100.0 * int(c) / int(n) < float(pct):
                low.append((f, int(n), int(c)))
    by_fn, fn = {}, None
    with open(uncovered) as u:
        for text in u:
            if not text.startswith(' '):
                fn = text.strip()
                by_fn[fn] = 0
            elif fn:
                by_fn[fn] += 1
    for f, n, c in low:
        print('%s: %d of %d lines (%.1f%%); never reached:' % (f, c, n, 100.0 * c / n))
        for k, v in by_fn.items():
            if k.startswith(f + ':'):
                print('    %-50s %4d lines' % (k[len(f) + 2:], v))


def main(argv):
    if len(argv) == 3 and argv[1] == 'ranges':
        cmd_ranges(argv[2])
    elif len(argv) == 6 and argv[1] == 'guest':
        cmd_guest(*argv[2:])
    elif len(argv) == 6 and argv[1] == 'host':
        cmd_host(*argv[2:])
    elif len(argv) == 5 and argv[1] == 'below':
        cmd_below(*argv[2:])
    elif len(argv) >= 4 and argv[1] == 'reach':
        cmd_reach(argv[2], argv[3], argv[4:])
    elif len(argv) >= 3 and argv[1] == 'table':
        cmd_table(argv[2:])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

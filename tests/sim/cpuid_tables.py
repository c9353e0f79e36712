#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""README.md's processor -> PMU tables, made from tests/sim/cpuid/*.cpuid.

The files say what the probe must find on each processor (their README); the
tables say the same to the reader, so they are made from the files rather than
written by hand, and cannot disagree with what sim_real checks.  Each table sits
in README.md between two marker lines:

    <!-- cpuid-table NAME: made by make readme-tables from tests/sim/cpuid -->
    ...
    <!-- end cpuid-table NAME -->

  pmu     processors of one core type: a row per PMU found (model, GP counters,
          their width, fixed counters), the processors in file order
  hybrid  processors with core types of their own PMUs: a row per processor
          kind, each type's counters

and the number of processors the text gives, inline between two markers:

    <!-- cpuid-count -->70<!-- end cpuid-count -->

Usage: cpuid_tables.py CPUID_DIR README [--check]
Rewrites README's tables, or with --check exits 1 (saying which table) when they
differ from what the files say.
"""
import glob
import os
import re
import sys


def read_dump(path):
    d = {"file": os.path.basename(path), "uarch": "", "leaf23": False, "cores": []}
    core = {"label": "", "expect": {}}
    d["cores"].append(core)
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "uarch":
            d["uarch"] = line.split(None, 1)[1].strip()
        elif f[0] == "has" and f[1:3] == ["leaf23", "yes"]:
            d["leaf23"] = True
        elif f[0] == "core":
            if core["label"] or core["expect"]:
                core = {"label": "", "expect": {}}
                d["cores"].append(core)
            core["label"] = f[1]
        elif f[0] == "expect":
            core["expect"][f[1]] = f[2:]
    return d


def name_of(d):
    """The processor as the uarch line names it, before its family and model."""
    return re.split(r",\s*family\b", d["uarch"])[0].strip()


def fixed_list(bitmap):
    """0x77 -> [0, 1, 2, 4, 5, 6]."""
    v = int(bitmap, 16)
    return [j for j in range(32) if v >> j & 1]


def ranges(js):
    """[0, 1, 2, 4, 5, 6] -> '0-2 and 4-6'."""
    out, i = [], 0
    while i < len(js):
        k = i
        while k + 1 < len(js) and js[k + 1] == js[k] + 1:
            k += 1
        out.append(str(js[i]) if k == i else "%d-%d" % (js[i], js[k]))
        i = k + 1
    return ", ".join(out[:-1]) + " and " + out[-1] if len(out) > 1 else out[0]


def pmu_text(e):
    """'intel_arch_v3: 4 counters of 48 bits, 3 fixed' from one PMU's expect lines."""
    n, width = e["gp"][0], e["gp"][1]
    text = "%s: %s counters of %s bits" % (e["pmu"][0], n, width)
    fx = e.get("fixed", ["none"])
    if fx[0] != "none":
        text += ", %d fixed" % len(fixed_list(fx[0]))
    if e["pmu"][0].startswith("amd") and e.get("global", ["none"])[0] != "none":
        text += ", global control"
    return text


def type_text(e):
    """'8 GP, fixed 0-3' for one core type's PMU."""
    fx = e.get("fixed", ["none"])
    text = "%s GP" % e["gp"][0]
    return text + (", fixed " + ranges(fixed_list(fx[0])) if fx[0] != "none" else "")


def natural(text):
    """A sort key that orders the numbers in text by value: 4 before 10."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def grouped(rows):
    """[(key, name)] -> [(key, [names])], keys in first-seen order, names unrepeated."""
    out = {}
    for key, name in rows:
        names = out.setdefault(key, [])
        if name not in names:
            names.append(name)
    return list(out.items())


def table_pmu(dumps):
    rows = []
    for d in dumps:
        e = d["cores"][0]["expect"]
        if len(d["cores"]) == 1 and "pmu" in e:
            rows.append((pmu_text(e), name_of(d)))
    lines = ["| PMU found | processors |", "| --- | --- |"]
    for key, names in sorted(grouped(rows), key=lambda r: natural(r[0])):
        lines.append("| %s | %s |" % (key, "; ".join(names)))
    return lines


def table_hybrid(dumps):
    rows = []
    for d in dumps:
        if len(d["cores"]) < 2:
            continue
        p, e = d["cores"][0]["expect"], d["cores"][1]["expect"]
        pmu = p["pmu"][0] + (" (leaf 0x23)" if d["leaf23"] else "")
        rows.append(((pmu, type_text(p), type_text(e)), re.sub(r"\s*\(.*\)", "", name_of(d))))
    lines = ["| processor | PMU | P cores (cpu_core) | E cores (cpu_atom) |",
             "| --- | --- | --- | --- |"]
    for key, names in grouped(rows):
        lines.append("| %s | %s | %s | %s |" % ((", ".join(names),) + key))
    return lines


TABLES = {"pmu": table_pmu, "hybrid": table_hybrid}
COUNT_BEGIN, COUNT_END = "<!-- cpuid-count -->", "<!-- end cpuid-count -->"


def with_count(text, n):
    """text with n between the count's markers, or None without them."""
    i = text.find(COUNT_BEGIN)
    j = text.find(COUNT_END, i + len(COUNT_BEGIN)) if i >= 0 else -1
    if j < 0:
        return None
    return text[:i + len(COUNT_BEGIN)] + str(n) + text[j:]


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--check"):
        sys.stderr.write("usage: cpuid_tables.py CPUID_DIR README [--check]\n")
        return 2
    dumps = [read_dump(p) for p in sorted(glob.glob(os.path.join(argv[1], "*.cpuid")))]
    text = open(argv[2], encoding="utf-8").read()
    new = text
    for name, make in TABLES.items():
        begin = "<!-- cpuid-table %s: made by make readme-tables from tests/sim/cpuid -->" % name
        end = "<!-- end cpuid-table %s -->" % name
        i, j = new.find(begin), new.find(end)
        if i < 0 or j < i:
            sys.stderr.write("%s: no table %s between its markers\n" % (argv[2], name))
            return 1
        body = "\n".join(make(dumps))
        made = new[:i] + begin + "\n" + body + "\n" + new[j:]
        if len(argv) == 4 and made != new:
            sys.stderr.write("%s: table %s differs from tests/sim/cpuid; "
                             "make readme-tables\n" % (argv[2], name))
            return 1
        new = made
    made = with_count(new, len(dumps))
    if made is None:
        sys.stderr.write("%s: no processor count between its markers\n" % argv[2])
        return 1
    if len(argv) == 4 and made != new:
        sys.stderr.write("%s: the processor count differs from tests/sim/cpuid; "
                         "make readme-tables\n" % argv[2])
        return 1
    new = made
    if len(argv) == 3 and new != text:
        open(argv[2], "w", encoding="utf-8").write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""How much of StarPU's public C API our library provides, by tier.

The tiers and their names come from StarPU's API list (reference/starpu-api.md, sections
1.1, 1.2, 1.3 and 1.6: Tier 1, Tier 2, Tier 3 and the data-interface implementation API);
`--extract` writes them to scripts/starpu-api-names.tsv, which is kept in the repository so
that the check runs anywhere.

A name counts as provided when a C program can use it the way StarPU's headers allow:
a macro is defined; a function (or variable) is declared, and a program using it links
against libstarpu; an enum constant is usable as a value; a struct
or typedef has a size (or, for the structs StarPU's own headers leave opaque, is declared:
programs only hold pointers to them); a struct field (`task.cl`) has an offset. Each kind of check is one
compilation of all the names at once (errors are mapped back to names by line).

usage: scripts/api_coverage.py [--prefix build/install] [--missing] [--extract API.md]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = os.path.join(HERE, "starpu-api-names.tsv")
TIERS = {"1.1": "tier1", "1.2": "tier2", "1.3": "tier3", "1.6": "interfaces"}
# Structs StarPU's public headers only declare (their definitions are internal).
OPAQUE_IN_STARPU = {
    "starpu_perf_counter_listener",
    "starpu_perf_counter_sample",
    "starpu_perf_counter_set",
    "starpu_transaction",
    "starpu_parallel_worker_config",
}
FIELD_STRUCTS = {
    "task": "starpu_task",
    "codelet": "starpu_codelet",
    "conf": "starpu_conf",
    "perfmodel": "starpu_perfmodel",
    "data_filter": "starpu_data_filter",
}


def extract(md_path):
    """(tier, name) pairs from StarPU's API list."""
    tier, out = None, []
    for line in open(md_path, encoding="utf-8"):
        m = re.match(r"### (1\.\d) ", line)
        if m:
            tier = TIERS.get(m.group(1))
            continue
        if line.startswith("## "):
            tier = None
        if not tier:
            continue
        if line.startswith("|"):
            m = re.match(r"\| `([^`]+)` \|", line)
            if m:
                out.append((tier, m.group(1)))
        elif line.startswith("*"):
            # bullet lists: the names after the colon of each bullet
            body = line.split(":", 1)[1] if ":" in line else line
            out += [(tier, n) for n in re.findall(r"`([A-Za-z_][A-Za-z0-9_.]*)`", body)]
    seen, uniq = set(), []
    for t, n in out:
        if (t, n) not in seen:
            seen.add((t, n))
            uniq.append((t, n))
    return uniq


def compile_probes(cflags, probes):
    """Compiles one probe per line; returns the indices of the probes that failed."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "probe.c")
        header = "#include <starpu.h>\n#include <stddef.h>\nvoid probe(void);\nvoid probe(void) {\n"
        first = header.count("\n") + 1
        with open(src, "w") as f:
            f.write(header)
            for p in probes:
                f.write(p + "\n")
            f.write("}\n")
        r = subprocess.run(["cc", "-fsyntax-only", "-fmax-errors=0", "-w", *cflags, src],
                           capture_output=True, text=True)
        failed = set()
        for m in re.finditer(r"probe\.c:(\d+):\d+: error", r.stderr):
            failed.add(int(m.group(1)) - first)
        return failed


def preprocessed_headers(cflags):
    """`#include <starpu.h>` after the preprocessor: every declaration our headers make."""
    r = subprocess.run(["cc", "-E", "-P", *cflags, "-"], input="#include <starpu.h>\n",
                       capture_output=True, text=True)
    return r.stdout


def undefined_at_link(cflags, libs, names):
    """Names a program referencing them all cannot link against the library."""
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "link.c"), os.path.join(d, "link")
        with open(src, "w") as f:
            f.write("#include <starpu.h>\nint main(void) {\n")
            for n in names:
                f.write(f"  {{ volatile const void *p = (const void *)&{n}; (void)p; }}\n")
            f.write("  return 0;\n}\n")
        r = subprocess.run(["cc", "-w", *cflags, src, "-o", exe, *libs], capture_output=True, text=True)
        return set(re.findall(r"undefined reference to `([^']+)'", r.stderr))


def provided(names, cflags, libs):
    """The subset of `names` our library provides."""
    plain = [n for n in names if "." not in n]
    fields = [n for n in names if "." in n]
    # Macros: each #ifndef probe is three lines, mapped back to its name.
    lines, owner = [], []
    for i, n in enumerate(plain):
        lines += [f"#ifndef {n}", "#error", "#endif"]
        owner += [i, i, i]
    failed = {owner[l] for l in compile_probes(cflags, lines) if 0 <= l < len(owner)}
    ok = {n for i, n in enumerate(plain) if i not in failed}
    rest = [n for n in plain if n not in ok]
    # Functions and variables: declared, and defined (exported, or inline in a header).
    fail = compile_probes(cflags, [f"(void)&{n};" for n in rest])
    declared = [n for i, n in enumerate(rest) if i not in fail]
    ok |= set(declared) - undefined_at_link(cflags, libs, declared)
    rest = [n for n in rest if n not in declared]
    # Enum constants, structs, enums, typedefs.
    for probe in ("(void)({n});", "(void)sizeof(struct {n});", "(void)sizeof(enum {n});",
                  "(void)sizeof({n});"):
        fail = compile_probes(cflags, [probe.format(n=n) for n in rest])
        ok |= {n for i, n in enumerate(rest) if i not in fail}
        rest = [n for n in rest if n not in ok]
    # Structs StarPU declares opaque: our headers must name them too (a pointer probe
    # would compile anyway: C declares an unknown struct on first use).
    header_text = preprocessed_headers(cflags)
    ok |= {n for n in rest
           if n in OPAQUE_IN_STARPU and re.search(rf"\bstruct\s+{n}\b", header_text)}
    # Struct fields.
    probes = []
    for n in fields:
        base, field = n.split(".", 1)
        probes.append(f"(void)offsetof(struct {FIELD_STRUCTS.get(base, 'starpu_' + base)}, {field});")
    fail = compile_probes(cflags, probes)
    ok |= {n for i, n in enumerate(fields) if i not in fail}
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prefix", default=os.path.join(HERE, "..", "build", "install"))
    ap.add_argument("--missing", action="store_true", help="list the missing names")
    ap.add_argument("--extract", metavar="API_MD", help="rewrite the name list from StarPU's API list")
    o = ap.parse_args()
    if o.extract:
        pairs = extract(o.extract)
        with open(NAMES, "w") as f:
            f.write("# tier\tname (from StarPU's API list, sections 1.1, 1.2, 1.3, 1.6)\n")
            for t, n in pairs:
                f.write(f"{t}\t{n}\n")
        print(f"{len(pairs)} names written to {NAMES}")
    pairs = [l.rstrip("\n").split("\t") for l in open(NAMES) if not l.startswith("#")]
    prefix = os.path.abspath(o.prefix)
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    def pc(what):
        return subprocess.run(["pkg-config", what, "starpu-1.4"], env=env,
                              capture_output=True, text=True, check=True).stdout.split()
    have = provided(sorted({n for _, n in pairs}), pc("--cflags"), pc("--libs"))
    print("| part | provided | total | share |")
    print("| --- | --- | --- | --- |")
    for t in TIERS.values():
        names = [n for tt, n in pairs if tt == t]
        got = [n for n in names if n in have]
        print(f"| {t} | {len(got)} | {len(names)} | {100 * len(got) / max(1, len(names)):.0f}% |")
    if o.missing:
        for t in TIERS.values():
            miss = [n for tt, n in pairs if tt == t and n not in have]
            if miss:
                print(f"\nmissing from {t} ({len(miss)}): " + ", ".join(miss))
    return 0


if __name__ == "__main__":
    sys.exit(main())

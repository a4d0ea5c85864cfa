#!/usr/bin/env python3
"""make coverage: Verilator line and toggle coverage of every block under its lockstep bench.

Builds the benches with LL_COVERAGE=ON in their own build tree, runs every parameter set and
seed that `make tb` runs (CTest label `tb`), merges each bench's runs with
`verilator_coverage --write`, writes annotated sources and an lcov file per bench under
OUT/<bench>/, and prints a per-bench table of line and toggle coverage of the RTL.

Uncovered points can be waived in tb/<block>/coverage_waivers.txt (codec bench:
tb/pfc/codec/coverage_waivers.txt), one per line:

    line   <rtl file>#<tag> <instance regex> <reason>
    toggle <signal regex>                <reason>   (e.g. stat_q\\[3[01]\\])

A line waiver names its line by a tag, not a number: the RTL line carries the comment
`// cov-waiver: <tag>` at its end, or that comment stands alone on the line above it (for
a line that cannot end in a comment, e.g. inside a macro call). A tag marks exactly one
line, so edits above it never move a waiver onto another line; `make lint` checks that
every tag resolves (check_waiver_files).

The instance regex is matched against the whole hierarchical instance name (e.g.
dut\.pfc_top\.u_(iq|eq)); a toggle regex against the signal name with its bit.
A waived point leaves the denominator; the table shows how many were waived. A waiver that
matches no uncovered point is an error (a fixed hole must not keep its waiver).
The target fails when a bench is below the goal (95% line, 90% toggle) after waivers, or
when any line point is neither covered nor waived (every uncovered line gets stimulus or
a waiver with its reason), unless --report-only is given.
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import time

from ll_out import dir_problem  # scripts/ll_out.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOAL_LINE = 95.0
GOAL_TOGGLE = 90.0


def run(cmd, **kw):
    r = subprocess.run(cmd, **kw)
    if r.returncode != 0:
        sys.exit(f"coverage: command failed ({r.returncode}): {' '.join(cmd)}")
    return r


def parse_dat(path):
    """Yields (fields dict, count) for every point of a Verilator coverage file."""
    with open(path, encoding="latin-1") as f:
        for raw in f:
            if not raw.startswith("C '"):
                continue
            key, _, count = raw.rstrip("\n").rpartition("' ")
            fields = {}
            for item in key[3:].split("\x01"):
                if "\x02" in item:
                    k, v = item.split("\x02", 1)
                    fields[k] = v
            yield fields, int(count)


def rel(path):
    """RTL file path relative to the repository (the build may use another checkout)."""
    i = path.find("/rtl/")
    return path[i + 1:] if i >= 0 else path


TAG_RE = re.compile(r"//\s*cov-waiver:\s*([A-Za-z0-9_]+)\s*$")


def resolve_tag(what):
    """'FILE#TAG' -> 'FILE:LINE' of the one line the tag marks (ValueError otherwise)."""
    f, _, tag = what.partition("#")
    path = os.path.join(ROOT, f)
    if not tag or not os.path.isfile(path):
        raise ValueError(f"a line waiver names FILE#TAG of a file in the repository, not {what!r}")
    with open(path) as fh:
        lines = fh.read().split("\n")
    hits = []
    for n, text in enumerate(lines, 1):
        m = TAG_RE.search(text)
        if not m or m.group(1) != tag:
            continue
        if text.strip().startswith("//"):       # alone on its line: the next line is meant
            hits.append(n + 1)
        else:
            hits.append(n)
    if len(hits) != 1:
        raise ValueError(f"tag {tag!r} marks {len(hits)} lines of {f} (exactly one expected)")
    return f"{f}:{hits[0]}"


def parse_waivers(path):
    """The waivers of one file; ValueError naming the file and line on a bad entry."""
    waivers = []
    if not os.path.exists(path):
        return waivers
    with open(path) as fh:
        for n, raw in enumerate(fh, 1):
            s = raw.strip()
            if not s or s.startswith("#"):
                continue
            kind = s.split(None, 1)[0]
            parts = s.split(None, 3 if kind == "line" else 2)
            where = f"{path}:{n}"
            if kind not in ("line", "toggle") or len(parts) < (4 if kind == "line" else 3):
                raise ValueError(f"{where}: expected 'line FILE#TAG INSTANCE_REGEX reason' "
                                 "or 'toggle SIGNAL_REGEX reason'")
            if kind == "line":
                _, what, hier, reason = parts
                try:
                    pat = (resolve_tag(what), re.compile(hier))
                except ValueError as e:
                    raise ValueError(f"{where}: {e}")
                except re.error as e:
                    raise ValueError(f"{where}: bad regex {hier!r}: {e}")
            else:
                _, what, reason = parts
                try:
                    pat = re.compile(what)
                except re.error as e:
                    raise ValueError(f"{where}: bad regex {what!r}: {e}")
            waivers.append({"kind": kind, "what": what, "pat": pat, "reason": reason,
                            "where": where, "used": 0})
    return waivers


def load_waivers(path):
    try:
        return parse_waivers(path)
    except ValueError as e:
        sys.exit(f"coverage: {e}")


def check_waiver_files():
    """Every tb/**/coverage_waivers.txt parses and every tag resolves: a list of problems."""
    problems = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tb", "**", "coverage_waivers.txt"), recursive=True)):
        try:
            parse_waivers(path)
        except ValueError as e:
            problems.append(str(e).replace(ROOT + "/", ""))
    return problems


def summarise(points, waivers):
    """points: {(kind, file, line, col, obj, hier): count}. Returns stats per kind."""
    stats = {k: collections.Counter() for k in ("line", "toggle")}
    holes = {"line": [], "toggle": []}
    for (kind, f, line, col, obj, hier), count in sorted(points.items()):
        st = stats[kind]
        if count > 0:
            st["covered"] += 1
            st["total"] += 1
            continue
        waived = None
        for w in waivers:
            if w["kind"] != kind:
                continue
            if kind == "line" and w["pat"][0] == f"{f}:{line}" and w["pat"][1].fullmatch(hier):
                waived = w
            elif kind == "toggle" and w["pat"].fullmatch(obj):
                waived = w
            if waived:
                break
        if waived:
            waived["used"] += 1
            st["waived"] += 1
        else:
            st["total"] += 1
            holes[kind].append((f, line, obj, hier))
    return stats, holes


def pct(st):
    return 100.0 * st["covered"] / st["total"] if st["total"] else 100.0


def bench_names():
    """The lockstep benches: the NAME (else the BLOCK) of each tb/**/CMakeLists.txt's ll_lockstep_tb()."""
    names = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tb", "*", "CMakeLists.txt")) +
                       glob.glob(os.path.join(ROOT, "tb", "*", "*", "CMakeLists.txt"))):
        with open(path) as f:
            m = re.search(r"ll_lockstep_tb\((.*?)\)", f.read(), re.S)
        if m:
            tok = m.group(1).split()
            key = "NAME" if "NAME" in tok[:-1] else "BLOCK"
            if key in tok[:-1]:
                names.append(tok[tok.index(key) + 1])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "coverage", "build"),
                    help="build tree for the coverage-instrumented benches")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "coverage"),
                    help="where merged data, annotated sources and summary.md go")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--benches", nargs="*", default=None,
                    help="only these benches (e.g. marker pfc pfc_codec); default all")
    ap.add_argument("--report-only", action="store_true",
                    help="print the table but do not fail below the goal")
    ap.add_argument("--holes", type=int, default=15,
                    help="uncovered points listed per bench and kind (default 15)")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.holes < 0:
        sys.exit(f"coverage: --holes must be at least 0 (got {args.holes})")
    unknown = [b for b in args.benches or [] if b not in bench_names()]
    if unknown:
        sys.exit(f"coverage: --benches: no bench {', '.join(repr(b) for b in unknown)} "
                 f"(benches: {', '.join(bench_names())})")
    for opt, path in (("--out", args.out), ("--build", args.build)):
        if dir_problem(path):
            sys.exit(f"coverage: {opt} {path}: {dir_problem(path)}")

    t0 = time.time()
    os.makedirs(args.out, exist_ok=True)
    run(["cmake", "-S", ROOT, "-B", args.build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         "-DLL_COVERAGE=ON", "-DLL_TRACE=OFF", "-DLL_BUILD_SIM=OFF", "-DLL_BUILD_MODEL_TESTS=OFF"],
        stdout=subprocess.DEVNULL)
    targets = None
    if args.benches:
        targets = [f"tb_{b}" for b in args.benches]
    run(["cmake", "--build", args.build, "-j", str(args.jobs)] + (["--target"] + targets if targets else []))
    for old in glob.glob(os.path.join(args.build, "**", "vcov_*.dat"), recursive=True):
        os.remove(old)
    ctest = ["ctest", "--test-dir", args.build, "-L", "tb", "-j", str(args.jobs), "--output-on-failure"]
    if args.benches:
        ctest += ["-R", "^tb\\.(" + "|".join(re.escape(b) for b in args.benches) + ")\\."]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    r = subprocess.run(ctest, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        sys.exit("coverage: a lockstep run failed under coverage instrumentation")

    runs = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(args.build, "**", "vcov_*.dat"), recursive=True)):
        m = re.fullmatch(r"vcov_(.+)_([^_]+)_seed(\d+)\.dat", os.path.basename(f))
        if m:
            runs[m.group(1)].append(f)
    if not runs:
        sys.exit("coverage: no coverage data written (is the bench built with LL_COVERAGE?)")

    rows, failed, all_holes = [], [], {}
    for bench in sorted(runs):
        files = runs[bench]
        bdir = os.path.join(args.out, bench)
        os.makedirs(bdir, exist_ok=True)
        merged = os.path.join(bdir, "merged.dat")
        run(["verilator_coverage", "--write", merged] + files, stdout=subprocess.DEVNULL)
        ann = os.path.join(bdir, "annotated")
        run(["verilator_coverage", "--annotate", ann, "--annotate-min", "1", merged],
            stdout=subprocess.DEVNULL)
        run(["verilator_coverage", "--write-info", os.path.join(bdir, "coverage.info"), merged],
            stdout=subprocess.DEVNULL)
        points = collections.Counter()
        for fields, count in parse_dat(merged):
            page = fields.get("page", "")
            kind = "toggle" if page.startswith("v_toggle") else "line" if page.startswith(("v_line", "v_branch")) else None
            if kind is None:
                continue
            key = (kind, rel(fields.get("f", "")), int(fields.get("l", 0)), int(fields.get("n", 0)),
                   fields.get("o", ""), fields.get("h", ""))
            points[key] += count
        block = bench.split("_")[0]
        wfile = os.path.join(ROOT, "tb", block, "codec" if bench == "pfc_codec" else "", "coverage_waivers.txt")
        waivers = load_waivers(os.path.normpath(wfile))
        stats, holes = summarise(points, waivers)
        stale = [w for w in waivers if w["used"] == 0]
        for w in stale:
            print(f"coverage: {w['where']}: waiver '{w['what']}' matches no uncovered point: remove it")
        lp, tp = pct(stats["line"]), pct(stats["toggle"])
        ok = lp >= GOAL_LINE and tp >= GOAL_TOGGLE and not stale and not holes["line"]
        if not ok:
            failed.append(bench)
        rows.append((bench, len(files), stats, lp, tp, ok))
        all_holes[bench] = holes

    lines = ["| bench | runs | line covered / points | line % | toggle covered / points | toggle % | waived (line / toggle) | goal |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for bench, n, st, lp, tp, ok in rows:
        lines.append(f"| {bench} | {n} | {st['line']['covered']} / {st['line']['total']} | {lp:.1f} | "
                     f"{st['toggle']['covered']} / {st['toggle']['total']} | {tp:.1f} | "
                     f"{st['line']['waived']} / {st['toggle']['waived']} | {'met' if ok else 'NOT met'} |")
    table = "\n".join(lines)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump([{"bench": b, "runs": n, "line_pct": round(lp, 4), "toggle_pct": round(tp, 4),
                    "line_waived": st["line"]["waived"], "toggle_waived": st["toggle"]["waived"], "goal_met": ok}
                   for b, n, st, lp, tp, ok in rows], f, indent=1)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("# Verilator coverage under the lockstep benches (`make coverage`)\n\n")
        f.write(table + "\n\n")
        for bench in sorted(all_holes):
            for kind in ("line", "toggle"):
                hs = all_holes[bench][kind]
                if hs:
                    f.write(f"## {bench}: {len(hs)} uncovered {kind} points\n\n")
                    for fi, ln, obj, hier in hs:
                        f.write(f"- {fi}:{ln} {obj} ({hier})\n")
                    f.write("\n")
    print(table)
    for bench in sorted(all_holes):
        for kind in ("line", "toggle"):
            hs = all_holes[bench][kind]
            if hs:
                print(f"\n{bench}: {len(hs)} uncovered {kind} points (first {min(len(hs), args.holes)}):")
                for fi, ln, obj, hier in hs[:args.holes]:
                    print(f"  {fi}:{ln} {obj} ({hier})")
    print(f"\ncoverage: annotated sources and lcov files under {os.path.relpath(args.out, ROOT)}/<bench>/, "
          f"summary {os.path.relpath(os.path.join(args.out, 'summary.md'), ROOT)} ({time.time() - t0:.0f} s)")
    if failed and not args.report_only:
        print("coverage: goal not met (95% line, 90% toggle, every line covered or waived, "
              f"no stale waiver): {' '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

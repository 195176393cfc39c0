#!/usr/bin/env python3
"""Two builds of ours against each other: the CPU time (user + system) of `BIN count -j1 FILE`
over all the files, the builds alternating round by round (which goes first alternates too),
and the medians. For changes smaller than this machine's drift between runs, which moves the
ratios against a peer by more than the change (see PERFORMANCE.md).

    benches/ab_cpu.py --rounds 31 OLD_BIN NEW_BIN puzzles/*.txt
"""
import argparse, resource, statistics, subprocess, sys


def cpu_of(binary, files):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for f in files:
        done = subprocess.run([binary, "count", "-j1", f], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        if done.returncode not in (0, 1):
            sys.exit(f"{binary} count -j1 {f} failed (exit {done.returncode}): "
                     f"{done.stderr.decode(errors='replace')[-300:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    old, new = [], []
    for r in range(a.rounds):
        order = ((a.old, old), (a.new, new)) if r % 2 == 0 else ((a.new, new), (a.old, old))
        for binary, into in order:
            into.append(cpu_of(binary, a.files))
    mo, mn = statistics.median(old), statistics.median(new)
    print(f"old {mo:.3f} s  new {mn:.3f} s  new/old {mn / mo:.4f}  "
          f"(fastest rounds {min(old):.3f} and {min(new):.3f})")


if __name__ == "__main__":
    main()

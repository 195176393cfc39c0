#!/usr/bin/env python3
"""../shared/peers/compare.py with CPU time (user + system of the process and its children)
instead of wall time: the same alternating runs, medians and peer/ours ratios, for machines
shared with other work, where wall time measures the neighbours too. One-thread runs only
(CPU time adds up every thread's)."""
import argparse, resource, shlex, statistics, subprocess, sys


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(shlex.split(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    took = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, done.returncode, done.stderr.decode(errors="replace")[-300:]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ours", required=True, help="command template with {file}")
    ap.add_argument("--peer", required=True, help="command template with {file}")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    print(f"{'file':40} {'ours cpu s':>10} {'peer cpu s':>10} {'peer/ours':>9}")
    worst = None
    for f in a.files:
        ours, peer = [], []
        for _ in range(a.rounds):
            for cmd, into in ((a.ours, ours), (a.peer, peer)):
                t, rc, err = run(cmd.format(file=f))
                if rc not in (0, 1):
                    sys.exit(f"command failed (exit {rc}): {cmd.format(file=f)}\n{err}")
                into.append(t)
        mo, mp = statistics.median(ours), statistics.median(peer)
        ratio = mp / max(mo, 1e-6)
        worst = ratio if worst is None else min(worst, ratio)
        print(f"{f.split('/')[-1][:40]:40} {mo:10.3f} {mp:10.3f} {ratio:9.2f}")
    print(f"worst ratio: {worst:.2f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The choice of turn against every turn: for each file (one 9×9 puzzle), the CPU time (user +
system) of `BIN count -j1 FILE` as it chooses, and of `BIN count -j1 --turn T FILE` for each
of the six turns (the hidden option that counts by bands on turn T, skipping the other turns'
dives), in alternating rounds; medians. The turn chosen is told by its search's nodes (each
turn searches its own first band; several where their nodes coincide, `?` where the count did
not go by bands). Prints, per file, the time chosen, the cheapest turn's, and their ratio; then
the sums.

    benches/turns.py --rounds 5 target/release/sudoku-enum kept/*.txt
"""
import argparse, json, resource, statistics, subprocess, sys

TURNS = 6


def run(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)} failed (exit {done.returncode}): "
                 f"{done.stderr.decode(errors='replace')[-300:]}")
    took = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, done.stdout.decode()


def nodes_of(out):
    """The search nodes of the one puzzle of a `--json` run."""
    lines = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    if len(lines) != 1:
        sys.exit(f"expected one puzzle per file, found {len(lines)}")
    return lines[0]["nodes"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("binary")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    base = [a.binary, "count", "-j1", "--json", "-q"]
    print(f"{'file':24} {'chosen':>11} {'ms':>8} {'cheapest':>8} {'ms':>8} {'ratio':>6}")
    total_chosen = total_best = 0.0
    for f in a.files:
        chosen, turns = [], [[] for _ in range(TURNS)]
        nodes = [None] * TURNS
        picked = None
        for r in range(a.rounds):
            # Alternate which goes first, round by round.
            order = [None] + list(range(TURNS))
            if r % 2:
                order.reverse()
            for t in order:
                extra = [] if t is None else ["--turn", str(t)]
                took, out = run(base + extra + [f])
                if t is None:
                    chosen.append(took)
                    picked = nodes_of(out)
                else:
                    turns[t].append(took)
                    nodes[t] = nodes_of(out)
        ms = [1000 * statistics.median(x) for x in turns]
        mc = 1000 * statistics.median(chosen)
        which = [t for t in range(TURNS) if nodes[t] == picked]
        best = min(range(TURNS), key=lambda t: ms[t])
        total_chosen += mc
        total_best += ms[best]
        label = "/".join(map(str, which)) or "?"
        print(f"{f.split('/')[-1][:24]:24} {label:>11} {mc:8.1f} {best:>8} {ms[best]:8.1f} "
              f"{mc / ms[best]:6.2f}")
    print(f"in all: chosen {total_chosen:.1f} ms, cheapest turns {total_best:.1f} ms, "
          f"ratio {total_chosen / total_best:.3f}")


if __name__ == "__main__":
    main()

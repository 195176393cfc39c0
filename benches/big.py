#!/usr/bin/env python3
"""Uniqueness checks on big boards, puzzle by puzzle: ours against CaDiCaL on the textbook CNF
(../shared/peers/sat_unique.py, `apt-get install cadical`) and the plain DLX of the peer harness
(`peer xdlx count 2`). One thread each, medians of alternating rounds, ratios peer / ours
(> 1: we are faster).

    benches/big.py [--rounds 3] [--peers ../shared/peers] [--no-xdlx] SET...

SET is FILE:RxC, e.g. puzzles/big/16x16_minimal.txt:4x4 (one puzzle per line, '#' comments).

Each puzzle runs in a process of its own, then (against xdlx) each set in one process.
Ours is timed as a whole process (`sudoku-enum check -q -j1`, parsing and start-up included);
CaDiCaL as the seconds of its own processes that sat_unique.py reports (the CNF is written
before its clock starts); xdlx as a whole process.
"""
import argparse, os, shlex, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
OURS = os.path.join(HERE, "..", "target", "release", "sudoku-enum")


def wall(cmd):
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"failed ({done.returncode}): {shlex.join(cmd)}\n{done.stderr[-400:]}")
    return took, done.stdout


def value(ch):
    if ch in "._0":
        return 0
    if ch.isdigit():
        return int(ch)
    if ch.isupper():
        return ord(ch) - ord("A") + 10
    return ord(ch) - ord("a") + 36  # ours: 'a' = 36, ...


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--peers", default=os.path.join(HERE, "..", "..", "shared", "peers"))
    ap.add_argument("--peer-bin", default="/tmp/peers-target/release/peer")
    ap.add_argument("--no-xdlx", action="store_true", help="leave out the (slow) DLX")
    ap.add_argument("sets", nargs="+", metavar="FILE:RxC")
    a = ap.parse_args()
    sat = os.path.join(a.peers, "sat_unique.py")
    tmp = tempfile.mkdtemp()
    worst_sat = worst_dlx = None
    for spec in a.sets:
        path, box = spec.rsplit(":", 1)
        r, c = map(int, box.split("x"))
        n = r * c
        lines = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
        print(f"== {path} ({len(lines)} puzzles, {n}x{n})")
        print(f"{'#':>3} {'ours s':>9} {'cadical s':>10} {'xdlx s':>9} {'cadical/ours':>13} {'xdlx/ours':>10}")
        totals = [0.0, 0.0, 0.0]
        for i, line in enumerate(lines, 1):
            values = [value(ch) for ch in line]
            ours_file = os.path.join(tmp, "ours.txt")
            with open(ours_file, "w") as f:
                f.write(line + "\n")
            # The peers read '[' as 36 (sat_unique.py) or whitespace-separated numbers (xdlx).
            sat_file = os.path.join(tmp, "sat.txt")
            with open(sat_file, "w") as f:
                f.write("".join(ch if v < 36 else chr(ord("A") + v - 10) for ch, v in zip(line, values)) + "\n")
            dlx_file = os.path.join(tmp, "dlx.txt")
            with open(dlx_file, "w") as f:
                f.write(" ".join(map(str, values)) + "\n")
            ours, cad, dlx = [], [], []
            for _ in range(a.rounds):
                t, out = wall([OURS, "check", "-q", "-j1", "--box", box, ours_file])
                if "unique" not in out:
                    sys.exit(f"{path}:{i}: not unique: {out}")
                ours.append(t)
                _, out = wall([sys.executable, sat, str(r), str(c), sat_file])
                first = out.split("\n")[0].split()
                if first[0] != "1":
                    sys.exit(f"{path}:{i}: CaDiCaL found {first[0]} solutions")
                cad.append(float(first[1]))
                if not a.no_xdlx:
                    t, _ = wall([a.peer_bin, "xdlx", "count", "2", "--box", box, dlx_file])
                    dlx.append(t)
            mo, mc = statistics.median(ours), statistics.median(cad)
            md = statistics.median(dlx) if dlx else float("nan")
            totals[0] += mo
            totals[1] += mc
            totals[2] += md
            worst_sat = mc / mo if worst_sat is None else min(worst_sat, mc / mo)
            if dlx:
                worst_dlx = md / mo if worst_dlx is None else min(worst_dlx, md / mo)
            print(f"{i:3} {mo:9.4f} {mc:10.4f} {md:9.3f} {mc / mo:13.1f} {md / mo:10.1f}")
        o, s_, d = totals
        print(f"sum {o:9.4f} {s_:10.4f} {d:9.3f} {s_ / o:13.1f} {d / o:10.1f}")
        if not a.no_xdlx:
            # The whole set in one process each (start-up paid once): ours against xdlx.
            whole_ours = os.path.join(tmp, "set_ours.txt")
            whole_dlx = os.path.join(tmp, "set_dlx.txt")
            with open(whole_ours, "w") as f, open(whole_dlx, "w") as g:
                for line in lines:
                    f.write(line + "\n")
                    g.write(" ".join(str(value(ch)) for ch in line) + "\n")
            ours, dlx = [], []
            for _ in range(a.rounds):
                ours.append(wall([OURS, "check", "-q", "-j1", "--box", box, whole_ours])[0])
                dlx.append(wall([a.peer_bin, "xdlx", "count", "2", "--box", box, whole_dlx])[0])
            mo, md = statistics.median(ours), statistics.median(dlx)
            print(f"one process for the set: ours {mo:.4f} s, xdlx {md:.3f} s, xdlx/ours {md / mo:.1f}")
    print(f"worst puzzle: cadical/ours {worst_sat:.1f}" + (f", xdlx/ours {worst_dlx:.1f}" if worst_dlx else ""))


if __name__ == "__main__":
    main()

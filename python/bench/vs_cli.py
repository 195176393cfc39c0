"""Python's `check` against the command line's, one thread each, side by side.

    python python/bench/vs_cli.py [FILE] [--runs N] [--cli PATH]

Alternates N times (default 5): the CLI over FILE (`sudoku-enum check --threads 1 -q FILE`,
whole process, output to /dev/null), `sudoku_enum.check(lines, threads=1)` on the puzzles
already read into a list of strings, and `sudoku_enum.check_array(arr, threads=1)` on them as an
(n, 81) uint8 array. Prints the medians of wall time and of CPU time (user + system: the CLI's
from its rusage, the calls' from the process's, which runs nothing else meanwhile; on a shared
machine CPU time is the steadier of the two) and their ratios to the CLI's (< 1: Python is
faster). FILE defaults to ../shared/data/puzzles2_17_clue, the CLI to target/release/sudoku-enum
(build it first: cargo build --release).
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

import sudoku_enum as se

ap = argparse.ArgumentParser()
ap.add_argument("file", nargs="?", default="../shared/data/puzzles2_17_clue")
ap.add_argument("--runs", type=int, default=5)
ap.add_argument("--cli", default="target/release/sudoku-enum")
args = ap.parse_args()
if not os.path.exists(args.file):
    sys.exit(
        f"{args.file}: not found (the default is in ../shared, beside a clone of the project); "
        "give a file of puzzles, e.g. puzzles/samples/17clue_200.txt"
    )

with open(args.file) as f:
    lines = [line for line in f if line.strip() and not line.lstrip().startswith("#")]
arr = se.to_array(lines)
expected = se.check(lines, threads=1)


def cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def cli() -> tuple:
    start, used = time.perf_counter(), cpu(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [args.cli, "check", "--threads", "1", "-q", args.file],
        stdout=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - start, cpu(resource.RUSAGE_CHILDREN) - used


def strings() -> tuple:
    start, used = time.perf_counter(), cpu(resource.RUSAGE_SELF)
    got = se.check(lines, threads=1)
    took = time.perf_counter() - start, cpu(resource.RUSAGE_SELF) - used
    assert got == expected
    return took


def array() -> tuple:
    start, used = time.perf_counter(), cpu(resource.RUSAGE_SELF)
    codes = se.check_array(arr, threads=1)
    took = time.perf_counter() - start, cpu(resource.RUSAGE_SELF) - used
    assert len(codes) == len(lines)
    return took


times: dict = {"cli": [], "check(list of str)": [], "check_array(uint8 array)": []}
for _ in range(args.runs):
    times["cli"].append(cli())
    times["check(list of str)"].append(strings())
    times["check_array(uint8 array)"].append(array())

wall = statistics.median(t[0] for t in times["cli"])
used = statistics.median(t[1] for t in times["cli"])
print(f"{len(lines)} puzzles from {args.file}, one thread, medians of {args.runs}:")
for name, ts in times.items():
    w = statistics.median(t[0] for t in ts)
    c = statistics.median(t[1] for t in ts)
    runs = " ".join(f"{t[0]:.3f}" for t in ts)
    print(
        f"  {name:26} wall {w:.3f} s ({w / wall:.2f}x the CLI), "
        f"CPU {c:.3f} s ({c / used:.2f}x)   wall runs: {runs}"
    )

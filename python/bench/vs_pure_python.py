"""sudoku_enum against pure-Python packages from PyPI, on the same puzzles, one thread.

    pip install dlxsudoku py-sudoku
    python python/bench/vs_pure_python.py [FILE] [--sample N] [--runs R] [--slow-sample M]

The job is the uniqueness check of each puzzle:
  * sudoku_enum.check(puzzles, threads=1);
  * dlxsudoku 0.10 (Dancing Links after singles): Sudoku(p).solve() raises
    SudokuHasMultipleSolutionsError / SudokuHasNoSolutionError, else the puzzle is unique;
  * py-sudoku 2.0 (backtracking): Sudoku(3, 3, board).solve(), then has_multiple_solutions()
    (its own check: two solves, in increasing and decreasing digit order).
The first N (default 1000) puzzles of FILE (default ../shared/data/puzzles2_17_clue), M
(default 50) for py-sudoku, which takes up to seconds a puzzle; alternating runs, medians of R.
"""

import argparse
import os
import statistics
import sys
import time

import sudoku_enum as se

ap = argparse.ArgumentParser()
ap.add_argument("file", nargs="?", default="../shared/data/puzzles2_17_clue")
ap.add_argument("--sample", type=int, default=1000)
ap.add_argument("--slow-sample", type=int, default=50)
ap.add_argument("--runs", type=int, default=3)
args = ap.parse_args()
if not os.path.exists(args.file):
    sys.exit(
        f"{args.file}: not found (the default is in ../shared, beside a clone of the project); "
        "give a file of puzzles, e.g. puzzles/samples/17clue_200.txt"
    )

with open(args.file) as f:
    puzzles = [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]
sample = puzzles[: args.sample]
slow_sample = puzzles[: args.slow_sample]


def ours(ps):
    return se.check(ps, threads=1)


def dlxsudoku(ps):
    from dlxsudoku import Sudoku
    from dlxsudoku.exceptions import SudokuHasMultipleSolutionsError, SudokuHasNoSolutionError

    out = []
    for p in ps:
        try:
            Sudoku(p.replace(".", "0")).solve()
            out.append("unique")
        except SudokuHasMultipleSolutionsError:
            out.append("multiple")
        except SudokuHasNoSolutionError:
            out.append("unsolvable")
    return out


def py_sudoku(ps):
    from sudoku import Sudoku

    out = []
    for p in ps:
        board = [[0 if c == "." else int(c) for c in p[r * 9 : r * 9 + 9]] for r in range(9)]
        s = Sudoku(3, 3, board=board)
        solved = s.solve().board[0][0] is not None
        out.append("multiple" if s.has_multiple_solutions() else "unique" if solved else "unsolvable")
    return out


def timed(f, ps):
    start = time.perf_counter()
    verdicts = f(ps)
    took = time.perf_counter() - start
    assert verdicts == se.check(ps), f.__name__
    return took


for peer, ps in [(dlxsudoku, sample), (py_sudoku, slow_sample)]:
    mine, theirs = [], []
    for _ in range(args.runs):
        mine.append(timed(ours, ps))
        theirs.append(timed(peer, ps))
    m, t = statistics.median(mine), statistics.median(theirs)
    print(
        f"{len(ps)} puzzles: sudoku_enum {m * 1e3:.2f} ms, {peer.__name__} {t:.2f} s: "
        f"{t / m:,.0f}x faster (runs: ours {' '.join(f'{x*1e3:.2f}' for x in mine)} ms, "
        f"theirs {' '.join(f'{x:.2f}' for x in theirs)} s)"
    )

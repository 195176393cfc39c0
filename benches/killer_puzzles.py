#!/usr/bin/env python3
"""Make 9x9 killer puzzles without givens from solution grids (one 81-digit grid per line on
stdin): the digits relabelled at random, the grid tiled by cages grown from random cells through
orthogonal neighbours of different digits (each cage's size drawn from SIZES, smaller where it
cannot grow; a cell left alone gets no cage), each cage's sum from the grid. Prints one puzzle
per line in the Interactive Sudoku Solver's form (`.Cage~SUM~R1C1~R1C2...`), which
`sudoku-enum` reads; the caller keeps those whose count or check time falls in the range it
wants (cages of 4 to 8 cells give counts of 10 to 10^6 solutions, many taking 0.1 to 3 s).

    killer_puzzles.py SEED COUNT [SIZES] < grids.txt     SIZES: e.g. 4,5,6,7,8 (the default)

For example, held-out puzzles for the variant search:

    sudoku-enum solve -q puzzles/seed001.txt | killer_puzzles.py 63 40 > killers.txt
    sudoku-enum count -j1 --json --timeout 4 killers.txt
"""
import random
import sys


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    sizes = [int(s) for s in (sys.argv[3] if len(sys.argv) > 3 else "4,5,6,7,8").split(",")]
    grids = [g for g in (l.strip() for l in sys.stdin) if len(g) == 81 and set(g) <= set("123456789")]
    if not grids:
        sys.exit("killer_puzzles.py: no 81-digit grid on standard input")
    rng = random.Random(seed)
    for k in range(count):
        labels = list(range(1, 10))
        rng.shuffle(labels)
        grid = [labels[int(ch) - 1] for ch in grids[k % len(grids)]]
        owner = [-1] * 81
        cages = []
        starts = list(range(81))
        rng.shuffle(starts)
        for start in starts:
            if owner[start] != -1:
                continue
            size = rng.choice(sizes)
            cage, digits = [start], {grid[start]}
            owner[start] = len(cages)
            while len(cage) < size:
                around = []
                for cell in cage:
                    r, c = divmod(cell, 9)
                    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        rr, cc = r + dr, c + dc
                        if 0 <= rr < 9 and 0 <= cc < 9:
                            n = rr * 9 + cc
                            if owner[n] == -1 and grid[n] not in digits:
                                around.append(n)
                if not around:
                    break
                n = rng.choice(around)
                owner[n] = len(cages)
                cage.append(n)
                digits.add(grid[n])
            cages.append(cage)
        print("".join(
            ".Cage~%d~" % sum(grid[c] for c in cage)
            + "~".join("R%dC%d" % (c // 9 + 1, c % 9 + 1) for c in sorted(cage))
            for cage in cages
            if len(cage) > 1
        ))


if __name__ == "__main__":
    main()

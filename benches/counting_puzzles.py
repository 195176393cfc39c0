#!/usr/bin/env python3
"""Make 9x9 counting benchmark puzzles from solution grids (one 81-digit grid per line on stdin):
a filled band (random which) plus a few scattered givens in the other two bands (scattered), a
filled band plus givens down one column of the other bands (column), or 18-24 cells of the grid
kept at random, givens in every band (sparse: one of the recipes of the ground-truth file
multi_truth_dev.txt). Prints PUZZLE lines; the caller keeps those whose count falls in the
range it wants.

    counting_puzzles.py KIND SEED COUNT < grids.txt     KIND: scattered | column | sparse
"""
import random, sys

def main():
    kind, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    grids = [l.strip() for l in sys.stdin if len(l.strip()) == 81 and l.strip().isdigit()]
    rng = random.Random(seed)
    for _ in range(count):
        g = rng.choice(grids)
        if kind == "sparse":
            keep = set(rng.sample(range(81), rng.randint(18, 24)))
            print("".join(g[c] if c in keep else "." for c in range(81)))
            continue
        band = rng.randrange(3)
        keep = set(range(27 * band, 27 * band + 27))
        others = [c for c in range(81) if c not in keep]
        if kind == "scattered":
            keep |= set(rng.sample(others, rng.randint(3, 7)))
        else:
            col = rng.randrange(9)
            down = [c for c in others if c % 9 == col]
            keep |= set(rng.sample(down, rng.randint(2, 5)))
        print("".join(g[c] if c in keep else "." for c in range(81)))

if __name__ == "__main__":
    main()

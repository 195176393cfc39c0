#!/usr/bin/env python3
"""The eight orientations of variant puzzles, to judge a search heuristic on a class of puzzles
rather than on one file.

A search that branches on the best-scored cell breaks its ties by the cells' order, so a
puzzle turned a quarter or mirrored can take several times the guesses it took before: the 13
"MATHEMAGIC_KILLERS" of ISS's collection took sudoku-enum 0.71 to 2.02 million guesses in all
depending on the orientation (ISS: 2.3 to 4.0 million). A change that wins on the puzzles as
they are printed may only have moved that luck; the total over the eight orientations shows
whether the class gains.

    benches/orientations.py make IN.tsv OUT.tsv [--iss ISS_DIR]
        IN: `name<TAB>ISS constraint string` lines (the inputs file `benches/iss_compare.mjs`
        writes, `--inputs`; with `--iss`, any ISS text form, killer layouts included, made
        constraint strings by ISS's parser first); OUT: `name<TAB>k<TAB>input` for k = 0..7
        (0: as given; 1-3 turned a quarter each; 4-7 those mirrored). Puzzles with a
        constraint that cannot be turned here (pill arrows, sandwich sums, jigsaw regions,
        boards other than 9x9) are left out, and named on stderr.

    benches/orientations.py run BIN OUT.tsv [--env NAME=VALUE ...] [--timeout S]
        `BIN check -j1 --json`, one whole process per orientation (timed as the ISS bench
        times ours); prints per puzzle the guesses of each orientation, their total and the
        processes' milliseconds in all, then the totals of the whole set. `--env` sets an
        environment variable for the runs (an experiment build's switch).

    benches/orientations.py iss ISS_DIR OUT.tsv
        The same puzzles solved by the Interactive Sudoku Solver (`node`, its solver as a
        library, a uniqueness check in its warm process, as `benches/iss_compare.mjs` times
        it), reported as `run` reports ours.

    benches/orientations.py compare OURS.txt ISS.txt [PREFIX]
        The totals of two reports side by side (and the puzzles whose names start with
        PREFIX apart from the others), with ISS's time over ours; names any puzzle whose
        verdicts differ.
"""

import json
import os
import re
import subprocess
import sys
import time

N = 9


def turn(k, r, c):
    """Cell (r, c), 1-based, under orientation k: k % 4 quarter turns, then a mirror for k >= 4."""
    for _ in range(k % 4):
        r, c = c, N + 1 - r
    if k >= 4:
        c = N + 1 - c
    return r, c


def little_killers():
    """ISS's little killer diagonals: first cell -> cells (js/sudoku_constraint.js, cellMap)."""
    out, seen = {}, set()

    def add(r, c, dr, dc):
        cells = []
        while 0 <= r < N and 0 <= c < N:
            cells.append((r + 1, c + 1))
            r, c = r + dr, c + dc
        key = tuple(sorted(cells))
        if len(cells) > 1 and key not in seen:
            seen.add(key)
            out[cells[0]] = cells

    for r in range(N - 1):
        add(r, 0, 1, 1)
    for r in range(1, N - 1):
        add(r, N - 1, -1, -1)
    for c in range(1, N):
        add(0, c, 1, -1)
    for c in range(1, N - 1):
        add(N - 1, c, -1, 1)
    return out


LK = little_killers()
LK_FIRST = {tuple(sorted(cells)): first for first, cells in LK.items()}
CELL = re.compile(r"R(\d+)C(\d+)", re.IGNORECASE)


def turn_part(k, part):
    """One constraint (without its leading dot) under orientation k; None if it cannot be."""
    name = part.split("~", 1)[0]
    # A pill's digits are read in the order of its cells on the board (left to right, top to
    # bottom), which a turn can reverse: another puzzle. Sandwich clues name rows and columns.
    if name in ("PillArrow", "Sandwich", "Jigsaw", "Shape", "NoBoxes", "RegionSize"):
        return None
    if name == "Diagonal":
        # Diagonal~1: bottom-left to top-right (r + c = N + 1); ~-1: top-left to bottom-right.
        sign = part.split("~")[1]
        r, c = (1, N) if sign == "1" else (1, 1)
        r, c = turn(k, r, c)
        return "Diagonal~" + ("1" if r + c == N + 1 else "-1")
    if name == "LittleKiller":
        _, total, first = part.split("~")
        r, c = map(int, CELL.fullmatch(first).groups())
        cells = LK.get((r, c))
        if cells is None:
            return None
        moved = tuple(sorted(turn(k, *x) for x in cells))
        fr, fc = LK_FIRST[moved]
        return f"LittleKiller~{total}~R{fr}C{fc}"
    if name == "Quad":
        # Quad~RrCc~digits: the top-left cell of a 2x2 block; its turned block's top-left.
        fields = part.split("~")
        r, c = map(int, CELL.fullmatch(fields[1]).groups())
        block = [turn(k, r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)]
        tr, tc = min(block)
        return "~".join(["Quad", f"R{tr}C{tc}"] + fields[2:])
    # Every other constraint names cells (in an order that means something: arrows,
    # thermometers, whispers), or none (anti-king, windoku, ...: unchanged by any turn).
    return CELL.sub(lambda m: "R%dC%d" % turn(k, int(m.group(1)), int(m.group(2))), part)


PARSE_SCRIPT = """
const [issDir, src] = process.argv.slice(1);
await import(issDir + '/tools/lib/puzzle_runner.js');
const { SudokuParser } = await import(issDir + '/js/sudoku_parser.js' + self.VERSION_PARAM);
const { readFileSync } = await import('node:fs');
for (const line of readFileSync(src, 'utf8').split('\\n')) {
  const tab = line.indexOf('\\t');
  if (tab < 0) continue;
  const text = SudokuParser.parseText(line.slice(tab + 1)).toString();
  console.log(line.slice(0, tab) + '\\t' + text);
}
"""


def node_lines(script, iss_dir, src):
    """The output lines of `script` (an ES module) run by node with ISS's directory and `src`."""
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", script, os.path.abspath(iss_dir),
         os.path.abspath(src)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"node: {proc.stderr.strip()}")
    return proc.stdout.splitlines()


def make(src, dst, iss_dir=None):
    if iss_dir is None:
        lines = open(src).read().splitlines()
    else:
        # Other ISS text forms (killer layouts, ...) as constraint strings, by ISS's parser.
        lines = node_lines(PARSE_SCRIPT, iss_dir, src)
    kept = 0
    with open(dst, "w") as out:
        for line in lines:
            if "\t" not in line:
                continue
            name, text = line.split("\t", 1)
            if not text.startswith("."):
                print(f"left out (not a constraint string; see --iss): {name}", file=sys.stderr)
                continue
            parts = [p for p in text.split(".") if p]
            rows = []
            for k in range(8):
                turned = [turn_part(k, p) for p in parts]
                if any(p is None for p in turned):
                    break
                rows.append(f"{name}\t{k}\t." + ".".join(turned))
            if len(rows) != 8:
                print(f"left out (a constraint not turned here): {name}", file=sys.stderr)
                continue
            out.write("\n".join(rows) + "\n")
            kept += 1
    print(f"{kept} puzzles, {8 * kept} orientations written to {dst}", file=sys.stderr)


def run(binary, src, env_pairs, timeout):
    env = dict(os.environ)
    for pair in env_pairs:
        key, value = pair.split("=", 1)
        env[key] = value
    rows = [line.rstrip("\n").split("\t", 2) for line in open(src) if line.count("\t") >= 2]
    per = {}
    for name, k, text in rows:
        # One whole process per puzzle, as `benches/iss_compare.mjs` times ours.
        start = time.perf_counter()
        proc = subprocess.run(
            [binary, "check", "-j1", "--json", "-q", "--timeout", str(timeout)],
            input=text + "\n", capture_output=True, text=True, env=env, check=False)
        wall = (time.perf_counter() - start) * 1000
        if proc.returncode == 2 or not proc.stdout.strip():
            sys.exit(f"{binary}: {name} (orientation {k}): {proc.stderr.strip()}")
        r = json.loads(proc.stdout.splitlines()[0])
        per.setdefault(name, []).append((int(k), r.get("guesses") or 0, wall, r.get("verdict")))
    report(per, "ms (whole processes)")


ISS_SCRIPT = """
const [issDir, src] = process.argv.slice(1);
const { buildSolver } = await import(issDir + '/tools/lib/puzzle_runner.js');
const { readFileSync } = await import('node:fs');
for (const line of readFileSync(src, 'utf8').split('\\n')) {
  const [name, k, input] = line.split('\\t');
  if (!input) continue;
  const { internal } = buildSolver(input);
  let found = 0;
  const t0 = performance.now();
  internal.run({ maxSolutions: 2 }, () => found++);
  const ms = performance.now() - t0;
  const verdict = found === 0 ? 'unsolvable' : found === 1 ? 'unique' : 'multiple';
  console.log([name, k, internal.counters.guesses, ms.toFixed(3), verdict].join('\\t'));
}
"""


def iss(iss_dir, src):
    per = {}
    for line in node_lines(ISS_SCRIPT, iss_dir, src):
        name, k, guesses, ms, verdict = line.split("\t")
        per.setdefault(name, []).append((int(k), int(guesses), float(ms), verdict))
    report(per, "ms (ISS's solves)")


def report(per, unit):
    total_g, total_ms = 0, 0.0
    print(f"puzzle\tguesses k0..k7\tguesses\t{unit}\tverdicts")
    for name, runs in per.items():
        g = sum(x[1] for x in runs)
        ms = sum(x[2] for x in runs)
        verdicts = sorted({x[3] for x in runs})
        total_g += g
        total_ms += ms
        print(f"{name}\t{' '.join(str(x[1]) for x in sorted(runs))}\t{g}\t{ms:.0f}\t{','.join(verdicts)}")
    print(f"TOTAL\t\t{total_g}\t{total_ms:.0f}")


def compare(ours, theirs, prefix):
    """Totals of two reports (ours, then ISS's), the puzzles named `prefix...` apart."""
    def read(path):
        out = {}
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) == 5 and f[0] not in ("puzzle", "TOTAL"):
                out[f[0]] = (int(f[2]), float(f[3]), f[4])
        return out
    a, b = read(ours), read(theirs)
    differ = [n for n in a if n in b and a[n][2] != b[n][2]]
    if differ:
        print(f"verdicts differ: {'; '.join(differ)}")
    groups = {"all": [n for n in a if n in b]}
    if prefix:
        groups[prefix + "*"] = [n for n in groups["all"] if n.startswith(prefix)]
        groups["the others"] = [n for n in groups["all"] if not n.startswith(prefix)]
    for label, names in groups.items():
        ga, ma = sum(a[n][0] for n in names), sum(a[n][1] for n in names)
        gb, mb = sum(b[n][0] for n in names), sum(b[n][1] for n in names)
        print(f"{label}: {len(names)} puzzles x 8; guesses ours {ga:,}, ISS {gb:,}; "
              f"ms ours {ma:,.0f}, ISS {mb:,.0f}: ISS / ours {mb / ma:.2f}")


def main(argv):
    if len(argv) == 3 and argv[0] == "make":
        make(argv[1], argv[2])
    elif len(argv) == 5 and argv[0] == "make" and argv[3] == "--iss":
        make(argv[1], argv[2], argv[4])
    elif len(argv) == 3 and argv[0] == "iss":
        iss(argv[1], argv[2])
    elif len(argv) in (3, 4) and argv[0] == "compare":
        compare(argv[1], argv[2], argv[3] if len(argv) == 4 else None)
    elif len(argv) >= 3 and argv[0] == "run":
        env_pairs, timeout, rest = [], 20, argv[3:]
        while rest:
            if rest[0] == "--env" and len(rest) > 1:
                env_pairs.append(rest[1])
                rest = rest[2:]
            elif rest[0] == "--timeout" and len(rest) > 1:
                timeout = int(rest[1])
                rest = rest[2:]
            else:
                sys.exit(f"unknown argument {rest[0]}")
        run(argv[1], argv[2], env_pairs, timeout)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])

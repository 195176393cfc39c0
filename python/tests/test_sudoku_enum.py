"""Tests of the Python package: run with `pytest python/tests` after `pip install ./python[test]`."""

import csv
import doctest
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import sudoku_enum as se

# The first puzzle of magictour's top1465 (unique) and its solution.
TOP1 = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
TOP1_SOLUTION = "468931527751624839392578461134756298289413675675289314846192753513867942927345186"
UNSOLVABLE = "..............1..2.38....5.......6.......73.18.5..........8......245.....6....1.."
CLASH = "11" + "." * 79

# Exact counts from ../shared/data/multi_truth_dev.txt (tdoku, cross-checked), copied here so
# that a clone without ../shared runs them.
MULTI_TRUTH = [
    ("..............1..2.38....5.......6.......73.18.5..........8......245.....6....1..", 0),
    ("9.25.....1543..2988..29...6......5...1...9...7..685..927893.61534......2..58.2...", 2),
    ("1....98....538...73......59..786...........2.24.7.15.678........5.9...744.3....68", 10),
    (".51...43...87.....2...1.....3.58...148..2....1.....57......178..17.9........7..54", 56),
    ("1.5.8.......4.6......7.......6..29..392...8.1.1.......62...749.........57..9....3", 322),
    ("..............1..2..4....5.......3....5.6.7..8....2.......3.4..1.......72...58...", 3184),
    ("................12..3..5........34...1.6.....72...........8.......2...7...5...3.4", 28777),
    ("..2..4.......9...2.136..5.8....7..........17....1.....7.4.8.6..3....9............", 376584),
    ("152.6....8.3..97...7........16......5...3.......6.....2...7..9.3........6.51.....", 1128350),
]


def is_solution(puzzle: str, solution: str, box=None) -> bool:
    """An independent check: a full grid, every house a permutation, the givens kept."""
    cells = len(solution)
    n = int(round(cells**0.5))
    r, c = box or {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}[n]
    digits = "123456789ABCDEFG"[:n]
    if len(puzzle) != cells or any(p not in ".0" and p != s for p, s in zip(puzzle, solution)):
        return False
    grid = [solution[i * n : (i + 1) * n] for i in range(n)]
    houses = grid + ["".join(row[j] for row in grid) for j in range(n)]
    for br in range(0, n, r):
        for bc in range(0, n, c):
            houses.append("".join(grid[br + i][bc + j] for i in range(r) for j in range(c)))
    return all(sorted(h) == sorted(digits) for h in houses)


# ---------------------------------------------------------------------------------------------
# Counts


def test_known_counts():
    assert se.count("." * 16) == 288
    assert se.count("." * 36, box=(2, 3)) == 28_200_960
    assert se.count("." * 36, box=(2, 3), threads=1) == 28_200_960


@pytest.mark.parametrize("puzzle,expected", MULTI_TRUTH)
def test_multi_truth_counts(puzzle, expected):
    assert se.count(puzzle, threads=1) == expected


def test_count_threads_agree():
    puzzle, expected = MULTI_TRUTH[-1]
    assert se.count(puzzle, threads=2) == expected
    assert se.count(puzzle, threads=3) == expected
    # 0, as the CLI's `-j 0`: every core.
    assert se.count(puzzle, threads=0) == expected


def test_count_limit_is_exact():
    assert se.count("." * 81, limit=1000) == 1000
    assert se.count("." * 16, limit=100) == 100
    assert se.count("." * 16, limit=10_000) == 288
    assert se.count("." * 16, limit=0) == 0
    assert se.count(TOP1, limit=2) == 1


def test_count_is_a_python_int_beyond_64_bits():
    # A 4x4 count is small, but the type must be int (u128 on the Rust side).
    assert type(se.count("." * 16)) is int


def test_clashing_givens_have_no_solutions():
    assert se.count(CLASH) == 0
    assert se.solve(CLASH) is None
    assert list(se.solutions(CLASH)) == []


# ---------------------------------------------------------------------------------------------
# Verdicts and solving


def test_verdicts():
    assert se.check([TOP1, "." * 81, UNSOLVABLE, CLASH]) == [
        "unique",
        "multiple",
        "unsolvable",
        "invalid",
    ]
    assert se.check([]) == []


def test_check_accepts_any_iterable_and_layouts():
    grid = "\n".join(TOP1[i : i + 9] for i in range(0, 81, 9))  # rows of characters
    lines = [TOP1 + "\n", TOP1.replace(".", "0") + "\r\n"]
    assert se.check(iter(lines + [grid])) == ["unique"] * 3
    assert se.check((TOP1, CLASH)) == ["unique", "invalid"]


def test_check_threads_agree_with_one_thread():
    batch = [p for p, _ in MULTI_TRUTH] * 50 + [TOP1, CLASH] * 100
    one = se.check(batch, threads=1)
    assert se.check(batch, threads=2) == one
    assert se.check(batch, threads=4) == one
    assert se.check(batch, threads=0) == one
    assert one[:9] == ["unsolvable"] + ["multiple"] * 8


def test_solve():
    assert se.solve(TOP1) == TOP1_SOLUTION
    assert se.solve(UNSOLVABLE) is None
    sol = se.solve("." * 36, box=(2, 3))
    assert sol is not None and is_solution("." * 36, sol, box=(2, 3))
    sol = se.solve("." * 36, box=(3, 2))
    assert sol is not None and is_solution("." * 36, sol, box=(3, 2))


def test_variants_and_values_from_zero():
    # An ISS constraint string on 6x6 with values 0 to 5: solutions are written in those values.
    zero = (".Shape~6x6~0-5.Cage~3~R1C1~R1C2.Cage~4~R6C1~R6C2.V~R4C5~R4C6"
            ".~R1C5_3~R2C2_0~R2C4_2~R3C4_1~R4C3_2~R5C1_5~R5C3_1~R5C5_4")
    assert se.check([zero]) == ["unique"]
    assert se.solve(zero) == "215034304251450123132405521340043512"
    assert list(se.solutions(zero)) == ["215034304251450123132405521340043512"]


def test_other_shapes_need_box_or_are_inferred():
    assert se.count("." * 64, limit=5) == 5  # 8x8: 2x4 boxes inferred
    assert se.check(["." * 36], box=(3, 2)) == ["multiple"]
    sol = se.solve("." * 256)
    assert sol is not None and is_solution("." * 256, sol)


# ---------------------------------------------------------------------------------------------
# Errors


def test_bad_character_names_line_and_column():
    with pytest.raises(se.ParseError, match=r"line 1, column 3: unexpected character 'x'") as e:
        se.count("12x4" + "." * 12)
    assert isinstance(e.value, ValueError)
    assert (e.value.line, e.value.column, e.value.index) == (1, 3, None)


def test_bad_puzzle_in_a_batch_names_its_index():
    with pytest.raises(se.ParseError, match=r"puzzles\[2\]: line 2, column 3") as e:
        se.check([TOP1, TOP1, "1234\n12x4\n....\n...."])
    assert (e.value.index, e.value.line, e.value.column) == (2, 2, 3)


def test_wrong_sizes_and_shapes():
    with pytest.raises(se.ParseError, match="80 cells is not a board size"):
        se.check([TOP1[:-1]])
    with pytest.raises(se.ParseError, match="expected 36"):
        se.count("." * 81, box=(2, 3))
    with pytest.raises(se.ParseError, match="no puzzle found"):
        se.check([TOP1, ""])
    with pytest.raises(se.ParseError, match="line 1, column 1: digit '5' is out of range"):
        se.solve("5" + "." * 15)
    with pytest.raises(ValueError, match="box"):
        se.count("." * 16, box=(0, 4))


def test_messages_name_no_option_python_lacks():
    with pytest.raises(se.ParseError) as e:
        se.count("{}")
    assert "--column" not in str(e.value) and "its own string" in str(e.value)
    with pytest.raises(se.ParseError, match="was skipped as a title"):
        se.count("hello world")


def test_wrong_types():
    with pytest.raises(TypeError, match="single string"):
        se.check(TOP1)
    with pytest.raises(TypeError, match=r"puzzles\[1\] is int"):
        se.check([TOP1, 5])
    with pytest.raises(TypeError):
        se.count(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads must be at least 0"):
        se.check([TOP1], threads=-1)
    with pytest.raises(ValueError, match="limit"):
        se.count(TOP1, limit=-1)
    # Wrong types are named, not left to a comparison deep inside.
    with pytest.raises(TypeError, match="limit must be an int or None, got str"):
        se.count(TOP1, limit="5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="threads must be an int or None, got str"):
        se.check([TOP1], threads="2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="box must be two ints"):
        se.count("." * 16, box=("a", "b"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="box: rows and columns must be at least 1"):
        se.count("." * 16, box=(-1, 4))


# ---------------------------------------------------------------------------------------------
# NumPy


def test_numpy_round_trip():
    puzzles = [p for p, _ in MULTI_TRUTH] + [TOP1, CLASH]
    arr = se.to_array(puzzles)
    assert arr.dtype == np.uint8 and arr.shape == (len(puzzles), 81)
    assert arr[-1, 0] == 1 and arr[-1, 2] == 0
    assert se.to_strings(arr) == puzzles
    codes = se.check_array(arr)
    assert codes.dtype == np.uint8 and codes.shape == (len(puzzles),)
    assert [se.VERDICTS[c] for c in codes] == se.check(puzzles)
    assert list(codes[:3]) == [se.UNSOLVABLE, se.MULTIPLE, se.MULTIPLE]
    assert codes[-2] == se.UNIQUE and codes[-1] == se.INVALID


def test_solve_array():
    arr = se.to_array([TOP1, UNSOLVABLE, "." * 81, CLASH])
    sols = se.solve_array(arr, threads=2)
    assert sols.shape == arr.shape and sols.dtype == np.uint8
    assert se.to_strings(sols[:1]) == [TOP1_SOLUTION]
    assert not sols[1].any() and not sols[3].any()
    assert is_solution("." * 81, se.to_strings(sols[2:3])[0])


def test_check_array_with_solutions():
    arr = se.to_array([TOP1, UNSOLVABLE, "." * 81])
    codes, sols = se.check_array(arr, return_solutions=True, threads=1)
    assert list(codes) == [se.UNIQUE, se.UNSOLVABLE, se.MULTIPLE]
    assert se.to_strings(sols[:1]) == [TOP1_SOLUTION]
    assert not sols[1].any()
    assert is_solution("." * 81, se.to_strings(sols[2:3])[0])
    # A flag known only at run time: the type hints accept it (mypy checks this file).
    for flag in (False, True):
        got = se.check_array(arr, return_solutions=flag, threads=1)
        assert isinstance(got, tuple) == flag


def test_solutions_on_every_core():
    # threads=None, as for every other function: every core.
    assert len(list(se.solutions("1234" + "." * 12, threads=None))) == 12


def test_array_inputs():
    arr = se.to_array([TOP1] * 3)
    # Other integer types, non-contiguous views, plain lists.
    assert list(se.check_array(arr.astype(np.int64))) == [se.UNIQUE] * 3
    assert list(se.check_array(np.asfortranarray(arr))) == [se.UNIQUE] * 3
    assert list(se.check_array(arr[::2])) == [se.UNIQUE] * 2
    assert list(se.check_array(arr.tolist())) == [se.UNIQUE] * 3
    assert se.check_array(np.zeros((0, 81), np.uint8)).shape == (0,)
    six = np.zeros((2, 36), np.uint8)
    assert list(se.check_array(six, box=(3, 2))) == [se.MULTIPLE] * 2


def test_array_errors():
    arr = se.to_array([TOP1])
    with pytest.raises(ValueError, match="2-D"):
        se.check_array(arr[0])
    with pytest.raises(TypeError, match="integers"):
        se.check_array(arr.astype(np.float64))
    bad = arr.copy()
    bad[0, 5] = 10
    with pytest.raises(ValueError, match="row 0: value 10 at r1c6 is out of range"):
        se.check_array(bad)
    with pytest.raises(ValueError, match="0 .empty. to N"):
        se.check_array(arr.astype(np.int64) - 1)
    with pytest.raises(ValueError, match="80 cells"):
        se.solve_array(arr[:, :80])
    with pytest.raises(ValueError, match="box=3x3 boards have 81"):
        se.check_array(np.zeros((1, 36), np.uint8), box=(3, 3))
    with pytest.raises(ValueError, match="one array holds one shape"):
        se.to_array([TOP1, "." * 16])


def test_a_data_set_in_the_sudoku_extreme_layout(tmp_path):
    # CSV with source,question,answer,rating (sudoku-extreme): check every question is unique
    # and that its answer is the solution, through the array path.
    seventeen = "...8.1..........435............7.8........1...2..3....6......75..34........2..6.."
    path = tmp_path / "train.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["source", "question", "answer", "rating"])
        w.writerow(["top1465", TOP1, TOP1_SOLUTION, "12"])
        w.writerow(["17-clue", seventeen, se.solve(seventeen), "3"])
        w.writerow(["broken", UNSOLVABLE, "", "0"])
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    questions = [r["question"] for r in rows]
    codes = se.check_array(se.to_array(questions), threads=2)
    assert [se.VERDICTS[c] for c in codes] == ["unique", "unique", "unsolvable"]
    answers = se.to_strings(se.solve_array(se.to_array(questions)))
    assert answers[:2] == [r["answer"] for r in rows[:2]]
    assert answers[2] == "." * 81  # no solution: a row of zeros
    assert all(is_solution(q, a) for q, a in zip(questions[:2], answers))


# ---------------------------------------------------------------------------------------------
# Streaming


@pytest.mark.parametrize("limit", [1, 10, 287, 288, 1000])
def test_solutions_limit_gives_exactly_min_limit_total(limit):
    got = list(se.solutions("." * 16, limit=limit))
    assert len(got) == min(limit, 288)
    assert len(set(got)) == len(got)
    assert all(is_solution("." * 16, s) for s in got)


def test_solutions_all_and_in_parallel():
    puzzle, total = MULTI_TRUTH[6]  # 28,777 solutions
    serial = list(se.solutions(puzzle))
    assert len(serial) == total == len(set(serial))
    assert all(is_solution(puzzle, s) for s in serial[:200])
    parallel = list(se.solutions(puzzle, threads=3))
    assert sorted(parallel) == sorted(serial)
    assert len(list(se.solutions(puzzle, limit=5000, threads=2))) == 5000
    assert next(se.solutions(TOP1)) == TOP1_SOLUTION


def test_candidates_against_all_solutions():
    # Oracle: every solution of a puzzle with 28,777 of them, tallied per cell and digit.
    puzzle, total = MULTI_TRUTH[6]
    tally = [dict() for _ in range(81)]
    for s in se.solutions(puzzle):
        for cell, d in enumerate(s):
            tally[cell][int(d)] = tally[cell].get(int(d), 0) + 1
    for cap in (1, 8, 10**6):
        got = se.candidates(puzzle, cap=cap, threads=2)
        assert got == [{d: min(k, cap) for d, k in cell.items()} for cell in tally]
    assert sum(se.candidates(puzzle, cap=10**6)[0].values()) == total


def test_candidates_unique_unsolvable_and_errors():
    marks = se.candidates(TOP1)
    assert [int(next(iter(cell))) for cell in marks] == [int(d) for d in TOP1_SOLUTION]
    assert all(cell == {int(d): 1} for cell, d in zip(marks, TOP1_SOLUTION))
    assert se.candidates(UNSOLVABLE) == [{}] * 81
    assert se.candidates(CLASH) == [{}] * 81
    assert se.candidates("." * 36, cap=2, box=(2, 3))[0] == {d: 2 for d in range(1, 7)}
    with pytest.raises(ValueError):
        se.candidates(TOP1, cap=0)
    with pytest.raises(se.ParseError):
        se.candidates("1x" + "." * 79)


def test_candidates_are_the_puzzles_values_where_they_start_at_0():
    # A 6x6 variant with values 0-5: candidates name the values its solutions hold.
    z = (".Shape~6x6~0-5.Cage~3~R1C1~R1C2.Cage~4~R6C1~R6C2.V~R4C5~R4C6"
         ".~R1C5_3~R2C2_0~R2C4_2~R3C4_1~R4C3_2~R5C1_5~R5C3_1~R5C5_4")
    tally = [dict() for _ in range(36)]
    for s in se.solutions(z):
        for cell, d in enumerate(s):
            tally[cell][int(d)] = tally[cell].get(int(d), 0) + 1
    assert tally[0] and se.candidates(z, cap=10**6) == tally


def test_batches_take_one_puzzle_per_text():
    p1, p2 = "1..4.........32.", "1234" + "." * 12
    # A JSON document with two puzzles, or one cut across two texts, is not one puzzle a text.
    for texts in (['["%s", "%s"]' % (p1, p2)], ['["%s",' % p1], ['["%s",' % p1, '"%s"]' % p2]):
        with pytest.raises(se.ParseError):
            se.check(texts)
        with pytest.raises(se.ParseError):
            se.to_array(texts)
    assert se.check(['["%s"]' % p1, p2]) == ["unique", "multiple"]


def test_arrays_refuse_what_they_cannot_hold_and_threads_are_bounded():
    z = ".Shape~6x6~0-5.~R1C5_3~R2C2_0"
    cage = ".Cage~10~R1C1~R1C2.~R1C3_3"
    for puzzle in (z, cage):
        with pytest.raises(ValueError, match="puzzles\\[1\\] has variant rules"):
            se.to_array(["." * 36, puzzle])
    with pytest.raises(ValueError, match="threads=1025 is too many"):
        se.check([TOP1], threads=1025)
    with pytest.raises(ValueError, match="threads=5000 is too many"):
        se.count(TOP1, threads=5000)


def test_solutions_are_written_in_the_puzzles_alphabet():
    # letters A-P for 1..16, as puzzles/formats/letters16.txt (the CLI answers in them too)
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "puzzles", "formats", "letters16.txt")
    letters = next(l.strip() for l in open(path) if l.strip() and not l.startswith("#"))
    solved = se.solve(letters)
    assert solved is not None and set(solved) == set("ABCDEFGHIJKLMNOP")
    assert all(g == "." or g == s for g, s in zip(letters, solved))
    assert next(se.solutions(letters)) == solved
    assert se.count(solved) == 1
    # the same puzzle in the standard alphabet answers in it
    standard = "".join("." if c == "." else "123456789ABCDEFG"[ord(c) - 65] for c in letters)
    assert se.solve(standard) == "".join("123456789ABCDEFG"[ord(c) - 65] for c in solved)


def test_hex_puzzles_are_read_with_an_alphabet():
    # puzzles/formats/hex16.txt: the 16x16 of puzzles/big16.txt, line 4, in 0-F ('0' is 1)
    here = os.path.dirname(os.path.abspath(__file__))
    formats = os.path.join(here, "..", "..", "puzzles", "formats")
    hexed = next(l.strip() for l in open(os.path.join(formats, "hex16.txt")) if l[:1] not in "#\n")
    standard = "".join("." if c == "." else "123456789ABCDEFG"[int(c, 16)] for c in hexed)
    # without the alphabet the '0's cannot be placed: the error asks for one
    with pytest.raises(se.ParseError, match="alphabet"):
        se.check([hexed])
    assert se.check([hexed, hexed], alphabet="0-F") == ["unique", "unique"]
    assert se.count(hexed, alphabet="hex") == 1
    solved = se.solve(hexed, alphabet="0-F")
    assert solved is not None and set(solved) == set("0123456789ABCDEF")
    assert all(g == "." or g == s for g, s in zip(hexed, solved))
    assert next(se.solutions(hexed, alphabet="0-F")) == solved
    assert se.solve(standard) == "".join("123456789ABCDEFG"[int(c, 16)] for c in solved)
    marks = se.candidates(hexed, alphabet="0-F")
    assert [list(m) for m in marks] == [[int(c, 16) + 1] for c in solved]
    arr = se.to_array([hexed], alphabet="0-F")
    assert (arr == se.to_array([standard])).all()
    assert se.to_strings(arr, alphabet="0-F") == [hexed]
    assert se.to_strings(arr) == [standard]
    with pytest.raises(ValueError, match="alphabet: .*0-F"):
        se.check([hexed], alphabet="base64")
    # the library's messages name this package's arguments, not the command line's options
    with pytest.raises(se.ParseError) as e:
        se.check([hexed])
    assert '(alphabet="1-9A-Z")' in str(e.value) and str(e.value).endswith("give alphabet=")
    assert "--" not in str(e.value)
    with pytest.raises(se.ParseError, match=r"give one with box=\(1, 7\)$"):
        se.count("." * 49)
    with pytest.raises(se.ParseError, match=r"for other shapes give box=\(rows, cols\)$"):
        se.count("." * 80)
    with pytest.raises(ValueError, match="alphabet: A-Z writes boards up to 52x52, not 64x64"):
        se.to_strings(np.zeros((1, 64**2), dtype=np.uint8), alphabet="A-Z")


def test_bad_arguments_are_named():
    p1 = "1..4.........32."
    with pytest.raises(ValueError, match="threads must be at least 0"):
        se.count(p1, threads=-1)
    with pytest.raises(ValueError, match="threads must be at least 0"):
        se.check_array(se.to_array([p1]), threads=-1)
    with pytest.raises(ValueError, match="box must be \\(rows, cols\\), got \\(2,\\)"):
        se.count(p1, box=(2,))
    assert se.count(p1, box=[2, 2]) == 1
    with pytest.raises(ValueError, match="limit must be at most 2\\*\\*64 - 1"):
        se.count(p1, limit=2**70)
    with pytest.raises(ValueError, match="cap must be at least 1, got None"):
        se.candidates(p1, cap=None)  # type: ignore[arg-type]
    shapes = "puzzles\\[1\\] is a 4x4 board \\(2x2 boxes\\) but the others are 9x9"
    with pytest.raises(ValueError, match=shapes):
        se.to_array([TOP1, "." * 16])


def test_solutions_is_lazy_and_stops_when_dropped():
    def running_after(seconds):
        deadline = time.monotonic() + seconds
        while se._native._running_streams() and time.monotonic() < deadline:
            time.sleep(0.01)
        return se._native._running_streams()

    assert running_after(5) == 0
    # The empty 9x9 board has 6.67e21 solutions: only a lazy iterator can give the first ones.
    it = se.solutions("." * 81)
    first = [next(it) for _ in range(1000)]
    assert len(set(first)) == 1000 and all(is_solution("." * 81, s) for s in first[:20])
    assert se._native._running_streams() == 1
    del it
    assert running_after(5) == 0
    with se.solutions("." * 81, threads=2) as it:
        next(it)
    assert running_after(5) == 0
    it = se.solutions("." * 81)
    next(it)
    it.close()
    assert list(it) == []
    assert running_after(5) == 0


# ---------------------------------------------------------------------------------------------
# Ctrl-C


# A 25x25 puzzle (puzzles/big/25x25_fully_minimal.txt, line 5) whose first solution takes some
# 6 s of search on one core. (The puzzle this test used first fell to the big engine at once.)
SLOW_25 = (
    "..9C........L8....DPK.MG3.....GEJN...1.B...I......HB.A..2..FD..GP..5L....J4...NELK.6.4.3.H"
    ".A...P...BF...P......5I..ME..B...8.9MN...I.GEF...CK.2..B......JF.N..8.O1.4GE....9D3...D..."
    ".L..4...HJF...3.7.I.8P......1DB..N..J...FO.C......39O...E..L..IM8.2H.N...1L6F4..G.P...5O.."
    "I..KHMC82..........7...P.5...G..P.B.HL.9C...K.G834.EN2...5J6.D....9.F.N..2.1..O...A.....5."
    "2....7...1.4B....B.NM..I8.D.9...F.........M6.E...1KN.A.B.J.HO.CLPL.3P45CD...H.B8...G.JK..."
    "..H.C..P9.7..M.5..826.D.I.51K.O6.J..L..3P....HN..7A.KB.....31..J28N...GI....I..3.M.4......"
    ".L1....O..E..8...G..6.B3.IH4...JA72.7..J..N.A..4L..P.9..5F..4..LHF1.2K8.N.M..3.AE...."
)


def run_and_interrupt(setup: str, blocking: str, wait: float = 0.5):
    """Run `setup` then `blocking` in a fresh interpreter, send SIGINT `wait` seconds into
    `blocking`; returns its output and the seconds from the signal to its exit."""
    script = textwrap.dedent(
        """
        import signal, sys, time
        import sudoku_enum as se
        # A process started in the background by a shell may inherit SIGINT ignored.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        {setup}
        print("ready", flush=True)
        try:
            {blocking}
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
        """
    ).format(setup=setup, blocking=blocking)
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(wait)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("no exit within 10 s of SIGINT")
    return out, err, time.monotonic() - sent


posix_only = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to a child process")


@posix_only
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_count(threads):
    # 6.67e21 grids: this count would not end.
    out, err, took = run_and_interrupt("", f'se.count("." * 81, threads={threads})')
    assert "KeyboardInterrupt" in out, err
    assert took < 2.0


@posix_only
def test_ctrl_c_stops_a_long_batch():
    # Some 15 s of 1.5-microsecond puzzles.
    out, err, took = run_and_interrupt(
        f'puzzles = ["{TOP1}"] * 10_000_000', "se.check(puzzles, threads=1)"
    )
    assert "KeyboardInterrupt" in out, err
    assert took < 2.0


@posix_only
def test_ctrl_c_while_waiting_for_a_solution():
    out, err, took = run_and_interrupt(
        f'it = se.solutions("{SLOW_25}")', "next(it)", wait=1.0
    )
    assert "KeyboardInterrupt" in out, err
    assert took < 2.0


@posix_only
def test_ctrl_c_stops_a_consumer_in_c():
    # list() takes the solutions without returning to the interpreter's loop.
    out, err, took = run_and_interrupt("", 'list(se.solutions("." * 81, limit=10_000_000))')
    assert "KeyboardInterrupt" in out, err
    assert took < 2.0


@posix_only
def test_ctrl_c_stops_candidates_with_a_large_cap():
    out, err, took = run_and_interrupt("", 'se.candidates("." * 81, cap=10**9, threads=1)', wait=1.0)
    assert "KeyboardInterrupt" in out, err
    assert took < 2.0


@posix_only
def test_ctrl_c_during_the_first_array_conversion():
    # The first array a process makes loads NumPy's C API: a Ctrl-C then was a Rust panic
    # (pyo3_runtime.PanicException), and the conversion itself never looked for signals.
    pytest.importorskip("numpy")
    out, err, took = run_and_interrupt(
        f'import numpy; puzzles = ["{TOP1}"] * 4_000_000', "se.to_array(puzzles)", wait=0.2
    )
    assert "KeyboardInterrupt" in out, err
    assert "panicked" not in err, err
    assert took < 1.0


@posix_only
def test_ctrl_c_stops_a_long_conversion_to_strings():
    pytest.importorskip("numpy")
    out, err, took = run_and_interrupt(
        f'import numpy; rows = numpy.repeat(se.to_array(["{TOP1}"]), 2_000_000, axis=0)',
        "se.to_strings(rows)",
        wait=0.2,
    )
    assert "KeyboardInterrupt" in out, err
    assert took < 1.0


def test_doctests():
    result = doctest.testmod(se)
    assert result.attempted > 10 and result.failed == 0

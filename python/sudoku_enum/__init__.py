"""Exact sudoku solution counting and uniqueness checking, for any N×N board with R×C boxes.

The engine is the Rust library ``sudoku_enum`` (the one behind the ``sudoku-enum`` command):
batch calls release the GIL and use every core, a count is exact (Python ints do not overflow),
and Ctrl-C stops a long search with ``KeyboardInterrupt``.

Puzzles are strings in any layout the command line reads: one line of N*N cells (``.``, ``0``,
``_`` or ``*`` for an empty cell; digits, then letters ``A``-``Z`` above 9), or a grid of rows.
The shape is inferred from the size (16 cells: 4×4 with 2×2 boxes, 36: 6×6 with 2×3, 81: 9×9,
...); give ``box=(rows, cols)`` for others. Data sets stored as arrays of shape (n, N*N) of
uint8 (0 = empty) have the ``*_array`` functions.

>>> import sudoku_enum as se
>>> puzzle = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
>>> se.check([puzzle, "." * 81, "11" + "." * 79])
['unique', 'multiple', 'invalid']
>>> se.solve(puzzle)
'468931527751624839392578461134756298289413675675289314846192753513867942927345186'
>>> se.count("." * 16)                    # every 4×4 grid
288
>>> se.count("." * 36, box=(2, 3))        # every 6×6 grid with 2×3 boxes
28200960
>>> se.count("." * 81, limit=1000)        # stops at exactly 1000
1000
>>> list(se.solutions("." * 16, limit=3))  # lazily, in search order
['1234341221434321', '1234341223414123', '1234341241232341']

Verdicts: ``"unique"`` (one solution), ``"multiple"`` (two or more), ``"unsolvable"`` (none,
although no two givens clash) and ``"invalid"`` (two givens clash in a row, column or box). The
array functions give them as codes: ``VERDICTS[code]``, where codes 0, 1, 2 are the number of
solutions capped at 2 (``UNSOLVABLE``, ``UNIQUE``, ``MULTIPLE``) and 3 is ``INVALID``.

A puzzle that cannot be read raises :class:`ParseError` (a ``ValueError``) naming the line and
column, and for a batch the index of the puzzle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Literal, Optional, Tuple, Union, overload

from . import _native
from ._native import INVALID, MULTIPLE, UNIQUE, UNSOLVABLE, ParseError, Solutions

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "check",
    "count",
    "solve",
    "solutions",
    "candidates",
    "check_array",
    "solve_array",
    "to_array",
    "to_strings",
    "ParseError",
    "Solutions",
    "VERDICTS",
    "UNSOLVABLE",
    "UNIQUE",
    "MULTIPLE",
    "INVALID",
]

__version__ = "0.1.0"

#: The verdict words, indexed by verdict code.
VERDICTS: Tuple[str, str, str, str] = ("unsolvable", "unique", "multiple", "invalid")

Box = Optional[Tuple[int, int]]


def _puzzle_list(puzzles: Iterable[str]) -> list[str]:
    if isinstance(puzzles, (str, bytes)):
        raise TypeError(
            "expected a list of puzzles, got a single string; for one puzzle pass [puzzle]"
        )
    return puzzles if isinstance(puzzles, list) else list(puzzles)


_MAX_U64 = 2**64 - 1


def _int_or_none(name: str, value: object) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise TypeError(f"{name} must be an int or None, got {type(value).__name__}")


def _limit(limit: Optional[int]) -> Optional[int]:
    _int_or_none("limit", limit)
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be at least 0, got {limit}")
    if limit is not None and limit > _MAX_U64:
        raise ValueError(f"limit must be at most 2**64 - 1, got {limit}")
    return limit


def _threads(threads: Optional[int]) -> Optional[int]:
    _int_or_none("threads", threads)
    if threads is not None and threads < 0:
        raise ValueError(f"threads must be at least 0 (0 or None: every core), got {threads}")
    return threads


def _box(box: Box) -> Box:
    if box is None:
        return None
    try:
        rows, cols = box
    except (TypeError, ValueError):
        raise ValueError(f"box must be (rows, cols), got {box!r}") from None
    for side in (rows, cols):
        if not isinstance(side, int) or isinstance(side, bool):
            raise TypeError(f"box must be two ints (rows, cols), got {box!r}")
        if side < 1:
            raise ValueError(f"box: rows and columns must be at least 1, got {box!r}")
    return (rows, cols)


def check(
    puzzles: Iterable[str],
    *,
    box: Box = None,
    threads: Optional[int] = None,
    alphabet: Optional[str] = None,
) -> list[str]:
    """The verdict of each puzzle: ``"unique"``, ``"multiple"``, ``"unsolvable"`` or ``"invalid"``.

    Each puzzle is counted up to 2 solutions, as ``sudoku-enum check`` does. The GIL is released
    and the puzzles are shared among ``threads`` workers (default, or 0: every core); the answers
    are in input order.

    Args:
        puzzles: puzzle texts (a list, tuple or any iterable of ``str``), one puzzle each; a
            trailing line end is allowed, so ``check(open(path))`` works on a file of one-line
            puzzles without comment lines.
        box: ``(rows, cols)`` of a box, for shapes the size does not tell.
        threads: worker threads (default, or 0: every core).
        alphabet: the characters of digits on boards above 9x9, as the command line's
            ``--alphabet``: ``"1-9A-Z"`` (``0`` or ``.`` empty), ``"0-F"`` (hex: ``0`` is 1,
            ``.`` empty), ``"A-Z"`` (``A`` is 1) or ``"numbers"``; recognised when ``None``
            (the same for every function that reads puzzle texts).

    Raises:
        ParseError: a puzzle could not be read (``index`` says which).
        TypeError: an item is not a ``str``.

    >>> check(["1..4.........32.", "1234" + "." * 12, "11" + "." * 14, "12.." "..3." "...." "...4"])
    ['unique', 'multiple', 'invalid', 'unsolvable']
    """
    return _native.check(_puzzle_list(puzzles), _box(box), _threads(threads), alphabet)


def count(
    puzzle: str,
    limit: Optional[int] = None,
    *,
    box: Box = None,
    threads: Optional[int] = None,
    alphabet: Optional[str] = None,
) -> int:
    """The number of solutions of ``puzzle``, exactly; with ``limit``, at most ``limit``.

    A puzzle whose givens clash has 0 solutions (``check`` calls it ``"invalid"``). Counting
    runs on ``threads`` workers (default, or 0: every core) once it turns out to take more than
    a few milliseconds; Ctrl-C stops it with ``KeyboardInterrupt``.

    >>> count("." * 16)
    288
    >>> count("." * 81, limit=2)
    2
    """
    return _native.count(puzzle, _limit(limit), _box(box), _threads(threads), alphabet)


def solve(
    puzzle: str,
    *,
    box: Box = None,
    threads: Optional[int] = None,
    alphabet: Optional[str] = None,
) -> Optional[str]:
    """The first solution of ``puzzle`` as a line of N*N characters, or ``None`` if it has none.

    The solution is written in the puzzle's alphabet (``alphabet``, or the one recognised).

    >>> solve("1..4.........32.")
    '1234341221434321'
    >>> solve("11" + "." * 14) is None
    True
    """
    return _native.solve(puzzle, _box(box), _threads(threads), alphabet)


def candidates(
    puzzle: str,
    cap: int = 8,
    *,
    box: Box = None,
    threads: Optional[int] = None,
    alphabet: Optional[str] = None,
) -> list[dict[int, int]]:
    """The true candidates of ``puzzle``: for each cell (row-major), the digits that appear in at
    least one solution, each with the number of solutions through it, counted up to ``cap``
    (``cap=1`` asks only which digits are candidates). A puzzle is unique exactly when every
    cell has one candidate; every cell's dict is empty when it has no solution.

    It does not enumerate every solution: a first search to ``cap`` solutions covers many
    candidates, then one search per candidate not yet seen (with that digit given, stopped at
    the cap). Ctrl-C stops it with ``KeyboardInterrupt``.

    >>> marks = candidates("1234" + "." * 12)
    >>> marks[4]                                  # r2c1: 3 or 4, in 6 solutions each (capped at 8)
    {3: 6, 4: 6}
    >>> all(len(cell) == 1 for cell in candidates("1..4.........32."))
    True
    """
    if cap is None or cap < 1:
        raise ValueError(f"cap must be at least 1, got {cap}")
    if cap > _MAX_U64:
        raise ValueError(f"cap must be at most 2**64 - 1, got {cap}")
    cells = _native.candidates(puzzle, cap, _box(box), _threads(threads), alphabet)
    return [dict(cell) for cell in cells]


def solutions(
    puzzle: str,
    limit: Optional[int] = None,
    *,
    box: Box = None,
    threads: Optional[int] = 1,
    alphabet: Optional[str] = None,
) -> Solutions:
    """A lazy iterator over the solutions of ``puzzle`` (lines of N*N characters).

    Exactly ``min(limit, total)`` distinct solutions (all with ``limit=None``). A worker thread
    searches at most a few hundred solutions ahead of the reader, so iterating over billions
    costs no memory; dropping the iterator, ``close()``, or leaving a ``with`` block stops the
    worker. With one thread (the default) the order is the search order and repeatable; with
    more (0 or None: every core), the tree is split among them and the order varies.

    >>> len(list(solutions("1234" + "." * 12)))   # 288 / 4! grids begin with 1234
    12
    >>> with solutions("." * 81) as it:       # 6.67e21 grids: only those taken are found
    ...     first = next(it)
    """
    return _native.solutions(puzzle, _limit(limit), _box(box), _threads(threads), alphabet)


def _rows(array: "npt.ArrayLike") -> "np.ndarray":
    import numpy as np

    _native._numpy_ready()
    a = np.asarray(array)
    if a.ndim != 2:
        raise ValueError(f"expected a 2-D array of shape (n, N*N), got shape {a.shape}")
    if a.dtype != np.uint8:
        if a.dtype.kind not in "iu":
            raise TypeError(f"expected an array of integers (uint8), got dtype {a.dtype}")
        if a.size and (a.min() < 0 or a.max() > 64):
            raise ValueError("cell values must be 0 (empty) to N")
        a = a.astype(np.uint8)
    return np.ascontiguousarray(a)


@overload
def check_array(
    array: "npt.ArrayLike",
    *,
    box: Box = ...,
    threads: Optional[int] = ...,
    return_solutions: Literal[False] = ...,
) -> "npt.NDArray[np.uint8]": ...


@overload
def check_array(
    array: "npt.ArrayLike",
    *,
    box: Box = ...,
    threads: Optional[int] = ...,
    return_solutions: Literal[True],
) -> "tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]": ...


@overload
def check_array(
    array: "npt.ArrayLike",
    *,
    box: Box = ...,
    threads: Optional[int] = ...,
    return_solutions: bool,
) -> "Union[npt.NDArray[np.uint8], tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]]": ...


def check_array(
    array: "npt.ArrayLike",
    *,
    box: Box = None,
    threads: Optional[int] = None,
    return_solutions: bool = False,
) -> "Union[npt.NDArray[np.uint8], tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]]":
    """Verdict codes of the rows of an (n, N*N) array of cell values (0 = empty).

    Returns a uint8 array of n codes (``VERDICTS[code]`` is the word); with
    ``return_solutions=True`` also an (n, N*N) uint8 array holding a solution of each puzzle
    (the only one where the code is ``UNIQUE``), zeros where there is none, found by the same
    search.

    >>> grids = to_array(["1..4.........32.", "." * 16])
    >>> grids.dtype, grids.shape
    (dtype('uint8'), (2, 16))
    >>> codes, sols = check_array(grids, return_solutions=True)
    >>> [VERDICTS[c] for c in codes]
    ['unique', 'multiple']
    >>> sols[0].tolist()
    [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    """
    codes, sols = _native.check_array(
        _rows(array), _box(box), _threads(threads), return_solutions
    )
    if return_solutions and sols is not None:
        return codes, sols
    return codes


def solve_array(
    array: "npt.ArrayLike", *, box: Box = None, threads: Optional[int] = None
) -> "npt.NDArray[np.uint8]":
    """The first solution of each row of an (n, N*N) array (0 = empty), zeros where none exists.

    >>> import numpy as np
    >>> solve_array(np.zeros((1, 16), dtype=np.uint8))[0].tolist()
    [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    """
    return _native.solve_array(_rows(array), _box(box), _threads(threads))


def to_array(
    puzzles: Iterable[str], *, box: Box = None, alphabet: Optional[str] = None
) -> "npt.NDArray[np.uint8]":
    """Puzzle texts as an (n, N*N) uint8 array, 0 for an empty cell (all must be one shape).

    >>> to_array(["1..." "...." "...." "...4"]).tolist()
    [[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]]
    """
    import numpy  # noqa: F401  (an ImportError here where NumPy is missing)

    _native._numpy_ready()
    return _native.to_array(_puzzle_list(puzzles), _box(box), alphabet)


def to_strings(
    array: "npt.ArrayLike", *, box: Box = None, alphabet: Optional[str] = None
) -> list[str]:
    """The rows of an (n, N*N) array as puzzle lines, ``.`` for an empty cell, in ``alphabet``
    (as ``check``'s; default ``"1-9A-Z"``).

    >>> to_strings([[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]])
    ['1..............4']
    """
    return _native.to_strings(_rows(array), _box(box), alphabet)

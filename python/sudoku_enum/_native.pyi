"""Type stubs of the extension module; the documented API is the ``sudoku_enum`` package."""

from typing import Iterator, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

_Box = Optional[Tuple[int, int]]

VERDICTS: List[str]
UNSOLVABLE: int
UNIQUE: int
MULTIPLE: int
INVALID: int

class ParseError(ValueError):
    """A puzzle could not be read: ``line`` and ``column`` (1-based, within the puzzle's own
    text) and ``index`` (its position in a batch, or None)."""

    line: int
    column: int
    index: Optional[int]

class Solutions(Iterator[str]):
    """A lazy iterator over the solutions of one puzzle (see ``sudoku_enum.solutions``)."""

    def __iter__(self) -> "Solutions": ...
    def __next__(self) -> str: ...
    def close(self) -> None:
        """Stop the search and release its thread; iteration then ends."""
    def __enter__(self) -> "Solutions": ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool: ...

def count(
    puzzle: str,
    limit: Optional[int] = None,
    shape: _Box = None,
    threads: Optional[int] = None,
    alphabet: Optional[str] = None,
) -> int: ...
def solve(
    puzzle: str,
    shape: _Box = None,
    threads: Optional[int] = None,
    alphabet: Optional[str] = None,
) -> Optional[str]: ...
def candidates(
    puzzle: str,
    cap: int = 8,
    shape: _Box = None,
    threads: Optional[int] = None,
    alphabet: Optional[str] = None,
) -> List[List[Tuple[int, int]]]: ...
def solutions(
    puzzle: str,
    limit: Optional[int] = None,
    shape: _Box = None,
    threads: Optional[int] = 1,
    alphabet: Optional[str] = None,
) -> Solutions: ...
def check(
    puzzles: List[str],
    shape: _Box = None,
    threads: Optional[int] = None,
    alphabet: Optional[str] = None,
) -> List[str]: ...
def check_array(
    array: npt.NDArray[np.uint8],
    shape: _Box = None,
    threads: Optional[int] = None,
    solutions: bool = False,
) -> Tuple[npt.NDArray[np.uint8], Optional[npt.NDArray[np.uint8]]]: ...
def solve_array(
    array: npt.NDArray[np.uint8], shape: _Box = None, threads: Optional[int] = None
) -> npt.NDArray[np.uint8]: ...
def to_array(
    puzzles: List[str], shape: _Box = None, alphabet: Optional[str] = None
) -> npt.NDArray[np.uint8]: ...
def to_strings(
    array: npt.NDArray[np.uint8], shape: _Box = None, alphabet: Optional[str] = None
) -> List[str]: ...
def _numpy_ready() -> None: ...
def _running_streams() -> int: ...

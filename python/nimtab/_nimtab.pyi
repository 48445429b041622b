"""Types of the compiled module ``nimtab._nimtab`` (PyO3). The public functions of
``nimtab`` check their arguments and call these; each releases the GIL while it runs and
raises ValueError with the library's message."""

from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, final

import numpy as np
import numpy.typing as npt

FAMILY_LIMIT: int
MAX_GENUS_HEAP: int
MAX_HEAPS: int
MAX_HEAP_SIZE: int
MAX_QUOTIENT_HEAP: int
MAX_SEQUENCE_HEAP: int
MAX_SHARDS: int
MAX_TOTAL: int
__version__: str
__all__ = [
    "FAMILY_LIMIT",
    "MAX_GENUS_HEAP",
    "MAX_HEAPS",
    "MAX_HEAP_SIZE",
    "MAX_QUOTIENT_HEAP",
    "MAX_SEQUENCE_HEAP",
    "MAX_SHARDS",
    "MAX_TOTAL",
    "AtlasDir",
    "__version__",
    "_panic",
    "atlas_codes",
    "atlas_solve",
    "atlas_tables",
    "check_rows",
    "classes",
    "genus",
    "grundy",
    "grundy_rare",
    "is_sum",
    "merge",
    "moves",
    "period",
    "quotient",
    "quotient_rows_of_csv",
    "require_sum",
    "solve",
    "solve_multisets",
    "solve_table",
    "summary_rows",
    "sweep_csv",
    "sweep_games",
    "sweep_rows",
    "verify_csv",
    "verify_rows",
]

_Report = Optional[Callable[[int], object]]
# (header, rows, totals): the library's header, one tuple per row, each row's total.
_Rows = Tuple[list[str], list[tuple[Any, ...]], list[Optional[int]]]
# (header, rows) of a quotient sweep: the library's header, one tuple per game.
_QuotientRows = Tuple[list[str], list[tuple[Any, ...]]]

def solve_table(
    game: str,
    heaps: int,
    max: int,
    rules: Optional[str] = None,
    canonical: bool = False,
    with_pass: bool = False,
    grundy: bool = False,
    threads: Optional[int] = None,
    report: _Report = None,
) -> Tuple[
    list[str],
    list[npt.NDArray[np.bool_]],
    Optional[npt.NDArray[np.uint32]],
    Optional[npt.NDArray[np.uint32]],
]: ...
def solve_multisets(
    game: str,
    total: int,
    rules: Optional[str] = None,
    threads: Optional[int] = None,
    report: _Report = None,
) -> Tuple[
    list[str],
    list[npt.NDArray[np.bool_]],
    list[tuple[int, ...]],
    npt.NDArray[np.uint32],
    npt.NDArray[np.uint32],
]: ...
def grundy(game: str, max: int) -> npt.NDArray[np.uint32]: ...
def grundy_rare(
    game: str, max: int, points: list[int], mask: Optional[int] = None
) -> tuple[list[tuple[int, int, int, int, int, int]], npt.NDArray[np.uint64]]: ...
def is_sum(game: str) -> bool: ...
def require_sum(game: str, what: str, with_pass: bool = False) -> None: ...
# A verification as one dict: game, heaps_lo, heaps_hi, max, rules, criteria, canonical,
# total, limit, with_pass.
_VerifyRequest = Mapping[str, object]

def verify_csv(
    request: _VerifyRequest,
    threads: Optional[int] = None,
    report: _Report = None,
) -> Tuple[bytes, bytes]: ...
def verify_rows(
    request: _VerifyRequest,
    threads: Optional[int] = None,
    report: _Report = None,
) -> Tuple[_Rows, _Rows]: ...
# A check as one dict, every key given: game, claim, heaps_lo, heaps_hi, max, rules (or
# None), canonical, with_pass, grundy, limit.
_CheckRequest = Mapping[str, object]
def check_rows(
    request: _CheckRequest,
    threads: Optional[int] = None,
    report: _Report = None,
) -> _Rows: ...
# A sweep as one dict, every key given (None where it does not apply): games, game_list,
# games_file, force, heaps_lo, heaps_hi, max, total, rules, criteria, claim, canonical,
# quotients, max_order, game_timeout (seconds), game_memory (bytes or an amount as text).
_SweepRequest = Mapping[str, object]

def sweep_csv(
    request: _SweepRequest,
    shard: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    report: _Report = None,
) -> bytes: ...
def sweep_rows(
    request: _SweepRequest,
    shard: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    report: _Report = None,
) -> Any: ...  # _Rows, or _QuotientRows for a request with quotients
def sweep_games(request: _SweepRequest) -> int: ...
def summary_rows(data: bytes) -> _Rows: ...
def quotient_rows_of_csv(data: bytes) -> _QuotientRows: ...
def merge(parts: Sequence[bytes]) -> bytes: ...
def quotient(
    game: str,
    max_heap: int,
    max_order: int = ...,
    normal: bool = False,
    report: _Report = None,
    every_heap: bool = False,
) -> dict[str, Any]: ...
def genus(
    game: str,
    max_heap: Optional[int] = None,
    position: Optional[Sequence[int]] = None,
    report: _Report = None,
) -> Any: ...  # a list of dicts (one per heap), or one dict for a position
def moves(
    game: str, position: Sequence[int], rule: str = ..., with_pass: bool = False
) -> Tuple[list[dict[str, Any]], bool, bool]: ...
def period(
    game: str, max: int, threads: Optional[int] = None, report: _Report = None
) -> Tuple[Optional[Tuple[int, int, int]], int, Optional[int], Optional[str]]: ...
def classes(
    heaps: int, max: int, threads: Optional[int] = None, report: _Report = None
) -> dict[str, Any]: ...
# An atlas as one dict, every key given: codes, code_list, codes_file (None but one),
# force, budget, dense_budget, quotient_heap, quotient_order, seconds (a time budget or None).
_AtlasRequest = Mapping[str, object]
# The cells of atlas.csv and classes.csv: (atlas header, rows, classes header, rows).
_AtlasTables = Tuple[list[str], list[list[str]], list[str], list[list[str]]]

@final
class AtlasDir:
    def __new__(cls, path: str, request: _AtlasRequest) -> AtlasDir: ...
    def done(self) -> list[str]: ...
    def keep(self, entry: str) -> None: ...
    def write(self, entries: Sequence[str]) -> None: ...
    def release(self) -> None: ...
    def __enter__(self) -> AtlasDir: ...
    def __exit__(self, _kind: object, _value: object, _traceback: object) -> bool: ...

def atlas_codes(request: _AtlasRequest) -> list[str]: ...
def atlas_solve(
    request: _AtlasRequest,
    done: Sequence[str] = ...,
    out: Optional[AtlasDir] = None,
    threads: Optional[int] = None,
    report: _Report = None,
) -> list[str]: ...
def atlas_tables(
    request: _AtlasRequest, entries: Sequence[str]
) -> Tuple[_AtlasTables, list[str]]: ...
def _panic(in_rayon: bool = False) -> None: ...

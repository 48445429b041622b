"""The genus of heaps and sums of heaps in take-and-break games (``nimtab genus``)."""

from typing import Any, Dict, List, Optional, Sequence

from . import _checks, _nimtab
from ._progress import bar

# The largest heap a genus table may reach, the library's own bound.
MAX_GENUS_HEAP = _nimtab.MAX_GENUS_HEAP
# The most heaps a position may have.
MAX_POSITION_HEAPS = 64


def genus(
    game: str,
    max_heap: Optional[int] = None,
    position: Optional[Sequence[int]] = None,
    progress: bool = True,
) -> Any:
    """Compute the genus of every heap of a game, or of a sum of heaps (``nimtab genus``).

    The values are exact: they come from the heaps' misère canonical forms.

    Parameters
    ----------
    game : str
        A take-and-break game of heaps (``subtract:S``, ``octal:CODE``,
        ``hex:CODE``, ``grundys-game``).
    max_heap : int or None
        The largest heap, 0 to ``MAX_GENUS_HEAP``: the genus of every heap ``0..=max_heap``.
    position : sequence of int or None
        The heaps of a sum (1 to 64 of them) whose genus is wanted instead.
    progress : bool
        Show a tqdm bar, heap by heap (when tqdm is installed).

    Returns
    -------
    list of dict or dict
        One dict per heap (or one for the position) with ``genus`` (the notation, as
        ``"4^146"``), ``grundy`` (G+), ``misere_grundy`` (G−), ``gammas`` (the γ values
        written, after which the sequence alternates) and ``tame`` (the genus of a
        nim-heap).

    Raises
    ------
    ValueError
        A game that is not a take-and-break game of heaps, a bad bound or position, or
        canonical forms past the memory budget.
    KeyboardInterrupt
        On Ctrl-C: the computation stops between its forms.
    """
    game = _checks.text("game", game)
    if position is not None:
        heaps = _checks.position(position)
        if not 1 <= len(heaps) <= MAX_POSITION_HEAPS:
            raise ValueError(
                f"a position must have from 1 to {MAX_POSITION_HEAPS} heaps, got {len(heaps)}"
            )
        with bar(progress, f"genus {game}", max(heaps), "heap") as report:
            one: Dict[str, Any] = _nimtab.genus(game, position=list(heaps), report=report)
        return one
    if max_heap is None:
        raise ValueError("genus needs max_heap or position")
    max_heap = _checks.integer("max_heap", max_heap, f"an integer from 0 to {MAX_GENUS_HEAP}")
    if not 0 <= max_heap <= MAX_GENUS_HEAP:
        raise ValueError(f"max_heap must be from 0 to {MAX_GENUS_HEAP}, got {max_heap}")
    with bar(progress, f"genus {game}", max_heap, "heap") as report:
        rows: List[Dict[str, Any]] = _nimtab.genus(game, max_heap=max_heap, report=report)
    return rows

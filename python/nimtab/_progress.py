"""Progress of long calls: a tqdm bar (``tqdm.auto``, so a widget in a notebook) where
tqdm is installed, shown only for calls longer than a second; nothing with
``progress=False`` or without tqdm."""

from contextlib import contextmanager
from typing import Callable, Iterator, Optional

from . import _checks


@contextmanager
def bar(enabled: bool, description: str, total: Optional[int], unit: str) -> Iterator[Optional[Callable[[int], None]]]:
    """Yields the callback a compiled call reports its work done to (a running count),
    or ``None`` when no bar is shown. ``enabled`` is the call's ``progress`` argument: a
    bool, checked here for the calls that do not check it first."""
    if not _checks.flag("progress", enabled):
        yield None
        return
    try:
        from tqdm.auto import tqdm
    except ImportError:
        yield None
        return
    with tqdm(total=total, desc=description, unit=unit, unit_scale=unit == "pos", delay=1.0, leave=False) as shown:

        def report(done: int) -> None:
            shown.update(done - shown.n)

        yield report

"""Pictures of the P-positions of two heaps (matplotlib, optional): as ``nimtab plot``
draws them (``h1`` across, ``h2`` up from the origin at the bottom left, its title and
its key), with counts, and a view of where two rules differ."""

from typing import Optional, Sequence, Tuple

import numpy as np

RULE_TITLES = {"normal": "normal play", "misere": "misère play", "sj": "SJ rule"}
RULE_NAMES = {"normal": "normal", "misere": "misère", "sj": "SJ"}
# The cells' grays and the key's words of ``nimtab plot`` (src/export/plot/).
P_CELL, N_CELL = "#222222", "#eeeeee"
LEGEND = ("P (player to move loses)", "N (player to move wins)")
# Keys below the panels, clear of the cells.
BELOW = dict(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize="small", frameon=False)


def _pyplot():
    try:
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap
        from matplotlib.patches import Patch
    except ImportError as e:
        raise ImportError("nimtab.plot needs matplotlib: pip install matplotlib") from e
    return plt, ListedColormap, Patch


def plot(
    game: str,
    max: int,
    rules: Optional[Sequence[str]] = None,
    difference: Optional[Tuple[str, str]] = None,
    threads: Optional[int] = None,
):
    """Draw the P-positions of two heaps of at most ``max`` stones (matplotlib).

    One panel per rule, cell ``(h1, h2)`` dark where P, ``h1`` across and ``h2`` up
    from the origin at the bottom left, as ``nimtab plot`` draws them: the figure's title
    ``P-positions (h1, h2) of GAME``, each panel's its rule and count of P-positions,
    and the command's key below.

    Parameters
    ----------
    game : str
        The game spec, as ``--game``.
    max : int
        The largest heap size.
    rules : sequence of str, optional
        The rules drawn; by default the game's (as ``solve``).
    difference : tuple of two str, optional
        Add a panel of the cells where rules ``a`` and ``b`` differ: P under ``a`` only,
        or under ``b`` only.
    threads : int, optional
        Threads of the engine, 1 to 256.

    Returns
    -------
    matplotlib.figure.Figure
        The figure, one axes per panel.

    Raises
    ------
    ValueError
        ``difference`` that does not name two of the rules drawn, or a bad argument.
    """
    from . import solve

    plt, ListedColormap, Patch = _pyplot()
    tables = solve(game, 2, max, rules=rules, threads=threads, progress=False)
    if difference is not None:
        missing = [r for r in difference if r not in tables]
        if len(difference) != 2 or missing:
            raise ValueError(
                f"difference must be two of the rules {list(tables)}, got {difference!r}"
            )
    panels = len(tables) + (difference is not None)
    fig, axes = plt.subplots(1, panels, figsize=(3.6 * panels, 4.3), constrained_layout=True, squeeze=False)
    axes = axes[0]
    labels = ListedColormap([N_CELL, P_CELL])
    extent = (-0.5, max + 0.5, -0.5, max + 0.5)
    for ax, (rule, table) in zip(axes, tables.items()):
        # imshow draws rows up the y axis: row h2, column h1.
        ax.imshow(table.T, cmap=labels, vmin=0, vmax=1, origin="lower", extent=extent, interpolation="nearest")
        ax.set_title(f"{RULE_TITLES.get(rule, rule)}: {int(table.sum())} P-positions")
    if difference is not None:
        a, b = difference
        only_a, only_b = tables[a] & ~tables[b], tables[b] & ~tables[a]
        cells = only_a.astype(np.int8) + 2 * only_b.astype(np.int8)
        colours = ListedColormap(["white", "tab:blue", "tab:orange"])
        ax = axes[-1]
        ax.imshow(cells.T, cmap=colours, vmin=0, vmax=2, origin="lower", extent=extent, interpolation="nearest")
        ax.set_title(f"{int((cells > 0).sum())} positions differ")
        ax.legend(
            handles=[
                Patch(facecolor="tab:blue", edgecolor="grey", label=f"P under {RULE_NAMES.get(a, a)} only"),
                Patch(facecolor="tab:orange", edgecolor="grey", label=f"P under {RULE_NAMES.get(b, b)} only"),
            ],
            **BELOW,
        )
    for ax in axes:
        ax.set_xlabel("h1")
        ax.set_ylabel("h2")
    axes[0].legend(
        handles=[
            Patch(facecolor=P_CELL, edgecolor="grey", label=LEGEND[0]),
            Patch(facecolor=N_CELL, edgecolor="grey", label=LEGEND[1]),
        ],
        **BELOW,
    )
    fig.suptitle(f"P-positions (h1, h2) of {game}")
    return fig

r"""Demšar's critical-difference diagram (matplotlib, the ``plot`` extra).

demsar2006 §3.2.2 and its Figures 1-2: the top line is an axis of average
ranks, turned so that the best (lowest) ranks are on the right; each method
is a line from its average rank to its name, the better half on the right,
the others on the left; the critical difference is a bar above the axis,
and thick bars under it join the groups of methods no two of which differ
significantly (:func:`cliques`).  matplotlib is imported
when :func:`plot_cd` is called, never by ``import numeric``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["plot_cd", "cliques"]


def cliques(average, cd):
    r"""The maximal groups of methods whose average ranks differ by less than ``cd``.

    The bars of Demšar's critical-difference diagram (demsar2006 §3.2.2,
    Fig. 1): methods sorted by average rank; from each method, the run of
    those within ``cd`` of it; runs inside another run and single methods
    are dropped.

    Parameters
    ----------
    average : sequence of float
        The average rank of each method (rank 1 is the best).
    cd : float
        The critical difference (Nemenyi's, demsar2006 eq. 5).

    Returns
    -------
    tuple of tuple of int
        Indices into ``average``, each group in rank order, the groups by their first member.

    Examples
    --------
    >>> cliques([3.143, 2.0, 2.893, 1.964], 1.25)  # demsar2006's example: one group
    ((3, 1, 2, 0),)
    >>> cliques([3.143, 2.0, 2.893, 1.964], 1.0)
    ((3, 1, 2), (2, 0))
    """
    r = np.asarray(average, dtype=np.float64)
    order = np.argsort(r, kind="stable")
    s = r[order]
    groups, last = [], -1
    for i in range(s.size):
        j = i
        while j + 1 < s.size and s[j + 1] - s[i] < cd:
            j += 1
        if j > i and j > last:
            groups.append(tuple(int(x) for x in order[i:j + 1]))
            last = j
    return tuple(groups)


def plot_cd(tests=None, ax=None, *, average_ranks=None, methods=None, cd=None, title=None):
    r"""Draw the critical-difference diagram of a :class:`numeric.rank_stats.RankTests`.

    .. math:: CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}}

    Parameters
    ----------
    tests : RankTests, optional
        The average ranks, method names and Nemenyi's ``cd`` are read from it.
    ax : matplotlib Axes, optional
        Default: a new figure's axes (its size grows with the methods).
    average_ranks, methods, cd : optional
        Instead of ``tests``: the average ranks, their names and the critical difference.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
        The method names are texts with gid ``"method"``, each group bar a
        line with gid ``"clique"``, the CD bar a line with gid ``"cd"``;
        ``ax.figure.savefig("cd.svg")`` (or .pdf, .png) writes it.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_cd(average_ranks=[3.143, 2.0, 2.893, 1.964], cd=1.0,
    ...              methods=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"])
    >>> sorted(t.get_text() for t in ax.texts if t.get_gid() == "method")
    ['C4.5', 'C4.5+cf', 'C4.5+m', 'C4.5+m+cf']
    >>> sum(1 for line in ax.lines if line.get_gid() == "clique")
    2
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plot_cd needs matplotlib, which is not installed: "
                          "pip install \"ordinal-verify[plot]\"") from None
    if tests is not None:
        average_ranks, methods, cd = tests.average_ranks, tests.methods, tests.nemenyi.cd
        title = title if title is not None else tests.metric
    if average_ranks is None or methods is None or cd is None:
        raise ValueError("plot_cd needs a RankTests, or average_ranks, methods and cd")
    R = np.asarray(average_ranks, dtype=np.float64)
    methods = [str(m) for m in methods]
    k = R.size
    if R.ndim != 1 or k < 2 or len(methods) != k:
        raise ValueError(f"plot_cd: {len(methods)} names for average ranks of shape {R.shape}; "
                         "give one name per method, at least 2")
    if not np.isfinite(R).all() or not (np.isfinite(cd) and cd > 0):
        raise ValueError("plot_cd: the average ranks must be finite and cd positive")
    groups = cliques(R, cd)
    order = np.argsort(R, kind="stable")
    right = order[: math.ceil(k / 2)]  # the better half, on the right (low ranks)
    left = order[math.ceil(k / 2):][::-1]
    rows = max(len(right), len(left))
    step = 0.35
    clique_top = -0.35
    first_row = clique_top - step * (len(groups) + 1)
    if ax is None:
        _, ax = plt.subplots(figsize=(6.0, 0.8 + 0.3 * (rows + len(groups) + 2)))
    lo, hi = 1.0, float(max(k, math.ceil(R.max())))
    # the axis, best on the right
    ax.plot([lo, hi], [0, 0], color="black", lw=1, gid="axis")
    for t in range(int(lo), int(hi) + 1):
        ax.plot([t, t], [0, 0.1], color="black", lw=1)
        ax.text(t, 0.18, str(t), ha="center", va="bottom", fontsize=9)
    # the critical difference above the axis, from the best end
    ax.plot([lo, lo + cd], [0.75, 0.75], color="black", lw=1.5, gid="cd")
    for x in (lo, lo + cd):
        ax.plot([x, x], [0.68, 0.82], color="black", lw=1)
    ax.text(lo + cd / 2, 0.85, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9, gid="cd-label")
    # the methods
    margin = 0.25 * (hi - lo) / max(k - 1, 1) + 0.1
    for side, idx in (("right", right), ("left", left)):
        end = lo - margin if side == "right" else hi + margin
        for n, j in enumerate(idx):
            y = first_row - step * n
            ax.plot([R[j], R[j], end], [0, y, y], color="black", lw=0.8)
            ax.text(end - 0.05 if side == "right" else end + 0.05, y,
                    methods[j], ha="left" if side == "right" else "right", va="center",
                    fontsize=9, gid="method")
            ax.text(end + 0.05 if side == "right" else end - 0.05, y + 0.05, f"{R[j]:.2f}",
                    ha="right" if side == "right" else "left", va="bottom", fontsize=7, gid="rank")
    # the groups not significantly different
    for c, g in enumerate(groups):
        y = clique_top - step * c
        ax.plot([R[g[0]] - 0.03, R[g[-1]] + 0.03], [y, y], color="black", lw=3,
                solid_capstyle="butt", gid="clique")
    ax.set_xlim(hi + margin + 0.9, lo - margin - 0.9)  # inverted: the best (rank 1) on the right
    ax.set_ylim(first_row - step * rows, 1.3)
    ax.axis("off")
    if title:
        ax.set_title(str(title), fontsize=10)
    return ax

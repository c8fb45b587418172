"""Drawing UOC(beta) and its area A_UOC (matplotlib, the ``plot`` extra).

matplotlib is imported when a function here is called, never by
``import numeric``.
"""

from __future__ import annotations

__all__ = ["plot_uoc", "uoc_curve"]


def uoc_curve(cm):
    r"""The vertices of UOC(beta) on [0, 1]: exact breakpoints and values.

    .. math:: UOC_\beta^1 = \min_{\text{path}} (a_{\text{path}} + s_{\text{path}}\,\beta)

    silva2018 eq. 28 (gamma = 1) as :func:`numeric.path_envelope` finds it;
    the curve is linear between consecutive vertices, so the polygon under
    them has area exactly A_UOC (silva2018 eq. 23).

    Parameters
    ----------
    cm : array_like
        A K x K confusion matrix of counts (rows: true class, columns: predicted).

    Returns
    -------
    betas, values : tuple of SymPy numbers
        ``betas[0] = 0``, ``betas[-1] = 1``; the inner betas are the breakpoints.

    Examples
    --------
    >>> uoc_curve([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]])
    ((0, 2/3, 1), (1/3, 2/3, 2/3))
    """
    from .paths import path_envelope

    env = path_envelope(cm, metric="uoc", beta_max=1, arithmetic="exact")
    betas = tuple(env.breakpoints)
    return betas, tuple(env(b) for b in betas)


def plot_uoc(cm, ax=None, *, label=None, color=None, shade=True):
    r"""Draw UOC(beta) on [0, 1] with its breakpoints, and shade A_UOC.

    .. math:: A_{UOC} = \int_0^1 UOC_\beta^1\,d\beta

    silva2018 eqs. 23 and 28.  The line joins the exact vertices of
    :func:`uoc_curve` (no grid of betas); the breakpoints are marked; the
    shaded polygon under the curve has area A_UOC, written in the legend.

    Parameters
    ----------
    cm : array_like, shape (K, K)
        Counts, ``cm[i, j]``: true class ``i`` predicted as ``j``.
    ax : matplotlib Axes, optional
        Default: a new figure's axes.
    label : str, optional
        Legend prefix (e.g. the classifier's name).
    color : optional
        Matplotlib colour of the line, markers and shading.
    shade : bool, default True

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_uoc([[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]], label="B")
    >>> ax.lines[0].get_xydata().tolist()
    [[0.0, 0.3333333333333333], [0.6666666666666666, 0.6666666666666666], [1.0, 0.6666666666666666]]
    >>> ax.get_legend_handles_labels()[1]
    ['B: A_UOC = 5/9 ≈ 0.5556']
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("plot_uoc needs matplotlib: pip install 'ordinal-verify[plot]'") from None
    import sympy

    from .paths import a_uoc

    betas, values = uoc_curve(cm)
    area = a_uoc(cm, arithmetic="exact")
    x = [float(b) for b in betas]
    y = [float(v) for v in values]
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.5))
    text = f"A_UOC = {sympy.sstr(area)}" if len(sympy.sstr(area)) <= 20 else "A_UOC"
    text += f" ≈ {float(area):.4g}"
    (line,) = ax.plot(x, y, "-", color=color, label=f"{label}: {text}" if label else text)
    c = line.get_color()
    ax.plot(x[1:-1], y[1:-1], "o", color=c, markersize=4)
    if shade:
        ax.fill_between(x, y, 0, color=c, alpha=0.2, linewidth=0)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, max(1.0, max(y) * 1.05))
    ax.set_xlabel("β")
    ax.set_ylabel("UOC(β), γ = 1")
    ax.set_title("UOC(β) (silva2018 eq. 28); shaded: A_UOC (eq. 23)", fontsize=9)
    ax.legend(loc="lower right", fontsize=8)
    return ax

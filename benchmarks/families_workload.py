"""Workload 15 (issue 26, item 6): closed forms of one-symbol families, K = 3..6.

``uoc_piecewise`` (and ``oc_piecewise``, ``a_uoc_symbolic``) of a matrix whose
counts are polynomials in one integer ``n``: the envelope of all D(K) path
lines decided for every integer ``n`` from a threshold, the values below it
one by one.  The families were chosen for many envelope pieces (4 at K = 3
up to 8 at K = 6, counted on the symbolic branch) with a threshold that
stays within ``MAX_SPECIAL``; one of them is the 4 x 4 family of the issue,
``[[1,n,2,3],[n,1,n,2],[3,n,1,n],[2,3,n,1]]``, which had not finished after
200 CPU seconds (target: under 30 s).

The peer.  The previous code is too slow to run here on these families
(minutes to hours), so each row reports its absolute time and its ratio to
the 30 s target.  One row keeps a peer in the same run: the envelope step
of a small family computed by the expression-level algorithm kept in
:mod:`analytic.engines._pl` (``_lower_envelope_expr`` on
:func:`analytic.derivations.metric_thresholds.path_lines`, the previous method, still
used for radicals) against the polynomial route
(:class:`analytic.engines._family.PathLines`); the two must give the same object.

Every closed form is checked against :func:`numeric.path_envelope` (or
:func:`numeric.a_uoc`) in exact arithmetic on the substituted matrix, at
values of ``n`` on both sides of its threshold and at ``n = 1000``.  SymPy's
cache is cleared before every timed call (a cold derivation).
"""

from __future__ import annotations

from .timing import Config, Row, compare, time_one

__all__ = ["w15_families", "FAMILIES"]

TARGET = 30.0


def _families():
    import sympy as sp

    n = sp.Symbol("n", integer=True, positive=True)
    return n, [
        # (label, matrix, metric)
        ("K = 3", [[5, 5, n + 1], [5, 1, 5], [n, 0, 3]], "uoc"),
        ("K = 4, the issue's family", [[1, n, 2, 3], [n, 1, n, 2], [3, n, 1, n], [2, 3, n, 1]],
         "uoc"),
        ("K = 4, the issue's family", [[1, n, 2, 3], [n, 1, n, 2], [3, n, 1, n], [2, 3, n, 1]],
         "a_uoc"),
        ("K = 4", [[3, n + 3, n, n], [3, 1, 0, n + 3], [n, 0, 0, n], [1, 0, 5, n + 1]], "uoc"),
        ("K = 4", [[3, n + 3, n, n], [3, 1, 0, n + 3], [n, 0, 0, n], [1, 0, 5, n + 1]], "oc"),
        ("K = 5", [[1, 1, 2 * n, 1, 0], [n, n, 0, 2 * n, 2], [2, 1, 0, 0, n],
                   [1, n + 1, 0, 1, 0], [2, n, 0, 2, 0]], "uoc"),
        ("K = 5", [[1, 1, 2 * n, 1, 0], [n, n, 0, 2 * n, 2], [2, 1, 0, 0, n],
                   [1, n + 1, 0, 1, 0], [2, n, 0, 2, 0]], "a_uoc"),
        ("K = 6", [[n, 1, 2 * n, 0, n, 3 * n], [n, 1, 0, 3 * n, 1, 2 * n],
                   [1, 1, n, n, n, 3 * n], [0, 0, 0, 0, 0, n], [2 * n, 0, 2 * n, 0, n, n],
                   [3 * n, n, 0, 3 * n, 0, 3 * n]], "uoc"),
        ("K = 6", [[n, 1, 2 * n, 0, n, 3 * n], [n, 1, 0, 3 * n, 1, 2 * n],
                   [1, 1, n, n, n, 3 * n], [0, 0, 0, 0, 0, n], [2 * n, 0, 2 * n, 0, n, n],
                   [3 * n, n, 0, 3 * n, 0, 3 * n]], "a_uoc"),
    ]


FAMILIES = _families


def _cold(fn, *args):
    from sympy.core.cache import clear_cache

    def call():
        clear_cache()
        return fn(*args)
    return call


def _at(matrix, n, k):
    import numpy as np
    import sympy as sp

    return np.array([[int(sp.sympify(v).subs(n, k)) for v in row] for row in matrix],
                    dtype=np.int64)


def _same_function(f, g, beta):
    """Two piecewise-linear ``Piecewise`` in beta: equal at every breakpoint and between."""
    import sympy as sp

    pts = {sp.Integer(0), sp.Integer(3)}
    for h in (f, g):
        for p in h.atoms(sp.Piecewise):
            pts |= {c.rhs for _, c in p.args if c != sp.true}
    pts = sorted(pts)
    probes = pts + [(a + b) / 2 for a, b in zip(pts, pts[1:], strict=False)]
    return all(f.subs(beta, x) == g.subs(beta, x) for x in probes)


def _shape(form):
    """``(threshold m, pieces of the symbolic branch)`` of a family's form."""
    import sympy as sp

    general, m = form, 1
    if isinstance(form, sp.Piecewise) and isinstance(form.args[-1][1], sp.GreaterThan):
        general, cond = form.args[-1]
        m = int(cond.rhs)
    pieces = len(general.args) if isinstance(general, sp.Piecewise) else 1
    return m, pieces


def _check(form, matrix, metric, n, m):
    """The form at several ``n`` against numeric's exact envelope or A_UOC."""
    import numeric
    from analytic.symbols import beta
    from analytic.derivations.uoc import envelope_piecewise

    ks = sorted({1, max(1, m - 1), m, m + 1, 2 * m, 1000})
    for k in ks:
        sub = _at(matrix, n, k)
        if metric == "a_uoc":
            ok = form.subs(n, k) == numeric.a_uoc(sub, arithmetic="exact")
        else:
            ok = _same_function(form.subs(n, k),
                                envelope_piecewise(numeric.path_envelope(sub, metric=metric)), beta)
        if not ok:
            return False, f"differs from numeric (exact) at n = {k}"
    what = "numeric.a_uoc" if metric == "a_uoc" else "numeric.path_envelope"
    return True, f"equals {what} (exact) at n = {', '.join(map(str, ks))}"


def _peer_row(cfg: Config, n, label, matrix):
    """The envelope step: polynomial route vs the expression-level algorithm."""
    import sympy as sp

    from analytic.engines._family import PathLines, settle, support_threshold
    from analytic.engines._pl import _lower_envelope_expr
    from analytic.derivations.metric_thresholds import path_lines

    m0 = support_threshold(matrix, n, 1)

    def ours():
        return settle(PathLines(matrix, "uoc", n).envelope, n, m0)

    def peer():
        lines = path_lines(matrix, "uoc")
        return settle(lambda m: _lower_envelope_expr(lines, n, m), n, m0)

    (t_ours, (m1, f1)), (t_peer, (m2, f2)) = compare(
        _cold(ours), _cold(peer), repeats=2 if cfg.quick else 3, budget=cfg.budget)
    same = m1 == m2 and sp.srepr((f1.breaks, f1.lines)) == sp.srepr((f2.breaks, f2.lines))
    return Row("15 symbolic families", f"envelope step, uoc, {label} ({len(f1.lines)} pieces "
               f"from n = {m1})", t_ours,
               "expression-level envelope (`_lower_envelope_expr` on `path_lines`)", t_peer,
               target="— (report)", agree=same,
               check="same threshold, breakpoints and lines (sp.srepr)",
               note="the settle loop of the envelope only (no values below the threshold)")


def w15_families(cfg: Config):
    from analytic import a_uoc_symbolic, oc_piecewise, uoc_piecewise

    fns = {"uoc": uoc_piecewise, "oc": oc_piecewise, "a_uoc": a_uoc_symbolic}
    n, families = _families()
    rows = []
    if cfg.quick:
        rows.append(_peer_row(cfg, n, "K = 2", [[1, n], [2, 1]]))
        families = families[:1]
    else:
        rows.append(_peer_row(cfg, n, families[0][0], families[0][1]))
    shapes = {}
    for label, matrix, metric in families:
        t, form = time_one(_cold(fns[metric], matrix), repeats=1 if cfg.quick else 3,
                           budget=cfg.budget)
        key = (label, str(matrix))
        m, pieces = _shape(form)
        if metric == "a_uoc":  # a number per n: the pieces are those of the uoc row
            pieces = shapes.get(key)
        else:
            shapes[key] = pieces
        ok, check = _check(form, matrix, metric, n, m)
        name = {"uoc": "uoc_piecewise", "oc": "oc_piecewise", "a_uoc": "a_uoc_symbolic"}[metric]
        shape = f"{pieces} pieces, " if pieces else ""
        rows.append(Row(
            "15 symbolic families", f"`{name}`, {label} ({shape}symbolic from n = {m})", t,
            "", None, target=f"< {TARGET:.0f} s" if not cfg.quick else "— (quick)",
            target_met=(t.median < TARGET) if not cfg.quick else None, agree=None,
            check=f"{'' if ok else 'NOT OK: '}{check}",
            note=f"{t.median / TARGET:.3f} of the 30 s target; {matrix}",
        ))
        if not ok:
            rows[-1].agree = False
    return rows

r"""Closed forms behind the papers' figures, derived symbolically.

* :func:`single_sample_forms` — one sample at distance ``d`` from the
  diagonal (silva2018 Fig. 2, cardoso2011 §3.2 and Fig. 4);
* :func:`tridiagonal_forms` — the K-class tridiagonal matrix of ones
  (silva2018 Fig. 3, cardoso2011 §4 and Fig. 5), with the limits K -> oo.

Both also carry the matrix metrics of :data:`METRIC_FUNCTIONS` (Cohen's kappa,
within-one accuracy, MS, GM, Somers' d, tau_c, CEM-ORD).  The results are
frozen dataclasses: :class:`SingleSampleForms`, :class:`TridiagonalForms`,
:class:`MetricForms`.

Method
------
The matrices are described by *row kinds*: a kind is a row pattern (count per
offset ``c - r``) with a multiplicity that may depend on a symbol (the
tridiagonal matrix has one first row, ``K - 2`` interior rows, one last row).
From that description the weights of cardoso2011 eq. 7 (OC) and silva2018
eq. 28 (UOC) are computed with SymPy exactly as :mod:`numeric.paths` computes
them for a given matrix — ``N``, ``M``, the row frequencies, ``K'``, the
benefit ``b`` and the penalty ``q`` of every cell.  The minimisation over
paths is then reduced to a lower envelope of a few lines by a structural
lemma (one for a matrix with a single off-diagonal cell,
:func:`single_sample_forms`, one for a band-1 matrix, :func:`tridiagonal_forms`;
each is proved beside the code that uses it), and the envelope is computed by
the derivation engine, which decides every comparison for all integer values
of the parameter (no sampling).  The tests confirm each form
against :func:`numeric.path_envelope` exactly at many parameter values.

The metrics of :data:`METRIC_FUNCTIONS` are the formulas of their
:mod:`numeric` functions evaluated by SymPy on a description of the matrix:
on its nonempty classes at symbolic positions (:func:`positioned_metric_forms`,
the single sample) or on its row kinds (the tridiagonal matrix).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np
import sympy as sp

import numeric
from analytic.engines._pl import PL, lower_envelope
from analytic.engines._rowkinds import RowKind, exponent, matrix_rows, path_weights, totals
from analytic.symbols import K, b, beta, d
from numeric._symbolic import SymbolicArithmetic
from exactfloor.parsing import parse_number
from exactfloor.exact_sign import vanishes

__all__ = ["single_sample_forms", "tridiagonal_forms", "tridiagonal_new_metric_forms",
           "positioned_metric_forms", "band1_envelope", "METRIC_FUNCTIONS", "MetricForms",
           "SingleSampleForms", "TridiagonalForms"]


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------
#: The matrix metrics with closed forms here: field of :class:`MetricForms`
#: -> ``(name of the numeric function, its keyword arguments)``.
METRIC_FUNCTIONS = MappingProxyType({
    "kappa": ("cohen_kappa", {}),
    "kappa_linear": ("cohen_kappa", {"weights": "linear"}),
    "kappa_quadratic": ("cohen_kappa", {"weights": "quadratic"}),
    "within_one_accuracy": ("within_one_accuracy", {}),
    "minimum_sensitivity": ("minimum_sensitivity", {}),
    "geometric_mean_sensitivity": ("geometric_mean_sensitivity", {}),
    "somers_d": ("somers_d", {}),
    "kendall_tau_c": ("kendall_tau_c", {}),
    "cem_ord": ("cem_ord", {}),
})


@dataclass(frozen=True)
class MetricForms:
    r"""Closed forms of the metrics of :data:`METRIC_FUNCTIONS` on a family of matrices.

    Each metric field holds the value of the :mod:`numeric` function that
    :data:`METRIC_FUNCTIONS` names (with its defaults: MS and GM over the
    observed true classes), a SymPy expression in the family's parameter; it
    is ``None`` where the metric is undefined on the family (where
    :mod:`numeric` raises ``ValueError``).

    Parameters
    ----------
    kappa, kappa_linear, kappa_quadratic : sympy.Expr or None
        Cohen's kappa, unweighted and with linear or quadratic weights
        (:func:`numeric.cohen_kappa`; Cohen 1960, 1968).
    within_one_accuracy : sympy.Expr or None
        :func:`numeric.within_one_accuracy` (Levi & Hassner 2015).
    minimum_sensitivity, geometric_mean_sensitivity : sympy.Expr or None
        :func:`numeric.minimum_sensitivity`, :func:`numeric.geometric_mean_sensitivity`
        (Cruz-Ramírez et al. 2014; Kubat & Matwin 1997).
    somers_d : sympy.Expr or None
        :math:`d(\hat y\,|\,y)`, :func:`numeric.somers_d` (Somers 1962).
    kendall_tau_c : sympy.Expr or None
        Stuart's :math:`\tau_c`, :func:`numeric.kendall_tau_c` (Stuart 1953).
    cem_ord : sympy.Expr or None
        :func:`numeric.cem_ord` (Amigó et al. 2020).
    undefined : Mapping[str, str]
        For each metric field that is ``None``: why the metric is undefined.
    method : str
        How the forms were obtained.

    Examples
    --------
    >>> f = positioned_metric_forms({(0, 0): 2, (0, 1): 1, (1, 1): 1}, (0, 3))
    >>> f.minimum_sensitivity, f.undefined
    (2/3, mappingproxy({}))
    """

    kappa: sp.Expr | None
    kappa_linear: sp.Expr | None
    kappa_quadratic: sp.Expr | None
    within_one_accuracy: sp.Expr | None
    minimum_sensitivity: sp.Expr | None
    geometric_mean_sensitivity: sp.Expr | None
    somers_d: sp.Expr | None
    kendall_tau_c: sp.Expr | None
    cem_ord: sp.Expr | None
    undefined: Mapping[str, str]
    method: str

    def metric_forms(self) -> dict:
        """``{field: form}`` for every metric of :data:`METRIC_FUNCTIONS`."""
        return {name: getattr(self, name) for name in METRIC_FUNCTIONS}


@dataclass(frozen=True)
class SingleSampleForms(MetricForms):
    r"""The closed forms of :func:`single_sample_forms`: one sample at distance ``d``.

    Parameters
    ----------
    kappa, kappa_linear, kappa_quadratic, within_one_accuracy : sympy.Expr or None
        As in :class:`MetricForms`, in ``d``.
    minimum_sensitivity, geometric_mean_sensitivity, somers_d, kendall_tau_c, cem_ord : sympy.Expr or None
        As in :class:`MetricForms`, in ``d``.
    undefined : Mapping[str, str]
        As in :class:`MetricForms`.
    method : str
        How the forms were obtained.
    gamma : sympy.Number
        The exponent of OC and UOC.
    oc, uoc : sympy.Piecewise
        :math:`OC_\beta^\gamma`, :math:`UOC_\beta^\gamma` in
        :data:`analytic.symbols.d` and :data:`analytic.symbols.beta`.
    a_uoc : sympy.Expr or None
        :math:`A_{UOC} = \int_0^1 UOC_\beta^1\,d\beta` in ``d``; ``None``
        unless ``gamma = 1`` (silva2018 eq. 23 is for ``gamma = 1``).

    Examples
    --------
    >>> f = single_sample_forms()
    >>> f.uoc == f.oc, f.somers_d, sorted(f.undefined)
    (True, None, ['kendall_tau_c', 'somers_d'])
    """

    gamma: sp.Expr
    oc: sp.Expr
    uoc: sp.Expr
    a_uoc: sp.Expr | None


@dataclass(frozen=True)
class TridiagonalForms(MetricForms):
    r"""The closed forms of :func:`tridiagonal_forms`: the K-class tridiagonal matrix of ones.

    Parameters
    ----------
    kappa, kappa_linear, kappa_quadratic, within_one_accuracy : sympy.Expr or None
        As in :class:`MetricForms`, in :data:`analytic.symbols.K`.
    minimum_sensitivity, geometric_mean_sensitivity, somers_d, kendall_tau_c, cem_ord : sympy.Expr or None
        As in :class:`MetricForms`, in :data:`analytic.symbols.K`.
    undefined : Mapping[str, str]
        As in :class:`MetricForms`.
    method : str
        How the forms were obtained.
    mer, mae : sympy.Expr
        In ``K``.
    uoc : sympy.Expr
        :math:`UOC_\beta^1` in ``K`` and :data:`analytic.symbols.beta`.
    a_uoc : sympy.Expr
        In ``K``.
    oc : sympy.Expr
        :math:`OC_\beta^1` at :math:`\beta = b/(N(K-1))` (cardoso2011 §4's
        scaling), in ``K`` and :data:`analytic.symbols.b`.
    limits : Mapping[str, sympy.Expr]
        Field name -> limit of the form as ``K -> oo`` (every field above, and
        the kappas, Somers' d, tau_c and MS; not GM, CEM-ORD and within-one
        accuracy).

    Examples
    --------
    >>> f = tridiagonal_forms()
    >>> f.limits["mae"]
    2/3
    """

    mer: sp.Expr
    mae: sp.Expr
    uoc: sp.Expr
    a_uoc: sp.Expr
    oc: sp.Expr
    limits: Mapping[str, sp.Expr]


# ---------------------------------------------------------------------------
# path structure lemmas
# ---------------------------------------------------------------------------
def _single_cell_lines(w, cell):
    r"""Lines of a matrix with a single nonzero cell, off the diagonal.

    Lemma.  Every other cell has ``b = q = 0``, so a path costs
    :math:`1 - b + \beta q` if it passes through the cell and :math:`1`
    otherwise; both kinds exist (any cell lies on some monotone path, and the
    diagonal path avoids an off-diagonal cell).  Hence the index is the lower
    envelope of these two lines.
    """
    bc, qc = w[cell]
    return [(sp.Integer(1), sp.Integer(0)), (1 - bc, qc)]


def _band1_function(rows, gaps, w, n, n0):
    r"""The index of a band-1 (tridiagonal) matrix as a :class:`PL` in beta.

    Lemma.  Let :math:`w = -b + \beta q` (cardoso2011 §3.4) for a matrix whose
    counts vanish outside :math:`|r-c| \le 1`.  Then

    .. math:: \min_{\text{path}}\Big(1 + \sum_{\text{path}} w\Big)
              = 1 + \sum_{i} w_{i,i}
              + \sum_{g=1}^{K-1} \min(0,\, w_{g,g+1},\, w_{g+1,g}).

    Proof.  A monotone path meets every anti-diagonal :math:`r + c = \ell` at
    most once.  On an even level :math:`2i` the only band cell is
    :math:`(i,i)`, where :math:`w \le 0` (penalty 0); elsewhere on that level
    :math:`w = 0`.  On an odd level :math:`2g+1` the band cells are
    :math:`(g,g+1)` and :math:`(g+1,g)`.  So a path costs at least the right
    side; and the path through every diagonal cell that, between
    :math:`(g,g)` and :math:`(g+1,g+1)`, takes the better of the two band
    cells when its :math:`w < 0` (and the diagonal step otherwise) attains it.

    ``rows``: row kinds with multiplicities; ``gaps``: ``(upper row kind,
    lower row kind, multiplicity)`` for the gaps between consecutive rows.
    """
    base = 1 - sum((r.mult * w[(r.name, 0)][0] for r in rows if 0 in r.counts), sp.Integer(0))
    total = PL((sp.Integer(0),), ((sp.cancel(base), sp.Integer(0)),), n, n0)
    zero = (sp.Integer(0), sp.Integer(0))
    for upper, lower, mult in gaps:
        lines = [(sp.Integer(0), sp.Integer(0))]
        for key in ((upper, 1), (lower, -1)):
            bc, qc = w.get(key, zero)
            lines.append((-bc, qc))
        total = total + lower_envelope(lines, n, n0).scale(mult)
    return total


def _band1_rows_of_matrix(rows):
    """Row kinds and gaps of a concrete band-1 matrix (each row its own kind, :func:`matrix_rows`)."""
    if any(abs(offset) > 1 for r in rows for offset in r.counts):
        raise ValueError("the matrix is not band-1 (tridiagonal)")
    return rows, [(f"r{g}", f"r{g + 1}", 1) for g in range(len(rows) - 1)]


def band1_envelope(cm, metric="uoc", gamma=1):
    """The lower envelope of a concrete tridiagonal matrix, by the band-1 path lemma.

    The lemma (see :func:`tridiagonal_forms`) reduces the minimisation over
    paths to one envelope per gap between consecutive rows; the tests compare
    this function with :func:`numeric.path_envelope` to confirm it.

    Parameters
    ----------
    cm : array_like, shape (K, K)
        A tridiagonal (band-1) matrix of counts.
    metric : {"uoc", "oc"}, default "uoc"
        Whose path weights (silva2018 eq. 28, cardoso2011 eq. 7).
    gamma : number, default 1
        The exponent of the distance.

    Returns
    -------
    PL
        The envelope, a piecewise-linear function of beta without parameter (the
        derivation engine's); ``.piecewise(beta)`` gives its ``Piecewise``.

    Raises
    ------
    ValueError
        If the matrix is not band-1.

    Examples
    --------
    >>> band1_envelope([[1, 1], [1, 1]]).piecewise(beta)
    Piecewise((beta/4 + 1/2, beta < 2/3), (2/3, True))
    """
    rows, gaps = _band1_rows_of_matrix(matrix_rows(cm))
    return _band1_function(rows, gaps, path_weights(rows, metric, exponent(gamma)), None, 1)


# ---------------------------------------------------------------------------
# single sample
# ---------------------------------------------------------------------------
def _single_sample_functions(gamma=1):
    rows = [RowKind("sample", sp.Integer(1), {d: sp.Integer(1)})]
    out = {}
    for metric in ("oc", "uoc"):
        w = path_weights(rows, metric, gamma)
        out[metric] = lower_envelope(_single_cell_lines(w, ("sample", d)), d, 1)
    return out


def single_sample_forms(gamma=1):
    r"""Closed forms of the metrics of a matrix holding one sample at distance ``d`` from the diagonal.

    .. math:: OC_\beta^\gamma = UOC_\beta^\gamma
              = \min\Big(1,\ \frac{d}{1+d} + \beta d^\gamma\Big), \qquad
              A_{UOC} = 1 - \frac{1}{2d(d+1)^2}\ (\gamma = 1),

    .. math:: \kappa = \kappa_{lin} = \kappa_{quad} = \mathrm{MS} = \mathrm{GM}
              = \mathrm{CEM} = 0,\qquad \mathrm{Acc}_{\pm 1} = [d \le 1],

    Somers' d and :math:`\tau_c` undefined (the displays are what the
    derivation returns; they are not typed into the code).  OC, UOC,
    A_UOC: silva2018 Fig. 2 and §IV.A, cardoso2011 §3.2 and Fig. 4.  Derived
    from the weights of eq. 7 and eq. 28 of a matrix whose only nonzero cell
    holds one sample at distance ``d`` (``N = 1``, ``M = d``; for UOC
    ``K' = 1``, ``M' = d``) and a two-line lemma (every other cell has
    ``b = q = 0``, so a path costs :math:`1 - b + \beta q` through the cell and
    1 elsewhere, and both kinds of path exist); the breakpoint is decided for every integer
    ``d >= 1``.  The metrics of :data:`METRIC_FUNCTIONS`: the formulas of
    :mod:`numeric` evaluated by :func:`positioned_metric_forms` on the two
    nonempty classes at positions ``0`` and ``d``, for the sample above and
    below the diagonal (the forms agree; they do not depend on ``gamma``).
    Valid for any ``K > d`` and any position of the cell.

    Parameters
    ----------
    gamma : positive number, default 1
        A string is parsed by :func:`exactfloor.parsing.parse_number`, never evaluated.

    Returns
    -------
    SingleSampleForms
        ``oc``, ``uoc``: ``Piecewise`` in :data:`analytic.symbols.d` and
        :data:`analytic.symbols.beta`; ``a_uoc``: expression in ``d`` (only
        for ``gamma = 1``, else ``None``); the metric fields of
        :class:`MetricForms`, in ``d``, with ``somers_d`` and
        ``kendall_tau_c`` ``None`` and their reason in ``undefined`` (one
        sample forms no pair: :mod:`numeric` raises ``ValueError``);
        ``method``.

    Examples
    --------
    >>> f = single_sample_forms()
    >>> f.oc
    Piecewise((beta*d + d/(d + 1), beta < 1/(d*(d + 1))), (1, True))
    >>> f.a_uoc
    1 - 1/(2*d*(d + 1)**2)
    >>> f.kappa_quadratic, f.within_one_accuracy, f.kendall_tau_c
    (0, Piecewise((1, d <= 1), (0, True)), None)
    """
    gamma = exponent(gamma)
    fns = _single_sample_functions(gamma)
    a = None
    if gamma == 1:
        a = 1 + sp.factor(fns["uoc"].integral(0, 1) - 1)
    metrics = _single_sample_metric_forms()
    return SingleSampleForms(
        **metrics.metric_forms(), undefined=metrics.undefined, gamma=gamma,
        oc=fns["oc"].piecewise(beta), uoc=fns["uoc"].piecewise(beta), a_uoc=a,
        method="symbolic: weights of cardoso2011 eq. 7 / silva2018 eq. 28 for one sample "
               "at distance d, two-line lemma, envelope decided for all integers d >= 1; "
               "the other metrics: numeric's formulas on the two nonempty classes at "
               "positions 0 and d (positioned_metric_forms)")


def _single_sample_metric_forms():
    """:func:`positioned_metric_forms` of one sample at distance ``d`` (true class at
    0, predicted at ``d``; the tests check the forms on samples on both sides of the
    diagonal against numeric)."""
    return positioned_metric_forms({(0, 1): 1}, (0, d))


# ---------------------------------------------------------------------------
# the metrics of METRIC_FUNCTIONS on a matrix given by its nonempty classes
# ---------------------------------------------------------------------------
#: the metrics of METRIC_FUNCTIONS whose value depends on the positions of the classes
_POSITIONED = ("kappa_linear", "kappa_quadratic", "within_one_accuracy")


def positioned_metric_forms(cells, positions):
    r"""The metrics of :data:`METRIC_FUNCTIONS` of a matrix given by its nonempty classes.

    Every class not listed is empty.  A string (position or count) is
    parsed by :func:`exactfloor.parsing.parse_number`, never evaluated.

    The formulas are those of the :mod:`numeric` functions (Cohen 1960 and
    1968; 1-off accuracy, Levi & Hassner 2015; Cruz-Ramírez et al. 2014;
    Kubat & Matwin 1997; Somers 1962; Stuart 1953; Amigó et al. 2020 -- the
    references and equations are in their docstrings), shown here over the
    listed classes, with
    :math:`R_i`, :math:`C_j` the row and column sums and
    :math:`w_{ij} = [i \ne j],\ |p_i - p_j|,\ (p_i - p_j)^2`:

    .. math:: \kappa_w = 1 - \frac{N\sum w_{ij} n_{ij}}{\sum w_{ij} R_i C_j},\quad
              \mathrm{Acc}_{\pm1} = \frac1N\sum_{|p_i - p_j| \le 1} n_{ij},\quad
              \mathrm{MS} = \min_{R_i > 0}\frac{n_{ii}}{R_i},\quad
              \mathrm{GM} = \Big(\prod_{R_i > 0}\frac{n_{ii}}{R_i}\Big)^{1/K'},

    .. math:: d = \frac{C - D}{\tfrac12(N^2 - \sum R_i^2)},\quad
              \tau_c = \frac{2m(C - D)}{N^2(m - 1)},\quad
              \mathrm{CEM} = \frac{\sum n_{ij}\,\mathrm{prox}(j, i)}{\sum R_i\,\mathrm{prox}(i, i)},

    ``C``, ``D`` the concordant and discordant pairs, ``m`` the smaller
    number of observed true and predicted classes,
    :math:`\mathrm{prox}(j, i) = -\log_2\big((|\mu_j - \mu_i| + R_i/2)/N\big)`,
    :math:`\mu_i = \sum_{k<i} R_k + R_i/2`.

    Lemma (the listed classes suffice).  An empty class has zero row and
    column sums, so it adds zero terms to every sum above, it is not counted
    in ``K'`` or ``m``, it adds 0 to every :math:`\mu` (numeric.cem_ord's
    docstring says the same), and it changes no order of the listed
    classes; only the distances :math:`|p_i - p_j|` (kappa's weights,
    within-one's band) depend on where the classes stand.  So every metric
    is :mod:`numeric`'s own function (with ``SymbolicArithmetic``) on the
    ``k x k`` matrix of the listed classes, the weighted kappas with the
    positions' distances as their weights; only within-one accuracy's band
    is written here.  The tests compare this function with :mod:`numeric` on
    random matrices with empty classes.

    Parameters
    ----------
    cells : dict
        ``{(i, j): n}``: ``n`` samples of the class at ``positions[i]``
        predicted as the class at ``positions[j]`` (rows = true class).
    positions : sequence
        The ordinal positions :math:`p_0 < p_1 < \dots` of the classes that
        are some sample's true or predicted class -- numbers or SymPy
        expressions whose order the symbols' assumptions decide.

    Returns
    -------
    MetricForms
        Simplified expressions (CEM-ORD: logarithms expanded, factored);
        ``None``, with the reason in ``undefined``, where :mod:`numeric`
        raises ``ValueError`` (kappa: every sample in one class, true and
        predicted; Somers' d: one true class; :math:`\tau_c`: ``m = 1``).

    Raises
    ------
    ValueError
        Positions whose order is not decided, a cell outside them, no sample.

    Examples
    --------
    >>> f = positioned_metric_forms({(0, 0): 2, (0, 1): 1, (1, 1): 1}, (0, 3))
    >>> f.within_one_accuracy, f.kappa_linear, f.somers_d
    (3/4, 1/2, 2/3)
    """
    pos = [parse_number(p, what="position") for p in positions]
    for lo, hi in zip(pos, pos[1:], strict=False):
        if (hi - lo).is_positive is not True:
            raise ValueError(f"positions must increase (as the assumptions decide), got {lo} "
                             f"before {hi}")
    k = len(pos)
    n = {}
    for (i, j), v in cells.items():
        if not (0 <= i < k and 0 <= j < k):
            raise ValueError(f"cell {(i, j)} lies outside the {k} positions")
        v = parse_number(v, what=f"cell {(i, j)}")
        if v != 0:
            n[(i, j)] = v
    if not n:
        raise ValueError("the matrix holds no sample")
    N = sum(n.values())

    def dist(i, j):
        return sp.Abs(pos[i] - pos[j])

    # the metrics that see only the order of the classes: numeric's own functions on
    # the k x k matrix of the listed classes (the lemma), on symbolic counts
    compact = np.array([[n.get((i, j), sp.Integer(0)) for j in range(k)] for i in range(k)],
                       dtype=object)
    out, why = {}, {}
    for name, (fn, kwargs) in METRIC_FUNCTIONS.items():
        if name in _POSITIONED:
            continue
        try:
            out[name] = getattr(numeric, fn)(compact, arithmetic=SymbolicArithmetic(), **kwargs)
        except ValueError as exc:
            why[name] = str(exc)
    # the weighted kappas: numeric's kappa with the positions' distances as weights
    distance = np.array([[dist(i, j) for j in range(k)] for i in range(k)], dtype=object)
    for name, w in (("kappa_linear", distance), ("kappa_quadratic", distance ** 2)):
        try:
            out[name] = numeric.cohen_kappa(compact, weights=w, arithmetic=SymbolicArithmetic())
        except ValueError as exc:
            why[name] = str(exc)
    # within-one accuracy: the samples whose classes lie at most 1 apart
    out["within_one_accuracy"] = sum(sp.Piecewise((v, dist(i, j) <= 1), (0, True))
                                     for (i, j), v in n.items()) / N
    if "cem_ord" in out:  # logarithms of positive numbers: expanding them is valid (force=True)
        out["cem_ord"] = sp.factor(sp.expand_log(out["cem_ord"], force=True))
    forms = {name: None if name in why else
             out[name] if name == "cem_ord" else sp.simplify(out[name]) for name in METRIC_FUNCTIONS}
    return MetricForms(**forms, undefined=MappingProxyType(why),
                       method="numeric's functions on symbolic counts over the nonempty classes; "
                              "the weighted kappas and within-one accuracy with the distances of "
                              "their positions (positioned_metric_forms), simplified by SymPy")


# ---------------------------------------------------------------------------
# tridiagonal matrices
# ---------------------------------------------------------------------------
def _tridiagonal_description(k):
    """Row kinds and gaps of the K-class tridiagonal matrix of ones.

    ``k = K`` (symbolic, valid for K >= 3) or ``k = 2``.
    """
    one = sp.Integer(1)
    first = RowKind("first", one, {0: one, 1: one})
    last = RowKind("last", one, {-1: one, 0: one})
    if k == 2:
        return [first, last], [("first", "last", one)]
    interior = RowKind("interior", k - 2, {-1: one, 0: one, 1: one})
    rows = [first, interior, last]
    gaps = [("first", "interior", one), ("interior", "interior", k - 3), ("interior", "last", one)]
    assert sp.cancel(sum(r.mult for r in rows) - k) == 0
    assert sp.cancel(sum(g[2] for g in gaps) - (k - 1)) == 0
    return rows, gaps


def _tridiagonal_functions():
    """Per metric ``{"general": PL for K >= 3, 2: PL at K = 2}`` and classical totals."""
    out = {}
    for key, k, n, n0 in (("general", K, K, 3), (2, sp.Integer(2), None, 1)):
        rows, gaps = _tridiagonal_description(k)
        out.setdefault("totals", {})[key] = totals(rows)
        for metric in ("oc", "uoc"):
            w = path_weights(rows, metric, 1)
            out.setdefault(metric, {})[key] = _band1_function(rows, gaps, w, n, n0)
    return out


def _same(f: PL, g: PL):
    return (len(f.breaks) == len(g.breaks)
            and all(vanishes(x - y) for x, y in zip(f.breaks, g.breaks, strict=True))
            and all(vanishes(x[0] - y[0]) and vanishes(x[1] - y[1])
                    for x, y in zip(f.lines, g.lines, strict=True)))


# ---------------------------------------------------------------------------
# the metrics of numeric.agreement / sensitivity / association / cem
# ---------------------------------------------------------------------------
def _weight(kind, k):
    """Disagreement weight of cohen_kappa at class distance ``k >= 1``."""
    return {"kappa": sp.Integer(1), "kappa_linear": k, "kappa_quadratic": k**2}[kind]


def _tridiagonal_kappa(kind):
    r"""Kappa of the tridiagonal matrix of ones for every integer K >= 2.

    Row and column sums are :math:`R_i = 3 - [i = 1] - [i = K]` (the matrix is
    symmetric).  With :math:`a_i = [i=1] + [i=K]` and :math:`w(k)` the weight
    at distance k (:math:`w(0) = 0`),

    .. math:: \sum_{i,j} w(|i-j|) R_i R_j = 9\,T - 6\,W + 2\,w(K-1),\quad
              T = 2\sum_{k=1}^{K-1}(K-k)\,w(k),\quad W = 2\sum_{k=1}^{K-1} w(k)

    (:math:`\sum_{i,j} w\,a_i a_j = 2w(K-1)`; :math:`\sum_{i,j} w\,a_i =`
    the weights seen from class 1 plus from class K).  The observed
    disagreement is :math:`\sum w\,n = 2(K-1)\,w(1)` (the off-diagonal
    ones); the sums are evaluated by SymPy.
    """
    k = sp.Symbol("k", integer=True, positive=True)
    w = _weight(kind, k)
    T = 2 * sp.summation((K - k) * w, (k, 1, K - 1))
    W = 2 * sp.summation(w, (k, 1, K - 1))
    expected = 9 * T - 6 * W + 2 * w.subs(k, K - 1)
    N = 3 * K - 2
    observed = 2 * (K - 1) * w.subs(k, 1)
    return sp.factor(sp.simplify(1 - N * observed / expected))


def _row_metrics(rows, gaps):
    r"""Within-one accuracy, MS, GM, CEM-ORD, tau_c and Somers' d of a band-1 matrix
    described by row kinds (each row's pattern, its multiplicity) and the
    gaps between consecutive rows, with equal row and column sums (a
    symmetric matrix such as the tridiagonal one).

    * within-one: every count of a band-1 matrix is within one class.
    * MS, GM: the recall of a row kind is its diagonal count over its row sum.
    * CEM-ORD (numeric.cem_ord): for adjacent classes
      :math:`|\mu_{r+1} - \mu_r| = (R_r + R_{r+1})/2`, so the closeness of
      cell ``(u, u+1)`` is :math:`R_u + R_l/2` and of ``(l, l-1)`` is
      :math:`R_l + R_u/2` (``u`` the upper, ``l`` the lower row of a gap);
      a diagonal cell's is :math:`R_r/2`.
    * tau_c and Somers' d: lemma -- in a band-1 matrix the only discordant
      pairs are ``(g, g+1)`` with ``(g+1, g)``: a cell ``(i, j)`` and a cell
      ``(i', j')`` with ``i' > i``, ``j' < j`` and ``|i - j|, |i' - j'| <= 1``
      need ``i' - 1 <= j' < j <= i + 1 <= i'``, so ``i' = i + 1``,
      ``j = i + 1``, ``j' = i``.  Then ``D`` is a sum over gaps, and
      :math:`C = \binom{N}{2} - T_r - T_c + T_{rc} - D` with the pairs tied on
      the row, on the column, and on both (the cell).
    """
    Rs = {r.name: sum(r.counts.values()) for r in rows}
    N = sp.cancel(sum(r.mult * Rs[r.name] for r in rows))
    out = {}
    inband = sum(r.mult * sum(n for o, n in r.counts.items() if abs(o) <= 1) for r in rows)
    out["within_one_accuracy"] = sp.cancel(inband / N)
    recalls = [(r.counts.get(0, 0) / Rs[r.name], r.mult) for r in rows]
    out["minimum_sensitivity"] = sp.Min(*[v for v, m in recalls])
    out["geometric_mean_sensitivity"] = sp.powsimp(sp.Mul(*[v**m for v, m in recalls]) ** (1 / sp.cancel(
        sum(m for _, m in recalls))))
    L = lambda x: sp.log(x, 2)  # noqa: E731
    num = sum(r.mult * r.counts.get(0, 0) * -L(Rs[r.name] / (2 * N)) for r in rows)
    for u, l, mult in gaps:
        row_u = next(r for r in rows if r.name == u)
        row_l = next(r for r in rows if r.name == l)
        num += mult * (row_u.counts.get(1, 0) * -L((Rs[u] + Rs[l] / 2) / N)
                       + row_l.counts.get(-1, 0) * -L((Rs[l] + Rs[u] / 2) / N))
    den = sum(r.mult * Rs[r.name] * -L(Rs[r.name] / (2 * N)) for r in rows)
    out["cem_ord"] = sp.simplify(num / den)
    D = sum(mult * next(r for r in rows if r.name == u).counts.get(1, 0)
            * next(r for r in rows if r.name == l).counts.get(-1, 0) for u, l, mult in gaps)
    tied_row = sum(r.mult * Rs[r.name] * (Rs[r.name] - 1) / 2 for r in rows)
    tied_cell = sum(r.mult * n * (n - 1) / 2 for r in rows for n in r.counts.values())
    C = N * (N - 1) / 2 - 2 * tied_row + tied_cell - D  # column ties = row ties (symmetric)
    m = sp.cancel(sum(r.mult for r in rows))  # every class observed
    out["kendall_tau_c"] = sp.factor(sp.cancel(2 * m * (C - D) / (N**2 * (m - 1))))
    out["somers_d"] = sp.factor(sp.cancel((C - D) / (N * (N - 1) / 2 - tied_row)))
    return out


_TRIDIAGONAL_METRICS_METHOD = (
    "kappa from the row sums (sums over class distances by SymPy), within-one accuracy, MS, GM, "
    "CEM-ORD, Somers' d and tau_c from the row-kind description")


def tridiagonal_new_metric_forms():
    r"""Kappa (3 weightings), within-one accuracy, MS, GM, CEM-ORD, tau_c and Somers' d
    of the K-class tridiagonal matrix of ones, for every integer K >= 2.

    .. math:: \mathrm{MS} = \begin{cases}1/2 & K = 2\\ 1/3 & K \ge 3\end{cases},\qquad
              \mathrm{Acc}_{\pm1} = 1

    (two of the forms, as the derivation returns them).  Derived
    symbolically: kappa from the row sums, the others from the matrix's
    row-kind description (as in :func:`tridiagonal_forms`), K >= 3 and K = 2 separately, a ``Piecewise``
    with an ``Eq(K, 2)`` branch only where they differ.  Part of
    :func:`tridiagonal_forms`.

    Returns
    -------
    MetricForms
        In :data:`analytic.symbols.K`; every metric is defined (``undefined``
        is empty).

    Examples
    --------
    >>> f = tridiagonal_new_metric_forms()
    >>> f.minimum_sensitivity, f.within_one_accuracy
    (Piecewise((1/2, Eq(K, 2)), (1/3, True)), 1)
    """
    gen = _row_metrics(*_tridiagonal_description(K))
    two = _row_metrics(*_tridiagonal_description(sp.Integer(2)))
    out = {}
    for key in gen:
        g = gen[key]
        same = vanishes(sp.expand_log(g.subs(K, 2) - two[key], force=True))
        out[key] = g if same else sp.Piecewise((two[key], sp.Eq(K, 2)), (g, True),
                                                evaluate=False)
    for kind in ("kappa", "kappa_linear", "kappa_quadratic"):
        out[kind] = _tridiagonal_kappa(kind)
    return MetricForms(**out, undefined=MappingProxyType({}),
                       method="symbolic for every integer K >= 2 (K = 2 derived separately): "
                              + _TRIDIAGONAL_METRICS_METHOD)


def tridiagonal_forms():
    r"""MER, MAE, UOC, A_UOC and OC of the K-class tridiagonal matrix of ones, and their limits.

    The matrix has ones on the main, sub- and super-diagonal (``N = 3K - 2``
    samples).  silva2018 Fig. 3 and §IV.A, cardoso2011 §4 ("Tridiagonal
    matrices") and Fig. 5, with ``gamma = 1``.

    Derivation (symbolic, for every integer ``K >= 2``): the matrix is
    described by its row kinds (one first row, ``K - 2`` interior rows, one
    last row); the weights of cardoso2011 eq. 7 and silva2018 eq. 28 are
    computed from that description; the band-1 lemma (with :math:`w = -b + \beta q`,
    cardoso2011 §3.4, a monotone path meets each anti-diagonal once, so
    :math:`\min_{path}(1 + \sum w) = 1 + \sum_i w_{i,i} + \sum_g \min(0, w_{g,g+1}, w_{g+1,g})`)
    reduces the minimisation over paths to one
    three-line envelope per kind of gap between consecutive rows; the
    envelopes are decided for all ``K >= 3`` and the case ``K = 2`` (no
    interior row) is derived separately, kept as its own branch
    ``Eq(K, 2)`` only where it differs.  MER and MAE are the totals of the
    description.  Limits are pointwise as ``K -> oo`` (for fixed ``beta``,
    resp. fixed ``b``).

    Returns
    -------
    TridiagonalForms
        ``mer``, ``mae``: expressions in :data:`analytic.symbols.K`;
        ``uoc``: in ``K`` and :data:`analytic.symbols.beta`;
        ``a_uoc``: in ``K``;
        ``oc``: :math:`OC_\beta^1` at :math:`\beta = b/(N(K-1))`
        (cardoso2011 §4's scaling), in ``K`` and :data:`analytic.symbols.b`;
        the metric fields of :class:`MetricForms`, from
        :func:`tridiagonal_new_metric_forms`, in ``K``;
        ``limits``: the forms' limits as ``K -> oo`` (not GM, CEM-ORD and
        within-one accuracy); ``method``.

    Examples
    --------
    >>> f = tridiagonal_forms()
    >>> f.mer, f.limits["mer"]
    (2*(K - 1)/(3*K - 2), 2/3)
    >>> f.limits["oc"], f.limits["a_uoc"]
    (3/5, 37/50)
    """
    fns = _tridiagonal_functions()
    N, diag, err = fns["totals"]["general"]
    # the totals need no interior row: the K >= 3 expressions hold at K = 2
    assert tuple(v.subs(K, 2) for v in (N, diag, err)) == fns["totals"][2]
    mer = sp.factor(sp.cancel(1 - diag / N))
    mae = sp.factor(sp.cancel(err / N))
    forms, limits = {"mer": mer, "mae": mae}, {"mer": sp.limit(mer, K, sp.oo),
                                               "mae": sp.limit(mae, K, sp.oo)}

    uoc_g, uoc_2 = fns["uoc"]["general"], fns["uoc"][2]
    oc_g, oc_2 = fns["oc"]["general"], fns["oc"][2]
    # OC at beta = b / (N (K - 1)): rescale the variable
    scale = 1 / (N * (K - 1))
    oc_b_g = oc_g.rescale(scale)
    oc_b_2 = oc_2.rescale(scale.subs(K, 2))

    def pick(general, special, var):
        if _same(general.subs(2), special):
            return general.piecewise(var)
        return sp.Piecewise((special.piecewise(var), sp.Eq(K, 2)),
                            (general.piecewise(var), True), evaluate=False)

    forms["uoc"] = pick(uoc_g, uoc_2, beta)
    a_g, a_2 = uoc_g.integral(0, 1), uoc_2.integral(0, 1)
    forms["a_uoc"] = a_g if vanishes(a_g.subs(K, 2) - a_2) else \
        sp.Piecewise((a_2, sp.Eq(K, 2)), (a_g, True), evaluate=False)
    forms["oc"] = pick(oc_b_g, oc_b_2, b)
    limits["uoc"] = uoc_g.limit().piecewise(beta)
    limits["a_uoc"] = sp.limit(a_g, K, sp.oo)
    limits["oc"] = oc_b_g.limit().piecewise(b)
    new = tridiagonal_new_metric_forms()
    for key in ("kappa", "kappa_linear", "kappa_quadratic", "kendall_tau_c", "somers_d",
                "minimum_sensitivity"):
        form = getattr(new, key)
        limits[key] = sp.limit(form.args[-1][0] if isinstance(form, sp.Piecewise) else form,
                               K, sp.oo)
    return TridiagonalForms(
        **forms, **new.metric_forms(), undefined=new.undefined, limits=MappingProxyType(limits),
        method="symbolic for every integer K >= 2: weights of cardoso2011 eq. 7 / silva2018 "
               "eq. 28 from the row-kind description, band-1 path lemma, envelopes decided for "
               "all K >= 3 (K = 2 derived separately); limits pointwise as K -> oo; "
               + _TRIDIAGONAL_METRICS_METHOD)

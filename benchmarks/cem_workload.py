"""Workload 13 (issue 23, item 5): exact CEM-ORD, and ``ordinal-verify metrics`` on a 60 x 60 file.

Targets: CEM-ORD in exact arithmetic at K = 40 under 0.5 s (8 s or more
before), and the CLI ``metrics`` on a random 60 x 60 matrix file under 5 s
(56 CPU seconds before).  The peer of the first, timed in the same run, is
the previous algorithm, kept here as :func:`cem_ord_sympy_cells`: SymPy's
``log(x, 2)`` of each cell's closeness, summed by numpy over object arrays.
The two results agree when they are equal at 60 digits AND have the same
canonical form: numerator and denominator as integer combinations of the
logarithms of primes (:func:`prime_forms`; the logarithms of the primes are
linearly independent over the rationals, so a linear form has one set of
coefficients).
"""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np

from .timing import Config, Row, Timing, compare

__all__ = ["w13_cem", "cem_ord_sympy_cells", "prime_forms"]


def cem_ord_sympy_cells(cm):
    """CEM-ORD in exact arithmetic as :func:`numeric.cem_ord` computed it before
    issue 23: ``-log(x, 2)`` of every cell in SymPy, summed over object arrays."""
    from numeric._common import prepare

    p = prepare(cm, "exact")
    R = p.rows()
    N = np.expand_dims(np.asarray(p.total(), dtype=p.n.dtype), -1)
    mu = np.cumsum(R, axis=-1) - R / 2
    closeness = (np.abs(mu[..., None, :] - mu[..., :, None]) + R[..., :, None] / 2) / N[..., None]
    prox = -p.ctx.log2(np.where(p.counts > 0, closeness, p.ctx.number(1)))
    seen = p.counts.sum(axis=-1) > 0
    self_prox = -p.ctx.log2(np.where(seen, R / (2 * N), p.ctx.number(1)))
    return p.ctx.finalize((p.n * prox).sum(axis=(-2, -1)) / (R * self_prox).sum(axis=-1))


def _linear_form(e):
    """``{prime: coefficient}`` of ``e = c0 + sum c_i log(r_i) / log(2)`` (rational
    ``c``, positive rational ``r``), in units of ``log(2)``: ``c0`` goes to 2."""
    import sympy

    out = {}

    def put(p, c):
        out[p] = out.get(p, 0) + c

    for term in sympy.Add.make_args(sympy.expand(e)):
        c, rest = term.as_coeff_Mul()
        if rest == 1:
            put(2, c)
            continue
        factors = sympy.Mul.make_args(rest)
        logs = [f for f in factors if isinstance(f, sympy.log)]
        others = [f for f in factors if not isinstance(f, sympy.log)]
        if len(logs) != 1 or others != [1 / sympy.log(2)]:
            raise ValueError(f"not c log(r)/log(2): {term}")
        for p, k in sympy.factorrat(sympy.Rational(logs[0].args[0])).items():
            put(p, c * k)
    return {p: c for p, c in out.items() if c}


def prime_forms(v):
    """``(A, B)`` with ``v = A / B``, each a ``{prime: coefficient}`` linear form
    (:func:`_linear_form`), scaled so that B's coefficient of its smallest prime is 1."""
    import sympy

    num, den = [], []
    for f in sympy.Mul.make_args(v):
        if f.is_Pow and f.exp == -1 and f.base.is_Add:
            den.append(f.base)
        else:
            num.append(f)
    A = _linear_form(sympy.Mul(*num))
    B = _linear_form(sympy.Mul(*den)) if den else {2: sympy.Integer(1)}
    s = B[min(B)]
    return ({p: c / s for p, c in A.items()}, {p: c / s for p, c in B.items()})


def _agree(a, b):
    import sympy

    close = abs(sympy.N(a - b, 60)) <= sympy.Float(10, 60) ** -50 * max(1, abs(sympy.N(b, 60)))
    return bool(close) and prime_forms(a) == prime_forms(b)


def _cold(fn, *args, **kwargs):
    from sympy.core.cache import clear_cache

    clear_cache()
    return fn(*args, **kwargs)


def w13_cem(cfg: Config):
    from numeric import cem_ord

    from .workloads import _run_measured

    cem_ord([[1, 1], [1, 1]], arithmetic="exact")  # SymPy's import, not timed
    rows = []
    for K in ((4, 10) if cfg.quick else (10, 40)):
        rng = np.random.default_rng(cfg.seed + 1300 + K)
        cm = rng.integers(0, 20, (K, K))
        # SymPy caches the logarithms and sums of a call: each timed call starts
        # from an empty cache, as a new matrix would
        (t_ours, v), (t_peer, ref) = compare(
            lambda: _cold(cem_ord, cm, arithmetic="exact"), lambda: _cold(cem_ord_sympy_cells, cm),
            repeats=cfg.repeats, peer_repeats=1 if K >= 40 else 3, budget=cfg.budget,
        )
        ok = _agree(v, ref)
        target = "< 0.5 s" if K == 40 else "— (report)"
        rows.append(Row(
            "13 cem_ord exact", f"random {K}x{K}, counts 0..19", t_ours,
            "SymPy `log(x, 2)` per cell, summed (our previous algorithm)", t_peer,
            target=target, target_met=t_ours.median < 0.5 if K == 40 else None, agree=ok,
            check=("equal at 60 digits, same numerator and denominator over the logs of primes"
                   if ok else "results differ"),
            note="sums of integer coefficients per prime (sympy.factorint), one SymPy expression",
        ))
    K = 10 if cfg.quick else 60
    cm = np.random.default_rng(cfg.seed + 1360).integers(0, 20, (K, K))
    fd, path = tempfile.mkstemp(suffix=".csv", prefix="cem_workload_")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write("\n".join(",".join(map(str, r)) for r in cm.tolist()) + "\n")
        wall, status, peak_kib, out = _run_measured(
            [sys.executable, "-m", "ordinal_verify", "metrics", path])
    finally:
        os.unlink(path)
    ok = status == 0 and "CEM-ORD" in out
    rows.append(Row(
        "13 metrics CLI", f"`ordinal-verify metrics` on a random {K}x{K} file (counts 0..19)",
        Timing(wall, 1, (wall,)), "", None, target="< 5 s" if not cfg.quick else "— (quick)",
        target_met=None if cfg.quick else wall < 5, agree=ok,
        check=f"exit status {status}; peak memory {peak_kib / 1024:.0f} MiB",
        note="one run in a fresh process (imports included); every metric in exact arithmetic",
    ))
    return rows

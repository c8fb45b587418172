"""Workload 14: the property engine (issue 22) -- its float screen and whole audits."""

from __future__ import annotations

import numpy as np

from .timing import Row, Timing, compare, time_one

__all__ = ["w14_engine"]


def w14_engine(cfg):
    """The float screen's throughput (MAE on every 4 x 4 matrix with N = 8) against
    the exact per-matrix evaluation the auditor used before, and every property of
    MAE and of A_UOC over the default space (search only, two processes), with
    the tie budget and with every tie decided exactly."""
    from analytic.properties.audit import PROPERTIES, audit
    from analytic.properties.engine import MetricSpec
    from analytic.properties.exact import ExactContext
    from analytic.properties.space import DEFAULT_SPACE, SMALL_SPACE, block, count

    import numeric

    rows = []
    N = 4 if cfg.quick else 8
    A = block(4, N, 0, count(4, N)).reshape(-1, 4, 4)
    ev = MetricSpec(name="mae", variant="MAE", bounds=(0, None)).evaluator()
    sub = A[:200 if cfg.quick else 2000]

    def exact_loop():
        ctx = ExactContext(lambda m: numeric.mae(m, arithmetic="exact"), "lower", (0, None))
        return np.array([float(ctx.value(m).q) for m in sub])

    (t_ours, (v, d)), (t_loop, ref) = compare(lambda: ev(A), exact_loop, repeats=3,
                                              peer_repeats=1, budget=cfg.budget)
    peer = Timing(t_loop.median * len(A) / len(sub), t_loop.runs, t_loop.times)
    rate = len(A) / t_ours.median
    ok = bool(d.all()) and float(np.max(np.abs(v[:len(sub)] - ref))) <= 1e-15
    rows.append(Row(
        "14 property engine", f"float screen: MAE on all {len(A):,} 4x4 matrices with N = {N}",
        t_ours, f"exact per-matrix evaluation ({len(sub)} matrices, × {len(A) / len(sub):.0f})",
        peer, target="≥ 10^6 matrices/s" if not cfg.quick else "— (quick)",
        target_met=None if cfg.quick else rate >= 1e6, agree=ok,
        check="float values = exact ones (to 1e-15)" if ok else "values differ",
        note=f"{rate:,.0f} matrices/s"))
    rows += [_exact_tie_screen(cfg, name) for name in ("mae", "rmse", "kendall_tau_b", "a_uoc")]
    space = SMALL_SPACE if cfg.quick else DEFAULT_SPACE
    for name, exact_ties in (("mae", False), ("a_uoc", False), ("mae", True), ("a_uoc", True)):
        t, rep = time_one(lambda: audit(name, space=space, prove=False, jobs=2,
                                        exact_ties=exact_ties), repeats=1, budget=cfg.budget)
        t_small, ref = time_one(lambda: audit(name, space=SMALL_SPACE, prove=False, exact=True),
                                repeats=1, budget=cfg.budget)
        same = all(rep.results[p].verdict == ref.results[p].verdict or
                   ref.results[p].verdict in ("holds", "n/a") for p in PROPERTIES)
        fails = sum(r.verdict == "fails" for r in rep.results.values())
        left = sum(r.ties - r.ties_confirmed for r in rep.results.values())
        if exact_ties:
            same = same and left == 0
        rows.append(Row(
            "14 property engine", f"{name}: all {len(PROPERTIES)} properties, "
                                  f"{space.size():,} matrices, 2 processes"
                                  + (", every tie decided exactly" if exact_ties else ""), t,
            f"the all-exact search of the small space ({SMALL_SPACE.size():,} matrices)", t_small,
            target="< 60 s" if not cfg.quick else "— (quick)",
            target_met=None if cfg.quick else t.median < 60, agree=same,
            check="no verdict of the small exact search contradicted" if same else
                  "a verdict contradicts the exact search",
            note=f"{fails} properties fail; {space.size() / t.median:,.0f} base matrices/s "
                 f"vs {SMALL_SPACE.size() / t_small.median:,.0f} exact; {left:,} ties left "
                 "to 1e-9"))
    return rows


def _exact_tie_screen(cfg, name):
    """The exact screen of ties (every ``scale`` tie of the 4 x 4 matrices with
    N = 6: all of them are ties, for a scale-invariant metric) against the
    per-matrix exact check of the same ties (a sample, scaled), which decided
    the first 1,000 ties before.  MAE's values are rationals; RMSE's and
    tau_b's are roots of rationals (closed forms); A_UOC's are rationals found by
    a parametric search (the stack's matrices searched together)."""
    from analytic.properties.catalog import CLEAR, PROPERTIES, TIE
    from analytic.properties.engine import MetricSpec, _ExactTies
    from exactfloor.rational import rationals
    from analytic.properties.exact import ExactContext
    from analytic.properties.space import block, count
    from numeric.registry import REGISTRY

    m = REGISTRY[name]
    v = m.cases()[0]
    N = 3 if cfg.quick else 6
    A = block(4, N, 0, count(4, N)).reshape(-1, 4, 4)
    prop = PROPERTIES["scale"]
    spec = MetricSpec(name=name, variant=v.label, better=m.better, bounds=m.bounds)
    ev = spec.evaluator()
    status = prop.screen(ev, A)
    sub = A[:100 if cfg.quick else 1000]

    def screen():
        return _ExactTies(spec).decide(prop, A, status)

    def loop():
        ctx = ExactContext(m.bind(v, "exact"), m.better, m.bounds)
        return [prop.check(ctx, s) for s in sub]

    (t_ours, (new, decided)), (t_loop, ref) = compare(screen, loop, repeats=3, peer_repeats=1,
                                                      budget=cfg.budget)
    peer = Timing(t_loop.median * len(A) / len(sub), t_loop.runs, t_loop.times)
    # a scale-invariant metric: every matrix where it is defined is a float tie (f(2A) and
    # f(A) agree in float64), the others are CLEAR (undefined on both)
    ties = status == TIE
    ok = bool((ties == ev(A)[1]).all() and decided[ties].all() and (new == CLEAR).all()
              and all(w is None for w in ref))
    return Row(
        "14 property engine", f"exact tie screen: {v.label} scale, all {len(A):,} 4x4 matrices "
                              f"with N = {N} ({ties.sum():,} float ties)", t_ours,
        f"per-matrix exact check ({len(sub)} ties, × {len(A) / len(sub):.0f})", peer,
        target="—", target_met=None, agree=ok,
        check="every tie decided: equal, as the per-matrix check finds" if ok else
              "a tie left or decided otherwise",
        note=f"{ties.sum() / t_ours.median:,.0f} ties/s ({rationals().name}"
             + (", closed forms)" if name in ("rmse", "kendall_tau_b") else ")"))

"""Workload 12 (issue 11): ``numeric.compare``, paired bootstrap of every metric.

Target: N = 2,000 samples, K = 5, 10,000 resamples, every registered metric
including A_UOC, under 5 s.  Peers in the same run: ``scipy.stats.bootstrap``
(paired, percentile) for MAE alone, and the naive loop (resample indices,
``confusion_matrix``, every metric one matrix at a time) at fewer resamples.
"""

from __future__ import annotations

import numpy as np

from .timing import Config, Row, compare, time_one

__all__ = ["w12_compare"]


def _three(N, K, seed):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, K, N)
    a = np.clip(t + rng.integers(-1, 2, N), 0, K - 1)
    b = np.clip(t + rng.integers(-2, 3, N), 0, K - 1)
    return t, a, b


def _naive(t, a, b, R, seed, cases):
    """Index resampling and every metric per resampled matrix (the loop a user writes)."""
    from numeric import confusion_matrix

    rng = np.random.default_rng(seed)
    labels = np.arange(5)
    cm = confusion_matrix(t, a, labels=labels)
    out = np.empty((len(cases), R))
    for r in range(R):
        i = rng.integers(0, t.size, t.size)
        ca = confusion_matrix(t[i], a[i], labels=labels)
        cb = confusion_matrix(t[i], b[i], labels=labels)
        for k, (m, v) in enumerate(cases):
            kw = v.kwargs(cm)
            out[k, r] = float(m.function(cb, **kw)) - float(m.function(ca, **kw))
    return out


def w12_compare(cfg: Config):
    import scipy.stats

    from numeric import compare as ov_compare
    from numeric.comparison import paired_resamples
    from numeric.reporting import metric_cases

    N, K = (200 if cfg.quick else 2000), 5
    R = 200 if cfg.quick else 10_000
    R_loop = 100 if cfg.quick else 200
    t, a, b = _three(N, K, cfg.seed + 10)
    rows = []

    t_all, c_all = time_one(lambda: ov_compare(t, a, b, n_resamples=R, seed=1),
                            repeats=min(cfg.repeats, 3), budget=cfg.budget)
    rows.append(Row(
        "12 compare", f"N={N}, K={K}, {R} resamples, all {len(c_all.rows)} metric rows incl. A_UOC",
        t_all, "", None, target="< 5 s", target_met=None if cfg.quick else t_all.median < 5,
        note="one multinomial draw per resample over the (true, A, B) cells; each metric once on the stack"))

    R_mae = max(R, 2000)
    (t_ours, c), (t_peer, res) = compare(
        lambda: ov_compare(t, a, b, metrics=["mae"], n_resamples=R_mae, seed=2),
        lambda: scipy.stats.bootstrap(
            (t, a, b), lambda tt, aa, bb, axis=-1: (np.abs(bb - tt).mean(axis=axis)
                                                   - np.abs(aa - tt).mean(axis=axis)),
            paired=True, vectorized=True, n_resamples=R_mae, method="percentile",
            random_state=np.random.default_rng(3)),
        repeats=cfg.repeats, peer_repeats=3, budget=cfg.budget)
    ci, se = c["MAE"].diff_ci, res.standard_error
    d = max(abs(ci[0] - res.confidence_interval.low), abs(ci[1] - res.confidence_interval.high))
    # Monte Carlo SE of a 2.5% quantile of R draws: sqrt(0.025 * 0.975 / R) / phi(1.96)
    # = 2.67 / sqrt(R) bootstrap SE; of the difference of two: 3.78 / sqrt(R); 4 of those
    tol = 15 / np.sqrt(R_mae)
    rows.append(Row(
        "12 compare", f"N={N}, K={K}, {R_mae} resamples, MAE only", t_ours,
        "`scipy.stats.bootstrap(paired=True, method='percentile')`", t_peer,
        agree=bool(d <= tol * se),
        check=f"95% CI endpoints differ by {d / se:.2f} bootstrap SE (≤ {tol:.2f})"))

    cases = metric_cases()
    (t_ours2, c2), (t_loop, loop) = compare(
        lambda: ov_compare(t, a, b, n_resamples=R_loop, seed=4),
        lambda: _naive(t, a, b, R_loop, 5, cases),
        repeats=cfg.repeats, peer_repeats=1, budget=cfg.budget)
    # different random draws: compare the spread of the two bootstrap laws
    # (log of an SD estimate of R draws: SE about 1/sqrt(2R); of a ratio of two: 1/sqrt(R); 5 of those)
    sd_loop = loop.std(axis=1, ddof=1)
    cm, _, sa, sb, _ = paired_resamples(t, a, b, n_resamples=R_loop, seed=4)
    sd_ours = np.array([np.std(m.function(sb, **v.kwargs(cm)) - m.function(sa, **v.kwargs(cm)),
                               ddof=1) for m, v in cases])
    worst = float(np.max(np.abs(np.log(sd_ours / sd_loop))))
    rows.append(Row(
        "12 compare", f"N={N}, K={K}, {R_loop} resamples, all metrics", t_ours2,
        "loop: resample indices, `confusion_matrix`, each metric per matrix", t_loop,
        agree=bool(worst <= 5 / np.sqrt(R_loop)),
        check=f"bootstrap SDs of every difference within a factor {np.exp(worst):.2f} "
              f"(≤ {np.exp(5 / np.sqrt(R_loop)):.2f})"))
    rows.extend(_folds(cfg))
    return rows


def _folds(cfg: Config):
    """Issue 25's benchmark: 3 classifiers over 10 folds of N = 2,000 each, 10,000
    resamples, every metric row; target < 10 s, reported with the per-row cost.

    Two readings of "10,000 resamples over folds", both timed in this run: the
    grouped comparison with the bootstrap over folds (``groups=``,
    ``method="bootstrap"``; each metric once per fold and classifier, then the
    folds resampled), and the paired bootstrap of the pooled 20,000 samples
    (every pair of the three classifiers from one joint draw), which is the
    costlier one and the peer of the first: the ratio is what grouping saves.
    """
    from numeric import compare as ov_compare

    folds, N, K = (3, 200, 5) if cfg.quick else (10, 2000, 5)
    R = 200 if cfg.quick else 10_000
    parts = [_three(N, K, cfg.seed + 20 + f) for f in range(folds)]
    t, a, b = (np.concatenate(x) for x in zip(*parts, strict=True))
    rng = np.random.default_rng(cfg.seed + 40)
    c3 = np.clip(t + rng.integers(-1, 2, t.size) * (rng.random(t.size) < 0.4), 0, K - 1)
    groups = np.repeat(np.arange(1, folds + 1), N)
    (t_grp, g), (t_pool, p) = compare(
        lambda: ov_compare(t, a, b, c3, groups=groups, method="bootstrap", n_resamples=R, seed=6),
        lambda: ov_compare(t, a, b, c3, n_resamples=R, seed=7),
        repeats=min(cfg.repeats, 3), peer_repeats=1, budget=cfg.budget)
    per_row = t_grp.median / len(g.rows)
    return [Row(
        "12 compare", f"3 classifiers, {folds} folds x N={N}, {R} resamples over folds, all "
                      f"{len(g.rows)} rows (metric x pair)", t_grp,
        f"the pooled paired bootstrap of the {folds * N:,} samples, {R} resamples "
        f"({len(p.rows)} rows)", t_pool, target="< 10 s",
        target_met=None if cfg.quick else t_grp.median < 10,
        agree=[r.key for r in g.rows] == [r.key for r in p.rows],
        check=f"the same rows; {per_row * 1e3:.2f} ms per row grouped, "
              f"{t_pool.median / len(p.rows) * 1e3:.2f} ms per row pooled")]

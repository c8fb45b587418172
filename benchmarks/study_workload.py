"""Workload 18: the whole study across datasets (issue 39) against the same computation
written with scipy and scikit-posthocs in a loop."""

from __future__ import annotations

import numpy as np

from .timing import Row, compare

__all__ = ["w18_study"]


def _data(n_datasets, n_methods, n_folds, n, K, seed):
    """Long-format predictions: each method's errors at its own noise level, per dataset."""
    rng = np.random.default_rng(seed)
    cols = {"dataset": [], "method": [], "fold": [], "y_true": [], "y_pred": []}
    for d in range(n_datasets):
        for f in range(n_folds):
            y = rng.integers(0, K, n)
            for m in range(n_methods):
                noise = 0.2 + 0.05 * m + 0.1 * rng.random()
                p = np.where(rng.random(n) < noise, np.clip(y + rng.integers(-2, 3, n), 0, K - 1), y)
                cols["dataset"].append(np.full(n, d))
                cols["method"].append(np.full(n, m))
                cols["fold"].append(np.full(n, f))
                cols["y_true"].append(y)
                cols["y_pred"].append(p)
    return {k: np.concatenate(v) for k, v in cols.items()}


def _ours(data):
    import numeric

    s = numeric.study(data, tie_correction=True)
    tables = [s.summary_table().to_markdown()] + [s.table(k).to_markdown() for k in s.metrics]
    return s, tables


def _holm(p):
    """Holm's step-down adjusted p-values, plainly."""
    order = np.argsort(p)
    adj = np.empty(len(p))
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (len(p) - i) * p[j]))
        adj[j] = running
    return adj


def _peer(data):
    """The same study by hand: a confusion matrix and every metric per (dataset, method,
    fold) in a Python loop, then per metric scipy's rankdata, friedmanchisquare and wilcoxon
    (zsplit, Holm by hand), scikit-posthocs' Nemenyi, the z-test against the best method
    with Holm, and both tables as mean ± sd strings."""
    import scikit_posthocs as sp
    from scipy import stats

    from numeric.reporting import metric_rows

    rows = metric_rows(None)
    ds, ms, fs = (np.unique(data[c]) for c in ("dataset", "method", "fold"))
    K = int(max(data["y_true"].max(), data["y_pred"].max())) + 1
    vals = {key: np.empty((len(ds), len(ms), len(fs))) for _, _, key in rows}
    for i, d in enumerate(ds):
        for j, m in enumerate(ms):
            for f, fold in enumerate(fs):
                sel = (data["dataset"] == d) & (data["method"] == m) & (data["fold"] == fold)
                cm = np.zeros((K, K), dtype=np.int64)
                np.add.at(cm, (data["y_true"][sel], data["y_pred"][sel]), 1)
                for met, v, key in rows:
                    vals[key][i, j, f] = float(met.function(cm, **v.kwargs(cm), arithmetic="float"))
    N, k = len(ds), len(ms)
    out, tables = {}, []
    summary = []
    for met, _v, key in rows:
        mean, sd = vals[key].mean(axis=2), vals[key].std(axis=2, ddof=1)
        s = mean if met.better == "lower" else -mean
        ranks = np.array([stats.rankdata(r) for r in s])
        avg = ranks.mean(axis=0)
        chi2, _ = stats.friedmanchisquare(*s.T)
        nem = sp.posthoc_nemenyi_friedman(s).to_numpy()
        z = (avg - avg.min()) / np.sqrt(k * (k + 1) / (6 * N))
        c = int(np.argmin(avg))
        pz = 2 * stats.norm.sf(np.abs(np.delete(z, c)))
        holm_c = _holm(pz)
        pw = [stats.wilcoxon(s[:, a], s[:, b], zero_method="zsplit").pvalue
              for a in range(k) for b in range(a + 1, k)]
        holm_w = _holm(np.array(pw))
        out[key] = (avg, chi2, nem, holm_c, holm_w)
        tables.append("\n".join(" | ".join(f"{a:.3f} ± {b:.3f}" for a, b in zip(mr, sr))
                                for mr, sr in zip(mean, sd)) + "\n" + " | ".join(f"{a:.2f}" for a in avg))
        summary.append(" | ".join(f"{a:.3f} ± {b:.3f}" for a, b in
                                  zip(mean.mean(axis=0), mean.std(axis=0, ddof=1))))
    return out, ["\n".join(summary)] + tables


def _diff(a, b):
    """Max |a - b|, or inf when the shapes differ or a value is NaN (never a silent pass)."""
    a, b = np.ravel(np.asarray(a, dtype=float)), np.ravel(np.asarray(b, dtype=float))
    if a.shape != b.shape:
        return np.inf
    d = np.abs(a - b)
    return float(np.inf if np.isnan(d).any() else d.max(initial=0.0))


def _agree(ours, peer):
    """Max |diff| of the average ranks, Friedman statistics, Nemenyi p-values, and Holm's
    adjusted p-values against the control (the best average rank) and of Wilcoxon's pairs."""
    s, _ = ours
    out, _ = peer
    d = 0.0
    for key in s.metrics:
        t = s.tests[key]
        avg, chi2, nem, holm_c, holm_w = out[key]
        d = max(d, _diff(t.average_ranks, avg), _diff(t.friedman.chi2, chi2) / max(1.0, abs(chi2)),
                _diff(t.nemenyi.p_values, nem), _diff(t.control.p_holm, holm_c),
                _diff(t.wilcoxon.p_holm, holm_w))
    return d


def w18_study(cfg):
    """30 datasets x 8 methods x 10 folds of 1,000 samples (quick: 3 x 3 x 2 of 40), every
    metric, all tests and both tables: ``numeric.study`` against the loop of scipy and
    scikit-posthocs calls (ratio: the loop's time over ours)."""
    if cfg.quick:
        N, k, F, n = 3, 3, 2, 40
    else:
        N, k, F, n = 30, 8, 10, 1000
    data = _data(N, k, F, n, 5, cfg.seed)
    (t_ours, ours), (t_peer, peer) = compare(lambda: _ours(data), lambda: _peer(data),
                                              repeats=1 if not cfg.quick else 2,
                                              peer_repeats=1, budget=cfg.budget)
    d = _agree(ours, peer)
    s = ours[0]
    met = None if cfg.quick else bool(t_ours.median < 10)
    return [Row(
        "18 study", f"{N} datasets x {k} methods x {F} folds of {n:,} samples, "
                    f"{len(s.metrics)} metric variants, K = 5", t_ours,
        "a loop of every metric per fold, scipy (rankdata, friedmanchisquare, wilcoxon) and "
        "scikit-posthocs (Nemenyi)", t_peer,
        target="< 10 s" if not cfg.quick else "— (quick)", target_met=met, agree=bool(d <= 1e-9),
        check=f"max |diff| (average ranks, Friedman chi2 relative, Nemenyi p, Holm p against "
              f"the control and of Wilcoxon's pairs) = {d:.1e}",
        note="both tables of every metric as Markdown on our side, as strings on the peer's")]

"""Workload 17: the falsifier (issue 41) against a random search of the same budget."""

from __future__ import annotations

import numpy as np

from .timing import Row, compare

__all__ = ["w17_falsify"]

#: the cells the guided search refuted in the property table (2026-12-07): none is refuted
#: by the default search (every matrix up to K = 4, N = 8 and 20,000 random ones)
CELLS = (("uoc", "UOC, beta=0.25", "imbalance"), ("uoc", "UOC, beta=0.25", "monotonicity"),
         ("a_uoc", "A_UOC", "imbalance"))


def _random_search(name, label, prop, budget):
    """The peer: the search's own random part, widened to the falsifier's sizes (K up to
    ``max_k``, N up to ``max_n``; diagonal matrices for a diagonal property), as many
    base matrices as the falsifier's budget, screened in float64 and every candidate
    checked exactly (at most ``budget.checks``); the first confirmed one or None."""
    from numeric.registry import REGISTRY

    from analytic.properties.catalog import CANDIDATE, PROPERTIES
    from analytic.properties.engine import MetricSpec
    from analytic.properties.exact import ExactContext

    m = REGISTRY[name]
    v = m.variant(label)
    ev = MetricSpec(name=name, variant=label, better=m.better, bounds=m.bounds).evaluator()
    ctx = ExactContext(m.bind(v, "exact"), m.better, m.bounds)
    p = PROPERTIES[prop]
    rng = np.random.default_rng(budget.seed)
    lo = 3 if p.region == "diagonal" else 2
    left, checks = budget.evaluations, 0
    while left > 0:
        K = int(rng.integers(lo, budget.max_k + 1))
        N = int(rng.integers(K, budget.max_n + 1))
        n = min(500, max(1, left // (K * K if p.region == "matrices" else 2 * K)))
        if p.region == "diagonal":
            A = np.array([np.diag(rng.multinomial(N, np.ones(K) / K)) for _ in range(n)])
        else:
            A = rng.multinomial(N, np.ones(K * K) / (K * K), size=n).reshape(n, K, K)
        A = A[p.bases(A)]
        left -= n * (K * K if p.region == "matrices" else 2 * K)  # the base and its moves
        if not len(A):
            continue
        for mat in A[p.screen(ev, A) == CANDIDATE]:
            checks += 1
            if checks > budget.checks:
                return None
            if p.check(ctx, mat):
                return mat
    return None


def w17_falsify(cfg):
    """Each cell the guided search refuted, searched again with the table's budget
    (:data:`analytic.properties.falsify.DEFAULT_BUDGET`) by the falsifier and by a random
    search of the same sizes and budget: whether each finds a counterexample, and their
    times (ratio: the random search's time over the falsifier's)."""
    from analytic.properties.falsify import DEFAULT_BUDGET, Budget, falsify

    budget = Budget(evaluations=40_000) if cfg.quick else DEFAULT_BUDGET
    rows = []
    for name, label, prop in CELLS[:1] if cfg.quick else CELLS:
        (t_ours, found), (t_peer, peer) = compare(
            lambda: falsify(name, prop, variant=label, budget=budget),
            lambda: _random_search(name, label, prop, budget), repeats=1, peer_repeats=1,
            budget=cfg.budget)
        ok = found is not None
        rows.append(Row(
            "17 falsifier", f"{label}: {prop}, {budget.text()}", t_ours,
            "a random search of the same sizes and budget", t_peer,
            target="found within the budget", target_met=ok, agree=ok,
            check=("a counterexample, confirmed exactly" if ok else "nothing found"),
            note=(f"falsifier: {found.matrix.tolist() if ok else 'none'} (met at N = "
                  f"{int(found.found.sum()) if ok else 0}); random search: "
                  + ("none" if peer is None else f"{peer.tolist()}"))))
    return rows

"""Issue 22: exact A_UOC of integer counts, searched and integrated in int64.

- ``numeric.paths.uoc_integer_parts`` is ``uoc_parts`` at gamma = 1 over one
  common denominator (the same rationals, compared exactly), and says which
  matrices fit in int64.
- ``numeric.envelope.search_int64`` finds the envelope ``numeric.envelope.search``
  finds in Fractions (lines given explicitly, minimisers by brute force).
- Exact A_UOC (``_a_uoc_int64``, with the general path for a matrix that does
  not fit) equals the independent Fraction search of ``benchmarks.baselines``
  on every matrix with K <= 3 and N <= 3, on random matrices with empty rows
  and columns up to K = 6, and on matrices whose lcm of row totals leaves int64.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import numeric._dp as dp
import numeric.paths as paths
from exactfloor.rational import rationals
from analytic.properties.space import block, count
from exactfloor.arith import FRACTION
from numeric._common import prepare
from numeric.envelope import lines_everywhere, merge, search, search_int64

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.baselines import a_uoc_exact_fractions  # noqa: E402


def _fraction(v):
    return Fraction(int(v.numerator), int(v.denominator)) if hasattr(v, "numerator") else Fraction(
        int(v.p), int(v.q))


def _random_stack(rng, n, K, high):
    """Counts with about 40% empty cells, and some empty rows and columns."""
    cms = rng.integers(0, high, (n, K, K)) * (rng.random((n, K, K)) < 0.6)
    cms[:, rng.integers(K), :] *= rng.random((n, 1)) < 0.7
    cms[:, :, rng.integers(K)] *= rng.random((n, 1)) < 0.7
    cms[cms.sum(axis=(1, 2)) == 0, 0, 0] = 1
    return cms


# ---------------------------------------------------------------------------
# the integer weights
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("K", [1, 2, 3, 5, 6])
def test_integer_parts_are_uoc_parts_over_a_common_denominator(K):
    # expected: uoc_parts at gamma = 1 in Fractions (silva2018 eq. 28 as written there)
    cms = _random_stack(np.random.default_rng(K), 60, K, 9)
    nI, qI, L, Dn, Dd, fits = paths.uoc_integer_parts(cms)
    assert fits.all()
    numer, D, q = paths.uoc_parts(prepare(cms, FRACTION), 1)
    for i in range(len(cms)):
        assert [Fraction(int(v), int(L[i])) for v in nI[i].ravel()] == list(numer[i].ravel())
        assert [Fraction(int(v), int(L[i])) for v in qI[i].ravel()] == list(q[i].ravel())
        assert Fraction(int(Dn[i]), int(Dd[i])) == D[i]


def test_integer_parts_refuse_numbers_beyond_int64():
    # row totals 999,983 and 1,000,003 (coprime: lcm about 10^12) and cells of that
    # size: the search's products P R would pass 2**61
    big = np.array([[[999_982, 1], [2, 1_000_001]], [[1, 0], [0, 1]]])
    *_, fits = paths.uoc_integer_parts(big)
    assert fits.tolist() == [False, True]
    # the product of the row totals beyond 2**50: the lcm is not even computed
    huge = np.diag([2**26 + 1, 2**26 - 1])[None]
    assert paths.uoc_integer_parts(huge)[-1].tolist() == [False]


def test_row_totals_whose_lcm_overflows_int64_are_exact():
    # four primes near 2**16: their lcm (about 1.8e19) overflows int64; expected:
    # the Fraction search of benchmarks.baselines
    primes = [65521, 65519, 65497, 65479]
    cm = np.zeros((1, 4, 4), dtype=np.int64)
    for r, t in enumerate(primes):
        cm[0, r, r], cm[0, r, (r + 1) % 4] = t - 1, 1
    assert paths.uoc_integer_parts(cm)[-1].tolist() == [False]
    _check(cm, rationals())
    # row totals 2**32 + 1 and 2**32 - 1 (coprime): their product 2**64 - 1 wraps to
    # -1 in int64, so an lcm taken there would be 1
    cm = np.array([[[2**32, 1], [2, 2**32 - 3]]])
    assert paths.uoc_integer_parts(cm)[-1].tolist() == [False]
    _check(cm, rationals())


# ---------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_search_int64_finds_the_envelope_of_the_fraction_search(seed):
    # expected: numeric.envelope.search in Fractions on the same lines; the lines
    # of each "matrix" are random integer lines, the minimiser at a point by brute force
    rng = np.random.default_rng(seed)
    n = 30
    lines = [list(zip(rng.integers(-40, 40, 9).tolist(), rng.integers(-20, 20, 9).tolist(),
                      strict=True)) for _ in range(n)]

    def least(i, x):  # the first line of least value at x (a Fraction)
        return min(lines[i], key=lambda ln: ln[0] + ln[1] * x)

    def least_line(idx, p, r):
        chosen = [least(i, Fraction(int(pp), int(rr))) for i, pp, rr in zip(idx, p, r, strict=True)]
        return (np.array([c[0] for c in chosen], dtype=np.int64),
                np.array([c[1] for c in chosen], dtype=np.int64))

    hi_p, hi_r = rng.integers(1, 30, n), rng.integers(1, 7, n)
    every = np.arange(n)
    end_lo = least_line(every, np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64))
    end_hi = least_line(every, hi_p, hi_r)
    idx, lp, lr, hp, hr, a, s = search_int64(least_line, hi_p, hi_r, end_lo, end_hi)

    def lines_at(ix, x):
        chosen = [least(i, x_) for i, x_ in zip(ix, x, strict=True)]
        return (np.array([c[0] for c in chosen], dtype=object),
                np.array([c[1] for c in chosen], dtype=object))

    lo = np.array([Fraction(0)] * n, dtype=object)
    hi = np.array([Fraction(int(p), int(r)) for p, r in zip(hi_p, hi_r, strict=True)], dtype=object)
    ref = search(lines_everywhere(lines_at), lo, hi, lines_at(every, lo), lines_at(every, hi), FRACTION)
    for i in range(n):
        at = idx == i
        got = merge([Fraction(int(p), int(r)) for p, r in zip(lp[at], lr[at], strict=True)],
                    [Fraction(int(p), int(r)) for p, r in zip(hp[at], hr[at], strict=True)],
                    a[at].tolist(), s[at].tolist())
        want = merge(*(list(v[ref[0] == i]) for v in ref[1:]))
        assert got == want, i


# ---------------------------------------------------------------------------
# exact A_UOC
# ---------------------------------------------------------------------------
def _check(cms, arithmetic):
    values = paths.a_uoc(cms, arithmetic=arithmetic)
    for cm, v in zip(cms, values, strict=True):
        assert _fraction(v) == a_uoc_exact_fractions(cm), cm


def test_every_small_matrix_equals_the_fraction_search():
    # every matrix with K <= 3 and N <= 3 (the space of the old all-exact search)
    cms = [block(K, N, 0, count(K, N)).reshape(-1, K, K) for K in (1, 2, 3) for N in (1, 2, 3)]
    for stack in cms:
        _check(stack, rationals())


@pytest.mark.parametrize("K", [1, 2, 4, 5, 6])
@pytest.mark.parametrize("arithmetic", ["exact", "mpq"])
def test_random_matrices_equal_the_fraction_search(K, arithmetic):
    ctx = rationals() if arithmetic == "mpq" else "exact"
    cms = _random_stack(np.random.default_rng(100 + K), 40, K, 12)
    _check(cms, ctx)


def test_many_classes_with_small_row_totals_are_searched_in_int64():
    # 40 classes, row totals 1..3: the lcm is at most 6 (the product of the totals
    # is about 2**50); expected: the Fraction search of benchmarks.baselines
    rng = np.random.default_rng(40)
    cms = (rng.random((3, 40, 40)) < 0.02).astype(np.int64)
    cms[:, np.arange(40), np.arange(40)] += 1
    assert paths.uoc_integer_parts(cms)[-1].all()
    _check(cms, rationals())


@pytest.mark.parametrize("arithmetic", ["exact", "mpq"])
def test_a_matrix_beyond_int64_goes_the_general_way(arithmetic, monkeypatch):
    # the large matrix alone through _exact_areas, the small ones in int64, in SymPy's
    # exact context (the weights in Fractions) and in the engine's mpq
    general = []
    original = paths._exact_areas
    monkeypatch.setattr(paths, "_exact_areas", lambda *a: general.append(len(a[1])) or original(*a))
    cms = np.array([[[1, 2, 0], [0, 3, 1], [1, 0, 0]],
                    [[999_982, 1, 0], [2, 1_000_001, 5], [0, 0, 7]],
                    [[0, 0, 1], [0, 0, 0], [4, 0, 0]]])
    _check(cms, rationals() if arithmetic == "mpq" else "exact")
    assert general == [1]


def test_the_line_at_beta_one_is_the_diagonal():
    # the search takes the diagonal path's line at t = D (beta = 1) without a DP;
    # expected: the least path there, by the DP, costs the same
    cms = _random_stack(np.random.default_rng(5), 50, 4, 7)
    nI, qI, L, Dn, Dd, fits = paths.uoc_integer_parts(cms)
    A, S = dp.least_lines_int64(nI.reshape(-1, 16).T.copy(), qI.reshape(-1, 16).T.copy(), Dn, Dd)
    diagonal = np.trace(nI, axis1=1, axis2=2)
    assert (Dn * S - Dd * A == -Dd * diagonal).all()


def test_two_lines_of_one_slope_stop_the_integral(monkeypatch):
    # a search that returned two different least lines of one slope (impossible for
    # a correct search) is an error, never a value
    real = paths.search_int64

    def broken(*args):
        idx, lp, lr, hp, hr, a, s = real(*args)
        return (np.r_[idx, idx[:1]], np.r_[lp, lp[:1]], np.r_[lr, lr[:1]], np.r_[hp, hp[:1]],
                np.r_[hr, hr[:1]], np.r_[a, a[:1] + 1], np.r_[s, s[:1]])

    monkeypatch.setattr(paths, "search_int64", broken)
    with pytest.raises(AssertionError, match="one slope"):
        paths.a_uoc(np.array([[[1, 1], [0, 2]]]), arithmetic=rationals())

"""The API's caps on long work (issue 38: "The API gets the same caps as the CLI, each
naming itself and how to lift it").

Found by a review: ``numeric.compare`` with 2,000 classes and every metric, and
``analytic.guess_and_check`` with a degree-29 rational guess, each ran over 20 s of
CPU with no estimate.  Both now estimate their cost first (the constants
``numeric.comparison.COMPARE_SECONDS_PER_CELL`` and
``analytic.derivations.families.FIT_SECONDS_PER_ROUND4``, measured as their
comments say): above ``max_seconds`` (default 60) they refuse with a ValueError
naming ``max_seconds=None``; above 30 s (``ordinal-verify``'s ANNOUNCE_SECONDS)
they warn first with a ``numeric.CostWarning``.  The expected estimates below are
those constants times the counts of the work, computed by hand in each test.
A refusal must come in well under a second of CPU (no resample, no ``f(K)``).
"""

from __future__ import annotations

import time
import warnings
from fractions import Fraction

import numpy as np
import pytest

import numeric
from analytic.derivations.families import FIT_SECONDS_PER_ROUND4, guess_and_check
from numeric.comparison import COMPARE_SECONDS_PER_CELL
from numeric.reporting import metric_rows

#: every metric variant of the registry (compare's default metrics)
VARIANTS = len(metric_rows(None))

K_LARGE = 2000


def _labels(n=4000, K=K_LARGE):
    rng = np.random.default_rng(0)
    return rng.integers(0, K, n), rng.integers(0, K, n), rng.integers(0, K, n)


def _cpu(call):
    """``call()``'s exception and its CPU time (it must raise)."""
    t0 = time.process_time()
    with pytest.raises((ValueError, numeric.CostWarning)) as info:
        with warnings.catch_warnings():
            warnings.simplefilter("error", numeric.CostWarning)
            call()
    return info.value, time.process_time() - t0


def test_compare_of_2000_classes_refuses_at_once():
    t, a, b = _labels()
    # 2 classifiers x (25 + 1) matrices x 2000^2 cells x (32 variants x 2e-8 s + A_UOC's
    # 2000 x 2e-8 s: its time per matrix grows as K^3) = 52 x 4e6 x 4.064e-5 = 8,453 s
    assert VARIANTS == 33 and len(metric_rows(["a_uoc"])) == 1  # 32 others and A_UOC
    seconds = 2 * 26 * K_LARGE**2 * (32 + K_LARGE) * COMPARE_SECONDS_PER_CELL
    assert round(seconds) == 8453
    exc, cpu = _cpu(lambda: numeric.compare(t, a, b, n_classes=K_LARGE, n_resamples=25, seed=0))
    assert type(exc) is ValueError, exc
    msg = str(exc)
    assert "2000 classes" in msg and "about 8453 s" in msg and "max_seconds=60" in msg
    assert "max_seconds=None" in msg
    assert cpu < 0.5, cpu


#: every metric but A_UOC (whose time grows as K^3): 32 variants
NOT_AUOC = [m for m in dict.fromkeys(m.name for m, _, _ in metric_rows(None)) if m != "a_uoc"]


def test_compare_warns_before_the_work_and_the_cap_is_a_keyword():
    t, a, b = _labels()
    # 32 variants x 2 x 11 x 2000^2 x 2e-8 = 56 s: under the cap, over the 30 s announcement
    assert len(metric_rows(NOT_AUOC)) == 32
    assert round(32 * 2 * 11 * K_LARGE**2 * COMPARE_SECONDS_PER_CELL) == 56
    exc, cpu = _cpu(lambda: numeric.compare(t, a, b, n_classes=K_LARGE, n_resamples=10, seed=0,
                                            metrics=NOT_AUOC))
    assert type(exc) is numeric.CostWarning, exc
    assert "about 56 s" in str(exc) and "max_seconds=" in str(exc)
    assert cpu < 0.5, cpu
    exc, _ = _cpu(lambda: numeric.compare(t, a, b, n_classes=K_LARGE, n_resamples=10, seed=0,
                                          metrics=NOT_AUOC, max_seconds=20))
    assert type(exc) is ValueError and "above max_seconds=20" in str(exc)
    with pytest.raises(ValueError, match="max_seconds must be a positive number or None"):
        numeric.compare(t, a, b, n_classes=K_LARGE, n_resamples=10, max_seconds=-1)


def test_a_uoc_is_counted_as_a_k_cubed_metric_by_the_api_and_the_command():
    """A_UOC's time per matrix grows as K^3 (its envelope has more pieces as K grows:
    measured in compare at K = 50 to 400, 40 to 330 times another variant's per cell).
    K = 100, 2 classifiers, 1,000 resamples: A_UOC alone is 2 x 1001 x 100^2 x (100 x
    2e-8) = 40 s, over the 30 s announcement (measured: 21 s at this K); MAE alone
    2 x 1001 x 100^2 x 2e-8 = 0.4 s.  The API warns before any work; the command's
    announcement (the exact metrics' 2 x 100^2 x 1e-3 = 20 s, plus the bootstrap) uses the
    same estimate: 60 s with A_UOC, 20.4 s without."""
    import io

    from ordinal_verify.inputs import announce_cost

    rng = np.random.default_rng(4)
    t = rng.integers(0, 100, 2000)
    a, b = np.clip(t + rng.integers(-3, 4, 2000), 0, 99), np.clip(t + 1, 0, 99)
    exc, cpu = _cpu(lambda: numeric.compare(t, a, b, n_classes=100, n_resamples=1000, seed=0,
                                            metrics=["a_uoc"]))
    assert type(exc) is numeric.CostWarning and "about 40 s" in str(exc), exc
    assert cpu < 0.5, cpu
    out = io.StringIO()
    assert announce_cost(100, matrices=2, resamples=1000, metrics=["a_uoc"], stream=out)
    assert "about 60 s" in out.getvalue() and "and the bootstrap" in out.getvalue()
    assert not announce_cost(100, matrices=2, resamples=1000, metrics=["mae"],
                             stream=io.StringIO())


def test_compare_counts_the_classes_seen_without_labels():
    _, a, b = _labels()
    t = np.arange(4000) % K_LARGE  # every one of the 2000 labels is seen
    exc, cpu = _cpu(lambda: numeric.compare(t, a, b, n_resamples=25, seed=0))
    assert type(exc) is ValueError and "2000 classes" in str(exc)
    assert cpu < 0.5, cpu


def test_small_compare_is_silent():
    rng = np.random.default_rng(1)
    t = rng.integers(0, 4, 200)
    a = np.clip(t + rng.integers(-1, 2, 200), 0, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", numeric.CostWarning)
        c = numeric.compare(t, a, t, metrics=["mae"], n_resamples=200, seed=0)
    assert c["MAE"].b == 0.0  # the oracle's MAE, by definition


def _degree29(k):
    return Fraction(k**15 + 1, k**14 + 3)  # numerator + denominator degree 29: 30 fit points


def test_guess_and_check_of_a_degree_29_guess_refuses_at_once():
    calls = []

    def f(k):
        calls.append(k)
        return _degree29(k)

    # 32 values, holdout 2: 30 rounds, 1.3e-4 x 30^4 = 105 s
    assert round(FIT_SECONDS_PER_ROUND4 * 30**4) == 105
    exc, cpu = _cpu(lambda: guess_and_check(f, range(2, 34)))
    assert type(exc) is ValueError, exc
    assert "30 fit rounds" in str(exc) and "about 105 s" in str(exc)
    assert "max_seconds=None" in str(exc)
    assert calls == [] and cpu < 0.5, (calls, cpu)


def test_guess_and_check_warns_then_runs_small_fits_silently():
    # 28 values: 26 rounds, 1.3e-4 x 26^4 = 59 s: a warning, before any f(K)
    exc, cpu = _cpu(lambda: guess_and_check(_degree29, range(2, 30)))
    assert type(exc) is numeric.CostWarning and "about 59 s" in str(exc)
    assert cpu < 0.5, cpu
    with warnings.catch_warnings():
        warnings.simplefilter("error", numeric.CostWarning)
        c = guess_and_check(lambda k: Fraction(1, k), range(1, 6))
    assert str(c.expr) == "1/K"


# ---------------------------------------------------------------------------
# auoc's estimate counts the digits of the counts (issue 38, item 2)
# ---------------------------------------------------------------------------
def test_auoc_estimate_counts_the_digits():
    """K = 250 (``AUOC_SECONDS_PER_CELL`` x 250^2 = 15.6 s): on counts 0..19 no line;
    on 14-digit counts x 3 (``1 + 12/6``) = 47 s, over the 30 s: one line first.
    The whole command on those matrices took 5.0 and 15.5 s (the slope's measurement)."""
    import io

    from ordinal_verify.inputs import AUOC_DIGITS_SLOPE, AUOC_SECONDS_PER_CELL, announce_cost

    kw = dict(per_cell=AUOC_SECONDS_PER_CELL, digits_slope=AUOC_DIGITS_SLOPE)
    assert not announce_cost(250, digits=2, stream=io.StringIO(), **kw)
    out = io.StringIO()
    assert announce_cost(250, digits=14, stream=out, **kw)
    assert "about 47 s" in out.getvalue() and "14 digits" in out.getvalue()


def test_auoc_command_prints_the_digits_estimate_first(tmp_path, monkeypatch, capsys):
    """The command passes the digits: a 4 x 4 matrix of 14-digit counts is estimated at
    4^2 x 2.5e-4 x 3 = 0.012 s, of counts 0..19 at 0.004 s; with the announcement
    threshold put between the two, only the first prints its line, before the table."""
    from ordinal_verify import inputs, main

    monkeypatch.setattr(inputs, "ANNOUNCE_SECONDS", 0.008)
    rng = np.random.default_rng(2)
    for digits, low, high in ((14, 10**13, 10**14), (2, 10, 20)):
        path = tmp_path / f"m{digits}.csv"
        path.write_text("\n".join(",".join(map(str, r)) for r in rng.integers(low, high, (4, 4))))
        assert main(["auoc", str(path)]) == 0
        out, err = capsys.readouterr()
        assert "A_UOC" in out
        if digits == 14:
            assert "about 0 s" in err and "up to 14 digits" in err, err
        else:
            assert err == "", err


def test_compare_groups_refuses_before_the_work():
    """compare over folds (compare_groups) with 2,000 classes, 10 folds and every metric:
    2 x 10 matrices x 2000^2 x (32 x 2e-8 + A_UOC's 2000 x 2e-8) = 20 x 162.56 = 3,251 s
    estimated (numeric._paired.matrix_seconds, as compare's own estimate): refused at
    once, naming the keyword that lifts it; the same through compare(..., groups=)."""
    rng = np.random.default_rng(0)
    N, K = 4000, 2000
    y = rng.integers(0, K, N)
    a, b = rng.integers(0, K, N), rng.integers(0, K, N)
    g = np.repeat(np.arange(10), N // 10)
    for call in (numeric.compare_groups, numeric.compare):
        t = time.process_time()
        with pytest.raises(ValueError, match=r"about 3251 s on one core, above max_seconds=60; "
                                             r"pass max_seconds=None"):
            call(y, a, b, groups=g, test_train_ratio=0.25, labels=list(range(K)))
        assert time.process_time() - t < 0.5

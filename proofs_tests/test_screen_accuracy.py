"""The float screen's tolerance rests on a measured error, on the searched space.

The property engine classes a float64 difference as *clear* only when it is
beyond :data:`analytic.properties.catalog.TOLERANCE` (1e-9, relative to
``max(1, |a|, |b|)``); everything closer is decided exactly.  A *clear* verdict
is therefore sound as long as every metric's float64 value is within far less
than that of its exact value on the matrices the engine searches.  This file
measures that error against mpmath at 40 digits (an independent arithmetic of
the same formulas: :mod:`numeric` writes each formula once, and its mp path
shares no floating-point rounding with the float64 path) on matrices drawn
from :data:`~analytic.properties.space.DEFAULT_SPACE` itself: its largest
exhaustive blocks and its random part (K <= 6, N <= 60, empty rows and columns).

CI runs a sample (every K with N in steps, two matrices each); the campaign
over all 20,000 random matrices of the space is

    python proofs_tests/test_screen_accuracy.py --campaign

and its result is recorded in ``TOLERANCE``'s comment.  The assertion keeps a
margin of 10^5 below the tolerance, so a float path that loses digits
(a cancellation, a wrong summation order) fails here long before it could
flip a verdict.
"""

from __future__ import annotations

import sys

import mpmath
import numpy as np
import pytest

import numeric  # noqa: F401  (registers every metric)
from analytic.properties.catalog import TOLERANCE
from analytic.properties.space import DEFAULT_SPACE, block, count
from numeric._validation import collect_undefined
from numeric.registry import matrix_metrics

CASES = [(m, v) for m in matrix_metrics() for v in m.cases()]
IDS = [f"{m.name}:{v.label}" for m, v in CASES]
#: the largest error the tests accept: 10^5 below the screen's tolerance
BOUND = TOLERANCE * 1e-5


def relative_errors(m, v, stack):
    """``|float - mp| / max(1, |mp|)`` per matrix of ``stack`` where the metric is defined."""
    with collect_undefined():
        fl = np.asarray(m.function(stack, **v.kwargs(stack[0]), arithmetic="float"),
                        dtype=np.float64)
    out = []
    for i, cm in enumerate(stack):
        try:
            with mpmath.workdps(40):
                x = m.function(cm, **v.kwargs(cm), arithmetic="mp")
                if not np.isfinite(fl[i]):
                    raise AssertionError(f"float64 gave {fl[i]} where mp gives {x} on {cm.tolist()}")
                out.append(float(abs(mpmath.mpf(float(fl[i])) - x) / max(1, abs(x))))
        except ValueError:  # undefined here (the float path marked it too)
            continue
    return out


def sample_stacks():
    """Matrices of the default space: two per random group of sizes ``K`` and
    ``N`` in steps, and a strided sample of its largest exhaustive blocks."""
    stacks = []
    for K in range(2, DEFAULT_SPACE.random_k + 1):
        for N in (*range(1, 11), *range(15, DEFAULT_SPACE.random_n + 1, 5)):
            stacks.append(DEFAULT_SPACE.random_block(K, N, 0, 2))
    for K, N in ((4, 8), (5, 5)):
        total = count(K, N)
        picks = np.linspace(0, total - 1, 40).astype(np.int64)
        stacks.append(np.concatenate([block(K, N, int(r), int(r) + 1) for r in picks])
                      .reshape(-1, K, K))
    return stacks


STACKS = sample_stacks()


@pytest.mark.parametrize("m, v", CASES, ids=IDS)
def test_float_is_within_the_screen_tolerance_on_the_searched_space(m, v):
    errors = [e for st in STACKS for e in relative_errors(m, v, st)]
    assert errors, "the sample must hold matrices where the metric is defined"
    assert max(errors) < BOUND, (m.name, v.label, max(errors))


def test_the_measure_sees_a_lost_digit():
    """The check can fail: a float path off by one part in 10^10 (still within
    the screen's tolerance, so it would not change a verdict) is caught."""
    mae = next(m for m, _ in CASES if m.name == "mae")

    class Off:
        name = "mae"

        @staticmethod
        def function(cm, arithmetic="float", **kw):
            value = mae.function(cm, arithmetic=arithmetic, **kw)
            return value * (1 + 1e-10) if arithmetic == "float" else value

    errors = relative_errors(Off, mae.cases()[0], STACKS[-1])
    assert max(errors) > BOUND


def campaign():
    """Every random matrix of the default space, every variant; prints the worst errors."""
    worst = {}
    groups = DEFAULT_SPACE._random_groups()
    for (K, N), c in groups:
        stack = DEFAULT_SPACE.random_block(K, N, 0, c)
        for m, v in CASES:
            errs = relative_errors(m, v, stack)
            if errs:
                key = f"{m.name}:{v.label}"
                worst[key] = max(worst.get(key, 0.0), max(errs))
    n = sum(c for _, c in groups)
    print(f"{n:,} random matrices of DEFAULT_SPACE (seed {DEFAULT_SPACE.seed}), "
          f"{len(CASES)} variants, float64 against mpmath at 40 digits")
    for key, e in sorted(worst.items(), key=lambda kv: -kv[1]):
        print(f"{e:9.2e}  {key}")
    print(f"largest: {max(worst.values()):.2e} (tolerance {TOLERANCE:g})")


if __name__ == "__main__":
    if sys.argv[1:] == ["--campaign"]:
        campaign()
    else:
        sys.exit(pytest.main([__file__, "-q"]))

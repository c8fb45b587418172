"""Fuzz: every registered metric and ``confusion_matrix`` on random matrices
and random bad inputs (issue 10).

The contract checked on every call:

* a random valid matrix: the float (and mp) value is finite and agrees with
  the exact value, ``|float - exact| <= 1e-12 * max(1, |exact|)`` (relative
  1e-12 above 1, absolute 1e-12 below; the metrics below 1 are bounded
  ratios, so this is a relative error on their scale), or every arithmetic
  raises the same ``ValueError`` (an undefined metric, e.g. tau_b with one
  observed class); counts go up to ``10**15``;
* a random bad input: ``ValueError`` or ``TypeError`` whose message is not
  empty -- never another exception type, never NaN or inf.

The generators take a :class:`numpy.random.Generator`, so hypothesis drives
them through a seed (``derandomize=True``: the same examples on every run).
``test_fuzz_surfaces.py`` fuzzes the other surfaces (CLI files and output
paths, the claims runner, the auditor's arguments, shrink, compare/report,
user strings), and ``python proofs_tests/test_fuzz.py --report N`` runs a
campaign over all of them (N valid and N bad inputs) and prints the counts
(``--help`` for running it in chunks; docs/safety.md has the last run's).
"""

from __future__ import annotations

import sys
import warnings
from collections import Counter
from fractions import Fraction
from pathlib import Path

if __name__ == "__main__":
    # the checkout this file is in, not the installed one: run as a script, the
    # script's folder is sys.path[0] and `import numeric` found the editable
    # install's checkout (a campaign of another branch tested main's code)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import numeric
from numeric.registry import REGISTRY

TOL = 1e-12
#: the outcomes of the calls checked (by :func:`check_valid` and :func:`check_bad`):
#: "value", "ValueError", "TypeError"; the campaign counts them
OUTCOMES = Counter()
ARGS_OF = {"matrix": lambda K: {}, "matrix, beta": lambda K: {"beta": Fraction(1, 4)},
           "matrix, lengths": lambda K: {"lengths": list(range(1, K + 1))}}


def call(m, cm, arithmetic, K=None):
    """The metric ``m`` on ``cm`` with a parameter its input needs."""
    if K is None:
        K = np.shape(cm)[-1] if np.ndim(cm) >= 1 else 2
    kw = ARGS_OF[m.input](max(int(K), 1))
    if "lengths" in kw:
        return m.function(cm, kw.pop("lengths"), arithmetic=arithmetic)
    return m.function(cm, arithmetic=arithmetic, **kw)


# ---------------------------------------------------------------------------
# generators
# ---------------------------------------------------------------------------
def random_matrix(rng):
    """A K x K matrix (K = 1..5) of small or large counts (up to 10**15),
    sometimes with zero rows or columns."""
    K = int(rng.integers(1, 6))
    scale = [10, 1000, 10**9, 10**15][int(rng.integers(0, 4))]
    cm = rng.integers(0, scale + 1, size=(K, K), dtype=np.int64)
    cm[rng.random((K, K)) < 0.3] = 0
    if rng.random() < 0.3:
        cm[int(rng.integers(K)), :] = 0
    if rng.random() < 0.3:
        cm[:, int(rng.integers(K))] = 0
    if rng.random() < 0.3:  # one huge cell among small ones (the cancellation case)
        cm[int(rng.integers(K)), int(rng.integers(K))] = 10**15
    if cm.sum() == 0:
        cm[0, 0] = 1
    return cm


def _bad_inputs():
    nan, inf = float("nan"), float("inf")
    ok = [[3, 1], [0, 2]]
    return [
        lambda r: [1, 2, 3],  # 1-D
        lambda r: [[1, 2, 3], [4, 5, 6]],  # not square
        lambda r: np.zeros((0, 0)),
        lambda r: [[0, 0], [0, 0]],
        lambda r: [[1, 2], [3]],  # ragged
        lambda r: [[1.0, nan], [0.0, 1.0]],
        lambda r: [[1.0, inf], [0.0, 1.0]],
        lambda r: [[1, -int(r.integers(1, 10))], [0, 1]],
        lambda r: [[1.5, 0], [0, 2]],
        lambda r: [[10**int(r.integers(19, 400)), 0], [0, 1]],
        lambda r: [[2**63, 0], [0, 1]],
        lambda r: np.array([[2**64 - 1, 0], [0, 1]], dtype=np.uint64),
        lambda r: np.full((2, 2), 2**61, dtype=np.int64),  # total beyond int64
        lambda r: np.array(ok, dtype=object).astype(str),
        lambda r: [["1", "2"], ["3", "4"]],
        lambda r: np.array([[1, None], [0, 1]], dtype=object),
        lambda r: None,
        lambda r: "1 2; 3 4",
        lambda r: 7,
        lambda r: np.array(ok, dtype="m8[s]"),
        lambda r: np.array(ok, dtype="M8[D]"),
        lambda r: np.ma.array(ok, mask=[[0, 1], [0, 0]]),
        lambda r: np.array(ok, dtype=complex),
        lambda r: np.array(ok, dtype=bool),
        lambda r: np.array([[1, Fraction(1, 3)], [0, 1]], dtype=object),
        lambda r: np.array([[1, mpmath.inf], [0, 1]], dtype=object),
        lambda r: np.array([[1, object()], [0, 1]], dtype=object),
        lambda r: {"a": 1},
        lambda r: np.ones((2, 2, 0)),
        lambda r: np.ones((int(r.integers(2, 4)), 2, 3)),
    ]


BAD = _bad_inputs()


def bad_matrix(rng):
    return BAD[int(rng.integers(len(BAD)))](rng)


def _bad_labels():
    return [
        lambda r: ([0, 1, 2], [0, 1]),
        lambda r: ([[0, 1]], [[0, 1]]),
        lambda r: ([0, None, 1], [0, 1, 1]),
        lambda r: ([0.0, float("nan")], [0.0, 1.0]),
        lambda r: ([1, "a"], ["a", 1]),
        lambda r: (np.ma.array([0, 1], mask=[0, 1]), [0, 1]),
        lambda r: ([], []),
        lambda r: ([0, 1], [0, 1], {"labels": [0, 0, 1]}),
        lambda r: ([0, 1], [0, 2], {"labels": [0, 1]}),
        lambda r: ([0, 1], [0, 1], {"labels": [0, 1], "n_classes": 2}),
        lambda r: ([0, 1], [0, 1], {"n_classes": 0}),
        lambda r: ([0, 1], [0, 1], {"sample_weight": [1, -1]}),
        lambda r: ([0, 1], [0, 1], {"sample_weight": [1, float("nan")]}),
        lambda r: ([0, 1], [0, 1], {"sample_weight": [1]}),
        lambda r: ([0, 1], [0, 1], {"sample_weight": ["a", "b"]}),
        lambda r: ([0] * 8, [0] * 8, {"sample_weight": [2**61] * 8}),  # sums past int64
        lambda r: ([1, 2], ["1", "2"]),  # numpy would make strings of the ints
        lambda r: (np.array([0, 1], dtype="m8[s]"), np.array([0, 1])),  # seconds or classes?
        lambda r: (np.array([0.0, np.float32("nan")], dtype=object), [0.0, 0.0]),
        lambda r: (np.array([1, 2**63], dtype=np.uint64), np.array([1, -1])),  # valid: exact
        lambda r: (np.array([0, 1], dtype="m8[s]"), np.array([0, 1], dtype="m8[s]")),  # valid
        lambda r: (r.integers(0, 5, 20), r.integers(0, 5, 20)),  # valid
    ]


BAD_LABELS = _bad_labels()


def bad_labels(rng):
    case = BAD_LABELS[int(rng.integers(len(BAD_LABELS)))](rng)
    return case[0], case[1], (case[2] if len(case) > 2 else {})


# ---------------------------------------------------------------------------
# the contract
# ---------------------------------------------------------------------------
def _finite(v):
    return all(mpmath.isfinite(mpmath.mpf(x)) for x in np.asarray(v, dtype=object).reshape(-1))


def check_valid(m, cm):
    """None when the contract holds, else a description of the failure."""
    outcomes = {}
    for a in ("exact", "float", "mp"):
        try:
            outcomes[a] = ("value", call(m, cm, a))
        except ValueError as exc:
            outcomes[a] = ("ValueError", str(exc))
        except Exception as exc:  # noqa: BLE001 - the failure being reported
            return f"{m.name} {a}: {type(exc).__name__}: {exc}"
        OUTCOMES[outcomes[a][0]] += 1
    kinds = {k: o[0] for k, o in outcomes.items()}
    if len(set(kinds.values())) != 1:
        return f"{m.name}: arithmetics disagree on raising: {kinds}"
    if kinds["exact"] == "ValueError":
        return None if outcomes["exact"][1] else f"{m.name}: empty message"
    exact = float(outcomes["exact"][1])
    for a in ("float", "mp"):
        v = outcomes[a][1]
        if not _finite(v):
            return f"{m.name} {a}: non-finite {v}"
        if abs(float(v) - exact) > TOL * max(1.0, abs(exact)):
            return f"{m.name} {a}: {float(v)!r} vs exact {exact!r}"
    return None


def check_bad(f):
    """``f()`` raises ValueError/TypeError with a message, or returns finite numbers."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = f()
    except (ValueError, TypeError) as exc:
        if type(exc) not in (ValueError, TypeError) and "numpy" in type(exc).__module__:
            return f"numpy internal {type(exc).__name__}: {exc}"
        OUTCOMES["ValueError" if isinstance(exc, ValueError) else "TypeError"] += 1
        return None if str(exc) else f"{type(exc).__name__} without a message"
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"
    OUTCOMES["value"] += 1
    try:
        vals = np.asarray(out, dtype=object).reshape(-1)
        if not all(mpmath.isfinite(mpmath.mpf(x)) for x in vals.tolist()):
            return f"non-finite result {out!r}"
    except (TypeError, ValueError) as exc:
        return f"result not numeric: {out!r} ({exc})"
    return None


METRICS = [m for m in REGISTRY.values() if m.takes_matrix]  # RPS: test_metrics_beyond_sources
SEEDS = st.integers(0, 2**32 - 1)


@settings(derandomize=True, max_examples=80, deadline=None)
@given(seed=SEEDS)
def test_random_matrices_agree_with_exact(seed):
    cm = random_matrix(np.random.default_rng(seed))
    failures = [f for m in METRICS if (f := check_valid(m, cm))]
    assert not failures, (cm.tolist(), failures)


@settings(derandomize=True, max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_bad_matrices_raise_value_or_type_error(seed):
    rng = np.random.default_rng(seed)
    x = bad_matrix(rng)
    arithmetic = ["float", "exact", "mp"][int(rng.integers(3))]
    failures = [f for m in METRICS
                if (f := check_bad(lambda: call(m, x, arithmetic, K=2)))]
    assert not failures, (repr(x), failures)


@settings(derandomize=True, max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_bad_labels_raise_value_or_type_error(seed):
    t, p, kw = bad_labels(np.random.default_rng(seed))
    failure = check_bad(lambda: numeric.confusion_matrix(t, p, **kw))
    assert failure is None, (t, p, kw, failure)


@pytest.mark.parametrize("case", range(len(BAD)))
def test_every_bad_matrix_case_is_refused(case):
    """Each generator once, through every metric (the random tests may miss one)."""
    x = BAD[case](np.random.default_rng(case))
    failures = [f for m in METRICS if (f := check_bad(lambda: call(m, x, "float", K=2)))]
    assert not failures, failures
    with pytest.raises((ValueError, TypeError)):
        call(METRICS[0], x, "float", K=2)


# ---------------------------------------------------------------------------
# the campaign
# ---------------------------------------------------------------------------
def report(n, seed=2024, out=sys.stdout, **kw):
    """The campaign over every surface (:func:`test_fuzz_surfaces.campaign`): ``n``
    valid and ``n`` bad inputs, the metrics and ``confusion_matrix`` among them,
    each in a forked worker under a time bound; prints the counts per surface and
    returns the number of failures per ``surface/kind``."""
    import test_fuzz_surfaces

    counts, _ = test_fuzz_surfaces.campaign(n, seed=seed, out=out, **kw)
    return {s: sum(c[k] for k in test_fuzz_surfaces.KINDS) for s, c in counts.items()}


def main(argv=None):
    """``--report N`` runs a campaign (see the module docstring); ``--merge FILES``
    prints the table of saved chunks."""
    import argparse

    import test_fuzz_surfaces as tfs

    ap = argparse.ArgumentParser(prog="python proofs_tests/test_fuzz.py")
    ap.add_argument("--report", type=int, metavar="N",
                    help="N valid and N bad inputs spread over every surface")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--count", action="append", default=[], metavar="SURFACE/KIND=M",
                    help="M cases of one surface and kind instead of its share of N")
    ap.add_argument("--only", action="append", default=None, metavar="SURFACE[/KIND]",
                    help="run these surfaces (or surface/kind) only: a chunk")
    ap.add_argument("--start", type=int, default=0, help="first case index of each entry")
    ap.add_argument("--stop", type=int, default=None, help="case index to stop before")
    ap.add_argument("--save", metavar="FILE", help="write the counts as JSON")
    ap.add_argument("--merge", nargs="+", metavar="FILE", help="add up saved chunks")
    a = ap.parse_args(argv)
    print(f"campaign of {Path(numeric.__file__).parents[1]} (numeric {numeric.__file__})",
          file=sys.stderr)
    if a.merge:
        counts, examples = tfs.merge(a.merge)
        tfs.table(counts, examples)
        return 1 if any(c[k] for c in counts.values() for k in tfs.KINDS) else 0
    if a.report is None:
        ap.error("--report N or --merge FILES")
    counts = {}
    for spec in a.count:
        key, _, m = spec.partition("=")
        counts[tuple(key.split("/"))] = int(m)
    only = None
    if a.only:
        only = {(s, k) for s, k in tfs.plan(a.report, counts)
                if f"{s}/{k}" in a.only or s in a.only}
    failures = report(a.report, seed=a.seed, counts=counts, only=only, start=a.start,
                      stop=a.stop, save=a.save)
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

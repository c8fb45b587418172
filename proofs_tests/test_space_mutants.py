"""Tests that kill mutants of ``analytic.properties.space`` counted equivalent by
the earlier run (docs/mutation.md, "the seeded streams"): the random part of a
space is behaviour, not only its law, because the committed property table
(``docs/properties.md``: "20,000 random matrices (seed 0, ...)") was searched on
exactly these matrices and reports what it found there ("random, then shrunk").

The contract pinned here is the one of the docstrings of ``Space._random_groups``
and ``Space.random_block``: the sizes are one seeded draw (generator seeded by
``[seed, 1]``: K uniform in 2..random_k, then N uniform in 1..random_n); each
size ``(K, N)`` has its own generator seeded by ``[seed, 2, K, N]``, which draws
the kept rows, the kept columns (each kept when its uniform draw is >= 1/4),
a row and a column to restore when none is kept, then, matrix by matrix, the
multinomial of the N samples over the kept cells.
"""

from __future__ import annotations

import numpy as np

from analytic.properties.space import DEFAULT_SPACE, Space


def _groups(seed, random, random_k, random_n):
    rng = np.random.default_rng([seed, 1])
    K = rng.integers(2, random_k + 1, size=random)
    N = rng.integers(1, random_n + 1, size=random)
    sizes, counts = np.unique(np.stack([K, N], axis=1), axis=0, return_counts=True)
    return [((int(k), int(n)), int(c)) for (k, n), c in zip(sizes, counts, strict=True)]


def _block(seed, K, N, count):
    rng = np.random.default_rng([seed, 2, K, N])
    rows = rng.random((count, K)) >= 0.25
    cols = rng.random((count, K)) >= 0.25
    pick_r, pick_c = rng.integers(K, size=count), rng.integers(K, size=count)
    out = np.zeros((count, K, K), dtype=np.int64)
    for t in range(count):
        if not rows[t].any():
            rows[t, pick_r[t]] = True
        if not cols[t].any():
            cols[t, pick_c[t]] = True
        cells = np.flatnonzero(np.outer(rows[t], cols[t]))
        out[t].flat[cells] = rng.multinomial(N, np.full(len(cells), 1 / len(cells)))
    return out


def test_the_random_part_is_the_documented_seeded_stream():
    """``Space._random_groups`` 4 (sizes drawn from ``[seed, 2]``) and
    ``Space.random_block`` 3 (matrices drawn from ``[seed, 3, K, N]``).

    The sizes and every matrix of a small random space, drawn as the module
    docstring above says, are the space's."""
    sp = Space(exhaustive=(), random=60, random_k=4, random_n=6, seed=3, triangle=(), diagonal=())
    groups = _groups(3, 60, 4, 6)
    assert sp._random_groups() == groups
    for (K, N), c in groups:
        assert np.array_equal(sp.random_block(K, N, 0, c), _block(3, K, N, c))


def test_no_draw_of_the_table_s_random_part_is_exactly_a_quarter():
    """Why ``Space.random_block`` 6 and 10 (a class kept when its draw is
    ``> 0.25`` instead of ``>= 0.25``) are equivalent for the committed table:
    they differ only on a draw equal to 0.25 exactly (probability 2^-53 per
    draw), and none of the row and column draws of the default space's random
    part (seed 0) is."""
    d = DEFAULT_SPACE
    for (K, N), c in _groups(d.seed, d.random, d.random_k, d.random_n):
        rng = np.random.default_rng([d.seed, 2, K, N])
        assert not (rng.random((2 * c, K)) == 0.25).any()
    assert d._random_groups() == _groups(d.seed, d.random, d.random_k, d.random_n)

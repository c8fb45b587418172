"""``ordinal-verify auoc`` on a matrix whose UOC pieces have long closed forms.

It raised ``TypeError: Cannot convert expression to float`` (a piece ``a + s*beta``
longer than 40 characters went to ``float()``, symbol and all; found by a helper
on a random 10 x 10 matrix, present since before this session)."""

from __future__ import annotations

import numpy as np

import numeric
from ordinal_verify import main


def test_auoc_prints_long_pieces_as_decimals(tmp_path, capsys):
    m = np.random.default_rng(1).integers(0, 5, (10, 10))
    path = tmp_path / "m.csv"
    np.savetxt(path, m, fmt="%d", delimiter=",")
    assert main(["auoc", str(path)]) == 0
    out = capsys.readouterr().out
    env = numeric.path_envelope(m, metric="uoc", arithmetic="exact")
    lines = [ln for ln in out.splitlines() if ln.startswith("[")]
    assert len(lines) == len(env.slopes)
    for ln, a, s in zip(lines, env.intercepts, env.slopes, strict=True):
        piece = ln.split(")", 1)[1].strip()
        if piece.startswith("≈"):
            fa, fs = piece[1:].split(" + ")
            assert abs(float(fa) - float(a)) <= 1e-12 and abs(float(fs.split("*")[0]) - float(s)) <= 1e-12
    assert f"{float(numeric.a_uoc(m, arithmetic='exact')):.12g}" in out

"""The ``ordinal-verify`` command (placeholder until the claims ledger lands)."""

from __future__ import annotations

import sys


def main(argv=None) -> int:
    import numeric

    B = [[0, 4, 0, 0], [0, 0, 6, 0], [0, 0, 5, 0], [0, 0, 0, 3]]
    N, K = 18, 4
    from sympy import Rational

    rows = [
        ("MER", numeric.mer(B, arithmetic="exact")),
        ("MAE", numeric.mae(B, arithmetic="exact")),
        ("AMAE", numeric.amae(B, arithmetic="exact")),
        ("tau_b", numeric.kendall_tau_b(B, arithmetic="exact")),
        ("OC 0.25/(N(K-1))", numeric.oc(B, Rational(1, 4) / (N * (K - 1)), arithmetic="exact")),
        ("UOC 0.25", numeric.uoc(B, Rational(1, 4), arithmetic="exact")),
        ("A_UOC", numeric.a_uoc(B, arithmetic="exact")),
    ]
    for name, v in rows:
        print(f"{name:20s} {str(v):30s} {float(v):.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""ordinal-verify numeric core: every metric of the sources from a confusion matrix.

Convention: ``cm[..., i, j]`` is the number of samples of true class ``i``
predicted as class ``j`` (rows = true, columns = predicted), classes in their
ordinal order.  Every metric takes ``arithmetic="float" | "exact" | "mp"``.
"""

from ._arith import get_arithmetic
from .classical import amae, macro_rmse, mae, mer, mmae, mse, rmse
from .confusion import LabelWarning, confusion_matrix
from .paths import Envelope, a_uoc, oc, path_envelope, uoc
from .ranking import kendall_tau_b, r_int, spearman_rs

__all__ = [
    "confusion_matrix", "LabelWarning",
    "mer", "mae", "mse", "rmse", "amae", "mmae", "macro_rmse",
    "spearman_rs", "kendall_tau_b", "r_int",
    "oc", "uoc", "a_uoc", "path_envelope", "Envelope",
    "get_arithmetic",
]

# cost-based family (binotto2024, george2016)
from .cost import cost_matrix, george_d, george_tiebreak, stc, tc, tc_max, tc_max_matrix

# binotto2024's interval classes
from .intervals import (OptimalLength, Piece, hausdorff_distances, interval_cost_matrix,
                        interval_stc, interval_tc, interval_tc_max, last_length_pieces,
                        optimal_last_length)

__all__ += [
    "cost_matrix", "tc", "tc_max", "tc_max_matrix", "stc", "george_d", "george_tiebreak",
    "hausdorff_distances", "interval_cost_matrix", "interval_tc", "interval_tc_max",
    "interval_stc", "optimal_last_length", "OptimalLength", "last_length_pieces", "Piece",
]

# the cells of an optimal path (for drawing, notebooks/02)
from .paths import optimal_path

__all__ += ["optimal_path"]

# metrics people use beyond the sources (issue 12): agreement, per-class hit rates,
# pair-count association, CEM-ORD, and the ranked probability score
from .agreement import cohen_kappa
from .association import kendall_tau_c, somers_d
from .cem import cem_ord
from .probabilistic import ranked_probability_score
from .sensitivity import geometric_mean_sensitivity, minimum_sensitivity, within_one_accuracy

__all__ += ["cohen_kappa", "within_one_accuracy", "minimum_sensitivity",
            "geometric_mean_sensitivity", "somers_d", "kendall_tau_c", "cem_ord",
            "ranked_probability_score"]

# the extreme classes' sensitivities of the ordinal libraries (issue 25 item 6)
from .extremes import gmsec, mean_extreme_sensitivity

__all__ += ["gmsec", "mean_extreme_sensitivity"]

# the researcher's workflow: every metric of a matrix, two classifiers
# compared with paired-bootstrap intervals, the UOC figure (matplotlib, lazily)
from .comparison import Comparison, MetricComparison, UndefinedResampleWarning, compare
from .plot import plot_uoc
from .reporting import MetricValue, Report, report

__all__ += ["report", "Report", "MetricValue", "compare", "Comparison", "MetricComparison",
            "UndefinedResampleWarning", "plot_uoc"]

# comparisons over groups (folds, seeds) and scikit-learn scorers (issue 25 items 4, 5)
from .groups import GroupComparison, GroupMetricComparison, compare_groups
from .scorers import ordinal_scorer, scorer_names

__all__ += ["compare_groups", "GroupComparison", "GroupMetricComparison", "ordinal_scorer",
            "scorer_names"]

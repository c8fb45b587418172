"""ordinal-verify numeric core: every metric of the sources from a confusion matrix.

Convention: ``cm[..., i, j]`` is the number of samples of true class ``i``
predicted as class ``j`` (rows = true, columns = predicted), classes in their
ordinal order.  Every metric takes ``arithmetic="float" | "exact" | "mp"``.
"""

# The order of the imports is the order in which the metrics register
# (numeric.registry): the order of README's metric table and of the property table.
from exactfloor.arith import get_arithmetic
from .classical import amae, macro_rmse, mae, mer, mmae, mse, rmse
from .confusion import confusion_matrix
from .paths import Envelope, a_uoc, oc, optimal_path, path_envelope, uoc
from .ranking import kendall_tau_b, r_int, spearman_rs
# cost-based family (binotto2024, george2016) and binotto2024's interval classes
from .cost import cost_matrix, george_d, george_tiebreak, stc, tc, tc_max, tc_max_matrix
from .intervals import (OptimalLength, Piece, hausdorff_distances, interval_cost_matrix,
                        interval_stc, interval_tc, interval_tc_max, last_length_pieces,
                        optimal_last_length)
# metrics people use beyond the sources (issue 12)
from .agreement import cohen_kappa
from .association import kendall_tau_c, somers_d
from .cem import cem_ord
from .probabilistic import ranked_probability_score
from .sensitivity import geometric_mean_sensitivity, minimum_sensitivity, within_one_accuracy
from .extremes import gmsec, mean_extreme_sensitivity
# the researcher's workflow
from .comparison import Comparison, MetricComparison, compare
from .plot import plot_uoc
from .reporting import MetricValue, Report, report
from .groups import GroupComparison, GroupMetricComparison, compare_groups
from .scorers import ordinal_scorer, scorer_names
from .studies import Study, study
from exactfloor.errors import CostWarning, LabelWarning, UndefinedResampleWarning
# numeric.weights.balanced_weights (whole-number "balanced" weights, the docs' recipe for
# exact values and for r_int): reachable after a plain ``import numeric``
from . import weights  # noqa: F401

__all__ = [
    # a confusion matrix from label vectors
    "confusion_matrix",
    # error and rate metrics of the sources (silva2018, cardoso2011)
    "mer", "mae", "mse", "rmse", "amae", "mmae", "macro_rmse",
    # rank correlations (silva2018)
    "spearman_rs", "kendall_tau_b", "r_int",
    # ordinal classification index, its UOC and their consistent paths (cardoso2011, silva2018)
    "oc", "uoc", "a_uoc", "path_envelope", "Envelope", "optimal_path",
    # cost-based family (binotto2024, george2016)
    "cost_matrix", "tc", "tc_max", "tc_max_matrix", "stc", "george_d", "george_tiebreak",
    # binotto2024's interval classes
    "hausdorff_distances", "interval_cost_matrix", "interval_tc", "interval_tc_max",
    "interval_stc", "optimal_last_length", "OptimalLength", "last_length_pieces", "Piece",
    # metrics beyond the sources: agreement, per-class hit rates, pair-count
    # association, CEM-ORD, the ranked probability score, extreme-class sensitivities
    "cohen_kappa", "within_one_accuracy", "minimum_sensitivity", "geometric_mean_sensitivity",
    "somers_d", "kendall_tau_c", "cem_ord", "ranked_probability_score",
    "gmsec", "mean_extreme_sensitivity",
    # the researcher's workflow: every metric of a matrix, classifiers compared with
    # paired-bootstrap intervals (also over groups: folds, seeds), the UOC figure
    # (matplotlib, lazily), scikit-learn scorers
    "report", "Report", "MetricValue", "compare", "Comparison", "MetricComparison",
    "compare_groups", "GroupComparison", "GroupMetricComparison", "plot_uoc",
    "ordinal_scorer", "scorer_names",
    # several methods over many datasets: ranks, Friedman and post-hoc tests (demsar2006),
    # the tables papers print and the critical-difference diagram
    "study", "Study",
    # the arithmetic contexts ("float", "exact", "mp")
    "get_arithmetic",
    # warnings (exactfloor.errors)
    "LabelWarning", "UndefinedResampleWarning", "CostWarning",
]

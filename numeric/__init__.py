"""ordinal-verify numeric core: every metric of the sources from a confusion matrix.

Convention: ``cm[..., i, j]`` is the number of samples of true class ``i``
predicted as class ``j`` (rows = true, columns = predicted), classes in their
ordinal order.  Every metric takes ``arithmetic="float" | "exact" | "mp"``.
"""

from ._arith import get_arithmetic
from .classical import amae, macro_rmse, mae, mer, mmae, mse, rmse
from .confusion import confusion_matrix
from .paths import Envelope, a_uoc, oc, path_envelope, uoc
from .ranking import kendall_tau_b, r_int, spearman_rs

__all__ = [
    "confusion_matrix",
    "mer", "mae", "mse", "rmse", "amae", "mmae", "macro_rmse",
    "spearman_rs", "kendall_tau_b", "r_int",
    "oc", "uoc", "a_uoc", "path_envelope", "Envelope",
    "get_arithmetic",
]

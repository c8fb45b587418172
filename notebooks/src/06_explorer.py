# %% [markdown]
# # 6 · Explorer: edit a confusion matrix, move β, watch the metrics
#
# **What this lesson assumes.**  Lessons 1 and 2: a confusion matrix (rows =
# true class), the metrics of lesson 1, consistent paths, OC and UOC as
# shortest paths, and $UOC(\beta)$ as a lower envelope.  Lesson 7 for the
# metrics of its §1 (optional).  A running Jupyter kernel with ipywidgets
# for the controls.
#
# **What you will learn.**
#
# * How the optimal consistent path, $UOC(\beta)$ and $A_{UOC}$ respond when
#   you move samples between cells of a 4-class matrix.
# * What the β of OC and the β of UOC mean — they are on different scales,
#   and the explorer says which one each row uses.
# * Which metrics move with β (OC and UOC only) and which do not.
#
# Edit the counts (rows = true class, columns = predicted class) and move
# the slider.  The picture shows the matrix with its **optimal consistent
# path** for UOC at that β (lesson 2) and the function $UOC(\beta)$ — the
# lower envelope of one line per path — with the area under it, $A_{UOC}$;
# the table below it gives the metrics of lessons 1, 2 and 7 for the current
# matrix and β.  Everything is computed by `numeric` in float arithmetic as
# you type.
#
# Where the lesson says that a paper's statement is true or false, it cites
# the claim's entry in the toolkit's claims ledger
# ([`docs/ledger.md`](../docs/ledger.md)) in square brackets: its id and its
# verdict (verified, refuted, not reproduced, or convention: reproduces only
# under a stated convention).
#
# ## 1. One slider, two scales of β
#
# **UOC** takes β as silva2018 writes it (eq. 28); Table I's UOC columns
# use $\beta = 0.25, 0.75$ so
# [ledger: `silva2018:table1:uoc-beta`, verified], and for $\beta \ge 1$ its
# optimal path is the diagonal
# [ledger: `silva2018:eq22:diagonal-optimal-beta-ge-1`, verified].  The
# slider's range $[0, 1]$ covers it.
#
# **OC** (cardoso2011 eq. 7) weighs the penalty by the raw counts, so its β
# lives on a scale $N$ times smaller: already for $\beta \ge 1/(N+1)$ its
# optimal path is the diagonal and OC no longer changes
# [ledger: `cardoso2011:appendixA:diagonal-for-beta-ge-1-over-N-plus-1`, verified].
# cardoso2011's tables therefore use $\beta = b/(N(K-1))$ with
# $b = 0.25, 0.75$ [ledger: `cardoso2011:tables:beta-scaling`, verified],
# and silva2018's Table I reproduces only with that scaling for its OC
# columns, although its caption gives β unscaled
# [ledger: `silva2018:table1:oc-beta`, convention].
#
# **The explorer's convention.**  The slider's value $\beta$ is used as it
# is by UOC, and as the numerator $b$ of $b/(N(K-1))$ by OC: the table's row
# "OC at β/(N(K−1))" is $OC^1_{\beta/(N(K-1))}$, the same reading as
# silva2018's Table I, where one column heading serves both.  Passing the
# slider's β to OC unscaled would leave OC constant on almost the whole
# slider — for the starting matrix below, from β = 1/85 on:

# %%
# %matplotlib inline
import io
from fractions import Fraction

import ipywidgets as widgets
import numpy as np
from IPython.display import HTML, Image, display
from matplotlib.figure import Figure

import numeric
from numeric.registry import table_beta

START = np.array([[10, 4, 1, 0],
                  [2, 12, 3, 1],
                  [0, 3, 9, 4],
                  [1, 0, 2, 8]])      # a made-up classifier, rows = true class

oc_envelope = numeric.path_envelope(START, metric="oc", arithmetic="exact")
N, K = int(START.sum()), len(START)
last = oc_envelope.breakpoints[-2]               # from here on the optimal path is the diagonal
assert last <= Fraction(1, N + 1)                 # cardoso2011 App. A's bound
{"N": N, "OC constant from beta": last, "share of the slider [0, 1] where unscaled OC is constant": float(1 - last),
 "OC's beta at the slider's end, 1/(N(K-1))": table_beta(1)(START)["beta"]}

# %% [markdown]
# The metrics of the table, each a `numeric` call; OC's β is the slider's
# value scaled by `numeric.registry.table_beta`, the scaling of the metric
# registry's OC variants ("OC, beta=0.25/(N(K-1))"):

# %%
OC_LABEL = "OC at β/(N(K−1))"


def oc_at(cm, b):
    """OC with beta = b/(N(K-1)) (cardoso2011's tables, silva2018 Table I's OC columns)."""
    return numeric.oc(cm, table_beta(b)(cm)["beta"])


#: (label, function of (cm, beta)) for the table; each is a `numeric` call.
METRICS = [
    ("misclassification error rate, MER", lambda cm, b: numeric.mer(cm)),
    ("mean absolute error, MAE", lambda cm, b: numeric.mae(cm)),
    ("mean squared error, MSE", lambda cm, b: numeric.mse(cm)),
    ("average MAE over classes, AMAE", lambda cm, b: numeric.amae(cm)),
    ("maximum MAE over classes, MMAE", lambda cm, b: numeric.mmae(cm)),
    ("Spearman's R_s", lambda cm, b: numeric.spearman_rs(cm)),
    ("Kendall's τ_b", lambda cm, b: numeric.kendall_tau_b(cm)),
    ("r_int", lambda cm, b: numeric.r_int(cm)),
    (OC_LABEL, oc_at),
    ("UOC at β", lambda cm, b: numeric.uoc(cm, b)),
    ("area under UOC(β), A_UOC", lambda cm, b: numeric.a_uoc(cm)),
    ("Cohen's kappa", lambda cm, b: numeric.cohen_kappa(cm)),
    ("linear weighted kappa", lambda cm, b: numeric.cohen_kappa(cm, weights="linear")),
    ("quadratic weighted kappa", lambda cm, b: numeric.cohen_kappa(cm, weights="quadratic")),
    ("Somers' d (prediction given the truth)", lambda cm, b: numeric.somers_d(cm)),
    ("Stuart's τ_c", lambda cm, b: numeric.kendall_tau_c(cm)),
    ("closeness evaluation measure, CEM-ORD", lambda cm, b: numeric.cem_ord(cm)),
    ("within-one accuracy", lambda cm, b: numeric.within_one_accuracy(cm)),
    ("minimum sensitivity, MS", lambda cm, b: numeric.minimum_sensitivity(cm)),
    ("geometric mean sensitivity, GM", lambda cm, b: numeric.geometric_mean_sensitivity(cm)),
]


def metric_values(cm, beta):
    """``{label: value or the reason it is undefined}`` for every metric of the table."""
    out = {}
    for label, f in METRICS:
        try:
            out[label] = float(f(cm, beta))
        except ValueError as e:          # e.g. tau_b when all samples share one class
            out[label] = f"undefined: {e}"
    return out


# OC at the slider's two ends and at the tables' two values of b: it moves over the whole slider
{b: float(oc_at(START, b)) for b in (0, 0.25, 0.75, 1)}

# %% [markdown]
# ## 2. The explorer
#
# The controls need a running kernel (JupyterLab or Notebook with
# ipywidgets).  The cell that draws them is collapsed: it is plotting and
# widget code only.

# %% tags=["hide-input"]
def metric_table(values):
    rows = "".join(
        f"<tr><td>{k}</td><td style='text-align:right'>{v:.4f}</td></tr>" if isinstance(v, float)
        else f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in values.items())
    return f"<table><tr><th>metric</th><th>value</th></tr>{rows}</table>"


def picture(cm, beta):
    """PNG bytes: the matrix with its optimal UOC path at ``beta``, and UOC(β) on [0, 1]."""
    cm = np.asarray(cm)
    K = cm.shape[0]
    fig = Figure(figsize=(9.5, 3.9), dpi=90, layout="constrained")
    ax, bx = fig.subplots(1, 2, width_ratios=[1, 1.35])
    ax.imshow(cm, cmap="Blues", vmin=0, vmax=max(cm.max(), 1), alpha=0.8)
    for r in range(K):
        for c in range(K):
            ax.text(c, r, str(cm[r, c]), ha="center", va="center", fontsize=9, zorder=3,
                    color="white" if cm[r, c] > 0.6 * cm.max() else "black")
    path = numeric.optimal_path(cm, beta, arithmetic="float")
    rows, cols = zip(*path)
    ax.plot(cols, rows, "-o", color="tab:orange", lw=2.5, ms=16, mfc="none", mew=2, alpha=0.8,
            label="optimal path")
    ax.set_xticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_yticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.set_title(f"optimal UOC path at β = {beta:.2f}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)

    env = numeric.path_envelope(cm, beta_max=1, arithmetic="float")
    betas = np.linspace(0, 1, 201)
    # the envelope is min_i (a_i + s_i β) over its pieces (Envelope's definition)
    curve = np.min(np.add.outer(betas * 0, np.array(env.intercepts, float))
                   + np.multiply.outer(betas, np.array(env.slopes, float)), axis=1)
    bx.fill_between(betas, curve, color="tab:blue", alpha=0.15,
                    label=f"area under the curve, $A_{{UOC}}$ = {numeric.a_uoc(cm):.3f}")
    bx.plot(betas, curve, color="tab:blue", lw=2, label="UOC(β)")
    for x in env.breakpoints[1:-1]:
        bx.axvline(float(x), color="grey", ls=":", lw=0.8)
    bx.plot([beta], [numeric.uoc(cm, beta)], "o", color="tab:orange", ms=8, clip_on=False,
            label=f"UOC at β = {beta:.2f}: {numeric.uoc(cm, beta):.3f}")
    bx.set_xlim(0, 1)
    bx.set_ylim(0, 1)
    bx.set_xlabel("β (dotted lines: the optimal path changes)")
    bx.set_ylabel("UOC")
    bx.set_title("UOC as a function of β")
    bx.legend(loc="lower right", fontsize=9)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


class Explorer:
    """The controls (a K×K grid of counts, a β slider) and the outputs they update."""

    def __init__(self, cm, beta=0.25):
        cm = np.asarray(cm)
        K = cm.shape[0]
        self.cells = [[widgets.BoundedIntText(value=int(cm[r, c]), min=0, max=10_000,
                                              layout=widgets.Layout(width="5.5em"))
                       for c in range(K)] for r in range(K)]
        self.beta = widgets.FloatSlider(value=beta, min=0, max=1, step=0.01, description="β",
                                        continuous_update=False)
        self.image = widgets.Image(format="png")
        self.table = widgets.HTML()
        self.message = widgets.HTML()
        for w in [self.beta] + [w for row in self.cells for w in row]:
            w.observe(lambda change: self.update(), names="value")
        grid = widgets.GridBox([w for row in self.cells for w in row],
                               layout=widgets.Layout(grid_template_columns=f"repeat({K}, 6em)"))
        scale = widgets.HTML("β is UOC's β as silva2018 writes it; OC uses β/(N(K−1)), "
                             "the scaling of cardoso2011's tables")
        self.ui = widgets.VBox([widgets.HTML("<b>counts, rows = true class</b>"), grid, self.beta, scale,
                                self.message, self.image, self.table])
        self.update()

    def matrix(self):
        return np.array([[w.value for w in row] for row in self.cells])

    def update(self):
        cm, beta = self.matrix(), self.beta.value
        try:
            self.values = metric_values(cm, beta)
            self.image.value = picture(cm, beta)
        except ValueError as e:            # e.g. an all-zero matrix
            self.message.value = f"<span style='color:#b00'>{e}</span>"
            return
        self.message.value = ""
        self.table.value = metric_table(self.values)


explorer = Explorer(START)
explorer.ui

# %% [markdown]
# ## 3. The same controls set from code
#
# CI runs the cells below: they move two counts and the slider the way a
# reader would, and check that the picture and the table followed.  Below
# them, the picture and the table for these fixed values.

# %%
before = explorer.image.value
explorer.cells[0][3].value = 6          # six samples of class 1 predicted as class 4
explorer.cells[3][0].value = 5          # five of class 4 predicted as class 1
explorer.beta.value = 0.6
cm = explorer.matrix()
assert explorer.message.value == ""                        # no error shown
assert cm[0, 3] == 6 and cm[3, 0] == 5
assert explorer.image.value != before                      # the picture was redrawn
assert explorer.values["UOC at β"] == numeric.uoc(cm, 0.6)  # the table shows the new matrix and β
assert abs(explorer.values[OC_LABEL] - numeric.oc(cm, 0.6 / (cm.sum() * (len(cm) - 1)))) < 1e-12  # β/(N(K-1))
assert explorer.values["area under UOC(β), A_UOC"] == numeric.a_uoc(cm)
assert f"{numeric.kendall_tau_b(cm):.4f}" in explorer.table.value

# %% tags=["figure:explorer", "hide-input"] alt="Left: heat map of the explorer's 4-class confusion matrix with six samples of class 1 predicted as class 4 and five of class 4 predicted as class 1, and its optimal consistent path at beta 0.6 drawn in orange. Right: UOC against beta from 0 to 1, the area under it (A_UOC) shaded, dotted lines where the optimal path changes, and an orange dot at beta 0.6."
display(Image(data=explorer.image.value, format="png"))
display(HTML(explorer.table.value))

# %% [markdown]
# ## 4. Summary
#
# * The optimal consistent path, $UOC(\beta)$ and $A_{UOC}$ follow the
#   matrix: moving samples far from the diagonal raises the envelope and
#   bends the path.
# * Of all the metrics in the table only OC and UOC depend on β; $A_{UOC}$
#   removes β by integrating UOC over $[0, 1]$.
# * OC's β and UOC's β are on different scales.  UOC takes β as silva2018
#   writes it; OC's optimal path is the diagonal from $\beta = 1/(N+1)$ on,
#   so the explorer passes it the slider's value divided by $N(K-1)$, as
#   cardoso2011's tables do and as silva2018's Table I needs
#   [ledger: `silva2018:table1:oc-beta`, convention].

# %% [markdown]
# # 2 · OC and UOC as shortest paths through the confusion matrix
#
# Lesson 1 showed that MER and MAE ignore the *order* of the mistakes and
# that the rank correlations ignore *how many* mistakes there are.
# cardoso2011 (Cardoso & Sousa, IJPRAI 2011) combines the two in one index,
# the **Ordinal Classification Index** $OC^\gamma_\beta$, defined as a
# shortest path through the confusion matrix; silva2018 (Silva, Pinto &
# Cardoso, IJCNN 2018) makes it robust to imbalanced classes (**UOC**) and
# removes its free parameter β by integrating over it ($A_{UOC}$).
#
# **What this lesson assumes.**  Lesson 1: a confusion matrix (rows = true
# class), MER and MAE, concordant and discordant pairs, and silva2018's
# matrices A–F.  Reading Python with NumPy and SymPy.
#
# **What you will learn.**
#
# 1. What a *consistent path* is, and why the diagonal path is MER's.
# 2. OC and UOC as benefit against penalty, minimised over the consistent
#    paths by dynamic programming — and for which exponent γ silva2018's
#    printed UOC formula is right (γ = 1 only).
# 3. The optimal path, drawn on the papers' matrices for two values of β.
# 4. $UOC(\beta)$ as the **lower envelope of straight lines**, one per path,
#    and $A_{UOC}$ as the exact area under it (silva2018 Fig. 1).
# 5. The index of a single sample as a function of its distance to the
#    diagonal (silva2018 Fig. 2, cardoso2011 Fig. 4), from derived closed
#    forms — and why cardoso2011's printed form holds for γ = 1 only.
#
# Where the lesson says that a paper's statement is true or false, it cites
# the claim's entry in the toolkit's claims ledger
# ([`docs/ledger.md`](../docs/ledger.md)) in square brackets: its id and its
# verdict (verified, refuted, not reproduced, or convention: reproduces only
# under a stated convention).  Run `ordinal-verify --only <id>` to check it
# again.
#
# Convention: `cm[r, c]` counts samples of **true** class `r` predicted as
# `c` (rows = true class), as in both papers.

# %%
# %matplotlib inline
# %config InlineBackend.figure_formats = ["png"]
from functools import lru_cache

import numpy as np
import matplotlib.pyplot as plt
import sympy as sp
from IPython.display import Markdown, display

import numeric
from analytic.symbols import beta
from analytic import uoc_piecewise
from analytic.ledger.sources import silva2018

# %% tags=["hide-input"]
# plotting helpers (no mathematics here)
plt.rcParams.update({"figure.dpi": 90, "font.size": 10, "axes.titlesize": 11, "legend.fontsize": 9})


def show_matrix(ax, cm, title="", cmap="Blues"):
    """Heat map of a confusion matrix, rows = true class, counts written in the cells."""
    cm = np.asarray(cm)
    K = cm.shape[0]
    ax.imshow(cm, cmap=cmap, vmin=0, vmax=max(cm.max(), 1), alpha=0.8)
    for r in range(K):
        for c in range(K):
            ax.text(c, r, str(cm[r, c]), ha="center", va="center", fontsize=9, zorder=3,
                    color="white" if cm[r, c] > 0.6 * cm.max() else "black")
    ax.set_xticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_yticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.set_title(title)


def draw_path(ax, path, **style):
    """Draw a path given as 0-based (row, col) cells over a heat map."""
    rows, cols = zip(*path)
    style = {"lw": 7, "alpha": 0.5, "solid_capstyle": "round", "solid_joinstyle": "round",
             "zorder": 2, **style}
    ax.plot(cols, rows, **style)

# %% [markdown]
# ## 1. Consistent paths
#
# Take two samples.  The pair is **discordant** if their true classes are in
# one order and their predicted classes in the opposite order; in the matrix,
# the cells $(r_i, c_i)$ and $(r_j, c_j)$ of the two samples satisfy
# $(r_i - r_j)(c_i - c_j) < 0$ (cardoso2011 Def. 2 and eq. 5).  A **path**
# walks from cell $(1,1)$ to cell $(K,K)$ through neighbouring cells; it is
# **consistent** if no two of its cells are discordant, which is the case
# exactly when every step goes *down*, *right* or *diagonally down-right*
# (cardoso2011 §3) [ledger: `cardoso2011:sec3:monotone-paths-consistent`, verified].
# The samples on a consistent path are all in the right
# relative order.
#
# MER looks at one path only, the main diagonal: the samples on it are
# right, all others are errors (cardoso2011 Fig. 1(a)).  OC lets the path
# wander off the diagonal to collect more samples, but charges for it.
#
# Below, on silva2018's $CM_D$ (classes 1 and 2 swapped), all consistent
# paths (left, drawn on top of each other) and six of them, each with its
# *benefit*, the number of samples it collects.

# %%
@lru_cache(None)
def consistent_paths(K, start=(0, 0)):
    """Every monotone path of 0-based cells from start to (K-1, K-1) (geometry only)."""
    r, c = start
    if start == (K - 1, K - 1):
        return [(start,)]
    out = []
    for dr, dc in ((1, 1), (1, 0), (0, 1)):
        if r + dr < K and c + dc < K:
            out += [(start,) + tail for tail in consistent_paths(K, (r + dr, c + dc))]
    return out


cm_D = np.asarray(silva2018.MATRICES["D"])
paths4 = consistent_paths(4)
examples = [paths4[i] for i in (0, 1, 5, 17, 30, 62)]
len(paths4), [int(sum(cm_D[r, c] for r, c in p)) for p in examples]      # paths, and the benefit of six

# %% tags=["figure:consistent-paths", "hide-input"] alt="Confusion matrices with consistent paths drawn over them: each path starts at the top-left cell, ends at the bottom-right cell and moves right, down or diagonally; the diagonal path is highlighted."

fig, axes = plt.subplots(2, 4, figsize=(12, 6.6), layout="constrained")
axes = axes.flat
show_matrix(axes[0], cm_D, f"all {len(paths4)} consistent paths")
for p in paths4:
    draw_path(axes[0], p, color="black", alpha=0.08, lw=5)
for ax, p in zip(axes[1:], examples):
    benefit = sum(cm_D[r, c] for r, c in p)
    show_matrix(ax, cm_D, f"benefit {benefit}" + (" (MER's path)" if p == paths4[0] else ""))
    draw_path(ax, p, color="tab:red")
axes[-1].axis("off")
axes[-1].legend(handles=[plt.Line2D([], [], color="black", alpha=0.3, lw=5),
                         plt.Line2D([], [], color="tab:red", alpha=0.5, lw=7)],
                labels=["every consistent path,\ndrawn on top of each other", "one consistent path;\nbenefit = samples on it"],
                loc="center", frameon=False, fontsize=10, handlelength=3)
fig.suptitle("Consistent paths on silva2018's $CM_D$ (numbers: sample counts)")
plt.show()

# %% [markdown]
# **What to look at.**  The diagonal path collects only 8 of the 18 samples
# (MER = 10/18).  A path through the swapped cells (1,2) and (2,1) is
# impossible: going from (1,2) to (2,1) would step *left*, and those two
# samples form a discordant pair.  The best a consistent path can do on
# $CM_D$ is 14 samples: the 6 of cell (2,1), then the 5 and the 3 of the
# diagonal; with the 4 of cell (1,2) instead it collects 12.  Never both.
#
# ## 2. The index: benefit against penalty
#
# cardoso2011 eq. 7 defines, for $\beta \ge 0$ and $\gamma > 0$,
#
# $$OC^\gamma_\beta = \min_{\text{consistent path}} \Big\{ 1 -
#   \frac{\sum_{(r,c)\in\text{path}} n_{r,c}}{N + \big(\sum_{\forall(r,c)} n_{r,c}\,|r-c|^\gamma\big)^{1/\gamma}}
#   + \beta \sum_{(r,c)\in\text{path}} n_{r,c}\,|r-c|^\gamma \Big\}.$$
#
# The **benefit** (the fraction) rewards paths that collect many samples; it
# is normalised by $N + M$, where $M$ measures the dispersion of the whole
# matrix away from the diagonal, so that scattered errors off the path also
# count.  The **penalty** (the β term) charges each collected sample by its
# distance to the diagonal.  Small β favours ranking (follow the samples),
# large β favours accuracy (stay on the diagonal); for β ≥ 1 the optimum is
# always the diagonal path [ledger: `cardoso2011:eq6:beta-ge-1-diagonal`, verified]
# — in fact already for $\beta \ge 1/(N+1)$, a bound that is tight
# [ledger: `cardoso2011:appendixA:diagonal-for-beta-ge-1-over-N-plus-1`, verified].
# So β of order 1 makes OC the diagonal's value: the papers' tables scale
# it, $\beta = b/(N(K-1))$ with $b = 0.25, 0.75$
# [ledger: `cardoso2011:tables:beta-scaling`, verified].
#
# silva2018 eq. 28 (eq. 22 when all classes are observed) makes every
# observed true class weigh the same: counts are replaced by the row
# frequencies $\hat p_{r,c} = n_{r,c}/N_r$ and $N$ by the number $K'$ of
# observed classes,
#
# $$UOC^\gamma_\beta = \min_{\text{consistent path}} \Big\{ 1 -
#   \frac{\sum_{\text{path}} \hat p_{r,c}}{K' + K'^{1-\gamma}\big(\sum_{\forall(r,c)} \hat p_{r,c}\,|r-c|^\gamma\big)^{1/\gamma}}
#   + \frac{\beta}{K'} \sum_{\text{path}} \hat p_{r,c}\,|r-c|^\gamma \Big\}.$$
#
# **This formula is right for γ = 1 only.**  Its factor $K'^{1-\gamma}$
# comes from silva2018 eq. 21, which claims to simplify eq. 20; it does so
# for γ = 1 only: eq. 20 multiplied by $K$ gives the denominator
# $K + K^{1-1/\gamma} S^{1/\gamma}$, while eq. 21 prints $K^{1-\gamma}$
# [ledger: `silva2018:eq21:simplification-of-eq20`, refuted].
# `numeric.uoc` implements eq. 28 as printed ($K'/K'^\gamma$); every value
# in the paper uses γ = 1, where both agree.  So the UOC values of this
# lesson, all at γ = 1, are eq. 20's; for γ ≠ 1, `numeric.uoc` is the
# printed eq. 28, not eq. 20.
#
# The minimum is found by dynamic programming (cardoso2011 §3.4)
# [ledger: `cardoso2011:sec3.4:dynamic-programme`, verified]:
# $W_{r,c} = w_{r,c} + \min(W_{r-1,c-1}, W_{r-1,c}, W_{r,c-1})$, where
# $w_{r,c}$ is the cell's cost.  `numeric.oc` and `numeric.uoc` run it;
# `numeric.optimal_path` runs the same programme and walks back from
# $(K,K)$ to return the cells of an optimal path.
#
# ## 3. Optimal paths on silva2018's matrices
#
# Table I uses $\beta_1 = 0.25$ and $\beta_2 = 0.75$ for UOC, unscaled
# [ledger: `silva2018:table1:uoc-beta`, verified].  Red: the optimal path;
# the title gives the exact $UOC^1_\beta$.

# %%
B1, B2 = (sp.Rational(b) for b in silva2018.TABLE_BETAS)
names = ["B", "C", "D", "E", "F"]
{str(b): {name: numeric.uoc(silva2018.MATRICES[name], b, arithmetic="exact") for name in names} for b in (B1, B2)}

# %% tags=["figure:optimal-paths", "hide-input"] alt="silva2018's matrices with the optimal consistent path of UOC drawn over each one for two values of beta; for the larger beta the path keeps closer to the diagonal."
fig, axes = plt.subplots(2, 5, figsize=(12, 6.2))
for row, b in zip(axes, (B1, B2)):
    for ax, name in zip(row, names):
        cm = silva2018.MATRICES[name]
        value = numeric.uoc(cm, b, arithmetic="exact")
        show_matrix(ax, cm, f"$CM_{name}$, β = {b}\nUOC = ${sp.latex(value)}$", cmap="Oranges")
        draw_path(ax, numeric.optimal_path(cm, b), color="tab:red")
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at.**
#
# * At β = 0.25 the path on $CM_B$ leaves the diagonal to collect the
#   shifted samples: B kept the order, and UOC rewards that (0.46 against
#   0.56 for $CM_D$).  At β = 0.75 the penalty is too high and every path is
#   the diagonal: UOC then depends on the diagonal only, and B and D score
#   the same (2/3).
# * On $CM_D$ each swapped cell holds a whole class (row frequency 1), so
#   the path can collect either one, never both.  Because UOC works with row
#   frequencies, making class 1 ten times larger ($CM_F$) changes nothing:
#   same path, same value.
# * On $CM_E$ class 3 is empty and ignored ($K' = 3$).
#
# ## 4. UOC as a function of β: a lower envelope of lines (silva2018 Fig. 1)
#
# For one fixed path the cost is a **straight line** in β:
# intercept $1 - \text{benefit}$, slope $=$ penalty.  UOC is the minimum over
# all paths, so its graph is the *lower envelope* of these lines: concave and
# piecewise linear.  Each piece belongs to one path, and the breakpoints are
# where the optimal path changes.  `numeric.path_envelope` finds the pieces
# exactly (a parametric search, Eisner & Severance 1976), and
# `analytic.uoc_piecewise` writes them as a SymPy `Piecewise`.
#
# silva2018 removes β by integrating it out (eq. 23):
#
# $$A_{UOC} = \int_0^1 UOC^1_\beta \, d\beta .$$
#
# Our example is silva2018's $CM_C$ (class 1 predicted two classes up).

# %%
cm_C = np.asarray(silva2018.MATRICES["C"])
uoc_C = uoc_piecewise(cm_C)
A_C = numeric.a_uoc(cm_C, arithmetic="exact")
display(Markdown(f"$$UOC^1_\\beta(CM_C) = {sp.latex(uoc_C)}, \\qquad A_{{UOC}} = {sp.latex(A_C)} \\approx {float(A_C):.4f}$$"))
env = numeric.path_envelope(cm_C, beta_max=1)       # the pieces: breakpoints, intercepts, slopes

# %% tags=["figure:silva2018-fig1", "hide-input"] alt="UOC of silva2018's matrix CM_C against beta from 0 to 1: one straight line per consistent path, their lower envelope drawn bold, and the area under the envelope, A_UOC, shaded."
bs = np.linspace(0, 1, 401)
curve = np.array([float(env(b)) for b in bs])
piece_colors = plt.cm.viridis(np.linspace(0.1, 0.8, len(env.slopes)))

fig, (ax, *mat_axes) = plt.subplots(1, 1 + len(env.slopes), figsize=(12, 4.4), layout="constrained",
                                    width_ratios=[2.8] + [1] * len(env.slopes))
ax.fill_between(bs, curve, color="tab:orange", alpha=0.25, label=f"$A_{{UOC}} = {sp.latex(A_C)}$")
for i, (a, s) in enumerate(zip(env.intercepts, env.slopes)):
    lo, hi = float(env.breakpoints[i]), float(env.breakpoints[i + 1])
    ax.plot(bs, float(a) + float(s) * bs, "--", color=piece_colors[i], lw=1,
            label=f"path {i + 1}: ${sp.latex(sp.nsimplify(a))} + {sp.latex(sp.nsimplify(s))}\\,\\beta$")
    ax.plot([lo, hi], [float(a) + float(s) * lo, float(a) + float(s) * hi], color=piece_colors[i], lw=3.5)
for bp in env.breakpoints[1:-1]:
    ax.axvline(float(bp), color="grey", lw=0.6, ls=":")
    ax.annotate(f"β = {bp}", (float(bp), 0.03), ha="center", fontsize=9, color="dimgrey")
ax.set_xlim(0, 1)
ax.set_ylim(0, 1)
ax.set_xlabel("β")
ax.set_ylabel("$UOC^1_\\beta$")
ax.set_title("$UOC^1_\\beta(CM_C)$: lower envelope of the path lines (bold)")
ax.legend(loc="upper left")

for i in range(len(env.slopes)):
    lo, hi = env.breakpoints[i], env.breakpoints[i + 1]
    inner = (lo + hi) / 2
    axi = mat_axes[i]
    show_matrix(axi, cm_C, f"path {i + 1}:\nβ in [{lo}, {hi}]", cmap="Oranges")
    draw_path(axi, numeric.optimal_path(cm_C, inner), color=piece_colors[i], alpha=0.7)
    if i:
        axi.set_ylabel("")
plt.show()

# %% [markdown]
# **What to look at.**
#
# * Every dashed line is the cost of one path; the bold envelope follows the
#   lowest one.  Below β = 2/7 the best path collects class 1's samples in
#   column 3; between 2/7 and 4/7 it gives up class 1's samples (two
#   classes away, twice the penalty) but still collects class 2's; above 4/7
#   it is the diagonal and UOC is flat at $5/7$.
# * The envelope is **concave** (slopes decrease: 3/4, 1/4, 0) — a minimum
#   of lines always is.  So the integral is a sum of trapezoids and exact
#   [ledger: `silva2018:eq23:a-uoc-exact-integral`, verified]:
#   $A_{UOC} = 32/49$, printed 0.65 in Table I
#   [ledger: `silva2018:table1:C:a_uoc`, verified].
# * The slope of a piece is the penalty of its path: the flat last piece is
#   the diagonal, which has no penalty.  For β ≥ 1 (silva2018 §III.A) UOC
#   is always the diagonal's value
#   [ledger: `silva2018:eq22:diagonal-optimal-beta-ge-1`, verified].

# %% [markdown]
# ## 5. A single sample (silva2018 Fig. 2, cardoso2011 Fig. 4)
#
# A confusion matrix with **one** sample, at distance $d = |r - c|$ from
# the diagonal, is the simplest test of an index: $\tau_b$, $R_s$ and
# $r_{int}$ need pairs of samples and are not even defined, while MER jumps
# from 0 to 1 at $d = 1$.
#
# Only two kinds of path matter: those through the sample's cell (benefit
# $1/(N+M) = 1/(1+d)$, penalty $d^\gamma$) and those avoiding it (benefit 0,
# cost 1).  So the index is the lower envelope of two lines; cardoso2011
# §3.2 prints it as $OC^\gamma_\beta = \min\big(1,\ 1 - \frac{1}{1+|r-c|} +
# \beta|r-c|\big)$.  That is the form for γ = 1 only: the penalty is
# $\beta|r-c|^\gamma$, and the printed form drops the exponent
# [ledger: `cardoso2011:sec3.2:single-sample-form`, convention].
# `analytic.single_sample_forms` derives the index symbolically from
# eq. 7 and eq. 28 (with $N = 1$, $K' = 1$) for γ = 1 and γ = 2, decides
# the breakpoint for every integer $d \ge 1$, and integrates $A_{UOC}$:

# %%
from analytic import single_sample_forms
from analytic.symbols import d

single = single_sample_forms()
single_g2 = single_sample_forms(gamma=2)
display(Markdown(
    f"$$OC^1_\\beta = UOC^1_\\beta = {sp.latex(single.uoc)}$$\n\n"
    f"$$A_{{UOC}} = {sp.latex(single.a_uoc)}$$\n\n"
    f"$$OC^2_\\beta = {sp.latex(single_g2.oc)}$$\n\n"
    f"*method:* {single.method}"))
assert single.oc == single.uoc      # one sample: N = 1 and K' = 1, so OC and UOC coincide

# %% [markdown]
# The curves below are the closed forms at $d = 0, 1, \dots, 10$ ($d = 0$:
# the sample is on the diagonal and every index is 0); the small black
# crosses are `numeric.uoc` / `numeric.oc` on the actual one-sample
# matrices, as a check.

# %%
ds = np.arange(0, 11)


def on_grid(form, b=None):
    """A closed form in d (and beta = b) evaluated exactly at d = 0..10; 0 at d = 0 (on the diagonal)."""
    if b is not None:
        form = form.subs(beta, sp.nsimplify(b))
    return np.array([0.0] + [float(form.subs(d, int(k))) for k in ds[1:]])


def one_sample(dist):
    """The (dist+1)-class matrix with one sample in cell (0, dist)."""
    cm = np.zeros((dist + 1, dist + 1), dtype=int)
    cm[0, dist] = 1
    return cm


# the closed form agrees exactly with numeric.uoc on the one-sample matrices (beta = 1/4, d = 1..10)
assert all(single.uoc.subs({beta: sp.Rational(1, 4), d: int(k)}) == numeric.uoc(one_sample(int(k)), sp.Rational(1, 4), arithmetic="exact")
           for k in ds[1:])

# %% tags=["figure:silva2018-fig2", "hide-input"] alt="Reproduction of silva2018 Fig. 2: UOC for several values of beta and A_UOC of a single misclassified sample, plotted against the sample's distance to the diagonal; every curve rises with the distance."
fig, ax = plt.subplots(figsize=(7.5, 4.8))
for b, col in zip((0, 0.01, 0.05, 0.1, 0.25, 1), plt.cm.viridis(np.linspace(0, 0.85, 6))):
    ax.plot(ds, on_grid(single.uoc, b), "o-", ms=4, color=col, label=f"$UOC_\\beta$, β = {b}")
    ax.plot(ds, [float(numeric.uoc(one_sample(k), b)) for k in ds], "x", color="black", ms=4)
ax.plot(ds, on_grid(single.a_uoc), "s--", ms=5, color="tab:red", lw=2, label="$A_{UOC}$")
ax.plot(ds, [float(numeric.a_uoc(one_sample(k))) for k in ds], "x", color="black", ms=4,
        label="check: computed on the\none-sample matrix")
ax.set_xlabel("distance of the sample to the diagonal, $d = |r - c|$")
ax.set_ylabel("index")
ax.set_xticks(ds)
ax.set_ylim(-0.02, 1.05)
ax.set_title("silva2018 Fig. 2: UOC and $A_{UOC}$ of a single sample")
ax.legend(loc="lower right")
plt.show()

# %% tags=["figure:cardoso2011-fig4", "hide-input"] alt="Reproduction of cardoso2011 Fig. 4: OC of a single sample against its distance to the diagonal for several values of beta, with MER for comparison."
fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
for ax, forms, g in ((axes[0], single, 1), (axes[1], single_g2, 2)):
    for b, col in zip((0, 0.05, 0.1, 0.25, 0.5), plt.cm.plasma(np.linspace(0, 0.8, 5))):
        ax.plot(ds, on_grid(forms.oc, b), "o-", ms=4, color=col, label=f"β = {b}")
        ax.plot(ds, [float(numeric.oc(one_sample(k), b, gamma=g)) for k in ds], "x", color="black", ms=4)
    ax.step(ds, [0] + [1] * (len(ds) - 1), where="post", color="grey", ls=":", label="MER")
    ax.plot([], [], "x", color="black", ms=4, label="check: computed on the\none-sample matrix")
    ax.set_xlabel("distance to the diagonal, $d = |r - c|$")
    ax.set_xticks(ds)
    ax.set_title(f"cardoso2011 Fig. 4: $OC^{g}_\\beta$ of a single sample (γ = {g})")
    ax.legend(loc="lower right")
axes[0].set_ylabel("$OC^\\gamma_\\beta$")
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at.**
#
# * Every curve rises from 0 towards 1 as the sample moves away from the
#   diagonal [ledger: `cardoso2011:sec3.2:single-sample-monotone`, verified], and reaches 1 for good once the penalty $\beta d^\gamma$ makes
#   the path through the sample more expensive than the diagonal: from
#   $d(d+1) \ge 1/\beta$ on (γ = 1).  The larger β, the sooner.
# * β = 0 is the pure ranking view: $d/(1+d)$, which never reaches 1.
# * At β = 0.5 the curve is already MER's step: $\frac12 + \frac12 = 1$ at
#   $d = 1$ — cardoso2011 §3.2, "for β = 0.5, OC already equals the MER"
#   [ledger: `cardoso2011:sec3.2:beta-half-equals-mer`, verified].
# * $A_{UOC} = 1 - \frac{1}{2d(d+1)^2}$ does not depend on β
#   [ledger: `silva2018:sec4A:single-sample-a-uoc`, verified].  It is the
#   average of $UOC_\beta$ over $\beta \in [0, 1]$, and for $d \ge 1$ most
#   of that range ($\beta \ge 1/(d(d+1))$, i.e. from β = 1/2 at $d = 1$,
#   from β = 1/6 at $d = 2$) already gives 1: so $A_{UOC}$ runs close to the
#   top, between the β = 0.25 and β = 1 curves (7/8 at $d = 1$, 35/36 at
#   $d = 2$).
# * With γ = 2 the penalty grows like $d^2$ and the curves reach 1 sooner.

# %% [markdown]
# ## 6. Summary
#
# * A consistent path walks from $(1,1)$ to $(K,K)$ down, right or
#   diagonally; its samples are all in the right relative order.  MER uses
#   only the diagonal path.
# * $OC^\gamma_\beta$ (cardoso2011 eq. 7) takes the path that best trades
#   the samples it collects (benefit) against their distance to the
#   diagonal (penalty, weighted by β); $UOC$ (silva2018 eq. 28) does the
#   same with row frequencies, so every true class weighs the same.  The
#   minimum over the paths is a dynamic programme.
# * silva2018's printed UOC formula (eqs. 21, 28) is eq. 20 only for γ = 1,
#   the only γ the paper uses
#   [ledger: `silva2018:eq21:simplification-of-eq20`, refuted]; likewise
#   cardoso2011's printed single-sample form
#   [ledger: `cardoso2011:sec3.2:single-sample-form`, convention].
# * As a function of β, UOC is a concave, piecewise linear lower envelope
#   of one line per path; $A_{UOC}$, its integral over $[0, 1]$, is exact
#   and rational.
# * For one sample at distance $d$, the index rises with $d$ and reaches 1
#   once $\beta d(d+1) \ge 1$ (γ = 1); at β = 1/2 it is MER's step.
#
# ## 7. Exercises
#
# **Exercise 1.**  How many consistent paths does a $K \times K$ matrix have?
# Use `consistent_paths` for $K = 1, \dots, 6$.  These are the *central
# Delannoy numbers*; check the answer against
# $D(K-1) = \sum_{k} \binom{K-1}{k}^2 2^k$.

# %% [markdown]
# **Exercise 2.**  For silva2018's $CM_C$, from which β on is the optimal
# path the main diagonal?  Read it off `env` (the last breakpoint before 1)
# and check it with `numeric.optimal_path` just below and just above it.

# %% [markdown]
# **Exercise 3.**  Integrate the `Piecewise` `uoc_C` over $[0, 1]$ with
# `sympy.integrate` and check that you get `numeric.a_uoc` exactly.  Then
# check that the value rounds to the 0.65 printed in silva2018 Table I.

# %% [markdown]
# **Exercise 4.**  UOC ignores the size of each class.  Multiply row 2 of
# $CM_B$ by 7 and check that the optimal path and the whole function
# $UOC(\beta)$ (the `Piecewise`) do not change, while OC's does.

# %% [markdown]
# **Exercise 5.**  cardoso2011 §3.2 says that for β = 0.5 the single-sample
# OC "already equals the MER".  Using the closed form `single.oc`, find
# the smallest β for which a sample at distance $d = 1$ already scores 1,
# and check with `numeric.oc` that at that β every $d = 1, \dots, 8$ scores
# 1.

# %% [markdown] tags=["solution"]
# ## Answers
#
# Each answer stores its result in a variable; the `assert` cell after it
# checks the result.  The student version of the lesson (`python
# docs/build.py --student` for the book, `python notebooks/build.py
# --student` for the notebooks) leaves the worked answers out and keeps
# each self-check, so that a student can test an answer.

# %% [markdown] tags=["solution"]
# **Answer 1.**

# %% tags=["solution"]
n_paths = [len(consistent_paths(K)) for K in range(1, 7)]
n_paths

# %% tags=["solution", "self-check"]
from selfcheck import check   # compares a fingerprint of each answer: the check does not tell it

assert len(n_paths) == 6, "n_paths: one count for each K = 1, ..., 6"
check("n_paths", [int(n) for n in n_paths], "eeef67fef92d1565", "count the consistent paths "
      "of section 1 (steps right, down or diagonal from (1,1) to (K,K)) for each K")

# %% [markdown] tags=["solution"]
# **Answer 2.**

# %% tags=["solution"]
beta_diag = env.breakpoints[-2]
beta_diag

# %% tags=["solution"]
from selfcheck import check

diagonal = [(k, k) for k in range(4)]
check("beta_diag", beta_diag, "f3031e7ae5697269", "read the breakpoints of UOC's envelope for "
      "CM_C (section 4): at which one does the optimal path become the diagonal?")
assert numeric.optimal_path(cm_C, beta_diag + sp.Rational(1, 100)) == diagonal
assert numeric.optimal_path(cm_C, beta_diag - sp.Rational(1, 100)) != diagonal

# %% [markdown] tags=["solution"]
# **Answer 3.**

# %% tags=["solution"]
A_by_hand = sp.integrate(uoc_C, (beta, 0, 1))
A_by_hand

# %% tags=["solution", "self-check"]
from numeric.rounding import matches_printed
from selfcheck import check

check("A_by_hand", A_by_hand, "f6f2ebb3321b757b", "integrate the piecewise UOC of CM_C "
      "(section 4) over beta from 0 to 1 with sp.integrate, exactly")
assert matches_printed(A_by_hand, silva2018.TABLE_I["C"][silva2018.TABLE_I_COLUMNS.index("A_UOC")])

# %% [markdown] tags=["solution"]
# **Answer 4.**

# %% tags=["solution"]
cm_B = np.asarray(silva2018.MATRICES["B"])
cm_B7 = cm_B.copy()
cm_B7[1] *= 7
same_uoc = uoc_piecewise(cm_B7) == uoc_piecewise(cm_B)
same_oc = numeric.path_envelope(cm_B7, metric="oc") == numeric.path_envelope(cm_B, metric="oc")
same_uoc, same_oc

# %% tags=["solution", "self-check"]
from selfcheck import check

check("(same_uoc, same_oc)", (bool(same_uoc), bool(same_oc)), "2d8707923e54bdd3", "compare "
      "the whole envelopes, not one value; section 2 says which index normalises each row")
assert numeric.optimal_path(cm_B7, B1) == numeric.optimal_path(cm_B, B1)

# %% [markdown] tags=["solution"]
# **Answer 5.**

# %% tags=["solution"]
beta_mer = sp.solve(sp.Eq(single.oc.args[0][0].subs(d, 1), 1), beta)[0]
beta_mer

# %% tags=["solution", "self-check"]
from selfcheck import check

check("beta_mer", beta_mer, "08a5aec455987723", "section 5: solve OC(beta) = 1 for the "
      "single sample at distance d = 1, exactly (sp.solve)")
assert all(numeric.oc(one_sample(k), beta_mer, arithmetic="exact") == 1 for k in range(1, 9))
assert numeric.oc(one_sample(1), beta_mer - sp.Rational(1, 100), arithmetic="exact") < 1

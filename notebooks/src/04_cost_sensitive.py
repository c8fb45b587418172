# %% [markdown]
# # 4 · Cost-sensitive metrics: TC, TC_max, STC and the accuracy–cost grid
#
# The OC family of lessons 2–3 scores a classifier through the *order* of its
# mistakes.  A different line of work gives every kind of mistake a **cost**
# and adds the costs up, with costs that grow with the distance between the
# classes *and* with the rarity of the classes involved.
#
# * **george2016** — George, Lu & Chang, *Cost-sensitive performance metric
#   for comparing multiple ordinal classifiers* (AIR 2016): the cost matrix
#   (eq. 4), the total cost TC (eq. 5), its maximum found numerically
#   (eq. 6), $MC = TC/\max TC$ and the distance $d$ of a classifier to the
#   ideal point of an accuracy–cost grid (eq. 7, Figs. 1–2).
# * **binotto2024** — Binotto & Delgado, *How to adapt the performance
#   metrics to ordinal classification by intervals?*: the same TC divided by
#   $N$ (eq. 3), a **closed form** for its maximum (Prop. 1), the binary and
#   balanced cases (Props. 2–3, Cor. 1) and $STC = TC/TC_{max}$ (Def. 1).
#
# **What this lesson assumes.**  Lesson 1: a confusion matrix (rows = true
# class), MER, MAE and AMAE, and Kendall's $\tau_b$.  Reading Python with
# NumPy and SymPy.  Lessons 2, 3 and 5 are not needed.
#
# **What you will learn.**
#
# * The class-size-weighted cost matrix, and when it is symmetric — including
#   the case where binotto2024's Remark 1 is wrong, two classes
#   [ledger: `binotto2024:remark1:symmetric-iff-balanced`, refuted].
# * The total cost TC, its largest value $TC_{max}$ in closed form
#   (binotto2024 Prop. 1) and for balanced classes (Props. 2–3, Cor. 1),
#   derived symbolically here; and STC = MC = TC/$TC_{max}$.
# * george2016's accuracy–cost grid, its distance $d$ and its tie-break, on
#   the classifiers of its Tables 1, 2 and 4.
# * Which printed numbers do **not** reproduce, and what the ledger found
#   about each: a numerical optimiser that stopped short of the maximum, and
#   a slip in one cell.
#
# Where the lesson says that a paper's statement is true or false, it cites
# the claim's entry in the toolkit's claims ledger
# ([`docs/ledger.md`](../docs/ledger.md)) in square brackets: its id and its
# verdict (verified, refuted, not reproduced, or convention: reproduces only
# under a stated convention).  Run `ordinal-verify --only <id>` to check it
# again.
#
# **Orientation — read this first.**  Both papers print matrices with
# *rows = predicted class, columns = true class*.  The toolkit (and lessons
# 1–3) use *rows = true class*.  So every matrix of these papers is
# transposed before use (`george2016.MATRICES` already holds the
# transposes; `george2016.PRINTED` holds them as printed), and a cost matrix
# printed in the papers is the transpose of `numeric.cost_matrix`.

# %%
# %matplotlib inline
# %config InlineBackend.figure_formats = ["png"]
import numpy as np
import matplotlib.pyplot as plt
import sympy as sp
from IPython.display import Markdown, display

import numeric
from numeric.markdown import table as markdown_table
from numeric.rounding import matches_printed, round_half_up
from analytic.ledger.sources import george2016
from analytic.symbols import r
from analytic.derivations.tc_max import corollary1_differences, derive_tc_max_balanced, positive_for_integers_from, tc_max_balanced

# %% tags=["hide-input"]
# plotting and table helpers (no mathematics here)
plt.rcParams.update({"figure.dpi": 90, "font.size": 10, "axes.titlesize": 11, "legend.fontsize": 9})


def show_matrix(ax, m, title="", cmap="Purples", fmt=str, xlabel="predicted class", ylabel="true class"):
    """Heat map of a matrix with its entries written in (fmt formats one entry)."""
    a = np.asarray(m, dtype=float)
    K = a.shape[0]
    ax.imshow(a, cmap=cmap, vmin=0, vmax=max(a.max(), 1e-12))
    for i in range(K):                  # rows (r is the symbol of the number of classes)
        for j in range(K):
            ax.text(j, i, fmt(np.asarray(m, dtype=object)[i, j]), ha="center", va="center", fontsize=9,
                    color="white" if a[i, j] > 0.6 * a.max() else "black")
    ax.set_xticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_yticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def md_table(header, rows):
    """Show a list of rows as a Markdown table (numeric.markdown.table: a | in a cell is escaped)."""
    display(Markdown(markdown_table(header, rows)))

# %% [markdown]
# ## 1. The cost matrix
#
# Let $n_k$ be the number of test samples of true class $k$ and
# $N = \sum_k n_k$.  In our orientation (rows = true class $t$, columns =
# predicted class $p$), the cost of predicting $p$ for a sample of class $t$
# is
#
# $$m_{t p} = \frac{1}{N}\,\frac{N - n_t}{n_p}\,|t - p|
#   \qquad\text{(binotto2024 eq. 4; george2016 eq. 4 without the } 1/N\text{)}.$$
#
# The factor $\gamma = (N - n_t)/n_p$ is the inverse of the probability that
# a misclassified sample of class $t$ lands in class $p$ by chance
# (binotto2024 §2): predicting a **rare** class is expensive, and so is
# misclassifying a sample of a rare class, because $N - n_t$ is then large.
# The factor $|t - p|$ is the ordinal distance.
#
# george2016 §2.2 works the example of class sizes 10, 20, 70.  It prints the
# factor matrix, the distance matrix and their product (rounded, "≈"),
# all *predicted × true*.

# %% tags=["figure:cost-matrix", "hide-input"] alt="Two heat maps of the class-size-weighted cost matrix for class sizes 10, 20 and 70, as the papers print it and transposed, each cell showing its cost."
counts = george2016.COST_EXAMPLE_COUNTS
cost_unnormalised = numeric.cost_matrix(counts, normalize=False, arithmetic="exact")   # rows = true
printed = np.array([[sp.nsimplify(v) for v in row] for row in george2016.COST_EXAMPLE_ROUNDED], dtype=object)

fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
show_matrix(axes[0], cost_unnormalised, "computed cost matrix (not divided by N)\nrows = TRUE class")
show_matrix(axes[1], cost_unnormalised.T, "its transpose\n(george2016's orientation)",
            xlabel="true class", ylabel="predicted class")
show_matrix(axes[2], printed, "george2016 §2.2 as printed (≈)\nrows = PREDICTED class",
            fmt=lambda v: f"{float(v):g}", xlabel="true class", ylabel="predicted class")
fig.suptitle("Cost matrix for class sizes n = (10, 20, 70)")
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at.**  The middle and right panels agree cell by cell (the
# printed matrix rounds $18/7 \approx 2.6$ and $8/7 \approx 1.1$)
# [ledger: `george2016:eq4:example-10-20-70`, verified].  The most expensive
# error (8) is predicting the rare class 1 for a sample of class 2;
# predicting the big class 3 is cheap.  The matrix is *not* symmetric.
#
# **When is the cost matrix symmetric?**  binotto2024 Remark 1 says: exactly
# when all classes have the same size.  That is **false for two classes**
# [ledger: `binotto2024:remark1:symmetric-iff-balanced`, refuted].  With
# $r = 2$ the two off-diagonal costs are
# $m_{12} = \frac1N \frac{N - n_1}{n_2} = \frac1N$ and
# $m_{21} = \frac1N \frac{N - n_2}{n_1} = \frac1N$, whatever the sizes: the
# cost matrix of two classes is always symmetric, balanced or not.  The
# remark's proof uses the step
# $\sum_{k \ne i,j} n_k/n_i = \sum_{k \ne i,j} n_k/n_j \Leftrightarrow n_i = n_j$,
# which needs a third class $k$; with three classes or more the equivalence
# holds (the ledger finds no counterexample on its whole grid).  The smallest
# counterexample, and the two cases of three classes:

# %%
M_two = numeric.cost_matrix([1, 2], arithmetic="exact")          # unbalanced, two classes
M_balanced = numeric.cost_matrix([3, 3, 3], arithmetic="exact")
M_unbalanced = numeric.cost_matrix([1, 2, 3], arithmetic="exact")
for name, M in (("n = (1, 2)", M_two), ("n = (3, 3, 3)", M_balanced), ("n = (1, 2, 3)", M_unbalanced)):
    display(Markdown(f"{name}: $M = {sp.latex(sp.Matrix(M))}$, symmetric: **{(M == M.T).all()}**"))
assert (M_two == M_two.T).all() and (M_balanced == M_balanced.T).all()   # symmetric, one of them unbalanced
assert not (M_unbalanced == M_unbalanced.T).all()

# %% [markdown]
# ## 2. Total cost and its maximum
#
# With $n_{tp}$ the confusion counts (rows = true),
#
# $$TC = \sum_{t,p} n_{tp}\, m_{tp} = \frac1N \sum_{t,p} n_{tp}\,\frac{N-n_t}{n_p}\,|t-p|
#   \qquad\text{(binotto2024 eq. 3)}.$$
#
# To compare classifiers on a common scale, TC is divided by the largest
# value it can take for the same class sizes.  george2016 (eq. 6) finds
# $\max TC$ by numerical optimisation (R's `constrOptim`).  binotto2024
# Prop. 1 observes that each true class can be treated on its own: the
# worst a classifier can do is to send **all** of class $j$ to the class
#
# $$i_j = \arg\max_\ell \frac{|\ell - j|}{n_\ell} \qquad\text{(eq. 6)},\qquad
#   TC_{max} = \frac1N \sum_j \frac{n_j (N - n_j)}{n_{i_j}}\,|i_j - j|$$
#
# [ledger: `binotto2024:prop1:exhaustive`, verified].
# `numeric.tc_max_matrix` builds that worst matrix; `numeric.tc_max`
# evaluates the sum.  Then (binotto2024 Def. 1, george2016's MC)
#
# $$STC = MC = \frac{TC}{TC_{max}} \in [0, 1].$$

# %% [markdown]
# **The balanced case in closed form.**  With $n_j = N/r$ for every class,
# the cost of sending class $j$ to class $\ell$ is proportional to
# $|\ell - j|$, so the worst target is one of the two ends: class $r$ while
# $r - j \ge j - 1$, class 1 after that.  `analytic.derivations.tc_max` carries Prop. 1's
# construction out symbolically — solves for the split index $h$, does the
# two sums with `sympy.summation` on each parity of $r$ — and returns a
# `Piecewise` on the parity.  Nothing of the printed Prop. 3 is typed in;
# compare with binotto2024 Prop. 3, which prints $\frac{(r-1)(3r-2)}{4}$ for
# even $r$ and $\frac{(r-1)^2}{4r}(3r+1)$ for odd $r$
# [ledger: `binotto2024:prop3:symbolic`, verified].  Corollary 1 ($TC_{max}$
# grows strictly with $r$) follows from the two differences below
# [ledger: `binotto2024:cor1:symbolic`, verified]; its printed proof,
# though, rewrites $4k^2 < (2k+1)^2$ as $2 \le 2k + 1$, which is not an
# equivalence (the two differ at $k = 0$): both hold for $k \ge 1$, so the
# corollary stands, not that step
# [ledger: `binotto2024:cor1:proof-second-inequality`, refuted].

# %%
steps = derive_tc_max_balanced()
tcmax_r = tc_max_balanced()
d1, d2 = corollary1_differences()
k = next(iter(d1.free_symbols))
display(Markdown(
    f"split: class $r$ is the worst target while ${sp.latex(steps.split)}$, so $h = {sp.latex(steps.h_even)}$ "
    f"for $r = 2m$ and $h = {sp.latex(steps.h_odd)}$ for $r = 2m + 1$\n\n"
    f"$$TC_{{max}}(r) = {sp.latex(tcmax_r)}$$\n\n"
    f"Corollary 1: $TC_{{max}}(2k+1) - TC_{{max}}(2k) = {sp.latex(d1)}$ and "
    f"$TC_{{max}}(2k+2) - TC_{{max}}(2k+1) = {sp.latex(d2)}$, both positive for every $k \\ge 1$: "
    f"**{positive_for_integers_from(d1, k, 1) and positive_for_integers_from(d2, k, 1)}**"))

# %% tags=["figure:tc-max-matrix", "hide-input"] alt="Left and middle: heat maps of the worst classifier's confusion matrix for the colon data and for 6 balanced classes, every sample predicted into a far class. Right: maximum total cost for balanced classes against the number of classes r, the symbolic closed form as a line and the worst matrix's cost as dots on it, increasing with r."
colon_counts = np.asarray(george2016.MATRICES["SVM"]).sum(axis=1)        # rows = true class
worst = numeric.tc_max_matrix(colon_counts)
balanced = numeric.tc_max_matrix([5] * 6)

fig, axes = plt.subplots(1, 3, figsize=(12, 3.9))
show_matrix(axes[0], worst,
            f"worst classifier, colon data n = {tuple(int(v) for v in colon_counts)}\n"
            f"$TC = TC_{{max}} = {sp.latex(numeric.tc_max(colon_counts, arithmetic='exact'))}$", cmap="Reds")
show_matrix(axes[1], balanced,
            f"worst classifier, balanced, r = 6\n$TC_{{max}} = {sp.latex(numeric.tc_max([5] * 6, arithmetic='exact'))}$",
            cmap="Reds")
rs = np.arange(2, 16)
axes[2].plot(rs, [float(tcmax_r.subs(r, int(k))) for k in rs], "-", color="black", lw=1,
             label="closed form,\nderived (Prop. 3)")
axes[2].plot(rs, [float(numeric.tc_max([1] * int(k))) for k in rs], "o", color="tab:red",
             label="worst matrix\n(Prop. 1), per r")
axes[2].axhline(1, color="grey", lw=0.6, ls=":")
axes[2].set_xlabel("number of classes r")
axes[2].set_ylabel("$TC_{max}$, balanced classes")
axes[2].set_title("balanced case: increasing in r (Prop. 3, Cor. 1)")
axes[2].legend(loc="upper left")
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at.**  In the worst matrices every row holds a single
# non-zero cell: each true class is sent, whole, to its most expensive
# class.  On the colon data (sizes 24, 57, 57, 39) classes 1 and 2 go to
# class 4 and classes 3 and 4 go to class 1 — the far ends, weighted by how
# small the receiving class is.  In the balanced case the worst classifier
# simply sends the lower half of the classes to the last class and the upper
# half to the first (binotto2024 Prop. 3's $A_{max}$).  With two classes
# $TC_{max} = 1$ for any sizes (Prop. 2)
# [ledger: `binotto2024:prop2:symbolic`, verified]; for balanced classes it
# grows strictly with $r$ (Cor. 1).

# %% [markdown]
# ## 3. george2016's accuracy–cost grid (Fig. 1)
#
# george2016 places each classifier at the point (Acc, MC) of the unit
# square.  The ideal classifier sits at $(1, 0)$: everything right, no cost.
# A classifier is scored by its distance to that corner,
#
# $$d = \sqrt{(1 - \mathrm{Acc})^2 + MC^2} \in [0, \sqrt2] \qquad\text{(eq. 7)},$$
#
# smaller is better.  Ties in $d$ are broken by the distance to the "line of
# random chance" $\mathrm{Acc} + MC = 1$, $|\mathrm{Acc} + MC - 1|/\sqrt2$,
# larger is better (§2.3).  For two classes every classifier lies on that
# line: $MC = 1 - \mathrm{Acc}$ identically (`numeric.george_tiebreak`'s
# docstring), so the grid is only informative for three classes or more.
# `numeric.george_d` and `numeric.george_tiebreak` compute both from a
# confusion matrix, with the closed-form $TC_{max}$.

# %% tags=["figure:george2016-fig1", "hide-input"] alt="Reproduction of george2016 Fig. 1: the accuracy-cost grid, accuracy on the horizontal axis and misclassification cost on the vertical one, quarter circles of equal distance d from the ideal point (1, 0) marked with a star, and the dashed line of random chance Acc + MC = 1."
def grid(ax, title=""):
    """george2016 Fig. 1: the (Acc, MC) square, the ideal corner, circles of equal d, the chance line."""
    t = np.linspace(0, np.pi / 2, 100)
    for rad in (0.25, 0.5, 0.75, 1.0):
        ax.plot(1 - rad * np.cos(t), rad * np.sin(t), color="tab:blue", lw=0.6, alpha=0.5)
        ax.annotate(f"d = {rad}", (1 - rad * np.cos(0.9), rad * np.sin(0.9)), fontsize=9, color="tab:blue")
    ax.plot([0, 1], [1, 0], "--", color="grey", lw=1, label="random chance: Acc + MC = 1")
    ax.plot([1], [0], marker="*", ms=14, color="gold", mec="black", label="ideal (1, 0)", clip_on=False)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("accuracy (Acc)")
    ax.set_ylabel("misclassification cost (MC = STC)")
    ax.set_title(title)


fig, ax = plt.subplots(figsize=(5, 5))
grid(ax, "george2016 Fig. 1: the performance grid")
ax.legend(loc="upper right")
plt.show()

# %% [markdown]
# ## 4. The classifiers of Table 1 on the grid (Fig. 2)
#
# Table 1 prints ten classifiers on three cancer data sets: colon (4 AJCC
# stages, $N = 177$), lung (3 stages, $N = 56$) and ovarian (5 stage
# groups, $N = 579$).  Classifiers of one data set share the test set, hence
# the class sizes and $TC_{max}$.  First Table 2: each value is rounded
# half-up to the printed decimals and compared (✓ / ✗).

# %%
def summary(name):
    cm = george2016.MATRICES[name]          # rows = true class
    out = {
        "d": numeric.george_d(cm, arithmetic="exact"),
        "Accuracy": 1 - numeric.mer(cm, arithmetic="exact"),
        "AMAE": numeric.amae(cm, arithmetic="exact"),
        "MC": numeric.stc(cm, arithmetic="exact"),
    }
    try:
        out["tau_b"] = numeric.kendall_tau_b(cm, arithmetic="exact")
    except ValueError:                      # one predicted class only: tau_b is undefined
        out["tau_b"] = None
    return out


def cell(value, printed):
    if value is None:
        return f"undefined {'✓' if printed == 'NA' else '✗'} (printed {printed})"
    digits = len(printed.split(".")[1]) if "." in printed else 0
    shown = f"{float(round_half_up(value, max(digits, 2))):.{max(digits, 2)}f}"
    return f"{shown} ✓" if matches_printed(value, printed) else f"{shown} ✗ (printed {printed})"


table1 = [k for g in ("colon", "lung", "ovarian") for k in george2016.GROUPS[g]]
values = {k: summary(k) for k in table1}
md_table(["classifier", "MC (not printed)"] + list(george2016.TABLE_2_ROWS),
         [[k, f"{float(values[k]['MC']):.3f}"] +
          [cell(values[k][row], george2016.TABLE_2[row][k]) for row in george2016.TABLE_2_ROWS]
          for k in table1])

# %% [markdown]
# Accuracy, AMAE and $\tau_b$ reproduce everywhere (the ovarian AMAE
# "1.1" is printed with one decimal only).  (glmnetcr predicts every
# sample as stage III, so $\tau_b$ is undefined — the paper prints "NA".)
# The distance $d$ reproduces for nine classifiers of ten; **glmnetcr is
# printed 1.07** [ledger: `george2016:table2:glmnetcr:d`, not reproduced], while its accuracy 0.32 and the closed-form $TC_{max}$ give
# $d = 0.70$.  A $d$ of 1.07 at that accuracy would need $MC \approx 0.83$,
# i.e. a $\max TC$ about 0.22 times the true maximum — but SVM and
# rpartScore share glmnetcr's test set (same class sizes, same
# $\max TC$) and their printed $d$ need a $\max TC$ at least 0.73 times the
# true one.  No single maximum explains the three colon cells: an error in
# the source (corrected candidate 0.70).  The diagnosis, with exact
# intervals, is in `proofs_tests/test_tables_george2016.py`.

# %% tags=["figure:george2016-fig2", "hide-input"] alt="Reproduction of george2016 Fig. 2: the classifiers of george2016 Table 1 placed on the accuracy-cost grid, each labelled with its distance d to the ideal point."
markers = "osD^"
fig, axes = plt.subplots(1, 3, figsize=(12, 5.6), layout="constrained")
for ax, (group, label) in zip(axes, [("colon", "(a) colon cancer"), ("lung", "(b) lung cancer"),
                                     ("ovarian", "(c) ovarian cancer")]):
    grid(ax, f"george2016 Fig. 2{label}")
    shared = ax.get_legend_handles_labels()          # the chance line and the ideal point: one legend below
    for i, k in enumerate(george2016.GROUPS[group]):
        acc, mc, d = (float(values[k][c]) for c in ("Accuracy", "MC", "d"))
        ax.plot(acc, mc, markers[i], ms=8, alpha=0.85, label=f"{k}: d = {d:.2f}")
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles[len(shared[0]):], labels[len(shared[0]):], loc="upper center",
              bbox_to_anchor=(0.5, -0.17), title="classifier: distance to the ideal", title_fontsize=9)
fig.legend(*shared, loc="outside lower center", ncol=2)
plt.show()

# %% [markdown]
# **What to look at.**
#
# * (a) SVM sits almost in the ideal corner; glmnetcr (everything predicted
#   as one stage) is far away.
# * (b) Sig24 and Shuffle24 have the **same accuracy** (0.73) — Shuffle24
#   is Sig24's matrix shuffled — so they lie on one vertical line.  AMAE
#   prefers Shuffle24 and $\tau_b$ prefers Sig24; MC separates them: Sig24's
#   errors are cheaper, so it is lower on the grid and closer to the ideal.
# * (c) $p_{1E-8}$ has the worst AMAE of the four, yet it is both the most
#   accurate and the cheapest: $d$ picks it, as the paper says
#   [ledger: `george2016:sec3.1:text`, verified].
#
# ## 5. Table 4: cheaper but less accurate, and the tie-break
#
# george2016 §3.2 simulates pairs of classifiers in which the *less
# accurate* one is cheaper.  In Table 4(b) the two distances are almost the
# same and the tie-break decides.

# %%
t4 = george2016.GROUPS["table4"]
vals4 = {k: {"d": numeric.george_d(george2016.MATRICES[k], arithmetic="exact"),
             "MC": numeric.stc(george2016.MATRICES[k], arithmetic="exact"),
             "Acc": 1 - numeric.mer(george2016.MATRICES[k], arithmetic="exact"),
             "tiebreak": numeric.george_tiebreak(george2016.MATRICES[k], arithmetic="exact")} for k in t4}
rows = []
for k in t4:
    v, p = vals4[k], george2016.TABLE_4[k]
    tb = george2016.TABLE_4_TIEBREAK.get(k)
    rows.append([k, int(np.asarray(george2016.MATRICES[k]).sum()), f"{float(v['Acc']):.4f}",
                 cell(v["MC"] * 100, p["MC%"]), cell(v["d"], p["d"]),
                 cell(v["tiebreak"], tb) if tb else f"{float(v['tiebreak']):.3f}"])
md_table(["matrix", "N", "Acc", "MC %", "d", "tie-break"], rows)

# %% [markdown]
# MC reproduces for all four [ledger: `george2016:sec3.2:table4-mc-values`, verified],
# and the tie-break distances 0.12 and 0.04 too
# [ledger: `george2016:sec3.2:table4-tiebreak`, verified]; the printed $d$
# values do **not**: each is slightly *larger* than ours (e.g.
# [ledger: `george2016:table4:T4a_0.60:d`, not reproduced]).
# `proofs_tests/test_tables_george2016.py` diagnoses it: one common
# $\max TC$ equal to $s$ times the true maximum, with
# $s \in (0.973276, 0.975684]$, reproduces all four cells.  The numerical
# optimiser of george2016 stopped about 2.5 % short of the maximum that
# binotto2024 Prop. 1 gives in closed form, which inflates MC and $d$.
#
# It matters in Table 4(b): the printed distances (0.329 for Acc = 0.70,
# 0.331 for Acc = 0.80) put the less accurate classifier ahead by a hair;
# with the true maximum (0.327 and 0.325) the more accurate one is ahead by
# a hair, so the paper's "d prefers Acc = 0.70" does not reproduce
# [ledger: `george2016:sec3.2:table4b-d-prefers-acc070`, not reproduced].
# Either way a near-tie, which the paper settles with the tie-break, in
# favour of Acc = 0.70.
#
# One more slip: the printed matrix `T4a_0.70` sums to 801 where the text
# says 800; the tests show that $f_{2,4} = 53 \to 52$ is the only one-unit
# correction that restores $N = 800$ and the class sizes of the other three
# matrices and reproduces every printed value (with the matrix as printed,
# AMAE does not reproduce: [ledger: `george2016:table4:T4a_0.70:AMAE`, not reproduced]).

# %% [markdown]
# ## 6. Summary
#
# * The cost of predicting $p$ for a sample of true class $t$ is
#   $\frac1N\frac{N - n_t}{n_p}|t - p|$: errors into, and out of, rare
#   classes cost more.  The cost matrix is symmetric for balanced classes,
#   and always for two classes — binotto2024's Remark 1 misses that case
#   [ledger: `binotto2024:remark1:symmetric-iff-balanced`, refuted].
# * The worst classifier sends each true class, whole, to the class that
#   maximises $|\ell - j|/n_\ell$, which gives $TC_{max}$ in closed form
#   (Prop. 1); for balanced classes it is a `Piecewise` on the parity of $r$,
#   derived here and equal to the printed Prop. 3, and it grows with $r$
#   (Cor. 1, whose printed proof has one step that is not an equivalence).
# * george2016 found $\max TC$ numerically and stopped about 2.5 % short:
#   its printed $d$ values of Table 4 are slightly too large, and its
#   glmnetcr $d$ of Table 2 is not explained by any single maximum.  The
#   closed form settles both.
#
# ## 7. Exercises
#
# **Exercise 1.**  binotto2024 Prop. 2: for two classes $TC_{max} = 1$
# whatever the class sizes.  Check it exactly for all sizes
# $1 \le n_1, n_2 \le 12$.

# %% [markdown]
# **Exercise 2.**  The worst classifier of Prop. 1 really is the worst: for
# the lung data's class sizes, build the worst matrix with
# `numeric.tc_max_matrix`, check that its STC is exactly 1, and check that
# 200 random matrices with the same class sizes all have $STC \le 1$.

# %% [markdown]
# **Exercise 3.**  Sig24 and Shuffle24 have the same accuracy.  Which one
# does $d$ prefer, which one does AMAE prefer, and which does $\tau_b$ prefer?
# (Answer with the classifier names; lower $d$ and AMAE are better, higher
# $\tau_b$ is better.)

# %% [markdown]
# **Exercise 4.**  Transposition matters.  Compute TC of Sig24 from the
# matrix *as printed* (`george2016.PRINTED["Sig24"]`, rows = predicted),
# wrongly used as if rows were true classes, and compare with the correct
# value.  Are they equal?

# %% [markdown]
# **Exercise 5.**  Check the closed form of the balanced case against
# `numeric.tc_max` exactly for $r = 1, \dots, 30$ (balanced sizes, e.g. 7
# samples per class), and find the smallest $r$ with $TC_{max} > 100$.

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
binary_maxima = {numeric.tc_max([a, b], arithmetic="exact") for a in range(1, 13) for b in range(1, 13)}
binary_maxima

# %% tags=["solution"]
assert binary_maxima == {1}, \
    f"{len(binary_maxima)} distinct values: compute numeric.tc_max([n1, n2], arithmetic=\"exact\") (section 2)"

# %% [markdown] tags=["solution"]
# **Answer 2.**

# %% tags=["solution"]
lung_counts = np.asarray(george2016.MATRICES["Sig24"]).sum(axis=1)
worst_lung = numeric.tc_max_matrix(lung_counts)
rng = np.random.default_rng(0)
random_stc = [numeric.stc(np.array([rng.multinomial(n, rng.dirichlet(np.ones(3))) for n in lung_counts]))
              for _ in range(200)]
stc_of_worst = numeric.stc(worst_lung, arithmetic="exact")
stc_of_worst, max(random_stc)

# %% tags=["solution"]
assert (worst_lung.sum(axis=1) == lung_counts).all(), \
    "the worst matrix keeps the class sizes: its row sums are lung_counts (numeric.tc_max_matrix)"
assert stc_of_worst == 1, "compute STC of the worst matrix exactly (arithmetic=\"exact\", section 2)"
assert max(random_stc) <= 1, "an STC above 1: draw each row with its class size (rng.multinomial)"

# %% [markdown] tags=["solution"]
# **Answer 3.**

# %% tags=["solution"]
prefers = {
    "d": min(["Sig24", "Shuffle24"], key=lambda k: values[k]["d"]),
    "AMAE": min(["Sig24", "Shuffle24"], key=lambda k: values[k]["AMAE"]),
    "tau_b": max(["Sig24", "Shuffle24"], key=lambda k: values[k]["tau_b"]),
}
prefers

# %% tags=["solution", "self-check"]
from selfcheck import check   # compares a fingerprint of the answer: the check does not tell it

assert values["Sig24"]["Accuracy"] == values["Shuffle24"]["Accuracy"]
assert set(prefers) == {"d", "AMAE", "tau_b"}, "prefers: a dict with the keys d, AMAE, tau_b"
check("prefers", prefers, "27d9c909b266f215", "lower d and AMAE are better, higher tau_b is "
      "better: compare values[\"Sig24\"] and values[\"Shuffle24\"] (section 5)")

# %% [markdown] tags=["solution"]
# **Answer 4.**

# %% tags=["solution"]
tc_right = numeric.tc(george2016.MATRICES["Sig24"], arithmetic="exact")
tc_wrong = numeric.tc(george2016.PRINTED["Sig24"], arithmetic="exact")
same = tc_right == tc_wrong
tc_right, tc_wrong

# %% tags=["solution", "self-check"]
from selfcheck import check

check("same", bool(same), "60a33e6cf5151f2d", "compute TC of george2016.MATRICES[\"Sig24\"] "
      "(rows = true) and of the printed matrix used as it is, exactly (section 1)")
assert tc_right == numeric.tc(np.asarray(george2016.PRINTED["Sig24"]).T, arithmetic="exact")

# %% [markdown] tags=["solution"]
# **Answer 5.**

# %% tags=["solution"]
agree = all(tcmax_r.subs(r, q) == numeric.tc_max([7] * q, arithmetic="exact") for q in range(1, 31))
first_above_100 = next(q for q in range(1, 100) if tcmax_r.subs(r, q) > 100)
agree, first_above_100

# %% tags=["solution"]
assert agree, "the closed form and numeric.tc_max differ for some r: substitute r exactly"
assert tcmax_r.subs(r, first_above_100) > 100 >= tcmax_r.subs(r, first_above_100 - 1), \
    "first_above_100 is not the smallest r with TC_max > 100 (section 2's closed form)"

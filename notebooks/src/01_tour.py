# %% [markdown]
# # 1 · A tour: why MER, MAE and the rank correlations fail on ordinal data
#
# In an **ordinal** classification problem the classes have a natural order
# (exam grades A > B > C, cancer stages I < II < III < IV).  Predicting
# stage III for a stage-I tumour is worse than predicting stage II, and a
# classifier whose mistakes keep the order of the classes is better than one
# whose mistakes scramble it.  A good metric should see both things:
# *how far* the predictions are from the truth, and *whether the order* is
# respected.
#
# **What this lesson assumes.**  What a classifier and its predictions are;
# reading Python with NumPy (arrays, indexing) and a little SymPy (exact
# rationals).  No previous lesson.
#
# **What you will learn.**
#
# * What a confusion matrix is (rows = true class) and the classical metrics
#   computed from it: MER, MAE, MSE, AMAE, MMAE and the rank correlations
#   $R_s$, $\tau_b$, $r_{int}$.
# * What each of them misses on ordinal data: how far the mistakes go, or
#   whether the order of the classes is kept, or the size of each class.
# * How to check a paper's table cell by cell in exact arithmetic, and what
#   to do with a cell that does not reproduce: diagnose it, never bend the
#   code.
#
# Where the lesson says that a paper's statement is true or false, it cites
# the claim's entry in the toolkit's claims ledger
# ([`docs/ledger.md`](../docs/ledger.md)) in square brackets: its id and its
# verdict (verified, refuted, not reproduced, or convention: reproduces only
# under a stated convention).  Run `ordinal-verify --only <id>` to check it
# again.
#
# This lesson puts the classical metrics side by side on the confusion
# matrices printed in two papers and shows, on each matrix, what a metric
# misses:
#
# * **cardoso2011** — Cardoso & Sousa, *Measuring the performance of ordinal
#   classification* (IJPRAI 2011), §2 and Tables 1–5;
# * **silva2018** — Silva, Pinto & Cardoso, *A Uniform Performance Index for
#   Ordinal Classification with Imbalanced Classes* (IJCNN 2018), Table I.
#
# Every number below is computed by the toolkit's `numeric` package; nothing
# is re-implemented here.  We use `arithmetic="exact"` (SymPy rationals and
# radicals) to compare with the printed two-decimal cells without any
# floating-point doubt.
#
# **Convention.**  `cm[r, c]` is the number of samples of **true** class `r`
# predicted as class `c`: *rows = true class, columns = predicted class*, in
# the order of the classes.  Both papers of this lesson print their matrices
# that way.  (Lesson 4's george2016 and lesson 5's binotto2024 print the
# transpose.)

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
from analytic.ledger.sources import cardoso2011, silva2018

EXACT = dict(arithmetic="exact")

# %% tags=["hide-input"]
# plotting and table helpers (no mathematics here)
plt.rcParams.update({"figure.dpi": 90, "font.size": 10, "axes.titlesize": 11, "legend.fontsize": 9})


def show_matrix(ax, cm, title, cmap="Blues"):
    """Heat map of a confusion matrix, rows = true class, counts written in the cells."""
    cm = np.asarray(cm)
    K = cm.shape[0]
    ax.imshow(cm, cmap=cmap, vmin=0, vmax=max(cm.max(), 1))
    for r in range(K):
        for c in range(K):
            v = cm[r, c]
            ax.text(c, r, str(v), ha="center", va="center",
                    color="white" if v > 0.6 * cm.max() else "black", fontsize=9)
    ax.set_xticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_yticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.set_title(title)


def md_table(header, rows):
    """Show a list of rows as a Markdown table (numeric.markdown.table: a | in a cell is escaped)."""
    display(Markdown(markdown_table(header, rows)))

# %% [markdown]
# ## 1. The metrics
#
# With $n_{r,c}$ the counts, $N=\sum n_{r,c}$ and $K$ classes:
#
# | metric | definition | source | range, best |
# |---|---|---|---|
# | MER | $\frac1N\sum_{r\ne c} n_{r,c}$ | silva2018 eq. 1 | [0, 1], 0 |
# | MAE | $\frac1N\sum_{r,c} n_{r,c}\,\lvert r-c\rvert$ | silva2018 eq. 3, cardoso2011 §1.1 | [0, K−1], 0 |
# | MSE | $\frac1N\sum_{r,c} n_{r,c}\,(r-c)^2$ | silva2018 eq. 2 | [0, (K−1)²], 0 |
# | AMAE, MMAE | mean / maximum over the true classes of the per-class MAE | silva2018 eqs. 14–15 | 0 |
# | $R_s$ | Spearman's correlation of the (mid-)ranks of true and predicted classes | silva2018 eq. 4 | [−1, 1], **1** |
# | $\tau_b$ | $\frac{c-d}{\sqrt{c+d+e_t}\sqrt{c+d+e_p}}$ over concordant $c$ / discordant $d$ pairs | silva2018 eqs. 5–6, cardoso2011 §1.1 | [−1, 1], **1** |
# | $r_{int}$ | $-1+2\,\frac{\mathrm{card}(S_1\cap S_2)}{\sqrt{\mathrm{card}\,S_1\,\mathrm{card}\,S_2}}$ | silva2018 eqs. 7–10 | [−1, 1], **1** |
# | $OC^\gamma_\beta$ | shortest consistent path through the matrix (lesson 2) | cardoso2011 eq. 7 | [0, 1], 0 |
# | $UOC^\gamma_\beta$, $A_{UOC}$ | the same, class-balanced; its area over β | silva2018 eqs. 23, 28 | [0, 1], 0 |
#
# MER, MAE, MSE and the OC family are **errors** (0 is perfect); $R_s$,
# $\tau_b$ and $r_{int}$ are **correlations** (1 is perfect).  MAE and MSE
# measure distances between the class *indices* $r, c$: cardoso2011 §1.1
# defines them on the matrix so that they no longer depend on the numbers
# given to the classes, but they still treat the classes as equally spaced
# and an error one class up like one class down (silva2018 §II).  The
# correlations only use the *order*.
#
# (silva2018's eq. 8 for $\mathrm{card}(S_1)$ is transcribed with a column
# sum $n_{\bullet j}$ where the definition needs the row sum $n_{j\bullet}$:
# as transcribed it reproduces Table I's $r_{int}$ for matrix A only and can
# give $r_{int} > 1$ [ledger: `silva2018:eq8:card-S1`, refuted].
# `numeric.r_int` uses the definition, which reproduces the printed tables.)

# %% [markdown]
# ## 2. cardoso2011 §2: four classifiers on the same task
#
# cardoso2011 imagines four classifiers A–D on a task with $K=4$ classes and
# $N=13$ samples, and asks what a sensible metric should say: A is perfect,
# B worse, C worse than B.  Only CM(A) and CM(B) are printed.  C and D are
# described in words; the toolkit reconstructed them by an exhaustive search
# over all matrices with the same class sizes — each is the *only* matrix
# that reproduces its whole row of Table 1
# [ledger: `cardoso2011:table1:C:reconstruction`, verified]
# [ledger: `cardoso2011:table1:D:reconstruction`, verified]
# (they are silva2018's $CM_C$ and $CM_E$ with class 3 emptied).  Class 3
# has no sample in this task.

# %%
table1 = {
    "A": cardoso2011.MATRICES["A"],
    "B": cardoso2011.MATRICES["B"],
    "C": cardoso2011.TABLE1_RECONSTRUCTED["C"],       # the unique reconstructions
    "D": cardoso2011.TABLE1_RECONSTRUCTED["D"],
}
section4 = {k: cardoso2011.MATRICES[k] for k in
            ("CM_1", "CM_2", "CM_3", "CM_4", "CM_5", "CM_6", "CM_10", "CM_11", "CM_12")}

# %% tags=["figure:heatmaps-cardoso2011", "hide-input"] alt="Heat maps of the confusion matrices of cardoso2011 Table 1 (classifiers A to D) and of section 4, rows the true class and columns the predicted class, each cell showing its count; darker cells hold more samples."

fig, axes = plt.subplots(3, 5, figsize=(12, 8.4))
for ax, (name, cm) in zip(axes.flat, list(table1.items()) + list(section4.items())):
    note = " (reconstructed)" if name in ("C", "D") else ""
    show_matrix(ax, cm, (f"$CM_{{{name[3:]}}}$" if name.startswith("CM_") else name) + note)
for ax in axes.flat[len(table1) + len(section4):]:
    ax.axis("off")
fig.suptitle("cardoso2011: Table 1 (A–D) and the matrices of §4 (rows = true class)")
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at.**  A is diagonal.  B moves every sample of class 1 to
# class 2 and every sample of class 2 to class 3: ten of thirteen samples are
# wrong, but *the order is intact* — a sample of a lower class is never
# predicted above a sample of a higher class.  C sends class 1 two classes
# away; D swaps classes 1 and 2, breaking the order.
#
# Now the metrics.  cardoso2011's OC columns use
# $\beta_1 = 0.25/(N(K-1))$ and $\beta_2 = 0.75/(N(K-1))$ with $\gamma=1$
# (the caption of Table 1) [ledger: `cardoso2011:tables:beta-scaling`, verified].  Each computed value is rounded half-up to the
# printed decimals and compared with the printed cell (✓ / ✗).

# %%
COLS = cardoso2011.COLUMNS


def cardoso_row(cm):
    """The seven columns of cardoso2011's Tables 1-5, exact."""
    cm = np.asarray(cm)
    N, K = int(cm.sum()), cm.shape[0]
    b1, b2 = (sp.Rational(b) / (N * (K - 1)) for b in cardoso2011.BETA_NUMERATORS)
    return {
        "MER": numeric.mer(cm, **EXACT), "MAE": numeric.mae(cm, **EXACT),
        "R_s": numeric.spearman_rs(cm, **EXACT), "tau_b": numeric.kendall_tau_b(cm, **EXACT),
        "r_int": numeric.r_int(cm, **EXACT),
        "OC_beta1": numeric.oc(cm, b1, **EXACT), "OC_beta2": numeric.oc(cm, b2, **EXACT),
    }


def cell(value, printed):
    """'0.50 ✓' when the exact value rounds to the printed cell."""
    digits = len(printed.split(".")[1]) if printed and "." in printed else 2
    shown = f"{float(round_half_up(value, digits)):.{digits}f}"
    if printed is None:
        return shown
    return f"{shown} ✓" if matches_printed(value, printed) else f"{shown} ✗ (printed {printed})"


values_t1 = {k: cardoso_row(cm) for k, cm in table1.items()}
md_table(["classifier"] + list(COLS),
         [[k] + [cell(values_t1[k][c], p) for c, p in zip(COLS, cardoso2011.TABLE1[k])] for k in table1])

# %% [markdown]
# **The failures, one by one** (cardoso2011 §2):
#
# * **MER** gives B, C and D the same 0.77: it counts mistakes, not how far
#   they go.
# * **MAE** separates C (two classes away) but gives B and D the same 0.77,
#   although B kept the order and D did not.
# * **$R_s$, $\tau_b$ and $r_{int}$** give B a *perfect* 1.0: ten of thirteen
#   samples are misclassified, but the order is preserved, and the order is
#   all a rank correlation sees.  So $1-\tau_b$ is not even a distance: it is
#   0 for two different label vectors.
# * **OC** separates all four, and the two values of β show its trade-off:
#   at $\beta_1$ (ranking matters more) C (0.61) is better than D (0.65); at
#   $\beta_2$ (accuracy matters more) D (0.72) is better than C (0.78).

# %% [markdown]
# ## 3. cardoso2011 §4: dispersed examples and real classifiers
#
# Tables 2–5 compare pairs of matrices that the authors picked because OC
# disagrees with another metric.  Two things to know about the transcription
# of the paper:
#
# * the Table 2 row of $CM_1$ was lost, except its MER cell;
# * the transcribed $CM_5$ reproduces **none** of its seven cells.  Moving a
#   single sample of row 2 from column 2 to column 3 reproduces all seven,
#   and among all 4×4 matrices with $N=7$ it is the only one-sample change
#   that does (`cardoso2011.CORRECTED_CANDIDATES`)
#   [ledger: `cardoso2011:table4:CM_5:matrix`, refuted].  We show both.
#
# A value that does not reproduce is a finding to diagnose, never a reason
# to bend the code.

# %%
tables = {"2": cardoso2011.TABLE2, "3": cardoso2011.TABLE3,
          "4": cardoso2011.TABLE4, "5": cardoso2011.TABLE5}
rows = []
for t, printed_rows in tables.items():
    for key, printed in printed_rows.items():
        v = cardoso_row(cardoso2011.MATRICES[key])
        rows.append([f"T{t}", key] + [cell(v[c], p) if p is not None else "—" for c, p in zip(COLS, printed)])
        if key in cardoso2011.CORRECTED_CANDIDATES:
            v = cardoso_row(cardoso2011.CORRECTED_CANDIDATES[key])
            rows.append([f"T{t}", key + " corrected"] + [cell(v[c], p) for c, p in zip(COLS, printed)])
md_table(["table", "matrix"] + list(COLS), rows)

# %% [markdown]
# **What to look at.**
#
# * $CM_3$ versus $CM_4$ (Table 3): both correlations are *negative* —
#   the classifiers are worse than random at ranking — and $\tau_b$ needs a
#   third decimal ($-0.254$ vs $-0.250$) to tell them apart
#   [ledger: `cardoso2011:table3:tau_b-three-decimals`, verified].
# * The one ✗ left on $CM_4$ is its MAE: the exact value is $6/7 = 0.857$,
#   printed 0.85.  No matrix with $N=7$ has an MAE that rounds to 0.85
#   (MAE is a multiple of 1/7), so the slip is in the table, not the matrix
#   [ledger: `cardoso2011:table3:CM_4:mae`, not reproduced].
# * $CM_5$ versus $CM_6$ (Table 4): the same MAE (1.00), but $CM_6$ has
#   negative rank correlations — OC prefers $CM_5$, the consistent one.
# * $CM_{10}$–$CM_{12}$ (Table 5) are real classifiers (oSVM, oNN,
#   Frank & Hall) on a 5-class problem whose class 1 is empty.  $CM_{11}$
#   predicts almost everything one class too high: MER 0.82, yet
#   $R_s=0.89$ — again a high correlation for a classifier that is almost
#   always wrong.

# %% [markdown]
# ## 4. silva2018 Table I: imbalance and a missing class
#
# silva2018 reuses the idea with six matrices, now with class 3 observed:
# A (perfect), B (order kept), C (two classes away), D (classes 1 and 2
# swapped), **E** = D without any sample of class 3 (an *unobserved* class)
# and **F** = D with class 1 ten times larger (an *imbalanced* test set).
# A fair metric should give D and F the same value: per class, the two
# classifiers behave identically.

# %% tags=["figure:heatmaps-silva2018", "hide-input"] alt="Heat maps of silva2018's simulated 4-class confusion matrices A to F, rows the true class and columns the predicted class, each cell showing its count."
fig, axes = plt.subplots(2, 3, figsize=(10, 6.4))
axes = axes.flat
for ax, (name, cm) in zip(axes, silva2018.MATRICES.items()):
    show_matrix(ax, cm, f"$CM_{name}$", cmap="Oranges")
fig.suptitle("silva2018 §IV.B: the simulated matrices (K = 4, rows = true class)")
fig.tight_layout()
plt.show()

# %% [markdown]
# Table I prints thirteen columns.  Its captions give $\beta_1=0.25$ and
# $\beta_2=0.75$.  For UOC these are used as written (silva2018 eq. 22 has
# already absorbed $N$ into β) [ledger: `silva2018:table1:uoc-beta`, verified];
# for OC the table reproduces only with cardoso2011's scaling
# $\beta/(N(K-1))$, which the caption does not state
# [ledger: `silva2018:table1:oc-beta`, convention].  AMAE of E reproduces
# only if the missing class counts as zero error and the average runs over
# all four classes (`missing="zero"`; the paper says MMAE and AMAE "assume
# an optimistic scenario (no error on the missing classes)")
# [ledger: `silva2018:table1:E:amae`, convention].

# %%
SCOLS = silva2018.TABLE_I_COLUMNS
B1, B2 = (sp.Rational(b) for b in silva2018.TABLE_BETAS)


def silva_row(key):
    cm = np.asarray(silva2018.MATRICES[key])
    N, K = int(cm.sum()), cm.shape[0]
    missing = "zero" if key == "E" else "ignore"
    return {
        "MER": numeric.mer(cm, **EXACT), "MSE": numeric.mse(cm, **EXACT), "MAE": numeric.mae(cm, **EXACT),
        "MMAE": numeric.mmae(cm, missing=missing, **EXACT), "AMAE": numeric.amae(cm, missing=missing, **EXACT),
        "R_s": numeric.spearman_rs(cm, **EXACT), "tau_b": numeric.kendall_tau_b(cm, **EXACT),
        "r_int": numeric.r_int(cm, **EXACT),
        "OC_beta1": numeric.oc(cm, B1 / (N * (K - 1)), **EXACT), "OC_beta2": numeric.oc(cm, B2 / (N * (K - 1)), **EXACT),
        "UOC_beta1": numeric.uoc(cm, B1, **EXACT), "UOC_beta2": numeric.uoc(cm, B2, **EXACT),
        "A_UOC": numeric.a_uoc(cm, **EXACT),
    }


silva_values = {k: silva_row(k) for k in silva2018.MATRICES}
md_table(["matrix"] + list(SCOLS),
         [[k] + [cell(silva_values[k][c], p) for c, p in zip(SCOLS, silva2018.TABLE_I[k])]
          for k in silva2018.MATRICES])

# %% [markdown]
# All 78 cells reproduce, under the two conventions just stated.  The same numbers as a picture: one panel per
# metric, one bar per matrix; the black tick is the printed cell.  In the
# three orange panels (the correlations) **higher is better**; everywhere
# else lower is better.

# %% tags=["figure:metrics-side-by-side", "hide-input"] alt="Thirteen bar charts, one per metric of silva2018 Table I (MER, MSE, MAE, MMAE, AMAE, Spearman R_s, Kendall tau_b, r_int, OC and UOC at two betas, A_UOC), each with one bar per matrix A to F for the value computed by the toolkit and a black tick for the value printed in the paper; every tick sits on top of its bar."
colors = plt.cm.tab10(np.arange(6))
TITLES = {"MER": "MER", "MSE": "MSE", "MAE": "MAE", "MMAE": "MMAE", "AMAE": "AMAE",
          "R_s": "Spearman $R_s$", "tau_b": "Kendall $\\tau_b$", "r_int": "$r_{int}$",
          "OC_beta1": f"OC, β = {B1}", "OC_beta2": f"OC, β = {B2}",
          "UOC_beta1": f"UOC, β = {B1}", "UOC_beta2": f"UOC, β = {B2}", "A_UOC": "$A_{UOC}$"}
fig, axes = plt.subplots(3, 5, figsize=(12, 7.2), sharex=True)
for ax, col in zip(axes.flat, SCOLS):
    vals = [float(silva_values[k][col]) for k in silva2018.MATRICES]
    printed = [float(silva2018.TABLE_I[k][SCOLS.index(col)]) for k in silva2018.MATRICES]
    ax.bar(range(6), vals, color=colors)
    ax.scatter(range(6), printed, marker="_", s=200, color="black", zorder=3)
    correlation = col in ("R_s", "tau_b", "r_int")
    ax.set_title(TITLES[col], color="tab:orange" if correlation else "black")
    ax.set_xticks(range(6), list(silva2018.MATRICES))
    ax.tick_params(labelbottom=True)
    ax.axhline(0, color="grey", lw=0.5)
axes.flat[-1].axis("off")
axes.flat[-2].axis("off")
axes.flat[-2].legend(
    handles=[plt.Rectangle((0, 0), 1, 1, color="grey"),
             plt.Line2D([], [], marker="_", ms=14, mew=2, ls="none", color="black"),
             plt.Line2D([], [], color="tab:orange", lw=4)],
    labels=["value computed by the toolkit", "value printed in silva2018 Table I",
            "rank correlation (orange title):\nhigher is better"],
    loc="center left", frameon=False, fontsize=10)
fig.suptitle("silva2018 Table I: computed (bars) and printed (black ticks) for matrices A–F")
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at.**
#
# * **D against F** (the 4th and 6th bar): MER, MSE, MAE, the correlations
#   and OC all change when class 1 is made ten times larger, although
#   nothing changed *per class*.  MMAE, AMAE, UOC and $A_{UOC}$ do not move:
#   they give every true class the same weight, as silva2018 §IV.B says
#   [ledger: `silva2018:sec4B:D-equals-F`, verified].
# * **E** (a class never observed): MMAE and AMAE stay at D's value (they
#   treat the missing class as error-free); UOC and $A_{UOC}$ ignore the
#   missing class and so judge E on the three classes left, two of which are
#   wrong — a worse score than D
#   [ledger: `silva2018:sec4B:E-penalised`, verified].
# * **B, C, D**: MER cannot separate them; the correlations rank B above D
#   [ledger: `silva2018:sec4B:ranking-metrics-D-worse-than-B`, verified];
#   the OC family separates all three.
# * Two sentences of silva2018 §IV.B do not match its own Table I.  It says
#   that every accuracy metric (MER, MSE, MAE, MMAE, AMAE) scores B and D
#   alike and C worse, but MER scores all three 5/9, as the paragraph before
#   it says [ledger: `silva2018:sec4B:accuracy-metrics-B-D-C`, refuted]; the
#   other four do as the sentence says.  And it says
#   $\tau_b$ is lowest for C, but the lowest is D (0.60 against C's 0.61,
#   as the table prints)
#   [ledger: `silva2018:sec4B:tau-b-lowest-C`, refuted].
#
# Lesson 2 explains where OC and UOC come from.

# %% [markdown]
# ## 5. Summary
#
# * A confusion matrix counts, for each true class (row), the predictions
#   in each class (column).  Every metric of this lesson is a function of it.
# * MER counts mistakes but not how far they go; MAE and MSE see the
#   distance but not whether the order of the classes is kept; the rank
#   correlations $R_s$, $\tau_b$, $r_{int}$ see only the order, so a
#   classifier that is wrong ten times in thirteen can score a perfect 1.
# * MER, MAE, MSE, the correlations and OC change when one class is made
#   larger although each class is treated the same way; MMAE, AMAE, UOC and
#   $A_{UOC}$ do not.
# * Rebuilt cell by cell in exact arithmetic, cardoso2011's Tables 1–5 and
#   silva2018's Table I reproduce except where the ledger diagnoses a slip:
#   one transcribed matrix ($CM_5$), one cell ($CM_4$'s MAE), one equation
#   (silva2018 eq. 8), two conventions the captions do not state, and two
#   sentences that contradict their own table.
#
# ## 6. Exercises
#
# Answer each question in the lesson's notebook (the book's page links it
# for download), in a new cell below the question.  Worked answers, each
# checked by an `assert` cell, are in the *Answers* section at the end of
# the lesson (the student version keeps only the checks).
#
# **Exercise 1.**  Compute, exactly, MER and Kendall's $\tau_b$ of
# cardoso2011's CM(B).  Which of the two notices that ten of the thirteen
# samples are wrong?

# %% [markdown]
# **Exercise 2.**  silva2018 says that, of the metrics of Table I, only
# MMAE, AMAE and the two proposed ones (UOC, $A_{UOC}$) give D and F the
# same value [ledger: `silva2018:sec4B:D-equals-F`, verified].  Collect, from `silva_values`, the set of columns whose exact
# values for D and F are equal, and check the claim.

# %% [markdown]
# **Exercise 3.**  Build a 3×3 confusion matrix with $N=6$ samples in which
# **every** sample is misclassified (MER = 1) and yet $\tau_b = 1$.
# *Hint:* a class may have no sample.

# %% [markdown]
# **Exercise 4.**  Matrix E has no sample of class 3.  Compute its AMAE
# (silva2018 eq. 15) exactly under both conventions of `numeric.amae`:
# `missing="ignore"` (average over the observed classes only) and
# `missing="zero"` (the unobserved class counts as zero error, average over
# all K classes).  Which one reproduces the printed 0.50?

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
cm_B = cardoso2011.MATRICES["B"]
mer_B = numeric.mer(cm_B, arithmetic="exact")
tau_B = numeric.kendall_tau_b(cm_B, arithmetic="exact")
notices = "MER"      # "MER" or "tau_b"
mer_B, tau_B

# %% tags=["solution", "self-check"]
from selfcheck import check   # compares a fingerprint of each answer: the check does not tell it

check("mer_B", mer_B, "82fd9931d868ef04", "MER is the share of wrong samples (section 1); "
      "use numeric.mer(..., arithmetic=\"exact\") on cardoso2011.MATRICES[\"B\"]")
check("tau_B", tau_B, "d96363b310b0db1b", "reread section 2: what tau_b measures, and how "
      "it ranks CM(B)")
check("notices", notices, "c71c4fce8aa39855", "which of your two values moves away from a "
      "perfect score when ten samples are wrong? (section 2)")

# %% [markdown] tags=["solution"]
# **Answer 2.**

# %% tags=["solution"]
same_for_D_and_F = {c for c in SCOLS if sp.simplify(silva_values["D"][c] - silva_values["F"][c]) == 0}
same_for_D_and_F

# %% tags=["solution", "self-check"]
from selfcheck import check

assert isinstance(same_for_D_and_F, set) and same_for_D_and_F <= set(SCOLS), \
    "same_for_D_and_F: a set of column names of SCOLS (section 4)"
check("same_for_D_and_F", same_for_D_and_F, "80753bc0abc3e35c", f"{len(same_for_D_and_F)} "
      "columns is not the right set: compare silva_values[\"D\"][c] and silva_values[\"F\"][c] "
      "exactly (sp.simplify of the difference), for every c in SCOLS (section 4)")

# %% [markdown] tags=["solution"]
# **Answer 3.**

# %% tags=["solution"]
cm_trick = np.array([[0, 3, 0],
                     [0, 0, 3],
                     [0, 0, 0]])

# %% tags=["solution"]
assert np.shape(cm_trick) == (3, 3) and np.sum(cm_trick) == 6, "cm_trick: a 3 x 3 matrix of 6 samples"
assert numeric.mer(cm_trick, arithmetic="exact") == 1, \
    "some sample is on the diagonal (classified right): MER = 1 needs every one off it"
assert numeric.kendall_tau_b(cm_trick, arithmetic="exact") == 1, \
    "tau_b < 1: the predictions must rise with the true classes, never fall (section 1; the hint)"

# %% [markdown] tags=["solution"]
# **Answer 4.**

# %% tags=["solution"]
cm_E = silva2018.MATRICES["E"]
amae_ignore = numeric.amae(cm_E, missing="ignore", arithmetic="exact")
amae_zero = numeric.amae(cm_E, missing="zero", arithmetic="exact")
convention = "zero"      # "ignore" or "zero"
amae_ignore, amae_zero

# %% tags=["solution"]
from selfcheck import check

printed = silva2018.TABLE_I["E"][SCOLS.index("AMAE")]
check("(amae_ignore, amae_zero)", (amae_ignore, amae_zero), "49c7955343bb8a82",
      "compute both exactly with numeric.amae(cm_E, missing=..., arithmetic=\"exact\"); "
      "section 4 says how each convention averages")
assert convention in ("ignore", "zero"), 'convention: "ignore" or "zero"'
assert matches_printed({"ignore": amae_ignore, "zero": amae_zero}[convention], printed), \
    f"AMAE under {convention!r} does not round to the printed {printed}: try the other convention"
assert not matches_printed({"ignore": amae_zero, "zero": amae_ignore}[convention], printed)

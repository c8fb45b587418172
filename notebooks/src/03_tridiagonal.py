# %% [markdown]
# # 3 · Tridiagonal matrices as the number of classes grows
#
# A **tridiagonal** confusion matrix has ones on the main diagonal and on the
# two diagonals next to it, zeros elsewhere.  Each class is predicted right
# once, one class too low once and one class too high once (the first and
# last classes have one neighbour only).  With $K$ classes there are
# $N = 3K - 2$ samples, of which $K$ are right.
#
# **What this lesson assumes.**  Lessons 1 and 2: MER, MAE and the rank
# correlations; OC and UOC as shortest paths and the scaling
# $\beta = b/(N(K-1))$ of cardoso2011's tables.  Reading Python with SymPy
# (substitution, limits).
#
# **What you will learn.**
#
# * How each metric scores a classifier whose every mistake is as small as
#   an ordinal mistake can be, as the number of classes grows.
# * Closed forms in $K$ for MER, MAE, OC, UOC and $A_{UOC}$, derived
#   symbolically for every $K$, and their limits — against the limits the
#   papers print.
# * Why the rank correlations tend to 1 (a perfect score) for a classifier
#   that is wrong two times in three, and why OC's limit does not depend on
#   β while UOC's does.
#
# Where the lesson says that a paper's statement is true or false, it cites
# the claim's entry in the toolkit's claims ledger
# ([`docs/ledger.md`](../docs/ledger.md)) in square brackets: its id and its
# verdict (verified, refuted, not reproduced, or convention: reproduces only
# under a stated convention).  Run `ordinal-verify --only <id>` to check it
# again.
#
# What score should such a classifier get?  Two thirds of its predictions are
# wrong, but every mistake is as small as an ordinal mistake can be.  Both
# papers use this family to expose the rank correlations:
#
# * **cardoso2011** §4 "Tridiagonal matrices" and Fig. 5: "$r_{int}$, $R_s$
#   and $\tau_b$ all converge to 1 (perfect performance) as $K \to \infty$.
#   In opposition, MER, MAE converge to 2/3 and $OC^1_\beta$ converge to
#   0.6", with $\beta_i = b_i/(N(K-1))$, $b_1 = 0.25$, $b_2 = 0.75$
#   [ledger: `cardoso2011:sec4:tridiagonal-limits`, verified]
#   [ledger: `cardoso2011:sec4:tridiagonal-ranking-to-1`, verified].
# * **silva2018** §IV.A and Fig. 3: UOC and $A_{UOC}$ "present an
#   intermediate behavior between the remaining metrics"
#   [ledger: `silva2018:sec4A:tridiagonal-intermediate`, verified].
#
# Here the OC family and MER/MAE are drawn from **closed forms in $K$**,
# derived symbolically by `analytic.tridiagonal_forms` for every
# integer $K \ge 2$, with their limits.  The rank correlations have no
# closed form in the toolkit; they are computed by `numeric` for each $K$.

# %%
# %matplotlib inline
# %config InlineBackend.figure_formats = ["png"]
import numpy as np
import matplotlib.pyplot as plt
import sympy as sp
from IPython.display import Markdown, display

import numeric
from analytic import tridiagonal_forms
from analytic.symbols import K, b, beta
from analytic.ledger.sources import cardoso2011

plt.rcParams.update({"figure.dpi": 90, "font.size": 10, "axes.titlesize": 11, "legend.fontsize": 9})

# %% tags=["figure:tridiagonal-heatmap", "hide-input"] alt="Heat maps of the tridiagonal confusion matrices for a few numbers of classes K: one sample in each cell of the main diagonal and of the two diagonals next to it."
fig, axes = plt.subplots(1, 5, figsize=(12, 3), layout="constrained")
for ax, k in zip(axes, (2, 3, 4, 6, 10)):
    cm = np.asarray(cardoso2011.tridiagonal(k))
    ax.imshow(cm, cmap="Greens", vmin=0, vmax=1.4)
    ax.set_xticks(range(k), [str(i + 1) for i in range(k)], fontsize=8)
    ax.set_yticks(range(k), [str(i + 1) for i in range(k)], fontsize=8)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", lw=1.5)
    ax.tick_params(which="minor", length=0)
    ax.set_title(f"K = {k}: {cm.sum()} samples,\n{np.trace(cm)} right")
fig.suptitle("The tridiagonal confusion matrices: one sample in each dark cell, none in the light ones")
plt.show()

# %% [markdown]
# ## 1. The closed forms
#
# How the toolkit derives them (`tridiagonal_forms().method`): the matrix
# is described by its *row kinds* — one first row, $K-2$ interior rows, one
# last row — and the weights of cardoso2011 eq. 7 and silva2018 eq. 28 are
# computed symbolically from that description.  A path lemma then reduces
# the minimum over all paths to a choice made independently in each gap
# between consecutive diagonal cells: step diagonally, or detour through
# the sub- or super-diagonal cell if that pays.  The resulting envelopes
# are *decided* for all integers $K \ge 3$ (every comparison is proved to
# have a constant sign), and $K = 2$ is derived on its own.

# %%
forms = tridiagonal_forms()
lim = forms.limits
rows = [
    ("MER", forms.mer, lim["mer"]),
    ("MAE", forms.mae, lim["mae"]),
    ("UOC^1_\\beta", forms.uoc, lim["uoc"]),
    ("A_{UOC}", forms.a_uoc, lim["a_uoc"]),
    ("OC^1_{b/(N(K-1))}", forms.oc, lim["oc"]),
]
display(Markdown("\n\n".join(
    f"$${name} = {sp.latex(f)} \\qquad \\xrightarrow{{K\\to\\infty}} \\qquad {sp.latex(l)}$$"
    for name, f, l in rows) + f"\n\n*method:* {forms.method}"))

# %% [markdown]
# **Reading the forms.**
#
# * MER and MAE coincide (every error has size 1): $\frac{2(K-1)}{3K-2}$,
#   rising from 1/2 at $K = 2$ to 2/3.
# * $UOC_\beta$ is a lower envelope of two lines in β for each $K$: the
#   optimal path detours through the off-diagonal ones while β is small, and
#   follows the diagonal once $\beta \ge 3K/(5K-1)$.  For $K = 2$ the form
#   differs and is kept as its own branch.
# * OC is written in the numerator $b$ of cardoso2011's
#   $\beta = b/(N(K-1))$; its limit is $3/5$ for every fixed $b$ —
#   cardoso2011's "converge to 0.6".
#
# The printed limits of cardoso2011 §4 (`cardoso2011.TRIDIAGONAL_LIMITS`)
# against the derived ones:

# %%
printed = cardoso2011.TRIDIAGONAL_LIMITS
derived = {"MER": lim["mer"], "MAE": lim["mae"], "OC": lim["oc"]}
for name, value in derived.items():
    print(f"{name:4s} printed {printed[name]:>4s}   derived {value}   equal: {sp.nsimplify(printed[name]) == value}")

# %% [markdown]
# ## 2. The metrics against K (cardoso2011 Fig. 5, silva2018 Fig. 3)
#
# Lines: closed forms evaluated at each $K$ (exactly, then converted to
# floats for plotting).  Markers on the correlations: `numeric`.  Small
# black crosses on the closed-form curves: `numeric` at a few $K$, as a
# check.  Dotted horizontal lines: the derived limits.

# %%
Ks = np.arange(2, 41)
tri = {k: np.asarray(cardoso2011.tridiagonal(k)) for k in Ks}


def at_K(form, **symbols):
    """A closed form evaluated exactly at every K of Ks (other symbols substituted first)."""
    f = form.subs({{"beta": beta, "b": b}[s]: sp.nsimplify(v) for s, v in symbols.items()})
    return np.array([float(f.subs(K, int(k))) for k in Ks])


curves = {
    "MER = MAE": at_K(forms.mer),
    "OC, b = 0.25": at_K(forms.oc, b=0.25),
    "OC, b = 0.75": at_K(forms.oc, b=0.75),
    "UOC, β = 0.25": at_K(forms.uoc, beta=0.25),
    "UOC, β = 0.75": at_K(forms.uoc, beta=0.75),
    "A_UOC": at_K(forms.a_uoc),
}
correlations = {
    "R_s": np.array([numeric.spearman_rs(tri[k]) for k in Ks]),
    "tau_b": np.array([numeric.kendall_tau_b(tri[k]) for k in Ks]),
    "r_int": np.array([numeric.r_int(tri[k]) for k in Ks]),
}
check_K = (2, 3, 5, 10, 20, 40)
checks = {
    "MER = MAE": lambda cm: numeric.mer(cm),
    "OC, b = 0.25": lambda cm: numeric.oc(cm, 0.25 / (cm.sum() * (len(cm) - 1))),
    "OC, b = 0.75": lambda cm: numeric.oc(cm, 0.75 / (cm.sum() * (len(cm) - 1))),
    "UOC, β = 0.25": lambda cm: numeric.uoc(cm, 0.25),
    "UOC, β = 0.75": lambda cm: numeric.uoc(cm, 0.75),
    "A_UOC": lambda cm: numeric.a_uoc(cm),
}
for name, f in checks.items():   # the closed forms agree with numeric (float) at the check points
    assert np.allclose([f(tri[k]) for k in check_K], curves[name][[list(Ks).index(k) for k in check_K]])

# %% tags=["figure:cardoso2011-fig5", "hide-input"] alt="Reproduction of cardoso2011 Fig. 5: metric values of the tridiagonal matrix against the number of classes K, the closed forms drawn as lines and the numeric values as markers that lie on them."
style = {"MER = MAE": ("tab:grey", "-"), "OC, b = 0.25": ("tab:blue", "-"), "OC, b = 0.75": ("tab:blue", "--"),
         "UOC, β = 0.25": ("tab:red", "-"), "UOC, β = 0.75": ("tab:red", "--"), "A_UOC": ("tab:purple", "-")}
corr_style = {"R_s": ("tab:green", "o"), "tau_b": ("tab:olive", "s"), "r_int": ("tab:cyan", "^")}


WORDS = {"A_UOC": "$A_{UOC}$", "R_s": "Spearman's $R_s$", "tau_b": "Kendall's $\\tau_b$", "r_int": "$r_{int}$"}


def panel(ax, names, title):
    for name in names:
        col, ls = style[name]
        ax.plot(Ks, curves[name], ls, color=col, lw=2, label=WORDS.get(name, name) + " (closed form)")
        idx = [list(Ks).index(k) for k in check_K]
        ax.plot(np.array(check_K), curves[name][idx], "x", color="black", ms=5)
    for name, (col, m) in corr_style.items():
        ax.plot(Ks, correlations[name], m, color=col, ms=3.5, label=WORDS[name] + " (computed per K)")
    ax.plot([], [], "x", color="black", ms=5, label="check: computed from the matrix")
    ax.set_xlabel("number of classes K")
    ax.set_title(title)
    ax.set_xlim(0, 41)
    ax.set_ylim(-0.03, 1.05)            # tau_b = R_s = 0 at K = 2: its markers sit on the axis
    ax.legend(loc="lower right", ncol=2)


def limit_label(ax, value, text, colour="black"):
    """A dotted line at a limit, labelled just outside the right edge of the axes."""
    ax.axhline(float(value), color=colour, lw=0.6, ls=":")
    ax.annotate(text, (1, float(value)), xycoords=("axes fraction", "data"), xytext=(4, 0),
                textcoords="offset points", va="center", color=colour)


fig, ax = plt.subplots(figsize=(10, 5.2))
panel(ax, ["MER = MAE", "OC, b = 0.25", "OC, b = 0.75"],
      "cardoso2011 Fig. 5: tridiagonal matrices, $\\beta_i = b_i/(N(K-1))$")
for value in (lim["mer"], lim["oc"], 1):
    limit_label(ax, value, f"limit {value}")
ax.set_ylabel("metric value")
plt.show()

# %% tags=["figure:silva2018-fig3", "hide-input"] alt="Reproduction of silva2018 Fig. 3: MER, MAE, the rank correlations, OC, UOC and A_UOC of the tridiagonal matrix against the number of classes K; the correlations climb towards 1 while MER stays near 2/3."
fig, ax = plt.subplots(figsize=(10, 5.2))
panel(ax, ["MER = MAE", "UOC, β = 0.25", "UOC, β = 0.75", "A_UOC"],
      "silva2018 Fig. 3: evolution of the metrics with K on tridiagonal matrices")
for name, value in (("UOC, β = 0.25", lim["uoc"].subs(beta, sp.Rational(1, 4))),
                    ("UOC, β = 0.75", lim["uoc"].subs(beta, sp.Rational(3, 4))),
                    ("A_UOC", lim["a_uoc"])):
    limit_label(ax, value, f"limit {value}", style[name][0])
ax.set_ylabel("metric value")
plt.show()

# %% [markdown]
# **What to look at.**
#
# * The correlations (markers) climb towards 1, "perfect performance",
#   although two predictions in three are wrong for every $K$.  For $K = 2$
#   the matrix $\begin{pmatrix}1&1\\1&1\end{pmatrix}$ has $R_s = \tau_b = 0$.
# * MER and MAE settle at 2/3, the fraction of wrong predictions.
# * OC settles at 3/5 for both values of $b$: with β scaled by $N(K-1)$ the
#   penalty vanishes as $K$ grows.  With $b = 0.25$ OC *rises* with $K$, with
#   $b = 0.75$ it *falls* (exercise 3).  cardoso2011's last sentence of §4
#   says that OC "presents the desired behaviour" (improves with $K$); its
#   subscript is garbled in the transcription, and the sentence holds for
#   $b = 0.75$, not for $b = 0.25$
#   [ledger: `cardoso2011:sec4:tridiagonal-improves-with-K`, verified].
# * UOC and $A_{UOC}$ lie between MER and the correlations, as silva2018
#   says: limits $\beta/3 + 3/5$ (for $\beta < 3/5$) and $4/5$ otherwise,
#   and $A_{UOC} \to 37/50 = 0.74$.  Since silva2018 uses β unscaled, the
#   UOC limit depends on β; OC's does not.

# %% [markdown]
# ## 3. Summary
#
# * On the tridiagonal matrices (every error one class away, two errors in
#   three predictions) MER and MAE tend to 2/3, the fraction of errors.
# * The rank correlations tend to 1, a perfect score, for every such
#   classifier: they see the order only.
# * OC at $\beta = b/(N(K-1))$ tends to 3/5 whatever $b$: the scaled
#   penalty vanishes as $K$ grows.  It rises with $K$ for $b = 0.25$ and
#   falls for $b = 0.75$.
# * UOC (β unscaled) and $A_{UOC}$ stay between MER and the correlations,
#   as silva2018 says: $UOC_\beta \to \beta/3 + 3/5$ for $\beta < 3/5$ and
#   $4/5$ otherwise, $A_{UOC} \to 37/50$.
# * All of it comes from closed forms in $K$, derived symbolically, with
#   `numeric` checking them at a few $K$.
#
# ## 4. Exercises
#
# **Exercise 1.**  Use the closed form `forms.uoc` to compute exactly
# $UOC_{1/3}$ of the 7-class tridiagonal matrix, and check it against
# `numeric.uoc` in exact arithmetic.

# %% [markdown]
# **Exercise 2.**  From which number of classes on does Kendall's $\tau_b$
# of the tridiagonal matrix exceed 0.9 — i.e. call a classifier that is
# wrong two times in three "90 % perfect"?  (Use `correlations`.)

# %% [markdown]
# **Exercise 3.**  cardoso2011 argues that one may want the score of a
# tridiagonal matrix to *improve* as $K$ grows (a mistake to a neighbouring
# class matters less when there are many classes).  Using the closed form,
# check for $K = 2, \dots, 40$ whether $OC$ decreases with $K$ for
# $b = 0.25$ and for $b = 0.75$.

# %% [markdown]
# **Exercise 4.**  Take the limit yourself: compute
# $\lim_{K\to\infty} A_{UOC}$ with `sympy.limit` on `forms.a_uoc`'s
# general branch and compare with `forms.limits["a_uoc"]`.

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
uoc_7 = forms.uoc.subs({K: 7, beta: sp.Rational(1, 3)})
uoc_7

# %% tags=["solution"]
assert uoc_7 == numeric.uoc(cardoso2011.tridiagonal(7), sp.Rational(1, 3), arithmetic="exact"), \
    "substitute K = 7 and beta = 1/3 (an exact sp.Rational) into forms.uoc (section 1)"

# %% [markdown] tags=["solution"]
# **Answer 2.**

# %% tags=["solution"]
first_K_above = int(Ks[np.argmax(correlations["tau_b"] > 0.9)])
first_K_above

# %% tags=["solution"]
assert correlations["tau_b"][list(Ks).index(first_K_above)] > 0.9, \
    "at first_K_above tau_b is not above 0.9 yet: look further along correlations[\"tau_b\"]"
assert correlations["tau_b"][list(Ks).index(first_K_above) - 1] <= 0.9, \
    "tau_b is already above 0.9 before first_K_above: the first K is smaller (section 2)"
assert all(curves["MER = MAE"] < 2 / 3)          # ...while MER stays below, and tends to, 2/3

# %% [markdown] tags=["solution"]
# **Answer 3.**

# %% tags=["solution"]
decreasing = {bb: bool(np.all(np.diff(at_K(forms.oc, b=bb)) < 0)) for bb in (0.25, 0.75)}
increasing = {bb: bool(np.all(np.diff(at_K(forms.oc, b=bb)) > 0)) for bb in (0.25, 0.75)}
decreasing, increasing

# %% tags=["solution", "self-check"]
from selfcheck import check   # compares a fingerprint of the answer: the check does not tell it

answer = tuple(bool(x[bb]) for x in (decreasing, increasing) for bb in (0.25, 0.75))
check("decreasing and increasing", answer, "6e5b40c945bbe563", "evaluate forms.oc at "
      "K = 2, ..., 40 for each b (section 1's closed form) and test the sign of every "
      "consecutive difference")

# %% [markdown] tags=["solution"]
# **Answer 4.**

# %% tags=["solution"]
general_branch = forms.a_uoc.args[-1][0]     # the (expression, True) branch
a_limit = sp.limit(general_branch, K, sp.oo)
a_limit

# %% tags=["solution", "self-check"]
from selfcheck import check

check("a_limit", a_limit, "02ac1c3f3b6c0892", "take sp.limit(..., K, sp.oo) of the last "
      "(general) branch of forms.a_uoc (section 1)")
assert a_limit == lim["a_uoc"], "your limit differs from forms.limits[\"a_uoc\"]"

# %% [markdown]
# # 5 · Classes that are intervals
#
# Often the ordered classes are **intervals** of a numeric variable: age
# groups, income brackets, tumour sizes binned into ranges.  Then a mistake
# between two wide classes is worse than one between two narrow classes, and
# a class holding many samples in a short interval is "denser" than one
# holding the same number in a long interval.  binotto2024 (Binotto &
# Delgado, *How to adapt the performance metrics to ordinal classification
# by intervals?*) carries the cost-sensitive metric of lesson 4 over to this
# setting (§4), and asks how long the last, unbounded interval should be
# taken (§5).
#
# **What this lesson assumes.**  Lesson 4: the cost matrix, TC, $TC_{max}$
# (binotto2024 Prop. 1) and STC.  Reading Python with NumPy and SymPy
# (`Piecewise`, `lambdify`).
#
# **What you will learn.**
#
# 1. The two ingredients, Hausdorff distances and densities (eqs. 7–8).
# 2. The interval cost and its maximum (eq. 9, Props. 4–5), and when the
#    interval cost matrix is symmetric — where binotto2024's Remark 4 is
#    wrong, as Remark 1 was in lesson 4
#    [ledger: `binotto2024:remark4:symmetric-iff-proportional`, refuted].
# 3. binotto2024's toy example: $\widehat{TC}_{max}$ as a function of the
#    last length $x$ and its minimum.
# 4. The optimal last length as a function of $L$ (Prop. 6, Fig. 1), with
#    the derived `Piecewise` in LaTeX.
#
# Where the lesson says that a paper's statement is true or false, it cites
# the claim's entry in the toolkit's claims ledger
# ([`docs/ledger.md`](../docs/ledger.md)) in square brackets: its id and its
# verdict (verified, refuted, not reproduced, or convention: reproduces only
# under a stated convention).  Run `ordinal-verify --only <id>` to check it
# again.
#
# **Orientation.**  binotto2024 prints matrices *predicted × true* (rows =
# predicted interval).  The toolkit uses rows = true class, so
# `binotto2024.MATRICES` holds the transposes of `binotto2024.PRINTED`, and
# `numeric.interval_cost_matrix` is the transpose of the paper's
# $\widehat M$.

# %%
# %matplotlib inline
# %config InlineBackend.figure_formats = ["png"]
import numpy as np
import matplotlib.pyplot as plt
import sympy as sp
from IPython.display import Markdown, display

import numeric
from analytic import interval_tc_max_symbolic, optimal_last_length_piecewise
from analytic.ledger.sources import binotto2024
from analytic.symbols import L, x            # the paper's second length L and last length x

plt.rcParams.update({"figure.dpi": 90, "font.size": 10, "axes.titlesize": 11, "legend.fontsize": 9})   # figures


def printed(expr):
    """A closed form printed in binotto2024 (a string of analytic.ledger.sources.binotto2024) as SymPy."""
    return sp.sympify(expr, locals={"x": x, "L": L, "Max": sp.Max})

# %% [markdown]
# ## 1. Hausdorff distances and densities
#
# The classes are consecutive intervals $I_k = [a_k, b_k)$ of lengths
# $\ell_k = b_k - a_k$, with $a_{k+1} = b_k$.  The distance between two
# classes becomes the **Hausdorff distance** of the intervals (eq. 7),
#
# $$d(I_i, I_j) = \max\{|a_j - a_i|,\ |b_j - b_i|\}
#   = \sum_{i<k<j}\ell_k + \max(\ell_i, \ell_j) \quad (i < j),$$
#
# and the class size $n_k$ in the cost weights is replaced by the
# **density** $\delta_k = n_k/\ell_k$ (eq. 8).  With equal lengths $\ell$
# everything reduces to lesson 4 scaled by $\ell$: $d(I_i,I_j) = \ell|i-j|$.

# %%
lengths = [1, 3, 0.5, 2]
counts = [10, 30, 20, 8]
edges = np.concatenate([[0], np.cumsum(lengths)])       # the interval ends a_k, b_k
D = numeric.hausdorff_distances(lengths)                 # eq. 7
delta = np.array(counts) / np.array(lengths)             # eq. 8
M = numeric.interval_cost_matrix(counts, lengths)        # rows = true class
D, delta

# %% tags=["figure:hausdorff-densities", "hide-input"] alt="Left: four classes drawn as intervals of a numeric variable with their densities. Middle: their Hausdorff distance matrix. Right: the interval cost matrix with rows the true class."

fig = plt.figure(figsize=(12, 4.2))
ax = fig.add_axes([0.04, 0.58, 0.42, 0.3])
colors = plt.cm.Set2(np.arange(len(lengths)))
for k, (a, bk) in enumerate(zip(edges[:-1], edges[1:])):
    ax.barh(0, bk - a, left=a, height=0.5, color=colors[k], edgecolor="black")
    ax.text((a + bk) / 2, 0, f"$I_{k + 1}$\nℓ={lengths[k]}", ha="center", va="center", fontsize=9)
i, j = 0, 2
ax.annotate("", xy=(edges[j], 0.45), xytext=(edges[i], 0.45),
            arrowprops=dict(arrowstyle="<->", color="tab:blue"))
ax.annotate("", xy=(edges[j + 1], -0.45), xytext=(edges[i + 1], -0.45),
            arrowprops=dict(arrowstyle="<->", color="tab:red"))
ax.text(edges[j] / 2, 0.55, f"$|a_3 - a_1| = {edges[j] - edges[i]:g}$", color="tab:blue", ha="center", fontsize=9)
ax.text((edges[i + 1] + edges[j + 1]) / 2, -0.72, f"$|b_3 - b_1| = {edges[j + 1] - edges[i + 1]:g}$",
        color="tab:red", ha="center", fontsize=9)
ax.set_ylim(-0.9, 0.9)
ax.set_yticks([])
ax.set_title(f"four classes as intervals: $d(I_1, I_3) = \\max(4, 3.5) = {D[0, 2]:g}$")
ax.set_xlabel("the numeric variable")

ax = fig.add_axes([0.04, 0.1, 0.42, 0.3])
ax.bar(range(1, 5), delta, color=colors, edgecolor="black")
for k in range(4):
    ax.text(k + 1, delta[k], f"{counts[k]}/{lengths[k]} = {delta[k]:g}", ha="center", va="bottom", fontsize=9)
ax.set_xticks(range(1, 5), [f"$I_{k}$" for k in range(1, 5)])
ax.set_ylabel("density $\\delta_k = n_k/\\ell_k$")
ax.set_ylim(0, delta.max() * 1.3)

ax = fig.add_axes([0.52, 0.1, 0.2, 0.8])
ax.imshow(D, cmap="Greens")
for r in range(4):
    for c in range(4):
        ax.text(c, r, f"{D[r, c]:g}", ha="center", va="center", fontsize=9)
ax.set_xticks(range(4), [f"$I_{k}$" for k in range(1, 5)])
ax.set_yticks(range(4), [f"$I_{k}$" for k in range(1, 5)])
ax.set_title("Hausdorff distances (eq. 7)")

ax = fig.add_axes([0.77, 0.1, 0.2, 0.8])
ax.imshow(M, cmap="Purples")
for r in range(4):
    for c in range(4):
        ax.text(c, r, f"{M[r, c]:.2f}", ha="center", va="center", fontsize=9,
                color="white" if M[r, c] > 0.6 * M.max() else "black")
ax.set_xticks(range(4), [f"{k}" for k in range(1, 5)])
ax.set_yticks(range(4), [f"{k}" for k in range(1, 5)])
ax.set_xlabel("predicted class")
ax.set_ylabel("true class")
ax.set_title("interval cost matrix (Remark 4)\nrows = TRUE class")
plt.show()

# %% [markdown]
# **What to look at.**  $I_2$ is long and $I_3$ short, so $I_3$ is the
# densest class (40 samples per unit) although $I_2$ has the most samples.
# The Hausdorff distance between $I_1$ and $I_3$ (4) counts the whole of
# $I_2$ in between plus the longer of the two ends.  In the cost matrix the
# dearest errors are predictions into the *sparsest* class $I_4$ (density 4)
# and predictions between distant intervals; predicting the dense $I_3$ is
# cheap.  The weight $(\Delta - \delta_t)/\delta_p$, with
# $\Delta = \sum_k \delta_k$, replaces lesson 4's $(N - n_t)/n_p$.
#
# ## 2. Interval cost and its maximum
#
# With $n_{tp}$ the confusion counts (rows = true),
#
# $$\widehat{TC} = \frac1N \sum_{t,p} n_{tp}\,\frac{\Delta - \delta_t}{\delta_p}\, d(I_p, I_t)
#   \quad\text{(eq. 9)},\qquad
#   \widehat{TC}_{max} = \frac1N\sum_j n_j\,\frac{\Delta - \delta_j}{\delta_{\hat\imath_j}}\,
#   d(I_{\hat\imath_j}, I_j),\quad
#   \hat\imath_j = \arg\max_\ell \frac{d(I_\ell, I_j)}{\delta_\ell}
#   \quad\text{(Prop. 4)},$$
#
# [ledger: `binotto2024:prop4:exhaustive`, verified],
# and $\widehat{STC} = \widehat{TC}/\widehat{TC}_{max} \in [0, 1]$ (Def. 3).
# For two classes $\widehat{TC}_{max} = \max(\ell_1, \ell_2)$ (Prop. 5)
# [ledger: `binotto2024:prop5:symbolic`, verified].  binotto2024 §4.2 also
# calls $\widehat{STC}$ homogeneous, $\widehat{STC}(kA) = k\,\widehat{STC}(A)$;
# it is not: scaling the matrix scales every count and density alike, so
# $\widehat{STC}(kA) = \widehat{STC}(A)$ (degree 0, as a score in
# $[0, 1]$ must be) [ledger: `binotto2024:sec4.2:homogeneity`, refuted].
#
# **When is the interval cost matrix symmetric?**  binotto2024 Remark 4
# says: exactly when the densities are all equal.  As Remark 1 of lesson 4,
# that is false for two classes
# [ledger: `binotto2024:remark4:symmetric-iff-proportional`, refuted]: with
# $r = 2$ both off-diagonal weights are
# $(\Delta - \delta_1)/\delta_2 = (\Delta - \delta_2)/\delta_1 = 1$, and both
# distances are $\max(\ell_1, \ell_2)$, whatever the densities.  With three
# classes or more the remark holds (on the ledger's grid):

# %%
M_two = numeric.interval_cost_matrix([1, 2], [1, 3], arithmetic="exact")          # densities 1 and 2/3
M_equal = numeric.interval_cost_matrix([1, 2, 3], [1, 2, 3], arithmetic="exact")  # densities all 1
M_unequal = numeric.interval_cost_matrix([1, 2, 3], [1, 1, 1], arithmetic="exact")
for name, Mx in (("n = (1, 2), ℓ = (1, 3)", M_two), ("n = (1, 2, 3), ℓ = (1, 2, 3)", M_equal),
                 ("n = (1, 2, 3), ℓ = (1, 1, 1)", M_unequal)):
    display(Markdown(f"{name}: $\\widehat M = {sp.latex(sp.Matrix(Mx))}$, symmetric: **{(Mx == Mx.T).all()}**"))
assert (M_two == M_two.T).all() and (M_equal == M_equal.T).all() and not (M_unequal == M_unequal.T).all()

# %% [markdown]
# The toolkit's `numeric.interval_tc`, `interval_tc_max` and `interval_stc`
# apply the formulas of lesson 4 (written once, in `numeric.cost`) to these
# two ingredients.
#
# ## 3. The toy example: how long is the last interval?
#
# The last interval is often unbounded ("60 years and older").  Its sample
# count is known — everything above its lower end — but the metric needs a
# length $x$.  binotto2024 §5 proposes the $x$ that **minimises**
# $\widehat{TC}_{max}$: the smaller the denominator of $\widehat{STC}$, the
# better the metric separates two classifiers.
#
# The toy example: three intervals of lengths $1, 1, x$, five samples in
# each, and two classifiers (printed predicted × true; transposed here):

# %%
for name in ("C_A", "C_B"):
    display(Markdown(f"$C_{{{name[-1]}}}$ as printed (rows = predicted) "
                     f"$= {sp.latex(sp.Matrix(binotto2024.PRINTED[name]))}$, "
                     f"used as `binotto2024.MATRICES['{name}']` (rows = true) "
                     f"$= {sp.latex(sp.Matrix(binotto2024.MATRICES[name]))}$"))

# %% [markdown]
# The paper prints $\widehat{TC}(C_A)$ in closed form,
# $\frac{1}{15}\big(6 + \frac4x + (7 + x)\max(1, x)\big)$, and
# $\widehat{TC}(C_B) - \widehat{TC}(C_A) = 2/15$ whatever $x$
# [ledger: `binotto2024:toy:cost-matrix-and-tc`, verified].  We check both
# exactly with `numeric.interval_tc` at a few lengths:

# %%
CA, CB = (np.asarray(binotto2024.MATRICES[k]) for k in ("C_A", "C_B"))
tc_A_printed = printed(binotto2024.TOY_PRINTED["TC_A"])
for xv in (sp.Rational(1, 3), sp.sqrt(2) / 2, 1, sp.Rational(3, 2), 4):
    tca = numeric.interval_tc(CA, [1, 1, xv], arithmetic="exact")
    tcb = numeric.interval_tc(CB, [1, 1, xv], arithmetic="exact")
    ok = sp.simplify(tca - tc_A_printed.subs(x, xv)) == 0 and sp.simplify(tcb - tca - sp.Rational(2, 15)) == 0
    print(f"x = {str(xv):10s} TC(C_A) = {sp.nsimplify(tca)!s:22s} printed form agrees: {ok}")

# %% [markdown]
# Now $\widehat{TC}_{max}$ as a function of $x$.  Every term of Prop. 4 is
# a positive coefficient times a maximum of a few polynomials in $x$, so the
# function is continuous and piecewise rational, with breakpoints where two
# candidates of an arg max swap.  Two independent derivations:
#
# * `analytic.interval_tc_max_symbolic` returns the ordered
#   `Piecewise` in $x$, with exact breakpoints, derived with SymPy;
# * `numeric.last_length_pieces` finds the same pieces in exact arithmetic
#   (coefficients of $a/x + b + cx + ex^2$), and `numeric.optimal_last_length`
#   takes the least value over the breakpoints and the critical point of
#   each piece.

# %%
tcmax_x = interval_tc_max_symbolic([5, 5, 5], [1, 1, x])
pieces = numeric.last_length_pieces([5, 5, 5], [1, 1], arithmetic="exact")
opt = numeric.optimal_last_length([5, 5, 5], [1, 1], arithmetic="exact")
display(Markdown(f"$$\\widehat{{TC}}_{{max}}(x) = {sp.latex(tcmax_x)}$$\n\n"
                 f"$$\\tilde x = {sp.latex(opt.x)},\\qquad \\widehat{{TC}}_{{max}}(\\tilde x) = {sp.latex(opt.minimum)}$$"))
# the two derivations agree piece by piece
for (expr, cond), p in zip(tcmax_x.args, pieces):
    assert sp.simplify(expr - (p.a / x + p.b + p.c * x + p.e * x**2)) == 0
    assert (cond == True) if p.hi is None else (cond.rhs == p.hi)
print("paper: x~ =", binotto2024.TOY_PRINTED["x_opt"], " TC_max(x~) =", binotto2024.TOY_PRINTED["TC_max_opt"])
print("equal:", sp.simplify(opt.x - printed(binotto2024.TOY_PRINTED["x_opt"])) == 0,
      sp.simplify(opt.minimum - printed(binotto2024.TOY_PRINTED["TC_max_opt"])) == 0)

# %%
# the closed form in x against numeric.interval_tc_max (float) on a grid of lengths
xs = np.linspace(0.05, 3, 500)
tcmax = sp.lambdify(x, tcmax_x, "numpy")(xs)
assert np.allclose(tcmax[::50], [numeric.interval_tc_max([5, 5, 5], [1, 1, v]) for v in xs[::50]])

# %% tags=["figure:tc-max-of-x", "hide-input"] alt="Left: maximum interval total cost of the toy example against the length x of the last interval, the derived piecewise curve with its pieces between dotted lines and the cost of classifier C_A for comparison. Right: the difference of standardised cost between classifiers C_B and C_A against x."
tcA = np.array([numeric.interval_tc(CA, [1, 1, v]) for v in xs])
gap = np.array([numeric.interval_stc(CB, [1, 1, v]) - numeric.interval_stc(CA, [1, 1, v]) for v in xs])
x_opt = float(opt.x)

fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
ax = axes[0]
ax.plot(xs, tcmax, lw=2.5, color="tab:purple", label="$\\widehat{TC}_{max}(x)$ (derived closed form)")
ax.plot(xs, tcA, color="tab:orange", label="$\\widehat{TC}(C_A)$")
for p in pieces[:-1]:
    ax.axvline(float(p.hi), color="grey", ls=":", lw=0.8)
    ax.annotate(f"x = {p.hi}", (float(p.hi), 11.2), fontsize=9, color="dimgrey", ha="center",
                bbox=dict(fc="white", ec="none", pad=1))
ax.plot([x_opt], [float(opt.minimum)], "o", color="black", zorder=3)
ax.annotate(f"minimum at $\\tilde x = 1/\\sqrt{{2}}$\n$\\widehat{{TC}}_{{max}} = (2\\sqrt{{2}}+7)/3 \\approx {float(opt.minimum):.3f}$",
            (x_opt, float(opt.minimum)), xytext=(1.3, 6), fontsize=9, arrowprops=dict(arrowstyle="->"))
ax.set_xlabel("length x of the last interval")
ax.set_ylim(0, 12)
ax.set_title("toy example: $\\widehat{TC}_{max}$ against the last length")
ax.legend(loc="lower right", bbox_to_anchor=(1, 0.22))

ax = axes[1]
ax.plot(xs, gap, color="tab:green", lw=2)
ax.axvline(x_opt, color="black", ls="--", lw=0.8)
ax.annotate(f"largest at $\\tilde x$: {float(gap.max()):.4f}\n(paper: ≈ {binotto2024.TOY_PRINTED['STC_B_minus_STC_A_approx']})",
            (x_opt, gap.max()), xytext=(1.2, gap.max() * 0.8), fontsize=9, arrowprops=dict(arrowstyle="->"))
ax.set_xlabel("length x of the last interval")
ax.set_ylabel("$\\widehat{STC}(C_B) - \\widehat{STC}(C_A)$")
ax.set_title("how well STC separates the two classifiers")
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at.**  $\widehat{TC}_{max}$ falls steeply for small $x$ (a
# short last interval is very dense, and its density enters the weights as
# $5/x$) and grows for large $x$ (the distances to the last interval grow).
# The minimum is inside the second piece, at $\tilde x = 1/\sqrt2$,
# where the derivative $-a/x^2 + c$ vanishes.  On the right: the two
# classifiers always differ by $\widehat{TC}(C_B) - \widehat{TC}(C_A) =
# 2/15$, so their STC gap is $\frac{2/15}{\widehat{TC}_{max}(x)}$, largest
# exactly where $\widehat{TC}_{max}$ is smallest — binotto2024's argument
# for choosing $\tilde x$.  The optimal length $1/\sqrt2$, its minimum
# $(2\sqrt2 + 7)/3$ and the printed STC values all reproduce
# [ledger: `binotto2024:toy:optimal-length`, verified]
# [ledger: `binotto2024:toy:stc-values`, verified].
#
# ## 4. The optimal last length as a function of L (Prop. 6, Fig. 1)
#
# binotto2024 Prop. 6 solves the balanced three-class case with lengths
# $1, L, x$ ($n_1 = n_2 = n_3$) in closed form: four cases in $L$, with
# $\tilde x = \sqrt L$ for $L > (3+\sqrt5)/2 \approx 2.62$.

# `analytic.optimal_last_length_piecewise` does **not** type
# Prop. 6 in: it sweeps the piecewise $\widehat{TC}_{max}(x)$ of lengths
# $(1, L, x)$ over $L$ (breakpoints as algebraic functions of $L$, the
# $L$-ranges on which their order holds), and in each range follows the
# candidate minimisers until two of them exchange the minimum.  The case
# boundaries $1$, $(1+\sqrt5)/2$ and $(3+\sqrt5)/2$ come out of the
# derivation.

# %%
x_opt, tc_opt = optimal_last_length_piecewise([1, 1, 1])
display(Markdown(f"$$\\tilde x(L) = {sp.latex(x_opt)}$$\n\n"
                 f"$$\\widehat{{TC}}_{{max}}(\\tilde x) = {sp.latex(tc_opt)}$$"))

# %% [markdown]
# Against the printed Prop. 6 (`binotto2024.PROP6`), branch by branch —
# boundary, $\tilde x$ and the minimum
# [ledger: `binotto2024:prop6:derived`, verified]:

# %%
for (xe, xc), (te, tc), (bound, xf, vf) in zip(x_opt.args, tc_opt.args, binotto2024.PROP6):
    same_bound = (xc == True) if bound is None else sp.simplify(xc.rhs - printed(bound)) == 0
    same_x = sp.simplify(xe - printed(xf)) == 0
    same_tc = sp.simplify(te - printed(vf)) == 0
    case = f"L <= {bound}" if bound is not None else "the last case"
    print(f"{case:22s} boundary {same_bound}   x~ {same_x}   TC_max(x~) {same_tc}")

# %%
# the derived x~(L) against numeric.optimal_last_length, computed per L
prop6 = sp.Piecewise(*[(printed(xf), L <= printed(bound) if bound is not None else True)
                       for bound, xf, vf in binotto2024.PROP6])
Lgrid = np.linspace(0.02, 10, 400)
x_derived = sp.lambdify(L, x_opt, "numpy")(Lgrid)
Lcheck = np.concatenate([np.linspace(0.05, 2, 14), np.linspace(2.5, 10, 10)])
x_numeric = np.array([float(numeric.optimal_last_length([1, 1, 1], [1, v]).x) for v in Lcheck])
assert np.allclose(x_numeric, sp.lambdify(L, x_opt, "numpy")(Lcheck))

# %% tags=["figure:binotto2024-fig1", "hide-input"] alt="Reproduction of binotto2024 Fig. 1 on two ranges of L: the optimal last length against L, the closed form derived here, Prop. 6 as printed and the values computed per L all on one curve, with dotted vertical lines at the branch boundaries."
f_prop6 = sp.lambdify(L, prop6, "numpy")

fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
for ax, Lmax in zip(axes, (2, 10)):
    sel = Lgrid <= Lmax
    ax.plot(Lgrid[sel], x_derived[sel], color="tab:blue", lw=3, alpha=0.6, label="closed form derived here (SymPy)")
    ax.plot(Lgrid[sel], f_prop6(Lgrid[sel]), "--", color="black", lw=1, label="Prop. 6 as printed")
    ax.plot(Lcheck[Lcheck <= Lmax], x_numeric[Lcheck <= Lmax], "o", ms=4, mfc="none", color="tab:red",
            label="kinks and critical points, computed per L")
    for bound, _, _ in binotto2024.PROP6[:-1]:
        bv = float(printed(bound))
        if bv <= Lmax:
            ax.axvline(bv, color="grey", ls=":", lw=0.8)
            ax.annotate("L = " + str(bound).replace("sqrt(5)", "√5").replace(" ", ""), (bv, 0.02),
                        xytext=(3, 0), textcoords="offset points",
                        fontsize=9, color="dimgrey", rotation=90, va="bottom", ha="left")
    ax.set_xlim(0, Lmax * 1.02)          # room for the check marker at L = Lmax
    ax.set_ylim(0, None)
    ax.set_xlabel("L = ℓ₂/ℓ₁")
    ax.set_ylabel("optimal last length $\\tilde x$")
    ax.set_title(f"binotto2024 Fig. 1: $\\tilde x$ against L, L in [0, {Lmax}]")
    ax.legend(loc="upper left", title="dotted lines: branch boundaries", title_fontsize=9)
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at.**  The optimal length grows with $L$, continuously
# but with kinks where the case of Prop. 6 changes (dotted lines): the
# worst-case assignment of Prop. 4 switches from one interval to another.
# For large $L$ it follows $\sqrt L$ (the geometric mean of the two other
# lengths, 1 and $L$).

# %% [markdown]
# ## 5. Summary
#
# * With classes that are intervals, the distance between two classes is
#   the Hausdorff distance of the intervals and the class size becomes a
#   density; lesson 4's TC, $TC_{max}$ and STC carry over, and equal lengths
#   $\ell$ give lesson 4's values times $\ell$.
# * The interval cost matrix is symmetric when the densities are equal, and
#   always for two classes — binotto2024's Remark 4 misses that case
#   [ledger: `binotto2024:remark4:symmetric-iff-proportional`, refuted];
#   $\widehat{STC}$ does not change when the matrix is scaled (degree 0,
#   not 1 as §4.2 says).
# * An unbounded last interval needs a length; the $x$ that minimises
#   $\widehat{TC}_{max}$ separates classifiers best.  On the toy example it
#   is $1/\sqrt2$, and for lengths $(1, L, x)$ it is a four-case function of
#   $L$ (Prop. 6) — derived here by a sweep over $L$, not typed in, and equal
#   to the printed one.
#
# ## 6. Exercises
#
# **Exercise 1.**  Equal lengths reduce to lesson 4: check that with all
# lengths equal to 3, the interval TC of $C_A$ is 3 times its ordinary TC
# (binotto2024 §4.1, "$\widehat{TC} = L \times TC$"
# [ledger: `binotto2024:sec4.1:equal-lengths`, verified]).

# %% [markdown]
# **Exercise 2.**  Prop. 5: for two classes, $\widehat{TC}_{max} =
# \max(\ell_1, \ell_2)$ whatever the counts.  Check it exactly for a few
# counts and lengths of your choice.

# %% [markdown]
# **Exercise 3.**  In the toy example, show that any length other than
# $\tilde x = 1/\sqrt2$ separates $C_A$ and $C_B$ less: compute the STC gap
# at $x = 0.6$, $1/\sqrt2$ and $0.8$ exactly and check that the middle one
# is the largest, and that it equals the printed $(14 - 8/\sqrt2)/205$.

# %% [markdown]
# **Exercise 4.**  Prop. 6's last case says $\tilde x = \sqrt L$ for
# $L > (3 + \sqrt5)/2$.  Check it with `numeric.optimal_last_length` in exact
# arithmetic at $L = 4$ and $L = 9$.

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
tc_equal = numeric.interval_tc(CA, [3, 3, 3], arithmetic="exact")
tc_plain = numeric.tc(CA, arithmetic="exact")
tc_equal, tc_plain

# %% tags=["solution"]
assert tc_equal == 3 * tc_plain, \
    "compute both exactly: numeric.interval_tc(CA, [3, 3, 3], ...) and numeric.tc(CA, ...) (section 2)"

# %% [markdown] tags=["solution"]
# **Answer 2.**

# %% tags=["solution"]
cases = [((4, 9), (2, 5)), ((1, 1), (3, 1)), ((7, 2), (sp.Rational(1, 2), sp.Rational(1, 3)))]
prop5 = [(numeric.interval_tc_max(n, l, arithmetic="exact"), max(l)) for n, l in cases]
prop5

# %% tags=["solution"]
assert prop5 and all(a == b for a, b in prop5), \
    "prop5: pairs (interval_tc_max(n, l) exact, max(l)) for two-class n and l (section 2)"

# %% [markdown] tags=["solution"]
# **Answer 3.**

# %% tags=["solution"]
def stc_gap(xv):
    return numeric.interval_stc(CB, [1, 1, xv], arithmetic="exact") - numeric.interval_stc(CA, [1, 1, xv], arithmetic="exact")


gaps = [stc_gap(xv) for xv in (sp.Rational(3, 5), 1 / sp.sqrt(2), sp.Rational(4, 5))]
[float(g) for g in gaps]

# %% tags=["solution"]
assert gaps[1] > gaps[0] and gaps[1] > gaps[2], \
    "the gap at 1/sqrt(2) is not the largest: compute each STC exactly, x as sp.Rational or 1/sp.sqrt(2)"
assert sp.simplify(gaps[1] - printed(binotto2024.TOY_PRINTED["STC_B_minus_STC_A"])) == 0

# %% [markdown] tags=["solution"]
# **Answer 4.**

# %% tags=["solution"]
x4 = numeric.optimal_last_length([1, 1, 1], [1, 4], arithmetic="exact").x
x9 = numeric.optimal_last_length([1, 1, 1], [1, 9], arithmetic="exact").x
x4, x9

# %% tags=["solution", "self-check"]
from selfcheck import check   # compares a fingerprint of the answer: the check does not tell it

check("(x4, x9)", (x4, x9), "4d65111bd4864e32", "the .x of numeric.optimal_last_length([1, 1, 1], "
      "[1, L], arithmetic=\"exact\") at L = 4 and 9 (section 4)")

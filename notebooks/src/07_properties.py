# %% [markdown]
# # 7 · More metrics, and which formal properties each one has
#
# **What this lesson assumes.**  Lesson 1: a confusion matrix (rows = true
# class), MAE, the rank correlation $\tau_b$ and silva2018's six matrices A–F.
# Reading Python with NumPy, and what a counterexample is.  Lessons 2–5 are
# not needed.
#
# **What you will learn.**
#
# * Eight more metrics of ordinal classification (Cohen's kappa, within-one
#   accuracy, MS, GM, Somers' d, Stuart's $\tau_c$, CEM-ORD and the ranked
#   probability score), and what each of them sees in silva2018's matrices.
# * Why the ranked probability score sees what no confusion matrix can.
# * Fourteen formal properties a metric may have — among them Amigó et al.
#   2020's three — and how the toolkit decides them: a wide search in
#   floating point, confirmed in exact arithmetic, and a symbolic proof where
#   it can make one.
# * What the verdicts **proved (every K)**, **proved (K ≤ 3; …)**,
#   **unrefuted**, **fails** and **n/a** each rest on — in particular why
#   "unrefuted" (no counterexample found) is not a theorem — and how to
#   re-check a counterexample yourself.
# * How to audit a metric of your own.
#
# Lessons 1–5 checked the metrics of four papers against the numbers those
# papers print.  This lesson adds eight metrics that the literature on
# ordinal classification uses as well, and asks of every metric the same
# questions: is the perfect classifier the only one with the best score?
# Does a prediction moved closer to the truth always score better?  Does an
# empty class change the score?  The toolkit's **property auditor**
# (`analytic.properties.audit`) answers each question by searching close to a million
# small confusion matrices for a counterexample, and tries a symbolic proof
# where it finds none; the answers of every registered metric are committed
# as the **property table**, which this lesson reads.  We draw the
# counterexamples.
#
# The metrics, their sources and their report variants are read from the
# metric registry (`numeric.registry.REGISTRY`) below; the properties and
# their sources from `analytic.properties.audit.PROPERTIES`.  Three properties come
# from **Amigó, Gonzalo, Mizzaro & Carrillo-de-Albornoz (2020)**, *An
# Effectiveness Metric for Ordinal Classification: Formal Properties and
# Experimental Results* (ACL 2020), §3 — the paper that also defines CEM-ORD.
# Their statement for confusion matrices is **our own formalisation**: the
# paper's table of which metric satisfies which property was not available
# to us, so every verdict below is derived here, not copied.
#
# **Convention.**  Rows = true class, columns = predicted class, classes
# numbered from 1 in the text and the figures (the auditor's messages count
# from 0).

# %%
# %matplotlib inline
# %config InlineBackend.figure_formats = ["png"]
import textwrap
from collections import Counter
from fractions import Fraction

import numpy as np
import matplotlib.pyplot as plt
import sympy as sp
from IPython.display import Markdown, display

import numeric
import exactfloor.exact_sign
from numeric.markdown import table as markdown_table
from numeric.registry import REGISTRY
from analytic.properties import prover
from analytic.properties.audit import CALLABLE_SPACE, PROPERTIES, audit
from analytic.ledger.checks.audit_properties import recheck
from analytic.properties import table as property_table
from analytic.properties.catalog import TOLERANCE
from analytic.properties.engine import TIE_BUDGET
from analytic.properties.space import DEFAULT_SPACE, Space
from analytic.ledger.sources import silva2018

plt.rcParams.update({"figure.dpi": 90, "font.size": 10, "axes.titlesize": 11, "legend.fontsize": 9})

#: the metrics this lesson adds (registry names)
LESSON_METRICS = ["cohen_kappa", "within_one_accuracy", "minimum_sensitivity", "geometric_mean_sensitivity",
                  "somers_d", "kendall_tau_c", "cem_ord", "ranked_probability_score"]
#: every report variant of the lesson's metrics that take a confusion matrix: (name, variant label)
VARIANTS = [(n, v.label) for n in LESSON_METRICS if REGISTRY[n].takes_matrix for v in REGISTRY[n].cases()]


def md_table(header, rows):
    """Show a list of rows as a Markdown table (numeric.markdown.table: a | in a cell is escaped)."""
    display(Markdown(markdown_table(header, rows)))


def metric_of(name, label):
    """The registered variant ``label`` of metric ``name`` as an exact function of a matrix (None: undefined)."""
    bound = REGISTRY[name].bind(label, "exact")   # the registry binds a variant to an arithmetic

    def f(cm):
        try:
            return bound(np.asarray(cm))
        except ValueError:              # the metric is undefined on this matrix
            return None
    return f


def pretty(label):
    """A registry label in words and symbols, for figures ("tau_c" -> "Stuart's τ_c")."""
    words = {"kappa": "Cohen's κ", "linear weighted kappa": "linear weighted κ",
             "quadratic weighted kappa": "quadratic weighted κ", "tau_c": "Stuart's $\\tau_c$",
             "tau_b": "Kendall's $\\tau_b$", "R_s": "Spearman's $R_s$", "r_int": "$r_{int}$",
             "A_UOC": "$A_{UOC}$", "Somers' d": "Somers' $d$"}
    return words.get(label, label.replace("beta=", "β = "))


def shown(value):
    """An exact value for a title or a table: a short fraction as it is, anything else as a decimal."""
    if value is None:
        return "undefined"
    value = sp.sympify(value)
    if value.is_Rational and len(str(value)) <= 7:
        return str(value).replace("-", "−")
    return f"{float(value):.4f}".replace("-", "−")

# %% [markdown]
# ## 1. Eight more metrics
#
# With $n_{r,c}$ the counts, $N_{r\cdot}$ and $N_{\cdot c}$ the row (true
# class) and column (predicted class) sums, $N$ the total:
#
# * **Cohen's kappa** compares the observed disagreement with the one
#   expected by chance from the margins,
#   $\kappa_w = 1 - \dfrac{\sum_{r,c} w_{r,c}\, n_{r,c}/N}{\sum_{r,c} w_{r,c}\, N_{r\cdot}N_{\cdot c}/N^2}$,
#   with $w_{r,c} = [r \ne c]$ (Cohen 1960, nominal), $|r-c|$ (linear) or
#   $(r-c)^2$ (quadratic, Cohen 1968).  Higher is better, 1 is perfect
#   agreement, 0 is chance.
# * **Within-one accuracy**: the fraction of samples predicted at most one
#   class away, $\frac1N\sum_{|r-c|\le 1} n_{r,c}$ ("1-off accuracy").
# * **Minimum sensitivity** MS and **geometric mean sensitivity** GM: the
#   smallest, and the geometric mean, of the per-class recalls
#   $n_{r,r}/N_{r\cdot}$ — over the observed classes, or with an unobserved
#   class counted as recall 0 (`missing="zero"`).
# * **Somers' d** of the prediction given the truth,
#   $d(\hat y \mid y) = \dfrac{C - D}{\text{pairs with different true classes}}$,
#   and **Stuart's $\tau_c$**, $\dfrac{2m\,(C-D)}{N^2 (m-1)}$ with $m$ the
#   smaller number of observed rows or columns; $C$ and $D$ count the
#   concordant and discordant pairs of samples, as for $\tau_b$ in lesson 1.
# * **CEM-ORD** (Amigó et al. 2020, §4) scores each prediction by its
#   *closeness information*: predicting $a$ for an item of true class $b$
#   earns $\mathrm{prox}(a, b) = -\log_2 \frac{\frac12 n_a + \sum_{k \in (a, b]} n_k}{N}$,
#   where $n_k$ counts the *true* samples of class $k$; so the distance
#   between two classes is the share of the test set that lies between
#   them.  CEM is the total closeness of the predictions divided by that of
#   the perfect prediction.
# * **The ranked probability score** RPS takes predicted *probabilities*,
#   not a confusion matrix:
#   $\mathrm{RPS} = \frac1N\sum_i \frac{1}{K-1}\sum_{k=1}^{K-1} (F_{i,k} - O_{i,k})^2$,
#   with $F_{i,k}$ the predicted probability that sample $i$ is in class
#   $k$ or below and $O_{i,k} = [y_i \le k]$ (Epstein 1969; the factor
#   $1/(K-1)$ is Murphy's 1971 normalisation).  Lower is better.
#
# What the registry records about them (each function's docstring has the
# full definition):

# %%
md_table(["metric", "function", "takes", "better", "range", "report variants", "source"],
         [[m.label, f"`numeric.{m.name}`", m.input, m.better, f"[{m.bounds[0]}, {m.bounds[1]}]",
           "; ".join(v.label for v in m.cases()), m.source]
          for m in (REGISTRY[n] for n in LESSON_METRICS)])

# %% [markdown]
# ## 2. The new metrics on silva2018's six matrices
#
# The matrices of lesson 1: A perfect, B with the order kept, C with class 1
# two classes away, D with classes 1 and 2 swapped, E as D without class 3,
# F as D with class 1 ten times larger.  `numeric.report` evaluates every
# variant, exactly (rounded to 3 decimals below; "undefined" where a metric raises).

# %%
LABELS = [label for _, label in VARIANTS]
values = {}
for key, cm in silva2018.MATRICES.items():
    rep = numeric.report(cm, metrics=[n for n in LESSON_METRICS if REGISTRY[n].takes_matrix], arithmetic="exact")
    values[key] = {row.label: row.value for row in rep.rows}
md_table(["metric"] + [f"$CM_{k}$" for k in values],
         [[label] + [f"{float(values[k][label]):.3f}".replace("-", "−") if values[k][label] is not None
                     else "undefined" for k in values] for label in LABELS])

# %% [markdown]
# **What to look at** (each point is checked by the cell below it).
#
# * **Within-one accuracy** is 1 for B, D, E and F: each of their errors is
#   one class away, so it cannot tell the order-keeping B from the swapping
#   D.  Only C (two classes away) scores below 1.
# * **MS and GM** are 0 for every imperfect matrix: each of B–F has a class
#   without a single correct prediction, and one zero recall decides both.
# * $\tau_c$ scores the *perfect* matrix A below 1: it reaches 1 only when
#   the class sizes are equal.
# * **B against D**: Somers' d and $\tau_c$ prefer B (order kept), as the
#   rank correlations of lesson 1 did; both weighted kappas and CEM-ORD
#   prefer D (two swapped classes, but every error one class away).
# * **D against F** (class 1 ten times larger, each class treated the same
#   way): kappa, Somers' d, $\tau_c$ and CEM-ORD all change.

# %%
imperfect = ["B", "C", "D", "E", "F"]
higher = lambda a, b, label: sp.sympify(values[a][label] - values[b][label]).evalf(30) > 0  # noqa: E731
assert [k for k in imperfect if values[k]["within-one accuracy"] == 1] == ["B", "D", "E", "F"]
assert all(values[k][label] == 0 for k in imperfect for label in LABELS if label.startswith(("MS", "GM")))
assert values["A"]["tau_c"] < 1
assert higher("B", "D", "Somers' d") and higher("B", "D", "tau_c")
assert all(higher("D", "B", label) for label in ("linear weighted kappa", "quadratic weighted kappa", "CEM-ORD"))
assert all(values["D"][label] != values["F"][label] for label in ("kappa", "Somers' d", "tau_c", "CEM-ORD"))

# %% [markdown]
# ## 3. The ranked probability score: what a confusion matrix cannot see
#
# A classifier that outputs probabilities is usually scored through its
# most probable class — and then every metric of a confusion matrix
# forgets *how sure* it was.  Below, one sample of true class 3 of 5 and two
# forecasts whose most probable class is 3: both give the same (perfect)
# one-sample confusion matrix.  RPS compares the *cumulative*
# distributions: the forecast $F_k$ against the step $O_k$ of the truth, and
# the far-away probability of the second forecast costs it.

# %%
K5, y_true = 5, 2                                   # classes 0..4 in code, 1..5 in words
forecasts = {
    "concentrated": [Fraction(0), Fraction(1, 10), Fraction(6, 10), Fraction(2, 10), Fraction(1, 10)],
    "spread": [Fraction(3, 10), Fraction(0), Fraction(4, 10), Fraction(0), Fraction(3, 10)],
}
rps = {k: numeric.ranked_probability_score([y_true], [p], labels=range(K5), arithmetic="exact")
       for k, p in forecasts.items()}
same_matrix = {k: numeric.confusion_matrix([y_true], [int(np.argmax(p))], labels=range(K5)).tolist()
               for k, p in forecasts.items()}
assert same_matrix["concentrated"] == same_matrix["spread"]       # the same perfect confusion matrix
assert rps["concentrated"] < rps["spread"]

# %% tags=["figure:rps-cumulative", "hide-input"] alt="Left: bar charts of two probability forecasts over five ordered classes for one sample of true class 3, both most probable at class 3, the first concentrated around it and the second with much of its mass on classes 1 and 5. Right: their cumulative distributions as step curves against the step of the true class, the gaps between forecast and truth shaded; the spread forecast has larger gaps and the larger ranked probability score."
classes = np.arange(1, K5 + 1)
edges = np.append(classes, K5 + 0.5)                 # the cumulative steps, drawn to the right of class 5
truth = (edges >= y_true + 1).astype(float)          # O_k = [y <= k], classes in words
colours = {"concentrated": "tab:blue", "spread": "tab:orange"}
fig, (ax, bx) = plt.subplots(1, 2, figsize=(10.5, 3.9), layout="constrained")
for i, (k, p) in enumerate(forecasts.items()):
    ax.bar(classes + (i - 0.5) * 0.38, [float(v) for v in p], width=0.36, color=colours[k],
           label=f"{k} forecast")
    cum = np.append(np.cumsum([float(v) for v in p]), 1.0)
    bx.step(edges, cum, where="post", color=colours[k], lw=2,
            label=f"{k}: RPS = {shown(rps[k])}")
    bx.fill_between(edges, cum, truth, step="post", color=colours[k], alpha=0.15)
bx.step(edges, truth, where="post", color="black", lw=1.5, ls="--", label="truth (class 3)")
ax.axvline(y_true + 1, color="black", ls="--", lw=1)
ax.text(y_true + 1.05, 0.66, "true class", fontsize=9)
ax.set_xticks(classes)
ax.set_xlabel("class")
ax.set_ylabel("predicted probability")
ax.set_ylim(0, 0.75)
ax.set_title("two forecasts, same most probable class")
ax.legend(loc="upper left")
bx.set_xticks(classes)
bx.set_xlim(0.8, K5 + 0.5)
bx.set_ylim(-0.03, 1.05)
bx.set_xlabel("class k")
bx.set_ylabel("probability of class k or below")
bx.set_title("cumulative forecast against the truth (gaps shaded)")
bx.legend(loc="lower right")
plt.show()

# %% [markdown]
# ## 4. The property table
#
# Each property is an object of `analytic.properties.audit.PROPERTIES` (defined in
# `analytic/properties/catalog.py`), with a name, a title, a source and its
# formal statement.  The table below is computed from them:

# %%
REGION = {"matrices": "confusion matrices", "diagonal": "perfect predictions (diagonal matrices)",
          "triples": "triples of label vectors"}
md_table(["property", "what it asks", "source", "searched on"],
         [[f"`{p.name}`", p.title, p.source,
           REGION[p.region] + (", every true class populated" if p.populated else "")]
          for p in PROPERTIES.values()])

# %% [markdown]
# Every property is oriented by the metric's direction ("better" is lower
# for an error, higher for an agreement).  Our formalisations of Amigó et
# al.'s three:
#
# * **ordinal monotonicity** — moving one prediction one class closer to
#   the true class (without crossing it) must *strictly* improve the score;
#   plain **monotonicity** only asks that it never gets worse;
# * **ordinal invariance** — an empty class (no sample is in it or predicted
#   in it) inserted *between* two classes changes nothing: the metric may
#   use the order of the classes, not their numbers;
# * **imbalance** — from a perfect prediction, one error in a frequent
#   class must cost strictly less than the same error in a rarer class,
#   the target class lying midway between the two (our choice: the part of
#   the paper we could read does not say where it lies).
#
# Amigó et al. state their properties for a gold standard whose classes are
# **all populated**.  An empty true class is where several metrics misbehave
# (§5 shows CEM-ORD doing so), so each of the three has a **twin**,
# `*_populated`: the same property, searched only on the matrices whose
# true classes all have a sample (for imbalance: the diagonal matrices whose
# counts are all positive) — their setting.  That makes fourteen properties.
# The twins of ordinal monotonicity and ordinal invariance have no proof of
# their own: a twin is the same relation on fewer matrices, so it takes its
# property's proof when there is one, and is otherwise searched only.
# Imbalance and its twin are proved on their *families*: each diagonal
# pattern (for the twin, the one with every count positive), with the larger
# class's count written ``n_c3 + t``, is one symbolic family, and the change
# of the loss is certified negative for every value of its counts (up to
# K = 5).  The formal statements of the three, as the catalog states them:

# %%
AMIGO = [p for p in PROPERTIES.values() if p.amigo and not p.populated]
TWINS = {p.name: PROPERTIES[p.name + "_populated"] for p in AMIGO}
assert len(PROPERTIES) == 14
assert [p.name for p in AMIGO] == ["ordinal_monotonicity", "ordinal_invariance", "imbalance"]
assert [p.name for p in PROPERTIES.values() if p.populated] == [t.name for t in TWINS.values()]
assert [t.name for t in TWINS.values() if t.prover is None] == [  # no proof of their own
    "ordinal_monotonicity_populated", "ordinal_invariance_populated"]
display(Markdown("\n".join(f"* `{p.name}`: {p.statement()}" for p in AMIGO)))

# %% [markdown]
# ### How the table is computed
#
# `ordinal-verify audit --all` audits every report variant of every
# registered metric with `analytic.properties.audit.audit` and writes the result to
# `analytic/properties/table.json`, which this lesson reads with
# `analytic.properties.table.load()` (the committed
# [`docs/properties.md`](../docs/properties.md) is rendered from the same
# file; a test keeps both in step with the code).  For each property:
#
# 1. **The searched space.**  Every confusion matrix with $K \le 4$ classes
#    and $N \le 8$ samples, every one with $K = 5$ and $N \le 5$, and 20,000
#    seeded random matrices with up to 6 classes and 60 samples, empty rows
#    and columns included — close to a million matrices.  Imbalance is
#    searched on the diagonal matrices (perfect predictions) with
#    $K = 3, \dots, 6$; the triangle inequality on every triple of label
#    vectors of length $n \le 6$ over 2 classes and $n \le 4$ over 3, plus
#    2,000 random triples.
# 2. **A float screen, confirmed exactly.**  Every matrix is evaluated in
#    float64 (`numeric` evaluates each metric on a whole stack of matrices
#    at once).  A violation beyond a relative tolerance of $10^{-9}$ is only
#    a *candidate*: it is decided again in exact arithmetic (SymPy,
#    logarithms and roots included), and only a violation confirmed there
#    is a counterexample.
# 3. **Ties are decided exactly.**  Two float values within $10^{-9}$ cannot
#    be ordered in float64.  For a strict property (ordinal monotonicity,
#    imbalance, identity) such a tie is a candidate and is decided exactly.
#    For an equality or a non-strict inequality (every matrix is a tie of
#    `scale` when the metric is scale invariant), the property's own test is
#    run again on the exact values of all the tied matrices at once, with no
#    tolerance: every tie is decided.  The exact values are rationals, or,
#    for metrics with roots and logarithms (RMSE, $\tau_b$, CEM-ORD...),
#    closed forms such as $\frac{2}{3}\sqrt{2}$ or $2 + \log_2 3$ written
#    in one canonical way, so two formulas for the same number give the same
#    form.  A_UOC's exact value is a search over $\beta$ of its own (the
#    breakpoints of the UOC curve), run for all the tied matrices together.
# 4. **The smallest counterexample.**  The counterexample reported is the
#    first of the exhaustive part in the order (fewest samples $N$, then
#    fewest classes $K$, then lexicographic); one found only among the
#    random matrices is shrunk and not called minimal.
# 5. **Proofs.**  For each property the search did not refute, `analytic.properties.prover`
#    tries a symbolic proof: it evaluates the metric's own formula on a
#    matrix of positive integer *symbols*, one per support pattern (which
#    cells are nonzero), so a proof covers **every matrix with $K \le 3$**
#    (the 511 support patterns of a $3 \times 3$ matrix included) and **every
#    $4 \times 4$ matrix whose cells are all positive**.
#
# ### What a verdict rests on
#
# * **proved (every K)** — a lemma proves the property for every number of
#   classes and every N from the metric's declared structure (a mean of a
#   per-cell cost of the distance |i − j|, over the samples or per class):
#   the declaration is checked against the metric first, and each fact of
#   the kernel the lemma uses is certified for every distance.
# * **proved (K ≤ 3; 4 × 4 with every cell positive)** — a symbolic proof
#   for every matrix of those scopes only, and no counterexample in the
#   search.  Outside its scopes it says no more than "unrefuted".
# * **unrefuted (searched S + guided G)** — neither the search (S matrices)
#   nor a *guided* search (G matrices: it climbs toward a violation, from
#   the shapes where violations live) found a counterexample, and there is
#   no proof.  It rests on the searched matrices *only*: it is **not** a
#   theorem, and a larger matrix may break it (§5 shows one that does; the
#   guided search broke three cells that the search alone had left
#   standing).  In code, such a cell's `verdict` is `"holds"`.
# * **fails M** — a matrix M (or, for the triangle inequality, three label
#   vectors) on which the property is violated, confirmed in exact
#   arithmetic.  One matrix is a proof of failure, and anyone can re-check
#   it: §5 re-checks every one.
# * **n/a** — the property says nothing here: it does not apply (the
#   triangle inequality to a metric that is not a distance, the range
#   without stated bounds, identity without a best value), or the search
#   met no matrix the property speaks of, or the metric is undefined on all
#   of them.
#
# The code constants behind the numbers above, checked:

# %%
assert DEFAULT_SPACE.exhaustive == ((1, 8), (2, 8), (3, 8), (4, 8), (5, 5))
assert (DEFAULT_SPACE.random, DEFAULT_SPACE.random_k, DEFAULT_SPACE.random_n) == (20_000, 6, 60)
assert 900_000 < DEFAULT_SPACE.size() < 1_000_000                       # "close to a million"
assert [K for K, _ in DEFAULT_SPACE.diagonal] == [3, 4, 5, 6]
assert (DEFAULT_SPACE.triangle, DEFAULT_SPACE.triangle_random) == (((2, 6), (3, 4)), 2_000)
assert TOLERANCE == 1e-9 and TIE_BUDGET == 1_000
assert [(s.K, s.kind) for s in prover.DEFAULT_SCOPES] == [(1, "every"), (2, "every"), (3, "every"),
                                                          (4, "positive")]
assert len(list(prover.support_patterns(3))) == 511

# %% [markdown]
# And what the table this lesson reads was computed on (the table states
# its own space and proof scopes):

# %%
TABLE = property_table.load()
scopes = [prover.Scope(K, kind) for K, kind in TABLE["scopes"]]
display(Markdown(f"**Searched**: {TABLE['space_text']}.  \n**Proofs**: "
                 + ("; ".join(s.text() for s in scopes) if scopes else "none")))
if (not property_table.same_space(TABLE["space"], DEFAULT_SPACE)
        or TABLE["scopes"] != [[s.K, s.kind] for s in prover.DEFAULT_SCOPES]):
    display(Markdown("**Note.**  This table was not computed on the default space and proof "
                     "scopes described above (a provisional table): its verdicts rest on what it "
                     "states here."))

# the table as {(registry name, variant label): {property: cell}}; variant labels are unique
table = {(r["metric"], r["variant"]): r["properties"] for r in TABLE["reports"]}
BETTER = {(r["metric"], r["variant"]): r["better"] for r in TABLE["reports"]}
BY_LABEL = {label: cells for (_, label), cells in table.items()}
assert len(BY_LABEL) == len(table)
assert [p["name"] for p in TABLE["properties"]] == list(PROPERTIES)   # its columns are the catalog's
assert {key for key in table if key[0] in LESSON_METRICS} == set(VARIANTS)      # every new variant has its row


def verdict(label, p):
    """The verdict of the table's cell: "proved", "holds" (shown as "unrefuted"), "fails" or
    "n/a"."""
    return BY_LABEL[label][p]["verdict"]


def short(cell):
    """A cell without its counterexample: "proved (every K)", "proved (K <= 3; ...)",
    "unrefuted (searched ...)", "fails" or "n/a"."""
    return "fails" if cell["verdict"] == "fails" else cell["cell"]


md_table(["metric"] + [p.replace("_", " ") for p in PROPERTIES],
         [[label] + [short(table[name, label][p]) for p in PROPERTIES] for name, label in VARIANTS])

# %% [markdown]
# The counterexample of each "fails" is in
# [`docs/properties.md`](../docs/properties.md); §5 draws seven of them.
# What each verdict of one metric rests on — CEM-ORD's, say — is the
# cell's *evidence*:

# %%
md_table(["property", "verdict", "what it rests on"],
         [[p, short(cell), textwrap.shorten(cell["evidence"], 300)]
          for p, cell in BY_LABEL["CEM-ORD"].items()])

# %% [markdown]
# The whole table as a picture: the metrics of lessons 1–5 above the line,
# this lesson's below it.  The columns of Amigó et al.'s properties are
# labelled in blue, each followed by its `populated` twin.

# %% tags=["figure:property-map", "hide-input"] alt="A grid with one row per registered metric variant, the metrics of lessons 1 to 5 above a line and this lesson's new metrics below it, and one column for each of the fourteen properties, Amigó et al.'s three each followed by its twin on matrices whose true classes are all populated; each cell is marked proved for every K (darkest green, three check marks), proved on finite scopes (dark green, double check mark), unrefuted without a proof (light green, check mark), fails (red, cross) or not applicable (grey, dash)."
STYLE = {"proved (every K)": ("#31a354", "✓✓✓"), "proved (finite scopes)": ("#74c476", "✓✓"),
         "unrefuted": ("#c7e9c0", "✓"), "fails": ("#fcbba1", "✗"), "n/a": ("#e5e5e5", "–")}
PROPS = list(PROPERTIES)
keys = list(table)
fig, ax = plt.subplots(figsize=(12, 12.6))
for i, key in enumerate(keys):
    for j, p in enumerate(PROPS):
        colour, mark = STYLE[property_table.kind(table[key][p])]
        ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=colour, edgecolor="white", lw=2))
        ax.text(j, i, mark, ha="center", va="center", fontsize=11)
ax.set_xlim(-0.5, len(PROPS) - 0.5)
ax.set_ylim(len(keys) - 0.5, -0.5)
ax.xaxis.tick_top()
ax.set_xticks(range(len(PROPS)), [p.replace("_", " ") for p in PROPS], rotation=40, ha="left")
for tick, p in zip(ax.get_xticklabels(), PROPS):
    if PROPERTIES[p].amigo:
        tick.set_color("#08519c")
ax.set_yticks(range(len(keys)), [pretty(label) for _, label in keys])
first_of_lesson = next(i for i, key in enumerate(keys) if key[0] in LESSON_METRICS)
ax.axhline(first_of_lesson - 0.5, color="black", lw=2)
ax.text(len(PROPS) - 0.45, first_of_lesson - 0.5, " this\n lesson", va="top", fontsize=10)
ax.tick_params(length=0)
for side in ax.spines.values():
    side.set_visible(False)
ax.legend(handles=[plt.Rectangle((0, 0), 1, 1, facecolor=c) for c, _ in STYLE.values()],
          labels=["✓✓✓ proved for every K: a lemma on the declared structure",
                  "✓✓ proved on finite scopes (K ≤ 3; 4 × 4 all positive)",
                  "✓ unrefuted: no counterexample in the searches, no proof",
                  "✗ fails: a counterexample, confirmed exactly", "– not applicable"],
          loc="upper center", bbox_to_anchor=(0.45, -0.01), ncol=2, frameon=False)
fig.tight_layout()
plt.show()

# %% [markdown]
# **What to look at** (each point is checked by the cell below it).
#
# * No new metric has **ordinal monotonicity** on every matrix.  Kappa, MS
#   and GM treat the classes as names: a prediction moved from class 1 to
#   class 2 of a class-3 sample is still simply wrong.  Even CEM-ORD,
#   designed for this property, fails it — on a matrix with an *empty*
#   class, drawn in §5.
# * The rank metrics Somers' d and $\tau_c$ fail **identity**, as $\tau_b$
#   does: a classifier can be wrong and still score 1.
# * Both weighted kappas and within-one accuracy fail **ordinal invariance**,
#   also in Amigó et al.'s setting: their weights count class *numbers*, so
#   an empty class in between moves the score.
# * CEM-ORD fails our version of **imbalance** on a diagonal matrix with an
#   empty class (§5).
# * Kappa (all three weightings), Somers' d and $\tau_c$ are undefined on
#   some matrices with an empty row (**unobserved class**): with a single
#   observed class they raise, as $\tau_b$ does.

# %%
assert all(verdict(label, "ordinal_monotonicity") == "fails" for label in LABELS)
assert all(verdict(label, "identity") == "fails" for label in ("Somers' d", "tau_c", "tau_b"))
assert all(verdict(label, p) == "fails" for p in ("ordinal_invariance", "ordinal_invariance_populated")
           for label in ("linear weighted kappa", "quadratic weighted kappa", "within-one accuracy"))
assert verdict("CEM-ORD", "imbalance") == "fails"
assert all(verdict(label, "unobserved_class") == "fails" for label in
           ("kappa", "linear weighted kappa", "quadratic weighted kappa", "Somers' d", "tau_c", "tau_b"))

# %% [markdown]
# Which of the new metrics keep the properties of Amigó et al., and which
# are defined with an unobserved class, is read from the table (an
# "unrefuted" is no more than the searches, see above):

# %%
def variants_with(p, verdicts, *, which=True):
    """The lesson's variants whose cell for ``p`` has one of ``verdicts`` (``which``: with the verdict)."""
    return ", ".join(label + (f" ({short(BY_LABEL[label][p])})" if which else "") for label in LABELS
                     if verdict(label, p) in verdicts) or "none"


md_table(["property", "no counterexample found (proved or unrefuted)", "fails"],
         [[p.replace("_", " "), variants_with(p, ("proved", "holds")), variants_with(p, ("fails",), which=False)]
          for p in ["ordinal_monotonicity", "ordinal_monotonicity_populated", "ordinal_invariance",
                    "ordinal_invariance_populated", "imbalance", "imbalance_populated",
                    "unobserved_class"]])

# %% [markdown]
# ## 5. The counterexamples, drawn
#
# A "fails" cell stores its counterexample (a matrix, or for the triangle
# inequality the three label vectors `a`, `b`, `c` and the number of
# classes `K`), the *witness* (what the auditor compared, classes counted
# from 0) and how it was found.  `recheck(name, label, cell)` of
# `analytic.ledger.checks.audit_properties` runs the property's exact check on the
# stored counterexample again, with the current code, and returns `None`
# when it still fails as recorded.  First, every counterexample of the
# whole table:

# %%
failing = [(r["metric"], r["variant"], cell) for r in TABLE["reports"]
           for cell in r["properties"].values() if cell["verdict"] == "fails"]
problems = [why for why in (recheck(name, label, cell) for name, label, cell in failing) if why]
assert not problems, problems
kinds = Counter("label vectors" if "K" in cell["counterexample"] else "matrix" for *_, cell in failing)
print(f"{len(failing)} counterexamples re-checked in exact arithmetic ({kinds['matrix']} matrices, "
      f"{kinds['label vectors']} triples of label vectors): every one still fails as recorded")

# %% [markdown]
# That re-runs the auditor's own check.  For the counterexamples drawn
# below, we rebuild what the property compares the matrix with straight
# from the definitions above, and check the failure once more with
# `numeric` in exact arithmetic — an independent check of the auditor.
# Changed cells are framed in red; an inserted empty class is hatched.

# %%
def exact_sign(x):
    """The sign of an exact number (logarithms and roots included): the toolkit's one
    rule, exactfloor.exact_sign (interval arithmetic at growing precision, then a proof
    of zero; it raises rather than guess)."""
    return exactfloor.exact_sign.sign(x)


def moved(A, i, j):
    """A with one sample of cell (i, j) moved one class toward its true class i."""
    B = A.copy()
    B[i, j] -= 1
    B[i, j + (1 if j < i else -1)] += 1
    return B


def with_empty_class(A, p):
    """A with an empty class inserted before class p (0-based; p = K appends it)."""
    return np.insert(np.insert(A, p, 0, axis=0), p, 0, axis=1)


def partners(prop, A):
    """What the property compares A with: [(what was done, matrix, cells to frame, inserted class)]."""
    K = len(A)
    if prop in ("monotonicity", "ordinal_monotonicity"):
        return [(f"one sample of true class {i + 1} moved from predicted {j + 1} to {j + 1 + (1 if j < i else -1)}",
                 moved(A, i, j), [(i, j), (i, j + (1 if j < i else -1))], None)
                for i, j in zip(*np.nonzero(A)) if i != j]
    if prop == "ordinal_invariance":
        return [(f"an empty class inserted between classes {p} and {p + 1}", with_empty_class(A, p), [], p)
                for p in range(1, K)]
    if prop == "empty_class":
        return [("an empty class added before class 1", with_empty_class(A, 0), [], 0),
                (f"an empty class added after class {K}", with_empty_class(A, K), [], K)]
    if prop == "symmetry":
        return [("transposed", A.T.copy(), [], None)]
    if prop == "scale":
        return [("every count doubled", 2 * A, [], None)]
    if prop == "identity":
        return [("the perfect classifier of the same samples", np.diag(A.sum(axis=1)), [], None)]
    raise ValueError(prop)


def breaks(prop, better, va, vb):
    """Does the pair (A with value va, its partner with value vb) break the property?"""
    if prop in ("symmetry", "scale", "ordinal_invariance", "empty_class"):
        if va is None or vb is None:
            return (va is None) != (vb is None)
        return exact_sign(va - vb) != 0
    if va is None or vb is None:
        return False
    gain = exact_sign(vb - va) * (1 if better == "higher" else -1)   # > 0: the partner is better
    if prop == "monotonicity":
        return gain < 0
    if prop == "ordinal_monotonicity":
        return gain <= 0
    if prop == "identity":                  # A is not diagonal: the perfect classifier must score better
        return gain <= 0
    raise ValueError(prop)


def imbalance_panels(D, f, better):
    """The first pair of one-error matrices from the diagonal D that breaks the imbalance property."""
    n, K = np.diag(D), len(D)
    for c2 in range(1, K - 1):
        for dist in range(1, min(c2, K - 1 - c2) + 1):
            for c1, c3 in ((c2 - dist, c2 + dist), (c2 + dist, c2 - dist)):
                if n[c1] > n[c3] >= 1:
                    a1, a3 = D.copy(), D.copy()
                    a1[c1, c1], a1[c1, c2] = a1[c1, c1] - 1, a1[c1, c2] + 1
                    a3[c3, c3], a3[c3, c2] = a3[c3, c3] - 1, a3[c3, c2] + 1
                    gain = exact_sign(f(a1) - f(a3)) * (1 if better == "higher" else -1)
                    if gain <= 0:
                        return [("the perfect prediction", D, [], None),
                                (f"one error in class {c1 + 1} ({n[c1]} sample{'s' if n[c1] > 1 else ''})", a1, [(c1, c1), (c1, c2)], None),
                                (f"one error in class {c3 + 1} ({n[c3]} sample{'s' if n[c3] > 1 else ''})", a3, [(c3, c3), (c3, c2)], None)]
    return None


# %% tags=["hide-input"]
# the heat map of a count matrix (plotting only)
def show_matrix(ax, A, title, frame=(), inserted=None, vmax=None):
    """A count matrix as a light heat map with its counts; framed cells, a hatched inserted class."""
    A = np.asarray(A)
    K = len(A)
    ax.imshow(A, cmap="Blues", vmin=0, vmax=(vmax or max(A.max(), 1)) * 1.8)
    if inserted is not None:
        for r, c in [(inserted, k) for k in range(K)] + [(k, inserted) for k in range(K)]:
            ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor="#eeeeee", hatch="//",
                                       edgecolor="#bbbbbb", lw=0))
    for r in range(K):
        for c in range(K):
            ax.text(c, r, str(A[r, c]), ha="center", va="center", fontsize=13, zorder=3,
                    fontweight="bold" if A[r, c] else "normal",
                    bbox=dict(fc="#eeeeee", ec="none", pad=1.5) if inserted in (r, c) else None)
    for r, c in frame:
        ax.add_patch(plt.Rectangle((c - 0.46, r - 0.46), 0.92, 0.92, fill=False, ec="tab:red", lw=2.5))
    ax.set_xticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_yticks(range(K), [str(k + 1) for k in range(K)])
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.set_title(title, fontsize=10)


# %%
def draw(label, prop, A, f, better, what):
    """Draw the matrix A on which ``prop`` fails for the metric f (``what`` it is) next to what the
    property compares it with, rebuilt from the definitions, each titled with the metric's exact value;
    return the panels' values.  Raises AssertionError when the failure does not show again (the
    auditor and this rebuild disagree)."""
    base = prop.removesuffix("_populated")          # a twin compares the same matrices
    if base == "imbalance":
        panels = imbalance_panels(A, f, better)
    else:
        broken = [p for p in partners(base, A) if breaks(base, better, f(A), f(p[1]))]
        panels = [(what, A, broken[0][2] if broken else [], None)] + broken[:1]
    assert panels and len(panels) > 1, f"{label}, {prop}: the failure does not show again"
    width = 3.4 * len(panels) + 0.6
    fig, axes = plt.subplots(1, len(panels), figsize=(width, 4.4), layout="constrained")
    vmax = max(M.max() for _, M, _, _ in panels)
    for ax, (title, M, frame, inserted) in zip(axes, panels):
        show_matrix(ax, M, "\n".join(textwrap.wrap(title, 34)) + f"\n{pretty(label)} = {shown(f(M))}", frame,
                    inserted, vmax)
    fig.suptitle("\n".join(textwrap.wrap(f"{pretty(label)} fails “{PROPERTIES[prop].title}”", int(9 * width))),
                 fontsize=12)
    plt.show()
    return [f(M) for _, M, _, _ in panels]


def draw_counterexample(name, label, prop):
    """Draw the table's counterexample of ``prop`` for a metric variant, re-checked first (:func:`recheck`)."""
    cell = table[name, label][prop]
    assert cell["verdict"] == "fails" and recheck(name, label, cell) is None, (label, prop, cell["cell"])
    what = ("the minimal counterexample" if cell["minimal"]
            else "a counterexample (found among the random matrices, shrunk)")
    return draw(label, prop, property_table.counterexample_of(cell), metric_of(name, label),
                BETTER[name, label], what)

# %% [markdown]
# **The triangle inequality**, first, on its label vectors: every triangle
# counterexample of the table, $d(a, c) > d(a, b) + d(b, c)$ with $d(x, y)$
# the metric of the confusion matrix of true labels $x$ and predicted
# labels $y$ (labels counted from 0, as stored):

# %%
def distance(name, label, K):
    """d(x, y): the metric variant on the confusion matrix of true labels x and predicted labels y."""
    f = metric_of(name, label)
    return lambda x, y: f(numeric.confusion_matrix(list(x), list(y), labels=range(K)))


triangles = []
for name, label, cell in failing:
    if cell["property"] == "triangle":
        a, b, c, K = property_table.counterexample_of(cell)
        d = distance(name, label, K)
        assert exact_sign(d(a, c) - d(a, b) - d(b, c)) > 0, (label, cell["cell"])
        triangles.append([label, list(a), list(b), list(c), K, shown(d(a, c)), shown(d(a, b) + d(b, c))])
assert triangles
md_table(["metric", "a", "b", "c", "K", "d(a, c)", "d(a, b) + d(b, c)"], triangles)

# %% [markdown]
# **Kappa: a prediction moved toward the truth makes it worse.**  The
# unweighted kappa compares the agreement with what the *margins* predict by
# chance; moving the sample changes the column margins, and the chance
# agreement with them.

# %% tags=["figure:kappa-monotonicity", "hide-input"] alt="Two 3-class confusion matrices with two samples each: the minimal counterexample, and the same matrix with the sample of true class 3 moved from predicted class 1 to predicted class 2, one class closer; the moved cells are framed and Cohen's kappa is lower after the move."
before, after = draw_counterexample("cohen_kappa", "kappa", "monotonicity")

# %%
assert after < before          # kappa is higher-is-better: the move made it worse

# %% [markdown]
# **Quadratic weighted kappa: an empty class in between changes it.**  The
# weights $(r-c)^2$ are computed from the class numbers, so a class that no
# sample is in, or is predicted in, still stretches the distances.

# %% tags=["figure:weighted-kappa-invariance", "hide-input"] alt="Left: a 3-class confusion matrix with two misclassified samples. Right: the same matrix with an empty class inserted between classes 1 and 2, hatched; the quadratic weighted kappa differs between the two."
before, after = draw_counterexample("cohen_kappa", "quadratic weighted kappa", "ordinal_invariance")

# %%
assert before != after

# %% [markdown]
# **Somers' d (and $\tau_c$): a wrong classifier scores 1.**  Both only
# count concordant and discordant pairs; a classifier that is off by one
# class but keeps the order has no discordant pair.

# %% tags=["figure:somers-identity", "hide-input"] alt="Left: a 3-class confusion matrix with two samples, one of them misclassified, whose Somers' d is 1, the best value. Right: the perfect classifier of the same two samples, with Somers' d also 1."
wrong, perfect = draw_counterexample("somers_d", "Somers' d", "identity")

# %%
assert wrong == perfect == 1
assert table["kendall_tau_c", "tau_c"]["identity"]["cell"] == table["somers_d", "Somers' d"]["identity"]["cell"]

# %% [markdown]
# **$\tau_c$: a prediction moved to its true class halves the score.**  The
# moved sample now ties with the other samples of its column, and a tied
# pair counts for nothing where it counted as concordant before.

# %% tags=["figure:tau-c-monotonicity", "hide-input"] alt="Two 3-class confusion matrices with three samples: the minimal counterexample, and the same matrix with the sample of true class 2 moved from predicted class 1 to its true class; the moved cells are framed and Stuart's tau_c is lower after the move."
before, after = draw_counterexample("kendall_tau_c", "tau_c", "monotonicity")

# %%
assert after < before

# %% [markdown]
# **CEM-ORD: a prediction moved closer does not improve it — when the
# classes in between are empty.**  CEM measures the distance between two
# classes by the share of the *true* samples between them; with no true
# sample in classes 1 and 2, predicting 1 or 2 for a class-3 sample is
# equally far.

# %% tags=["figure:cem-ordinal-monotonicity", "hide-input"] alt="Two 3-class confusion matrices with one sample of true class 3: predicted as class 1, then predicted as class 2, one class closer; the moved cells are framed and CEM-ORD is the same for both."
before, after = draw_counterexample("cem_ord", "CEM-ORD", "ordinal_monotonicity")

# %%
assert before == after

# %% [markdown]
# The counterexample has empty true classes, outside Amigó et al.'s
# setting.  The twin column searches only the matrices whose true classes
# are all populated; the table's cell for CEM-ORD there, and what it rests
# on (Exercise 5 asks you to search, and to explain the answer):

# %%
twin = BY_LABEL["CEM-ORD"]["ordinal_monotonicity_populated"]
display(Markdown(f"`ordinal_monotonicity_populated`, CEM-ORD: **{short(twin)}** — {twin['evidence']}"))

# %% [markdown]
# **CEM-ORD and our imbalance property.**  From a perfect prediction, one
# class-3 sample sent to class 2 and one class-1 sample sent to class 2:
# class 3 is the more frequent one, so by our formalisation its error must
# cost strictly less.  CEM scores the two errors the same.

# %% tags=["figure:cem-imbalance", "hide-input"] alt="Three 3-class confusion matrices: a perfect prediction with one sample of class 1 and two of class 3, then one error in class 3 into class 2, then one error in class 1 into class 2; the changed cells are framed and CEM-ORD is the same for both errors."
perfect, frequent_error, rare_error = draw_counterexample("cem_ord", "CEM-ORD", "imbalance")

# %%
assert perfect == 1 and exact_sign(frequent_error - rare_error) == 0

# %% [markdown]
# **An "unrefuted" that stops at five classes.**  Why did the two errors cost
# the same?  The error of one sample of class $c$ sent to class $c_2$
# replaces its closeness $\mathrm{prox}(c, c) = -\log_2 \frac{n_c}{2N}$ by
# $\mathrm{prox}(c_2, c) = -\log_2 \frac{n_{c_2}/2 + B + n_c}{N}$, with $B$
# the true samples of the classes strictly between $c$ and $c_2$.  CEM's
# denominator (the closeness of the perfect prediction, $S$) does not
# change, so the error lowers CEM-ORD by
# $\frac1S \log_2\!\left(2 + \frac{n_{c_2} + 2B}{n_c}\right)$.  Above,
# $n_{c_2} = 0$ and $B = 0$: both errors cost $\frac1S$, whatever $n_c$.
#
# In Amigó et al.'s setting $n_{c_2} \ge 1$.  With 3 or 4 classes the
# midway class $c_2$ is next to both $c_1$ and $c_3$, so $B = 0$, and the
# more frequent class (the larger $n_c$) always loses less: on those
# matrices imbalance is a theorem, not only a search result.  With 5
# classes $c_2$ can lie two classes away, and the classes in between weigh
# in: a frequent class whose neighbour toward $c_2$ is large loses more.
# The auditor, run here on the diagonal matrices alone (an explicit
# `Space`), finds no counterexample up to 4 classes and one at 5:

# %%
def diagonal_space(*sizes):
    """Only the diagonal matrices (the imbalance properties' region): (K, largest N) for each K."""
    return Space(exhaustive=(), random=0, triangle=(), triangle_random=0, diagonal=sizes)


searches = {K: audit("cem_ord", ["imbalance_populated"], space=diagonal_space(*[(k, 12) for k in range(3, K + 1)]),
                     prove=False).results["imbalance_populated"] for K in (4, 5)}
md_table(["classes searched", "verdict", "what it rests on"],
         [[f"K ≤ {K}", r.cell(), textwrap.shorten(r.evidence(), 200)] for K, r in searches.items()])
assert searches[4].verdict == "holds" and searches[5].verdict == "fails"

# %% tags=["figure:cem-imbalance-populated", "hide-input"] alt="Three 5-class confusion matrices: a perfect prediction with class counts 1, 1, 1, 3 and 2, then one error of a class-5 sample into class 3, then one error of a class-1 sample into class 3; the changed cells are framed, and CEM-ORD is lower after the error in class 5, the more frequent class, because class 4 between it and class 3 holds three samples."
f_cem, A5 = metric_of("cem_ord", "CEM-ORD"), searches[5].counterexample
perfect, frequent_error, rare_error = draw("CEM-ORD", "imbalance_populated", A5, f_cem, "higher",
                                           "the minimal counterexample")

# %%
assert np.diag(A5).tolist() == [1, 1, 1, 3, 2] and exact_sign(frequent_error - rare_error) < 0

# the drop of CEM-ORD from the formula above, against numeric's values (to 50 digits)
panels = imbalance_panels(A5, f_cem, "higher")
(_, (c1, c2)), ((c3, _), _) = panels[1][2], panels[2][2]      # the framed cells (c, c) and (c, c2)
n, N = np.diag(A5), int(A5.sum())
S = sum(-int(k) * sp.log(sp.Rational(int(k), 2 * N), 2) for k in n)


def drop(c):
    between = sum(int(n[k]) for k in range(min(c, c2) + 1, max(c, c2)))
    return sp.log(2 + sp.Rational(int(n[c2]) + 2 * between, int(n[c])), 2) / S


assert (c1, c2, c3) == (4, 2, 0) and n[c1] > n[c3]
assert all(abs((perfect - err - drop(c)).evalf(60)) < 1e-50 for err, c in ((frequent_error, c1), (rare_error, c3)))

# %% [markdown]
# A search up to four classes would have reported "unrefuted", and read as a
# property of CEM-ORD; it is not one.  What the property table says
# depends on how far *its* search went — its cell, and what it rests on:

# %%
cell = BY_LABEL["CEM-ORD"]["imbalance_populated"]
display(Markdown(f"`imbalance_populated`, CEM-ORD: **{cell['cell']}** — {cell['evidence']}"))
if any(K >= 5 and n_max >= 8 for K, n_max in TABLE["space"]["diagonal"]):   # its search reaches A5
    assert cell["verdict"] == "fails"

# %% [markdown]
# **Within-one accuracy: an empty class in between turns 1 into 0.**  A
# one-class error becomes a two-class error when an empty class is inserted
# between the two.

# %% tags=["figure:within-one-invariance", "hide-input"] alt="Left: a 2-class confusion matrix with one sample of true class 2 predicted as class 1, within-one accuracy 1. Right: the same with an empty class inserted between the two classes, hatched; within-one accuracy drops to 0."
before, after = draw_counterexample("within_one_accuracy", "within-one accuracy", "ordinal_invariance")

# %%
assert (before, after) == (1, 0)

# %% [markdown]
# ## 6. Summary
#
# * The eight metrics see different things.  Kappa, MS and GM treat the
#   classes as names; Somers' d and $\tau_c$ see only the order, so a wrong
#   classifier can score 1; CEM-ORD measures the distance between two
#   classes by the true samples between them; the ranked probability score
#   scores probabilities, and sees how sure a classifier was.
# * A formal property is a statement about *every* confusion matrix.  The
#   auditor decides it by a float64 search of close to a million matrices,
#   every violation confirmed in exact arithmetic, and a symbolic proof on
#   every matrix with $K \le 3$ and every all-positive $4 \times 4$ one.
# * A **fails** rests on one matrix, which anyone can re-check; a
#   **proved** on a proof, for every K or within its finite scopes; an
#   **unrefuted** only on the searched matrices — CEM-ORD's imbalance in
#   Amigó et al.'s setting holds up to four classes and fails at five.
# * A property depends on the matrices it speaks of: CEM-ORD fails ordinal
#   monotonicity on a matrix with empty true classes, and the table finds no
#   counterexample when every true class is populated (Exercise 5 proves
#   it).
# * A metric of your own is audited the same way (Exercise 4).

# %%
assert verdict("Somers' d", "identity") == verdict("tau_c", "identity") == "fails"
assert searches[4].verdict == "holds" and searches[5].verdict == "fails"
assert verdict("CEM-ORD", "ordinal_monotonicity") == "fails"
assert verdict("CEM-ORD", "ordinal_monotonicity_populated") in ("proved", "holds")

# %% [markdown]
# ## 7. Exercises
#
# **Exercise 1.**  A classifier that outputs one class with probability 1
# (a *one-hot* forecast).  Show that its RPS equals $\mathrm{MAE}/(K-1)$,
# and check it exactly on silva2018's six matrices: turn each matrix into
# label vectors, the predictions into one-hot rows, and compare
# `numeric.ranked_probability_score` with `numeric.mae`.

# %% [markdown]
# **Exercise 2.**  Somers' d is asymmetric: `numeric.somers_d(cm)` is
# $d(\hat y \mid y)$ and `numeric.somers_d(cm.T)` is $d(y \mid \hat y)$.
# Somers (1962) notes that $\tau_b$ is their geometric mean.  Check
# $\tau_b^2 = d(\hat y \mid y)\, d(y \mid \hat y)$ exactly on every matrix of
# silva2018 and on the tridiagonal matrices of lesson 3 for $K = 2, \dots, 8$
# (`analytic.ledger.sources.cardoso2011.tridiagonal`).

# %% [markdown]
# **Exercise 3.**  MS and GM see only the per-class recalls.  Multiply row 1
# of the made-up matrix `[[10, 4, 1, 0], [2, 12, 3, 1], [0, 3, 9, 4], [1, 0, 2, 8]]`
# (lesson 6's) by 10.  Which variants of the new metrics keep their value?

# %% [markdown]
# **Exercise 4.**  Audit a metric of your own.  A *lenient MAE* forgives
# one-class errors: $\frac1N \sum_{r,c} n_{r,c} \max(|r-c| - 1, 0)$.  Write
# it as a Python function of a count matrix and audit it with
# `analytic.properties.audit.audit(f, ["identity", "monotonicity", "ordinal_monotonicity"],
# better="lower", bounds=(0, None))`.  A plain Python function has no
# vectorised float form, so the auditor searches it in exact arithmetic, on
# a smaller default space (`analytic.properties.audit.CALLABLE_SPACE`, a few seconds):
# print what it searched (`report.space.describe()`) and what each verdict
# rests on (`report.results[p].evidence()`).  Before running it: which
# properties should fail, and on which smallest matrix?  What does the
# verdict of the other one say, and can you make it a theorem?

# %% [markdown]
# **Exercise 5.**  The CEM-ORD counterexample of §5 has empty classes.
# Search every 3-class matrix with $N \le 6$ samples in which *every class
# has a true sample*: does some one-class move toward the truth fail to
# improve CEM-ORD?  (Float arithmetic is enough if the smallest improvement
# you find is far above rounding errors.)  Then explain the answer from the
# definition of $\mathrm{prox}$ (§1), for every number of classes.

# %% [markdown] tags=["solution"]
# ## Answers
#
# Each answer stores its result in a variable; the `assert` cell after it
# checks the result.  The student version of the lesson (`python
# docs/build.py --student` for the book, `python notebooks/build.py
# --student` for the notebooks) leaves the worked answers out and keeps
# each self-check, so that a student can test an answer.

# %% [markdown] tags=["solution"]
# **Answer 1.**  For a one-hot forecast of class $c$ and true class $r$,
# $F_k - O_k = [c \le k] - [r \le k]$ is $\pm 1$ exactly for the $|r - c|$
# thresholds $k$ between the two classes and 0 elsewhere, so the sample's
# RPS is $|r-c|/(K-1)$; the mean over the samples is $\mathrm{MAE}/(K-1)$.

# %% tags=["solution"]
def label_vectors(cm):
    """(y_true, y_pred) with cm[r, c] samples of true class r predicted as c."""
    cm = np.asarray(cm)
    cells = [(r, c) for r in range(len(cm)) for c in range(len(cm)) for _ in range(cm[r, c])]
    return np.array([r for r, _ in cells]), np.array([c for _, c in cells])


rps_and_mae = {}
for key, cm in silva2018.MATRICES.items():
    K = len(cm)
    y, y_hat = label_vectors(cm)
    one_hot = np.eye(K, dtype=int)[y_hat]
    rps_and_mae[key] = (numeric.ranked_probability_score(y, one_hot, labels=range(K), arithmetic="exact"),
                        numeric.mae(cm, arithmetic="exact") / (K - 1))
rps_and_mae

# %% tags=["solution"]
assert all(a == b for a, b in rps_and_mae.values())

# %% [markdown] tags=["solution"]
# **Answer 2.**

# %% tags=["solution"]
from analytic.ledger.sources import cardoso2011

matrices = list(silva2018.MATRICES.values()) + [cardoso2011.tridiagonal(k) for k in range(2, 9)]
checked = []
for cm in matrices:
    cm = np.asarray(cm)
    tau_b = numeric.kendall_tau_b(cm, arithmetic="exact")
    d_pred, d_true = numeric.somers_d(cm, arithmetic="exact"), numeric.somers_d(cm.T, arithmetic="exact")
    checked.append((tau_b, d_pred, d_true))
[(shown(t), shown(a), shown(b)) for t, a, b in checked]

# %% tags=["solution"]
assert all(sp.simplify(t**2 - a * b) == 0 and sp.sign(t) == sp.sign(a) == sp.sign(b) for t, a, b in checked)

# %% [markdown] tags=["solution"]
# **Answer 3.**  Scaling one row leaves every recall, hence MS and GM, as
# they are; the metrics that weigh samples (kappa, within-one accuracy,
# Somers' d, $\tau_c$) or the gold distribution (CEM-ORD) change.

# %% tags=["solution"]
made_up = np.array([[10, 4, 1, 0], [2, 12, 3, 1], [0, 3, 9, 4], [1, 0, 2, 8]])
scaled = made_up.copy()
scaled[0] *= 10
unchanged = [label for name, label in VARIANTS
             if exact_sign(metric_of(name, label)(made_up) - metric_of(name, label)(scaled)) == 0]
unchanged

# %% tags=["solution", "self-check"]
from selfcheck import check   # compares a fingerprint of the answer: the check does not tell it

check("unchanged", list(unchanged), "d53186054b7518e4", "compare each variant of VARIANTS on "
      "made_up and on scaled exactly (exact_sign of the difference), in VARIANTS' order; "
      "section 1 says which metrics look at recalls only")

# %% [markdown] tags=["solution"]
# **Answer 4.**  A single sample one class off costs nothing, so identity
# and ordinal monotonicity fail on the smallest matrix with an error,
# $\begin{pmatrix}0&0\\1&0\end{pmatrix}$ (one sample of class 2 predicted
# as class 1).  Monotonicity is "unrefuted": no counterexample among the matrices
# printed below, searched in exact arithmetic — by itself no more than
# that.  Here a one-line argument makes it a theorem: a move toward the
# diagonal lowers $|r - c|$ by one, so $\max(|r-c| - 1, 0)$ never grows,
# and $N$ does not change.

# %% tags=["solution"]
def lenient_mae(A):
    K = len(A)
    return Fraction(sum(int(A[r][c]) * max(abs(r - c) - 1, 0) for r in range(K) for c in range(K)),
                    int(np.sum(A)))


lenient = audit(lenient_mae, ["identity", "monotonicity", "ordinal_monotonicity"], better="lower",
                bounds=(0, None))
print("searched:", lenient.space.describe())
{p: r.evidence() for p, r in lenient.results.items()}

# %% tags=["solution"]
assert lenient.space == CALLABLE_SPACE and all(r.exact for r in lenient.results.values())
from selfcheck import check

verdicts = tuple(lenient.results[p].verdict for p in ("identity", "monotonicity", "ordinal_monotonicity"))
check("the three verdicts", verdicts, "59be00962002d0d4", "audit lenient_mae on the three "
      "properties (section 4 shows how); a verdict is \"holds\", \"fails\" or \"proved\"")
for p in ("identity", "ordinal_monotonicity"):
    assert lenient.results[p].minimal, f"{p}: ask the audit for its minimal counterexample"
    check(f"the counterexample of {p}", np.asarray(lenient.results[p].counterexample),
          "cb8461ab8548634b", "the smallest matrix with one misclassified sample that "
          "lenient_mae scores 0 (section 5 draws such counterexamples)")

# %% [markdown] tags=["solution"]
# **Answer 5.**  No: every move improves CEM-ORD, by at least the amount
# printed (far above the $10^{-15}$ of float rounding).  Why, for any
# number of classes: a prediction $j$ for a sample of true class $i > j$
# has closeness $-\log_2 \frac{T_j}{N}$ with
# $T_j = \frac12 n_j + \sum_{k=j+1}^{i} n_k$ (the $n_k$ count true
# samples, which a move does not change).  Moving it to $j + 1$ gives
# $T_j - T_{j+1} = \frac12 (n_j + n_{j+1})$, also when $j + 1 = i$; with
# every class populated that is positive, so the closeness, and CEM-ORD
# (whose denominator does not change), strictly grow; the same holds for
# $i < j$ by symmetry.  So in Amigó et al.'s setting CEM-ORD has ordinal
# monotonicity on every matrix — a theorem, which the table's "unrefuted"
# alone could not give; and with $n_j = n_{j+1} = 0$ the move changes
# nothing, the counterexample of §5.

# %% tags=["solution"]
from analytic.properties.generators import exhaustive

# every 3-class matrix with 3 <= N <= 6 and a true sample in each class, as one stack
stack = np.array([A for N in range(3, 7) for A in exhaustive(3, N) if (A.sum(axis=1) > 0).all()])
gains = []
for i in range(3):
    for j in range(3):
        if i != j:                       # move one sample of cell (i, j) one class toward i
            before = stack[stack[:, i, j] > 0]
            after = before.copy()
            after[:, i, j] -= 1
            after[:, i, j + (1 if j < i else -1)] += 1
            gains.append(numeric.cem_ord(after) - numeric.cem_ord(before))   # float, vectorised over the stack
gains = np.concatenate(gains)
moves, smallest_gain = len(gains), gains.min()
moves, smallest_gain

# %% tags=["solution"]
assert moves > 1000 and smallest_gain > 1e-6

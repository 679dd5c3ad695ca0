# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The Forgetron: tightness of Theorems 2 and 3, Table 8.1's synthetic rows, errata
#
# Paper 001 (Dekel, Shalev-Shwartz, Singer, *The Forgetron*). Three parts:
#
# 1. **FGT-T2 / FGT-T3**: observed mistakes M of the basic (Fig. 2) and self-tuned (Fig. 3) Forgetron against the
#    bound M ≤ 2‖g‖² + 4Σℓ*_t, minimised over ‖g‖ ≤ U = ¼√((B+1)/ln(B+1)) by the comparator oracle, as the budget B
#    and the horizon T grow, on the §8 synthetic set with 10% label noise (Gaussian kernel σ = 1).
# 2. **FGT-TAB**: Table 8.1's "synth. (5%)" and "synth. (10%)" rows reproduced beside the paper's numbers.
# 3. The errata registered in bounds/witnesses/.
#
# Everything goes through the library (adversaries.make_sequence, bounds.check, bounds.errata).

# %%
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import adversaries  # noqa: E402
import bounds  # noqa: E402
from bounds.report import Fragment  # noqa: E402
from bounds.catalog import CATALOG  # noqa: E402
from bounds.constructions import covariance_finding, table81_readings  # noqa: E402
from bounds.report_matrix import verdict_of  # noqa: E402

KERNEL = "gaussian:sigma=1"
nb = Fragment("forgetron", "The Forgetron (paper 001)")
QUICK, OUT, md = nb.quick, nb.out, nb.md

# %% [markdown]
# ## 1. Theorems 2 and 3: observed mistakes against the bound
# One synthetic sequence (noise 10%, seed 0); its prefixes of length T are checked for each B. The right side is
# the oracle's explicit comparator value; the certified lower bound from the dual is reported beside it.

# %%
Ts = [150, 300] if QUICK else [200, 400, 800]
Bs = [83] if QUICK else [83, 150, 300, 600]
CLAIMS = {"FGT-T2": "basic Forgetron", "FGT-T3": "self-tuned Forgetron"}
X, y = adversaries.make_sequence(f"synthetic-noise:noise=0.1,T={max(Ts)}", seed=0)


def check_point(point):
    """One (claim, B, T) of the sweep, certified (every row of the table shows its verdict)."""
    cid, B, T = point
    r = bounds.check(cid, X[:T], y[:T], kernel=KERNEL, params={"B": B})
    verdict, why = verdict_of(r)
    return {"claim": cid, "B": B, "T": T, "M": float(r.lhs), "bound": float(r.rhs), "certified": float(r.rhs_lower),
            "U": float(r.terms["U"]), "verdict": verdict, "why": why}


rows = nb.map(check_point, [(cid, B, T) for cid in CLAIMS for B in Bs for T in Ts], label="FGT-T2/T3 sweep")
for row in rows:
    print(row)

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
for ax, cid in zip(axes, CLAIMS):
    for B in Bs:
        sel = [r for r in rows if r["claim"] == cid and r["B"] == B]
        Tv = [r["T"] for r in sel]
        ax.plot(Tv, [r["M"] for r in sel], "o-", label=f"M observed, B={B}")
        ax.plot(Tv, [r["bound"] for r in sel], "s--", label=f"bound 2‖g‖²+4Σℓ*, B={B}")
    ax.set_title(f"{cid} ({CLAIMS[cid]})")
    ax.set_xlabel("T (rounds)")
    ax.set_yscale("log")
    ax.legend(fontsize=7)
axes[0].set_ylabel("mistakes")
nb.figure(fig, "forgetron_bounds.png")

md += ["## FGT-T2 and FGT-T3: mistakes against the bound", "",
       "Sequence: §8 synthetic set, 10% label noise, seed 0, prefixes of length T; Gaussian kernel σ = 1 "
       "(κ(x,x) = 1). Bound: min over ‖g‖ ≤ U of 2‖g‖² + 4Σℓ*_t (exact, cvxpy), U = ¼√((B+1)/ln(B+1)). "
       "Ratio = M / bound (1 would be tight).", "",
       "| claim | B | T | U | M | bound | certified lower | M / bound | verdict |",
       "|---|---|---|---|---|---|---|---|---|"]
for r in rows:
    md.append(f"| {r['claim']} | {r['B']} | {r['T']} | {r['U']:.3f} | {r['M']:.0f} | {r['bound']:.1f} | "
              f"{r['certified']:.1f} | {r['M'] / r['bound']:.3f} | {r['verdict']} |")
md += ["", "![](forgetron_bounds.png)", ""]
for cid in CLAIMS:
    nb.claim(cid, [{"T": r["T"], "B": r["B"], "U": r["U"], "observed": r["M"], "bound": r["bound"],
                    "verdict": r["verdict"], "why": r["why"]} for r in rows if r["claim"] == cid],
             plot="forgetron_bounds.png", section="FGT-T2 and FGT-T3: mistakes against the bound")

# %% [markdown]
# ## 2. Table 8.1, synthetic rows
# FGT-TAB per column of the table (each check also runs the Perceptron, whose active-set size p sets B = p/4, p/2,
# p). Full run: `reps` independent sets of the paper's size 10,000; quick run: one set of 1,000 (a smoke test only,
# not comparable with the paper). The interval is the 99% Wilson interval over all rounds of a row.

# %%
REPS, TT = (1, 1000) if QUICK else (2, 10_000)
columns = ["forgetron-basic", "forgetron-self-tuned", "forgetron-greedy", "cks"]


def table_column(col):
    """One column of Table 8.1 (FGT-TAB; Monte Carlo, so never certified), or the §8 readings (the Perceptron
    rows under every order and covariance reading) for ``col`` = "readings"."""
    if col == "readings":  # the parts the report reads, as plain data
        return {k: SimpleNamespace(terms={"rows": r.terms["rows"]}, float_verdict=r.float_verdict)
                for k, r in table81_readings("perceptron", reps=REPS, T=TT, seed=0).items()}
    try:
        r = bounds.check("FGT-TAB", learner=col, params={"reps": REPS, "T": TT, "seed": 0})
    except ValueError as exc:  # a column whose learner is not implemented
        return {"column": col, "skipped": str(exc)}
    verdict, why = verdict_of(r)
    return {"column": col, "verdict": verdict, "why": why, "rows": r.terms["rows"]}


*cols, readings = nb.map(table_column, columns + ["readings"], label="Table 8.1")
tab = {}
verdicts = {}
for c in cols:
    if "skipped" in c:
        print(c["column"], "skipped:", c["skipped"])
        continue
    verdicts[c["column"]] = c["verdict"]
    tab.update(c["rows"])
nb.claim("FGT-TAB", [{"T": TT, "observed": None, "bound": None, "verdict": c["verdict"], "why": c["why"],
                      "setting": c["column"]} for c in cols if "skipped" not in c],
         plot="forgetron_table81.png", section="Table 8.1, synthetic rows (FGT-TAB)")
cov = covariance_finding(readings)
for k, v in tab.items():
    print(k, round(v["observed %"], 2), v["paper %"])

# %%
labels = list(tab)
fig, ax = plt.subplots(figsize=(11, 5.5))
xs = np.arange(len(labels))
obs = np.array([tab[k]["observed %"] for k in labels])
lo = np.array([tab[k]["interval %"][0] for k in labels])
hi = np.array([tab[k]["interval %"][1] for k in labels])
ax.errorbar(xs, obs, yerr=[obs - lo, hi - obs], fmt="o", label="ours (99% interval)")
ax.plot(xs, [tab[k]["paper %"] for k in labels], "x", color="red", label="Table 8.1")
ax.set_xticks(xs)
ax.set_xticklabels([k.replace("synth ", "").replace("forgetron-", "") for k in labels], rotation=60, ha="right",
                   fontsize=8)
ax.set_ylabel("online error (%)")
ax.legend()
nb.figure(fig, "forgetron_table81.png")

md += ["## Table 8.1, synthetic rows (FGT-TAB)", "",
       f"{REPS} set(s) of {TT} examples per noise rate (paper: 100 sets of 10,000), Gaussian kernel σ = 1, "
       "covariance reading `std` (diag (0.2, 2) read as standard deviations; see adversaries/synthetic.py). "
       "A row agrees when the paper's number is inside our 99% Wilson interval."
       + (" **Quick run: sizes are not the paper's, the comparison is a smoke test only.**" if QUICK else ""), "",
       "| row | ours % | 99% interval | paper % | inside |", "|---|---|---|---|---|"]
for k in labels:
    v = tab[k]
    inside = v["interval %"][0] <= v["paper %"] <= v["interval %"][1]
    md.append(f"| {k} | {v['observed %']:.2f} | [{v['interval %'][0]:.2f}, {v['interval %'][1]:.2f}] | "
              f"{v['paper %']:.2f} | {'yes' if inside else '**no**'} |")
md += ["", "Verdict per column: " + ", ".join(f"{c}: {v}" for c, v in verdicts.items()) + ".", "",
       "Caveats. The binomial interval treats the rounds as independent trials; measured over 8 sets, the per-set "
       "error varies a little more (standard deviation 0.34-0.44 points against the binomial 0.30), so rows just "
       "outside their interval are weak evidence. The greedy-removal rows at B = p/4 and p/2 are not: over 10 sets "
       "our greedy Forgetron errs 1-2.5 points *less* than the published column (also outside the between-set "
       "Student-t interval, tests/test_adversaries.py), a finding reported for review of the learner's reading of "
       "§7 and of the paper's implementation; the Perceptron, basic and self-tuned columns reproduce.", ""]
md += ["Every reading of what §8 leaves open (the order of presentation; (0.2, 2) as variances or standard "
       "deviations), Perceptron rows:", ""]
md += nb.table(["order", "covariance reading"] + [k for k in readings[("shuffled", "std")].terms["rows"]] + ["verdict"],
               [[o, r] + [f"{v['observed %']:.2f} (paper {v['paper %']:.2f})" for v in res.terms["rows"].values()]
                + [res.float_verdict] for (o, r), res in readings.items()])
md += ["", "The finding that (0.2, 2) must be standard deviations is "
       + ("**established** (under every order the std reading holds and the variance reading fails)."
          if cov["established"] else "**not established**: the orders disagree ("
          + "; ".join(f"{o}: std {v['std']}, variance {v['variance']}" for o, v in cov["by order"].items()) + ")."),
       "", "![](forgetron_table81.png)", ""]

# %% [markdown]
# ## 3. Errata

# %%
md += ["## Errata (paper 001)", ""]
md += nb.errata_pointer([e.id for e in CATALOG if e.id.startswith(("PER-", "BUD-", "ROP-", "FGT-", "SHR-", "RBP-"))
                         and e.id != "PER-TIGHT"]) + [""]
nb.write()
print("\n".join(md[-8:]))

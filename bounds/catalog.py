"""The claim catalog: every claim id of ../shared/THEOREMS.md with its source, kind and paraphrase.

Generated from THEOREMS.md (tests/test_claims_core.py checks the ids agree). Sources carry the paper number of
their section where THEOREMS.md leaves it implicit; the row "FGT-L3 / L4 / L5" is split into three ids.
Kinds: D deterministic, E expectation, I invariant, S symbolic, C construction."""
from __future__ import annotations

from typing import NamedTuple


class CatalogEntry(NamedTuple):
    id: str
    source: str
    kind: str
    statement: str
    section: str


CATALOG: tuple[CatalogEntry, ...] = (
    CatalogEntry('PER-T1', '001 Thm 1; 000 Thm 1', 'D', 'kernel Perceptron: M ≤ ‖g‖² + 2 Σ ℓ*_t for every g ∈ H', 'Perceptron and the budget lower bound'),
    CatalogEntry('PER-T2', '000 Thm 2', 'D', 'M ≤ L_T(f) + ‖f‖ √L_T(f) + ‖f‖²', 'Perceptron and the budget lower bound'),
    CatalogEntry('PER-L1', '001 Lemma 1, eq. 4', 'I', "one update: ‖f−g‖² − ‖f'−g‖² = −2y f(x) + 2y g(x) − κ(x,x) ≥ 2y g(x) − 1", 'Perceptron and the budget lower bound'),
    CatalogEntry('BUD-LB', '001 §2', 'C', 'any budget-B kernel learner can be made to err every round on {e_1..e_{B+1}} with the linear kernel while ḡ = Σ e_i (‖ḡ‖ = √(B+1)) has zero loss', 'Perceptron and the budget lower bound'),
    CatalogEntry('PER-TIGHT', '004 App. A, [31 Ex. 8.3]', 'C', 'a d-point sequence forces d mistakes on any deterministic learner (D = √2, D̄ = 1, γ* = 1/√d)', 'Perceptron and the budget lower bound'),
    CatalogEntry('ROP-C1', '001 §3 Cor. 1', 'D', "Remove-Oldest Perceptron: M ≤ ‖g‖² + 2Σℓ* + Σ_{t∈J,|I_t|=B} Ψ(1, y_{r_t} f'_t(x_{r_t})), Ψ(λ,μ) = λ² + 2λ − 2λμ", 'Forgetron family (001)'),
    CatalogEntry('FGT-L2', '001 Lemma 2', 'I', 'removal-damage inequality for λ ∈ (0,1]', 'Forgetron family (001)'),
    CatalogEntry('FGT-L3', '001 Lemma 3', 'I', 'shrinking inequalities in a Hilbert space (‖g‖ ≤ U ≤ φ‖f‖ ⇒ ≥ 0; general ≥ ‖g‖²(φ−1); J3 case)', 'Forgetron family (001)'),
    CatalogEntry('FGT-L4', '001 Lemma 4', 'I', 'shrinking inequalities in a Hilbert space (‖g‖ ≤ U ≤ φ‖f‖ ⇒ ≥ 0; general ≥ ‖g‖²(φ−1); J3 case)', 'Forgetron family (001)'),
    CatalogEntry('FGT-L5', '001 Lemma 5', 'I', 'shrinking inequalities in a Hilbert space (‖g‖ ≤ U ≤ φ‖f‖ ⇒ ≥ 0; general ≥ ‖g‖²(φ−1); J3 case)', 'Forgetron family (001)'),
    CatalogEntry('SHR-C2', '001 §4 Cor. 2 and the bound after it', 'D', 'Shrinking Perceptron: M ≤ ‖g‖²(1 − log Π Φ_t) + 2Σℓ*', 'Forgetron family (001)'),
    CatalogEntry('FGT-L6', '001 Lemma 6', 'D', 'M − (‖g‖² Σ log(1/Φ_t) + Σ Ψ_t) ≤ ‖g‖² + 2 Σ_{t∈J} ℓ*_t, any removal rule', 'Forgetron family (001)'),
    CatalogEntry('FGT-L7', '001 Lemma 7', 'D', 'basic Forgetron: ‖g‖² Σ log(1/Φ_t) ≤ M/32 when ‖g‖ ≤ U', 'Forgetron family (001)'),
    CatalogEntry('FGT-L8', '001 Lemma 8, eqs. 38-40', 'D, S', "basic Forgetron, B ≥ 83: Σ Ψ_t ≤ 15M/32; σ_{r_t,t+1} ≤ 1/√(B+1); eq. 40's right side ≤ 15/32 for B ≥ 83", 'Forgetron family (001)'),
    CatalogEntry('FGT-T2', '001 Thm 2, Fig. 2', 'D', 'basic Forgetron, B ≥ 83, U = ¼√((B+1)/log(B+1)), ‖g‖ ≤ U: M ≤ 2‖g‖² + 4Σℓ*', 'Forgetron family (001)'),
    CatalogEntry('FGT-PHI', '001 eqs. 42-44', 'I', 'self-tuned φ_t of eq. 43 is the largest φ ∈ (0,1] satisfying eq. 42', 'Forgetron family (001)'),
    CatalogEntry('FGT-Q', '001 eq. 41, 45', 'I', 'self-tuned: Σ_{i∈J,i≤t} Ψ_i ≤ 15/32 M_t at every t', 'Forgetron family (001)'),
    CatalogEntry('FGT-L9', '001 Lemma 9', 'I', 'self-tuned, B ≥ 83: Φ_t < 1 ⇒ Φ_t σ_{r_t,t} ≥ 1/√(B+1)', 'Forgetron family (001)'),
    CatalogEntry('FGT-T3', '001 Thm 3, Fig. 3', 'D', 'self-tuned Forgetron: same bound as FGT-T2', 'Forgetron family (001)'),
    CatalogEntry('FGT-GR', '001 §7, eq. 52', 'D', 'greedy-removal Forgetron: same bound as FGT-T2', 'Forgetron family (001)'),
    CatalogEntry('FGT-TAB', '001 §8 Table 8.1, synthetic rows', 'C', 'Perceptron ≈ 9.56% / 18.16% online error on the 5% / 10% noise synthetic sets; self-tuned and greedy close to it at B = p/4, p/2, p', 'Forgetron family (001)'),
    CatalogEntry('RBP-E', '000 eq. 2 (Cesa-Bianchi & Gentile)', 'E', 'randomized budget Perceptron: E[M] ≤ γL + γUB + 0.5γU√B ln(0.5γB²) for U ≤ (γ−1)/(γ+1)·√B', 'Forgetron family (001)'),
    CatalogEntry('AVP-T3', '000 Thm 3', 'D', "λ_t < 2, λ_t/2 < ε_t < 1, f ∈ H_U: |M'_T| − L_T(f) ≤ Σ_{M'∪N} δ_t/(2λ_t) + Σ_{M'} λ_t/2 + Σ_N (λ_t/2 − ε_t), δ_t = ‖f_t−f‖² − ‖f_{t+1}−f‖²", 'AVP and Ahpatron (000)'),
    CatalogEntry('AVP-GAP', '000 eq. 13', 'I', "Σ_{M'∪N} ℓ(f_t) − |M'_T| ≥ Σ_N ε_t", 'AVP and Ahpatron (000)'),
    CatalogEntry('AVP-C1', '000 Cor. 1', 'D', 'U = ∞, λ = 1, ε ∈ (½,1): |M_T| ≤ 2L_T(f) + ‖f‖² + (1−2ε)|N_T|', 'AVP and Ahpatron (000)'),
    CatalogEntry('AVP-C2', '000 Cor. 2', 'D', 'U < ∞, λ_t = U/√(U² + Σ_{τ≤t} 1[y_τ f_τ(x_τ) ≤ 0]): |M_T| ≤ max{L+2U²+Δ_T,0} + 9U² + 3U√max{L+2U²+Δ_T,0}, Δ_T = Σ_N (λ_t/2 − ε_t)', 'AVP and Ahpatron (000)'),
    CatalogEntry('ACG-L2', '000 proof of Cor. 2 (Auer et al. Lemma 3.5)', 'S', 'Σ l_t/√(ξ + Σ_{τ≤t} l_τ) ≤ 2√(ξ + Σ l_t) − 2√ξ for l_t, ξ ≥ 0', 'AVP and Ahpatron (000)'),
    CatalogEntry('AHP-PROJ', '000 eqs. 6-9', 'I', 'θ* = (K₂+ηI)⁻¹K₂₁α solves eq. 6; ‖f̄_t‖ = c_t U after eq. 7', 'AVP and Ahpatron (000)'),
    CatalogEntry('AHP-L1', '000 Lemma 1', 'D', "number of halving steps J ≤ max{2(|M'_T|+|N_T|)/B − 1, 0}", 'AVP and Ahpatron (000)'),
    CatalogEntry('AHP-T4', '000 Thm 4', 'D', 'c_t = 0.6, λ = √2U/√B, B ≥ 50, U ≤ √B/4, 3U/√B < ε < 1: |M_T| ≤ L + max{12U/√B·L + Δ̄, 0.9U/√B·L + √B/(2U)‖f‖² + Δ̲}, Δ̄ = (3U/√B − ε)/(1 − 3U/√B)|N_T|, Δ̲ = (U/√(2B) − ε)/(1 − U/√(2B))|N_T|', 'AVP and Ahpatron (000)'),
    CatalogEntry('AHP-T4S', '000 proof of Thm 4', 'S', 'each constant step (≤ 3U/√B for B ≥ 50; 12, 0.9, 1/2 factors)', 'AVP and Ahpatron (000)'),
    CatalogEntry('AHP-E10', '000 eq. 10', 'D, S', 'U = √B/4: |M_T| ≤ max{4L + Δ̄, 1.3L + 2‖f‖² + Δ̲}', 'AVP and Ahpatron (000)'),
    CatalogEntry('AHP-T5', '000 Thm 5', 'D', 'κ(x,x) = 1, U ≥ 1: A_T ≥ min_{f∈H_U} L_T(f), A_T = Σκ(x_t,x_t) − (1/T) YᵀKY', 'AVP and Ahpatron (000)'),
    CatalogEntry('AHP-T6', '000 Thm 6', 'D', 'for ζ ∈ (0,2] with Σ_{t∈J}‖f_t − f̄_t‖ ≤ ζU|J| (eq. 11), c_t = ‖f_t‖/U, B ≥ 16, λ = U/(2√B), γ ∈ (0,1), U ≤ (1−γ)√B/(¼ + 9ζ/2), (¼+9ζ/2)U/√B < ε < 1: |M_T| ≤ L + (1/γ)(¼ + 9ζ/2)(U/√B)L + ((1−2ζ)/γ)‖f‖²√B/U + Δ_T(ζ)', 'AVP and Ahpatron (000)'),
    CatalogEntry('AHP-TAB3', '000 Table 3', 'C', '|N_T| ≫ 1 on real data', 'AVP and Ahpatron (000)'),
    CatalogEntry('OGD-T1', '002 Thm 1', 'D', 'Σℓ(y_t f_t(x_t)) ≤ (λT + η⁻¹)/2 ‖f‖² + Σℓ(y_t f(x_t)) + ηL²T', 'Kernel OGD, BOGD, BOGD++ (002)'),
    CatalogEntry('BOGD-UNB', '002 eqs. 5-9', 'I', 'the estimator f̂_t is unbiased (a_i p_i + b_i = α_i) and zeroes one coefficient (eq. 8)', 'Kernel OGD, BOGD, BOGD++ (002)'),
    CatalogEntry('BOGD-T2', '002 Thm 2', 'E', 'λη ≤ ½, f ∈ Ω(ηγ): expected loss bound with the sampling term', 'Kernel OGD, BOGD, BOGD++ (002)'),
    CatalogEntry('BOGD-T3', '002 Thm 3, eq. 13', 'E', 'uniform sampling bound (read the comparator term as Σℓ(y_t f(x_t)); the printed f_t is a typo to record)', 'Kernel OGD, BOGD, BOGD++ (002)'),
    CatalogEntry('BOGD-E14', '002 eq. 14', 'E', 'O(T‖f‖/√B) regret for any f ∈ H when γ ≥ L, λη ≥ 1/B', 'Kernel OGD, BOGD, BOGD++ (002)'),
    CatalogEntry('BOGD-H', '002 def. of H(f)', 'I', 'H(f) ≥ 0, = 0 iff equal coefficients', 'Kernel OGD, BOGD, BOGD++ (002)'),
    CatalogEntry('BOGD-T4', '002 Thm 4, eqs. 15-16', 'E', 'non-uniform (BOGD++) bound with the −H_t term; p from eq. 16', 'Kernel OGD, BOGD, BOGD++ (002)'),
    CatalogEntry('ALD-DET', '003 proof of Thm 1', 'I', 'α_t = det(K_{S∪{x_t}}) / det(K_S)', 'POMD / POMDR (003)'),
    CatalogEntry('INTERLACE', '003 Lemma 5 (Horn & Johnson 4.3.28)', 'I', 'eigenvalues of a principal submatrix interlace', 'POMD / POMDR (003)'),
    CatalogEntry('ALD-T1', '003 Thm 1', 'D', 'ALD budget size: O(ln(R₀/α)) under exponential eigen-decay, O((R₀/α)^{1/p}) under polynomial decay', 'POMD / POMDR (003)'),
    CatalogEntry('POM-L3', '003 Lemma 3', 'S', 'Σσ_t/√(ε + Σ_{τ<t}σ_τ) ≤ 2√2·√Σσ_t, ε = max σ_t', 'POMD / POMDR (003)'),
    CatalogEntry('POM-L4', '003 Lemma 4', 'D', 'Σ_t max{0, ‖∇_t − ∇̄_t‖² − ‖∇̄_t‖²} ≤ 4A_T + 7D for the window-M optimistic gradient', 'POMD / POMDR (003)'),
    CatalogEntry('POM-T2', '003 Thm 2', 'D', 'Reg(f) ≤ 3U√(Σδ_τ) + 9U (POMD only); + 3U√(2TΣδ_τ)/√B when OMDR runs', 'POMD / POMDR (003)'),
    CatalogEntry('POM-C1', '003 Cor. 1', 'D', 'Reg(f) ≤ 6U√A_T + 2D + 9U (+ 6U√(2T(A_T+2D))/√B)', 'POMD / POMDR (003)'),
    CatalogEntry('OMM-L31', '004 Lemma 3.1', 'I', 'γ(V₊,V₋) = τ(V₊,V₋)/2; w = ℓ(v₊−v₋), b = −½wᵀ(v₊+v₋) is optimal for eq. 2 (any norm meeting Assumption 1)', 'Online maximum margin (004)'),
    CatalogEntry('OMM-L41', '004 Lemma 4.1', 'I', 'γ_t ≥ γ* for t ≥ 3 (naive and efficient)', 'Online maximum margin (004)'),
    CatalogEntry('OMM-L42', '004 Lemma 4.2', 'I', 'margin ratio after adding a point ≤ κ∘(·,·) of the certificates', 'Online maximum margin (004)'),
    CatalogEntry('OMM-L43', '004 Lemma 4.3', 'I', 'κ∘ = −∞ if δ < η; < 1 if δ ≥ η > 0; = 1 if η ≤ 0', 'Online maximum margin (004)'),
    CatalogEntry('OMM-K2', '004 §5.1', 'S', 'l2 closed form of κ∘(δ,η) equals definition eq. 5', 'Online maximum margin (004)'),
    CatalogEntry('OMM-L44', '004 Lemma 4.4', 'I', 'a_t < φγ_t ≤ ργ_t ⇒ γ_{t+1}/γ_t ≤ κ∘(D/2γ_t, (γ_t − a_t)/2γ_t) ≤ κ(r,φ)', 'Online maximum margin (004)'),
    CatalogEntry('OMM-T41', '004 Thm 4.1', 'D', 'm(φ) ≤ 0 if φ < 1 − r, else log(γ₃/γ*)/(−log κ(r,φ)), for all φ ≤ ρ; m̄(φ) ≤ m(φ)', 'Online maximum margin (004)'),
    CatalogEntry('OMM-S51', '004 §5.1 display', 'D, S', 'explicit l2 bound on m(φ) in three regimes', 'Online maximum margin (004)'),
    CatalogEntry('OMM-TAB1', '004 Table 1', 'D, S', 'the OMM row (mistakes and iterations to reach φγ*)', 'Online maximum margin (004)'),
    CatalogEntry('OMM-TI', '004 Remark 3.4, App. B.5', 'I', 'translation invariance: x ↦ x+u gives (w_t, b_t − w_tᵀu); PUMMA likewise', 'Online maximum margin (004)'),
    CatalogEntry('OMM-EX51', '004 Example 5.1', 'C', 'c > 2, r = 2/c: OMM (any ρ) ≤ 2 mistakes on any sequence over {z¹,z²,z³}, ≤ 3 for any c, r > 0; Perceptron errs at every t ≤ m = ⌊(c² + 4/c² + 5)/(2(1 + 1/c²))⌋', 'Online maximum margin (004)'),
    CatalogEntry('OMM-APPA', '004 App. A', 'D, S', 'γ₃ ≤ 2(D + γ*); ≤ 7 mistakes when 1 ≤ r < √2', 'Online maximum margin (004)'),
    CatalogEntry('OMM-NUM', '004 §6, Tables 2-4', 'C', 'translation-invariant algorithms keep their metrics under the θ and b* transformations; the others degrade', 'Online maximum margin (004)'),
)

BY_ID: dict[str, CatalogEntry] = {e.id: e for e in CATALOG}

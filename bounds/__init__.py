"""Closed-form calculators for the claims of THEOREMS.md, the comparator oracles, and the errata registry.

>>> import bounds
>>> r = bounds.check("PER-T1", X, y, kernel="gaussian:sigma=1")     # doctest: +SKIP
>>> r.holds, r.lhs, r.rhs                                            # doctest: +SKIP
"""
from .base import Claim, ClaimResult, Context, PreconditionError, decide, tolerance
from .catalog import BY_ID, CATALOG
from .learner_check import check_learner
from .registry import check, claim, get, implemented, register, user_claim_ids
from .user_claims import declare

__all__ = ["BY_ID", "CATALOG", "Claim", "ClaimResult", "Context", "PreconditionError", "check", "check_learner",
           "claim", "declare", "decide", "get", "implemented", "register", "tolerance", "user_claim_ids"]

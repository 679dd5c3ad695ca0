"""boundlab's certificate checker: a small program, written from the statements, that decides whether a
certificate proves its verdict.

It imports nothing from boundlab's learners, calculators, oracles or search (tests/test_checker_independence.py
checks the imports): only the standard library and python-flint (exact rationals ``fmpq`` and ``arb`` balls).
What it trusts: python-flint's arithmetic, and the exact data written in the certificate. What it does not trust:
the calculator that proposed the verdict, the float64 learner that produced the run, and the solvers that found
the comparator and the dual multipliers; each of those enters only as data that the checker verifies.

>>> from checker import verify
>>> verify(json.load(open("cert.json"))).line()      # doctest: +SKIP
'PER-T1: accepted: VIOLATED (...)'
"""
from .certificate import FORMAT, Certificate
from .claims import known
from .numbers import Rejected
from .verify import Outcome, verify, verify_file

__all__ = ["FORMAT", "Certificate", "Outcome", "Rejected", "known", "verify", "verify_file"]

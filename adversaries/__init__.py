"""Sequences to test the learners on: hypothesis strategies, named constructions, adaptive adversaries, and the
counterexample search.

>>> import adversaries
>>> X, y = adversaries.make_sequence("synthetic-noise:noise=0.1,T=500")     # doctest: +SKIP
"""
from .sequences import SEQUENCES, Sequence, available, make_sequence, sequence

__all__ = ["SEQUENCES", "Sequence", "available", "make_sequence", "sequence"]

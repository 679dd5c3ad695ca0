"""Reference learners for online kernel classification, the kernels, the kernel expansion and the Trace.

>>> import learners
>>> p = learners.make("perceptron", kernel="gaussian:sigma=1")
>>> trace = p.run(X, y)          # doctest: +SKIP
"""
from .base import KernelLearner, OnlineLearner, SequenceError, validate_sequence
from .expansion import KernelExpansion
from .kernels import Gaussian, Kernel, Linear, Polynomial, parse_kernel
from .params import Param, ParamError
from .registry import LEARNER_NAMES, accepted_params, available, learner_class, make, params_of, register
from .trace import Trace

__all__ = [
    "Gaussian", "Kernel", "KernelExpansion", "KernelLearner", "LEARNER_NAMES", "Linear", "OnlineLearner", "Param",
    "ParamError", "Polynomial", "SequenceError", "Trace", "accepted_params", "available", "learner_class", "make",
    "params_of", "parse_kernel", "register", "validate_sequence",
]

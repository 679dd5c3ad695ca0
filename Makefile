# The two entry points of the README. Both create .venv and install boundlab into it when needed.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: report test test-thorough bench fuzz venv clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

report: $(STAMP)   ## the main job: the tightness report over the built-in sequences, in report/
	$(BIN)/boundlab report --out report

# Two pytest workers on two cores: one BLAS thread each, or OpenBLAS's spinning threads oversubscribe the cores
# (a 200x200 Cholesky measured 0.09 ms on an idle machine and 192 ms with the default threads on a loaded one).
BLAS1 := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

test: $(STAMP)     ## the test suite (hypothesis profile ci), as CI runs it
	$(BLAS1) $(BIN)/python -m pytest -n 2 -q

test-thorough: $(STAMP)   ## long counterexample hunts (opt-in)
	$(BLAS1) HYPOTHESIS_PROFILE=thorough $(BIN)/python -m pytest -n 2 -q

fuzz: $(STAMP)     ## the opt-in fuzz campaign of malformed inputs (10,000 cases; summary in fuzz-report.json)
	$(BLAS1) $(BIN)/python tests/fuzz_campaign.py --cases 10000 --seed 0 --out fuzz-report.json

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_learners.py

clean:
	rm -rf $(VENV) report .hypothesis .pytest_cache

# The two entry points of the README. Both create .venv and install boundlab into it when needed.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: report test test-thorough bench venv clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

report: $(STAMP)   ## the main job: the tightness report over the built-in sequences, in report/
	$(BIN)/boundlab report --out report

test: $(STAMP)     ## the test suite (hypothesis profile ci), as CI runs it
	$(BIN)/python -m pytest -n 2 -q

test-thorough: $(STAMP)   ## long counterexample hunts (opt-in)
	HYPOTHESIS_PROFILE=thorough $(BIN)/python -m pytest -n 2 -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_learners.py

clean:
	rm -rf $(VENV) report .hypothesis .pytest_cache

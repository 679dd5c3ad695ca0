# The two entry points of the README. Both create .venv and install boundlab into it when needed.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: report test test-thorough bench bench-scale campaign fuzz mutate venv clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m learners.compiled  # compile the numba fast path once (every later process loads it)
	touch $(STAMP)

venv: $(STAMP)

# The main job. Notebooks run at once, their sweep points and the witness replays on --jobs processes (default: every
# core); results are cached by content in report/.cache (a second run with nothing changed takes seconds).
REPORT_ARGS ?=
report: $(STAMP)   ## the main job: the tightness report over the built-in sequences, in report/
	$(BIN)/boundlab report --out report $(REPORT_ARGS)

# Two pytest workers on two cores: one BLAS thread each, or OpenBLAS's spinning threads oversubscribe the cores
# (a 200x200 Cholesky measured 0.09 ms on an idle machine and 192 ms with the default threads on a loaded one).
BLAS1 := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1

test: $(STAMP)     ## the test suite (hypothesis profile ci), as CI runs it
	$(BLAS1) $(BIN)/python -m pytest -n 2 -q

test-thorough: $(STAMP)   ## long counterexample hunts (opt-in)
	$(BLAS1) HYPOTHESIS_PROFILE=thorough $(BIN)/python -m pytest -n 2 -q

fuzz: $(STAMP)     ## the opt-in fuzz campaign of malformed inputs (10,000 cases; summary in fuzz-report.json)
	$(BLAS1) $(BIN)/python tests/fuzz_campaign.py --cases 10000 --seed 0 --out fuzz-report.json

# Mutation testing (opt-in, not in CI): ../shared/tools/mutate.py samples MUT_N mutants of learners/ and bounds/ and
# runs the tests that import each mutated module, in two passes: first under the derandomized 10-example hypothesis
# profile `mutate` (MUT_OUT.pass1), then every survivor again under `ci`, the profile CI runs (MUT_OUT); a mutant
# counts as surviving only when the second pass lets it pass too. It prints the kill rate per file and every
# survivor. Narrow it with MUT_TARGETS='bounds/forgetron.py' MUT_N=40; MUT_ARGS=--resume continues an interrupted
# first pass. Needs ../shared beside the checkout.
MUTATE := ../shared/tools/mutate.py
MUT_N ?= 400
MUT_SEED ?= 1
MUT_WORKERS ?= 2
MUT_TARGETS ?= 'learners/*.py' 'bounds/*.py'
MUT_WORKDIR ?= /tmp/mut-$(notdir $(CURDIR))
MUT_OUT ?= mutate-results.jsonl
MUT_ARGS ?=
MUT_RUN = python3 $(MUTATE) --tree $(CURDIR) --targets $(MUT_TARGETS) --n $(MUT_N) --seed $(MUT_SEED) \
	--workers $(MUT_WORKERS) --tests targeted --no-confirm --timeout 900 --python $(abspath $(BIN)/python) \
	--workdir $(MUT_WORKDIR)

mutate: $(STAMP)   ## mutation kill rate of the test suite (opt-in; long: about 30 s per mutant and worker, 400 mutants ≈ 2 h on 2 cores)
	@test -f $(MUTATE) || { echo "make mutate: $(MUTATE) not found (it needs ../shared beside the checkout)"; exit 2; }
	HYPOTHESIS_PROFILE=mutate $(MUT_RUN) --out $(MUT_OUT).pass1 $(MUT_ARGS)
	grep -v '"outcome": "survived"' $(MUT_OUT).pass1 > $(MUT_OUT)
	HYPOTHESIS_PROFILE=ci $(MUT_RUN) --out $(MUT_OUT) --resume

bench-scale: $(STAMP)   ## certified PER-T1 / AHP-T4 at T up to 10^4 (issue 14; --T 100000 for the full target)
	$(BLAS1) $(BIN)/python benchmarks/bench_scale.py

OLD ?= /tmp/bl_issue
bench-hunt: $(STAMP)   ## hunt throughput against OLD, the tree issue 11 was filed on: git worktree add $(OLD) 8f5352d
	$(BIN)/python benchmarks/bench_hunt_throughput.py --old $(OLD)
	$(BIN)/python benchmarks/bench_hunt_workload.py --old $(OLD)

bench: $(STAMP)   ## the report's time (first, second run), compiled vs generic learner.run (issue 11), older benches
	$(BIN)/python benchmarks/bench_report.py
	$(BLAS1) $(BIN)/python benchmarks/bench_compiled.py
	$(BLAS1) $(BIN)/python benchmarks/bench_hunt.py
	$(BIN)/python benchmarks/bench_learners.py
	$(BLAS1) $(BIN)/python benchmarks/bench_checker.py   ## issue 24: the certificate checker at T = 500, 1000, 2000

# A blind campaign: every claim id hunted 14 s on each of 2 cores (about 10 minutes), table in campaign/campaign.md.
# Opt-in; `make test` runs a short one (tests/test_campaign.py). CAMPAIGN_ARGS adds options, e.g. --scheduler ADDR.
campaign: $(STAMP)
	$(BLAS1) $(BIN)/boundlab campaign --seconds 14 --workers 2 --out campaign $(CAMPAIGN_ARGS)

clean:
	rm -rf $(VENV) report campaign .hypothesis .pytest_cache

# Dice Companion: every target creates .venv on first use and installs what it needs.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench fuzz clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import venv' 2>/dev/null || { echo "python3-venv is missing: sudo apt-get install python3-venv"; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/dice-companion run

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest

# Many more hostile inputs than `make test` tries, new ones each run; prints the cases per surface.
fuzz: $(STAMP)
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-4000} $(PY) -m pytest tests/test_fuzz.py -q

bench: $(STAMP)
	@for b in bench/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache

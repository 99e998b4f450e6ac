# Dice Companion: every target creates .venv on first use and installs what it needs.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench fuzz clean screenshots render-env

# The runtime dependencies at the versions of constraints.txt (the ones the Pi installs), so the
# suite and the benches run on what ships and the figures of docs/ can be measured again.
$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import venv' 2>/dev/null || { echo "python3-venv is missing: sudo apt-get install python3-venv"; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --constraint constraints.txt -e '.[dev]'
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

# Every screen and state of every game at 800x480 and 720x1280, in a real window under Xvfb (installed
# with apt-get when missing); SDL's dummy driver draws them when Xvfb cannot be had. Not committed.
SHOTS ?= screenshots
screenshots: $(STAMP)
	@if [ -n "$$DISPLAY" ]; then $(PY) tools/screenshots.py --out $(SHOTS); exit $$?; fi; \
	if ! command -v xvfb-run >/dev/null 2>&1; then \
		echo "installing xvfb (apt-get) for a real window off-screen"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo "sudo -n" ); \
		{ $$SUDO apt-get install -y -q xvfb >/dev/null 2>&1 || { $$SUDO apt-get update -q >/dev/null 2>&1 && $$SUDO apt-get install -y -q xvfb >/dev/null 2>&1; }; } || true; \
	fi; \
	if command -v xvfb-run >/dev/null 2>&1; then \
		xvfb-run -a -s "-screen 0 1280x1280x24" $(PY) tools/screenshots.py --out $(SHOTS); \
	else \
		echo "Xvfb cannot be had (apt-get failed): drawing with SDL's dummy driver instead of a window"; \
		SDL_VIDEODRIVER=dummy $(PY) tools/screenshots.py --out $(SHOTS); \
	fi

# The path-traced renderer's own environment (docs/rendering.md): Blender as a Python module, with the
# numpy it is built against; a development extra, never on the Pi.
RENDER_VENV := .venv-render
render-env: $(RENDER_VENV)/.installed
$(RENDER_VENV)/.installed:
	@test -x $(RENDER_VENV)/bin/python || $(PYTHON) -m venv $(RENDER_VENV)
	$(RENDER_VENV)/bin/pip install --quiet bpy==5.0.1 opencv-python-headless pygame-ce pytest
	@touch $@

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache

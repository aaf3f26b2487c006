# Two commands on a fresh machine with Python 3.11 and make: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed
export OMP_WAIT_POLICY := passive
export HF_HUB_OFFLINE := 1

.PHONY: demo test install lint typecheck bench clean browser

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# torch==2.13.0 (a local CPU wheel) goes in before sentence-transformers, which would otherwise
# pull a CUDA build of several GB. The stamp is rebuilt whenever the requirements change.
$(STAMP): $(PY) pyproject.toml
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/ragdx demo --out demo-out

# The report test renders demo-out's report in headless Chromium (Debian package 'chromium').
# `make test` tries to install it; where it cannot (no apt-get, no root), that one test skips
# and says why.
# The suite runs on up to 4 pytest-xdist workers (one per core), whole test files per worker so
# that module fixtures such as a built demo are made once. `make test XDIST=` runs it serially;
# `pytest -m "not slow"` is the fast lane.
XDIST ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 4 ] && n=4; [ $$n -gt 1 ] && echo "-n $$n --dist loadfile")

test: $(STAMP)
	@$(MAKE) --no-print-directory browser || echo "warning: chromium could not be installed; the browser test will be skipped"
	$(PY) -m pytest -q $(XDIST)

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@command -v chromium >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }
	@command -v chromium >/dev/null 2>&1 && chromium --version 2>/dev/null

lint: $(STAMP)
	$(PIP) install --quiet ruff
	$(VENV)/bin/ruff check src tests benchmarks

# ragdx's own types (pyproject.toml's [tool.mypy]); tests/test_public_api_types.py checks the public
# API with --strict on a script that uses every public name
typecheck: $(STAMP)
	$(VENV)/bin/mypy src/ragdx

bench: $(STAMP)
	$(PY) benchmarks/gen_throughput.py

clean:
	rm -rf $(VENV) demo-out .pytest_cache test-artifacts

# The two commands the README leads with, each doing its own set-up on a fresh machine.
#   make demo   a simulated table in your browser
#   make test   the whole test suite
PYTHON ?= python3
VENV ?= .venv
# On a Pi: make VENV_FLAGS=--system-site-packages PIP_FLAGS="-c systemd/pi-constraints.txt"
VENV_FLAGS ?=
PIP_FLAGS ?=
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check $(PIP_FLAGS) -e '.[dev]'
	@touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/companion demo

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	@for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

lint: $(STAMP)
	$(VENV)/bin/ruff check companion vision hardware web tests bench
	$(VENV)/bin/mypy companion vision hardware web

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis

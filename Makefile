# The two commands the README leads with, each doing its own set-up on a fresh machine.
#   make demo   a simulated table in your browser (HOST=0.0.0.0: phones on the network too)
#   make test   the whole test suite
PYTHON ?= python3
VENV ?= .venv
# On a Pi: make VENV_FLAGS=--system-site-packages PIP_FLAGS="-c systemd/pi-constraints.txt"
VENV_FLAGS ?=
PIP_FLAGS ?=
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The program alone (what make demo needs); STAMP adds the test, lint and browser tools.
RUNTIME_STAMP := $(VENV)/.runtime
# make demo HOST=0.0.0.0 serves the local network, so phones can join by the QR code.
HOST ?= 127.0.0.1
PORT ?= 8000

# The oldest numpy and OpenCV the code supports (a Raspberry Pi with Bookworm: apt's
# numpy 1.24 next to picamera2; OpenCV 4.8's aruco API), in a venv of their own.
OLDEST := numpy==1.24.4 opencv-python-headless==4.8.1.78
OLD_VENV ?= .venv-oldest

.PHONY: demo test test-oldest bench lint clean train-namer

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check $(PIP_FLAGS) -e '.[dev]'
	@touch $(STAMP) $(RUNTIME_STAMP)

# pip's own progress shows: the first run downloads OpenCV and numpy.
$(RUNTIME_STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	@echo "Installing Table Companion into $(VENV) (the program only; make test adds the test tools)"
	$(PY) -m pip install --disable-pip-version-check --progress-bar on $(PIP_FLAGS) -e .
	@touch $(RUNTIME_STAMP)

demo: $(RUNTIME_STAMP)
	$(VENV)/bin/companion demo --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(PY) -m pytest

$(OLD_VENV)/.installed: pyproject.toml
	@test -x $(OLD_VENV)/bin/python || $(PYTHON) -m venv $(OLD_VENV)
	$(OLD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check $(OLDEST) -e '.[dev]'
	@touch $@

# Everything but the browser tests, on the oldest supported numpy and OpenCV.
test-oldest: $(OLD_VENV)/.installed
	$(OLD_VENV)/bin/python -m pytest --ignore=tests/browser

# Builds vision/cards/weights/index_namer.onnx (seeded; about an hour on 2 cores). Needs the
# training extra and Debian's deck designs (vision/train/decks.py says which packages).
train-namer: $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check $(PIP_FLAGS) -e '.[dev,train]'
	nice -n 10 $(PY) -m vision.train.train_namer --seed 1 --workers 2 --threads 2

bench: $(STAMP)
	@for script in bench/[!_]*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

lint: $(STAMP)
	$(VENV)/bin/ruff check companion vision hardware web tests bench
	$(VENV)/bin/mypy companion vision hardware web bench
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) $(OLD_VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis

# Two commands do all the set-up: `make run` (install + serve) and `make test` (install + test).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
# Every install takes its versions from constraints.txt (`make lock` rewrites it), so two installs a month apart
# are the same.
PIP    := $(BIN)/pip install --quiet --constraint constraints.txt
LOCK_VENV := /tmp/voicechat-lock
APT_TEST_PACKAGES := chromium chromium-driver espeak-ng sox docker-compose g++ asterisk-core-sounds-en-wav asterisk-core-sounds-en asterisk-core-sounds-es-wav asterisk-core-sounds-es asterisk-core-sounds-fr-wav asterisk-core-sounds-fr

.PHONY: run test install install-dev lock system-test-deps strip-cuda-torchaudio prepare bench-quick

run: install
	$(BIN)/voicechat serve

# The kernels and the engine's choices once more as a CPU without AVX-512 or AMX takes them (app/__init__.py).
AVX2_CLASS_TESTS := tests/test_kernels_linear.py tests/test_kernels_quantized.py tests/test_engine_quantized.py tests/test_engine_dtype.py

test: install-dev system-test-deps
	$(BIN)/ruff check app tests
	$(BIN)/pytest
	VOICECHAT_CPU_ISA=avx2 $(BIN)/pytest -q $(AVX2_CLASS_TESTS)

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

$(VENV)/.installed: pyproject.toml constraints.txt no-deps.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e .
	$(PIP) --no-deps -r no-deps.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(PIP) -e '.[dev,coqui]'
	$(MAKE) --no-print-directory strip-cuda-torchaudio
	touch $@

# constraints.txt: every package of a dev install (pip, torch and the Coqui extra included) at the versions
# resolved now, in a throwaway venv; commit the result.
lock:
	rm -rf $(LOCK_VENV) && $(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/pip install --quiet --upgrade pip
	$(LOCK_VENV)/bin/pip install --quiet -e '.[dev,coqui]'
	$(LOCK_VENV)/bin/pip install --quiet --no-deps -r no-deps.txt
	{ echo "# Written by \`make lock\`: the versions every \`make\` install uses (pip install --constraint)."; \
	  $(LOCK_VENV)/bin/pip freeze --all --exclude voicechat | sed 's/+cpu$$//'; } > constraints.txt
	rm -rf $(LOCK_VENV)

# PyPI's torchaudio is a CUDA build whose compiled libraries cannot load beside CPU torch; without
# them torchaudio imports its pure-Python parts, which is all Coqui's VITS needs.
strip-cuda-torchaudio:
	$(BIN)/python -c "import sys, torch; sys.exit(0 if torch.version.cuda else 1)" \
	  || rm -f $(VENV)/lib/python3.*/site-packages/torchaudio/lib/*.so

# Chromium (browser tests), espeak-ng and sox (test speech), docker-compose (validates the compose file),
# g++ (the CPU kernels, app/kernels/, which the tests check against torch).
system-test-deps:
	@missing=""; for p in $(APT_TEST_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else echo "please install:$$missing (apt-get, as root)"; exit 1; fi; \
	fi

prepare: install
	$(BIN)/voicechat prepare

bench-quick: install-dev
	$(BIN)/voicechat bench engine --quick --json artifacts/bench-engine.json

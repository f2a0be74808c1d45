# meadhall: `make run` plays, `make test` checks everything, `make bench` measures.
#
# Every install is pinned by constraints.txt: a fresh machine gets the releases that were
# tested. `make lock` regenerates it (newest releases that meet pyproject.toml, every
# extra), e.g. after adding or raising a dependency; commit the result.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
CLUSTER_STAMP := $(VENV)/.installed-cluster
BENCH_STAMP := $(VENV)/.installed-bench
CONSTRAINTS := constraints.txt
PIP_INSTALL = python -m pip install --quiet --constraint $(CONSTRAINTS)
JOBS ?= 2

# The plain-install check: `pip install .` (no extras, not editable) in a venv of its own.
PLAIN := .venv-plain
PLAIN_STAMP := $(PLAIN)/.installed
PACKAGE_FILES := $(shell find src -type f -not -path '*/__pycache__/*' -not -path '*.egg-info/*' -not -name '*.so')

CHROMIUM ?= /usr/bin/chromium
FIREFOX ?= /usr/bin/firefox-esr

.PHONY: run test lint types unit bench clean browser plain-install lock axe screenshots haproxy cluster

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml setup.py $(CONSTRAINTS) src/meadhall/core/rng.h src/meadhall/core/search_ext.h src/meadhall/games/voluspa/_search.c src/meadhall/games/valda/_search.c
	@echo "installing meadhall and its pinned dependencies into $(VENV) (the first time takes a few minutes)"
	$(BIN)/$(PIP_INSTALL) -e .
	@touch $@

# The test venv also holds the toy game, a game in a package of its own (tests/plugins/meadhall-toy):
# meadhall finds it through its entry point, as it would any game installed beside it. Only here:
# the plain-install check's venv never sees it.
TOY := tests/plugins/meadhall-toy

$(TEST_STAMP): $(STAMP) pyproject.toml $(CONSTRAINTS) $(TOY)/pyproject.toml
	$(BIN)/$(PIP_INSTALL) -e '.[test]'
	$(BIN)/$(PIP_INSTALL) --no-deps -e $(TOY)
	@touch $@

$(BENCH_STAMP): $(STAMP) pyproject.toml $(CONSTRAINTS)
	$(BIN)/$(PIP_INSTALL) -e '.[bench]'
	@touch $@

## run: set up .venv and start the main job: the web server (open the address it prints)
run: $(STAMP)
	@$(BIN)/meadhall serve

## browser: Debian's Chromium and Firefox for the end-to-end tests (installed when run as root with apt)
browser:
	@for pair in "$(CHROMIUM):chromium" "$(FIREFOX):firefox-esr"; do \
	  path=$${pair%%:*}; package=$${pair##*:}; \
	  if [ ! -x "$$path" ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	      echo "installing Debian's $$package for the browser tests"; \
	      DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$package >/dev/null 2>&1 || \
	      { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$package >/dev/null 2>&1; } || \
	      echo "could not install $$package: its browser tests will skip"; \
	    else \
	      echo "no $$package at $$path (apt-get install $$package): its browser tests will skip"; \
	    fi; \
	  fi; \
	done

## haproxy: Debian's HAProxy for the front door (make cluster, tests/server/test_front_door.py; installed when run as root with apt)
haproxy:
	@if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's haproxy for the front door"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy >/dev/null 2>&1; } || \
	    echo "could not install haproxy: the front door's test will skip"; \
	  else \
	    echo "no haproxy (apt-get install haproxy): the front door's test will skip"; \
	  fi; \
	fi

$(CLUSTER_STAMP): $(STAMP) pyproject.toml $(CONSTRAINTS)
	$(BIN)/$(PIP_INSTALL) -e '.[postgres,redis]'
	@touch $@

## cluster: this machine's PostgreSQL and Redis, `meadhall serve --workers $(CLUSTER_WORKERS)` on :8001, HAProxy on :8000, `meadhall bot-pool --workers $(CLUSTER_BOT_POOL)` (docs/deploy.md, "A front door")
CLUSTER_WORKERS ?= 2
CLUSTER_BOT_POOL ?= 1
cluster: $(CLUSTER_STAMP) haproxy
	@BIN=$(BIN) CLUSTER_WORKERS=$(CLUSTER_WORKERS) CLUSTER_BOT_POOL=$(CLUSTER_BOT_POOL) sh deploy/cluster.sh

## axe: axe-core for the accessibility checks (tests/e2e/axe, pinned by its lockfile), when npm is installed
AXE_DIR := tests/e2e/axe
axe:
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix $(AXE_DIR) --no-audit --no-fund --loglevel=error; \
	else \
	  echo "no npm (apt-get install npm): the axe-core accessibility checks will skip"; \
	fi

## test: install test tools, then lint, types, the plain install's commands and the whole suite
test: $(TEST_STAMP) browser haproxy axe plain-install
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	MEADHALL_REQUIRE_SEARCH=1 MEADHALL_CHROMIUM=$(CHROMIUM) MEADHALL_FIREFOX=$(FIREFOX) $(BIN)/python -m pytest -n $(JOBS) --dist worksteal --durations=30 -q

## plain-install: `pip install .` without extras into .venv-plain and run the everyday commands there
# The venv is made anew when pyproject.toml, setup.py or the pins change (so nothing an
# earlier install left behind can hide a missing dependency) and meadhall reinstalled
# when its files change; a fresh clone always builds and checks it.
$(PLAIN_STAMP): pyproject.toml setup.py $(CONSTRAINTS) $(PACKAGE_FILES)
	@if [ ! -x $(PLAIN)/bin/python ] || [ ! -e $(PLAIN)/.deps ] || \
	  [ -n "$$(find pyproject.toml setup.py $(CONSTRAINTS) -newer $(PLAIN)/.deps)" ]; then \
	  echo "making $(PLAIN): pip install . without extras"; \
	  rm -rf $(PLAIN) && $(PYTHON) -m venv $(PLAIN) && touch $(PLAIN)/.deps; \
	fi
	$(PLAIN)/bin/$(PIP_INSTALL) .
	@touch $@

plain-install: $(PLAIN_STAMP)
	$(PLAIN)/bin/python tests/plain_install.py $(PLAIN)/bin/meadhall

## lock: regenerate constraints.txt from a fresh resolve of pyproject.toml (all extras)
lock:
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet --upgrade pip
	.venv-lock/bin/python -m pip install --quiet ".[$$($(PYTHON) -c 'import tomllib; print(",".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]))')]"
	{ echo "# Pins for every pip install of the Makefile (make run, make test, the plain-install check)."; \
	  echo "# Generated by make lock from pyproject.toml and all its extras: regenerate, do not edit."; \
	  .venv-lock/bin/python -m pip freeze --exclude meadhall; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)
	rm -rf .venv-lock

## screenshots: the phone, tablet and desktop pictures of every page the README shows, and the terminal's (docs/screenshots/)
screenshots: $(TEST_STAMP) browser axe
	MEADHALL_SCREENSHOTS=docs/screenshots MEADHALL_CHROMIUM=$(CHROMIUM) MEADHALL_FIREFOX=$(FIREFOX) \
	  $(BIN)/python -m pytest -n 0 -q -p no:randomly tests/e2e/test_phone_and_a11y.py -k "fits or tap or (violation and desktop)"
	MEADHALL_SCREENSHOTS=docs/screenshots MEADHALL_CHROMIUM=$(CHROMIUM) \
	  $(BIN)/python -m pytest -n 0 -q -p no:randomly tests/e2e/test_guide_browser.py -k "to_its_end"
	MEADHALL_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -n 0 -q -p no:randomly tests/test_tui.py tests/test_tui_guide.py -k screenshot

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests

types: $(TEST_STAMP)
	$(BIN)/mypy

unit: $(TEST_STAMP)
	MEADHALL_REQUIRE_SEARCH=1 $(BIN)/python -m pytest -n $(JOBS) --dist worksteal --durations=30 -q

## bench: engine benchmarks and judged moves (Game.judge, explain --batch) on one core, vector environments (steps/s), then the crash drill's recovery time; figures go to docs/performance.md
bench: $(BENCH_STAMP)
	$(BIN)/meadhall bench
	$(BIN)/meadhall bench --vector
	$(BIN)/meadhall bench-server --game voluspa --tables 6 --seconds 3 --preset saga --restart

clean:
	rm -rf $(VENV) $(PLAIN) .venv-lock .mypy_cache .pytest_cache .ruff_cache .hypothesis build src/*.egg-info

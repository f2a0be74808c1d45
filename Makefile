# meadhall: `make run` plays, `make test` checks everything, `make bench` measures.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
JOBS ?= 2

CHROMIUM ?= /usr/bin/chromium
FIREFOX ?= /usr/bin/firefox-esr

.PHONY: run test lint types unit bench clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml setup.py src/meadhall/games/voluspa/_search.c src/meadhall/games/valda/_search.c
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

## run: set up .venv and start the main job: the web server (open the address it prints)
run: $(STAMP)
	$(BIN)/meadhall serve

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

## test: install test tools, then lint, types and the whole suite
test: $(TEST_STAMP) browser
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	MEADHALL_REQUIRE_SEARCH=1 MEADHALL_CHROMIUM=$(CHROMIUM) MEADHALL_FIREFOX=$(FIREFOX) $(BIN)/python -m pytest -n $(JOBS) -q

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests

types: $(TEST_STAMP)
	$(BIN)/mypy

unit: $(TEST_STAMP)
	MEADHALL_REQUIRE_SEARCH=1 $(BIN)/python -m pytest -n $(JOBS) -q

## bench: engine benchmarks on one core; figures go to docs/performance.md
bench: $(STAMP)
	$(BIN)/meadhall bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis build src/*.egg-info

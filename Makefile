# The two set-up commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# pip installs without byte-compiling every module it unpacks (half of an install's time); the
# commands below write the bytecode of the modules they import as they first import them.
export PYTHONDONTWRITEBYTECODE :=
DEMO_GAMES ?= 3000

.PHONY: demo test venv lint clean bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall whenever pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e ".[test]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

venv: $(STAMP)

demo: venv
	$(BIN)/balance demo --games $(DEMO_GAMES) --out out

test: venv
	$(BIN)/python -m pytest -q

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Start-up first: `balance --help` and a 10-game run of a game file, each in fresh processes
# (benchmarks/startup.py). Then games per second of every game (compiled and interpreted, 1 job
# and all cores), compile time; then the search player's decisions and simulations per second
# and its overhead, and how often two searches from one position agree; then the example game files against a bare loop, and
# their search's simulations per second; last, the first run on an empty cache (default seats,
# then a search seat), games per second, where a game's time goes (engine or policies) and the
# 2-player ladder, before and after the first-answer work (benchmarks/before_after.py, an hour
# or more).
bench: venv
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/throughput.py
	$(BIN)/python benchmarks/search.py
	$(BIN)/python benchmarks/search.py --agreement
	$(BIN)/python benchmarks/own_game.py
	$(BIN)/python benchmarks/own_game_search.py
	$(BIN)/python benchmarks/before_after.py

clean:
	rm -rf out .pytest_cache

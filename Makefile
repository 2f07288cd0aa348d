# tablelog: `make run` serves the sample games, `make test` runs every check (the tests,
# ruff, mypy, and the import contracts of pyproject.toml's [tool.importlinter]).
# Both create the local virtualenv (.venv) and install the project into it first.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]' --config-settings editable_mode=compat
	$(BIN)/python -m compileall -q engine recorder web cli gameindex
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tablelog serve

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python bench/report.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache

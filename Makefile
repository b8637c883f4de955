# Two commands on a fresh clone: `make demo` and `make test` (both create .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m fuzz.demo

typecheck: $(STAMP)
	$(BIN)/mypy reference fuzz

lint: $(STAMP)
	$(BIN)/ruff check reference fuzz tests examples

test: $(STAMP) typecheck lint
	rm -f .coverage .coverage.*
	$(BIN)/coverage run -m pytest
	$(BIN)/coverage combine --quiet
	$(BIN)/coverage report --include='reference/*' --fail-under=100
	$(BIN)/coverage report --include='fuzz/*'

# Two commands on a fresh clone: `make demo` and `make test` (both create .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck fuzz-self

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The main job on the bundled defaults: a campaign against the reference server (nothing to
# find), then one against a bundled buggy server (a finding, its reproducer, a shell line).
demo: $(STAMP)
	$(BIN)/mcpref fuzz --budget 15 --seed 1 --progress --campaign-dir campaigns/demo-reference
	$(BIN)/mcpref fuzz --budget 30 --seed 1 --progress --campaign-dir campaigns/demo-silent \
		-- $(BIN)/python examples/buggy/silent_on_parse_error.py || test $$? -eq 1

typecheck: $(STAMP)
	$(BIN)/mypy reference fuzz

lint: $(STAMP)
	$(BIN)/ruff check reference fuzz tests examples

test: $(STAMP) typecheck lint
	rm -f .coverage .coverage.*
	$(BIN)/coverage run -m pytest
	$(BIN)/coverage combine --quiet
	# The reference, oracle included, is held at 100% branch coverage; the fuzzer is reported.
	$(BIN)/coverage report --include='reference/*' --fail-under=100
	$(BIN)/coverage report --include='fuzz/*'

# A long coverage-guided campaign over the reference's own framer and dispatcher (Atheris
# steering Hypothesis' byte-level input); new inputs land in fuzz-corpus/self, which the
# test suite replays. FUZZ_SECONDS sets the length.
FUZZ_SECONDS ?= 600
fuzz-self: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check atheris==3.0.0
	$(BIN)/python -m fuzz.selffuzz --seconds $(FUZZ_SECONDS) fuzz-corpus/self

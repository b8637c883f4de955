# Two commands on a fresh clone: `make demo` and `make test` (both create .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
WORKERS ?= $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 2)')
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck notes fuzz-self peers bench bench-targets soak field lawful client-campaigns buggy-campaigns field-clients slow-tests

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The official TypeScript SDK peers, pinned in tests/peers/package-lock.json, installed into
# tests/peers/node_modules (git-ignored) once; without node or npm the tests that need them skip.
PEERS := tests/peers
NODE_STAMP := $(PEERS)/node_modules/.installed
$(NODE_STAMP): $(PEERS)/package.json $(PEERS)/package-lock.json
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		(cd $(PEERS) && npm ci --no-audit --no-fund --loglevel=error) && touch $(NODE_STAMP) \
			|| echo "make: npm ci failed in $(PEERS): the TypeScript SDK peer tests will skip"; \
	else \
		echo "make: node or npm not found: the TypeScript SDK peer tests will skip"; \
	fi

# The main job on the bundled defaults: a campaign against the reference server (nothing to
# find), then one against a bundled buggy server (a finding, its reproducer, a shell line).
demo: $(STAMP)
	$(BIN)/mcpref fuzz --budget 15 --seed 1 --progress --campaign-dir campaigns/demo-reference
	$(BIN)/mcpref fuzz --budget 30 --seed 1 --progress --campaign-dir campaigns/demo-silent \
		-- $(BIN)/python examples/buggy/silent_on_parse_error.py || test $$? -eq 1

# The rules' citations and texts as the package carries them (mcpref/fuzz/report/spec_notes.json),
# written from SPEC_NOTES.md after an edit of it, and docs/rules-in-code.md (which functions judge
# each rule) from the code; make test fails while either differs.
notes: $(STAMP)
	$(BIN)/python -m mcpref.fuzz.report.notes SPEC_NOTES.md
	$(BIN)/python -m mcpref.fuzz.report.rules_table docs/rules-in-code.md

typecheck: $(STAMP)
	$(BIN)/mypy -p mcpref

lint: $(STAMP)
	$(BIN)/ruff check mcpref tests examples

test: $(STAMP) $(NODE_STAMP) typecheck lint
	rm -f .coverage .coverage.*
	# One pytest-xdist worker a core, and two more: many tests wait on the processes they start
	# (a client's timeout, a held answer), which leaves cores idle; on two idle cores, a fresh
	# clone's .ci/run took 9 min 22 s with four workers and 10 min 9 s with three. Its tests are independent of each
	# other and of the machine's speed. Hypothesis' ci profile draws the same examples on every
	# run (derandomize), so that the suite and its coverage gate give one answer per commit;
	# pytest alone explores anew.
	$(BIN)/coverage run -m pytest -n $(WORKERS) --dist worksteal --durations=15 --hypothesis-profile ci
	$(BIN)/coverage combine --quiet
	# The reference and the oracle are held at 100% branch coverage; the rest of mcpref/fuzz/ is reported.
	$(BIN)/coverage report --include='mcpref/reference/*,mcpref/fuzz/judge/*' --fail-under=100
	$(BIN)/coverage report --include='mcpref/fuzz/*'

# Every lawful variant (examples/lawful) under the whole check corpus and a 40-case campaign, in
# both eras where its alternative concerns them; make test runs a part of it. About 4 minutes.
lawful: $(STAMP)
	MCPREF_LAWFUL=full $(BIN)/python -m pytest -n auto -p no:cacheprovider tests/fuzz/test_lawful.py

# A seeded fuzz-client campaign against every buggy example client (examples/buggy_clients), each
# counting only its rule; make test runs six of them. About three minutes of two cores.
client-campaigns: $(STAMP)
	@mkdir -p build
	MCPREF_CLIENT_CAMPAIGNS=full $(BIN)/python -m pytest -n auto -p no:cacheprovider -q -rP \
		tests/fuzz/test_fuzz_client_finds.py > build/client-campaigns.log; status=$$?; \
		grep -E "first broken|passed|failed" build/client-campaigns.log; exit $$status

# For every buggy example server (examples/buggy) in each era it is judged in, a seeded campaign
# catches its bug under its rule (tests/fuzz/test_campaign.py), and a 100-case one fails every rule
# that check fails (test_campaign_finds_check.py); make test runs a part of each.
buggy-campaigns: $(STAMP)
	@mkdir -p build
	MCPREF_BUGGY_CAMPAIGNS=full $(BIN)/python -m pytest -n auto -p no:cacheprovider -q -rP \
		tests/fuzz/test_campaign.py tests/fuzz/test_campaign_finds_check.py > build/buggy-campaigns.log; status=$$?; \
		grep -E "check fails|skipped|passed|failed" build/buggy-campaigns.log; exit $$status

# The tests marked slow (pyproject.toml), which make test leaves out: another profile's, era's or
# SDK's run of what a test of make test shows, or a long matrix (each family keeps one in make test).
slow-tests: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m pytest -n auto -p no:cacheprovider -m slow

# A long coverage-guided campaign over the reference's own framer and dispatcher (Atheris
# steering Hypothesis' byte-level input); new inputs land in fuzz-corpus/self, which the
# test suite replays. FUZZ_SECONDS sets the length.
FUZZ_SECONDS ?= 600
fuzz-self: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check atheris==3.0.0
	$(BIN)/python -m mcpref.fuzz.campaign.selffuzz --seconds $(FUZZ_SECONDS) fuzz-corpus/self

# The official SDK servers (tests/peers) under mcpref compare in both profiles and a fixed-seed
# mcpref fuzz each; writes docs/peers.md, docs/peers-modern.md and the reproducers under
# docs/repro/ (the HTML matrices to build/peers/). Not part of test.
PEERS_BUDGET ?= 60
peers: $(STAMP) $(NODE_STAMP)
	$(BIN)/python $(PEERS)/make_peers.py --budget $(PEERS_BUDGET) --seed 1

# The benchmarks (not part of `make test`): one table, every figure a ratio against a reference
# point measured in the same run; about 15 minutes on two cores (`.venv/bin/python -m bench --only 1,2`
# runs some items). The SDK peers are measured when installed (the same step as `make test`); item 8
# measures `mcpref check` on the Python, TypeScript and Go targets of make field, which it installs
# into .field/ (git-ignored) as make field does. py-spy is for `python -m bench.profile`.
BENCH_TOOLS := $(VENV)/.bench-tools
$(BENCH_TOOLS): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check py-spy==0.4.3
	touch $(BENCH_TOOLS)

# The Go mcp-time of make field (field/package.json and its lock, into .field/node): the fast native
# target of item 6. Without node or npm, item 6 measures against mcpref serve and says so; without
# redis-server (Debian's package), the row of workers sharing Redis says it did not run.
FIELD_NODE := .field/node
GO_STAMP := $(FIELD_NODE)/node_modules/.installed
$(GO_STAMP): field/package.json field/package-lock.json
	@mkdir -p $(FIELD_NODE) && cp field/package.json field/package-lock.json $(FIELD_NODE)/ && \
		(cd $(FIELD_NODE) && npm ci --no-audit --no-fund --loglevel=error) && touch $(GO_STAMP) \
		|| echo "make: npm ci failed in $(FIELD_NODE): item 6 of the bench measures mcpref serve instead"

# The two PyPI targets of item 8 (their venvs are reused while their pins stand); without the
# network, item 8 says which targets it could not measure.
bench-targets: $(STAMP) $(GO_STAMP)
	@$(BIN)/python field/make_field.py --install-only --only mcp-server-time fastmcp \
		|| echo "make: the PyPI targets of item 8 could not be installed: it measures the others"

bench: $(BENCH_TOOLS) $(NODE_STAMP) bench-targets
	$(BIN)/python -m bench

# The soak (item 7 of the benchmarks): the resident memory of one long campaign, sampled while it
# runs; BENCH_LONG_MINUTES sets its length (30 by default, so about 31 minutes in all).
soak: $(STAMP)
	$(BIN)/python -m bench --only 7

# Issue 13: pinned third-party stdio MCP servers (field/package.json and its lock, and PyPI pins in
# field/targets.py), installed into .field/ (git-ignored), each under mcpref check in both profiles
# and eras and a fixed-seed mcpref fuzz, all inside unshare --net; run twice, verdicts compared;
# writes docs/field-report.md and the reproducers under docs/field-repro/. Not part of test.
field: $(STAMP)
	$(BIN)/python field/make_field.py --seed 1 --max-cases 150

# Issue 26: published MCP clients (the Inspector's CLI and Codex, pinned in field/client-pins/;
# fastmcp call and chuk-mcp, PyPI pins in field/clients.py; the SDK clients of tests/peers) under
# mcpref check-client in both profiles, inside unshare --net; writes docs/field-clients.md and the
# Clients section of docs/field-report.md. Not part of test.
field-clients: $(STAMP) $(NODE_STAMP)
	$(BIN)/python field/clients.py

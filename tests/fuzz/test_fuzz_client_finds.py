"""A seeded ``mcpref fuzz-client`` campaign catches each buggy example client under its rule.

Each campaign is seeded (1), draws the servers of the era of the example's scenario
(``--protocol-version``) and counts only the example's rule (``--rule``), so it ends once that
rule is found and shrunk; its budget is 40 cases, and the figures of ``make client-campaigns``
(every example; ``MCPREF_CLIENT_CAMPAIGNS=full``) are recorded in examples/buggy_clients/README.md.
``make test`` runs examples found within a few cases: one of each stage of a session (ids, the
handshake, the result, cancelling, the end), and a framing bug found by comparison, the bare-CR
splitter, against a server of the 2026-07-28 era; the whole set (31 campaigns) takes some ten
minutes of two cores, mostly waiting for clients to give up.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from test_check_client_finds import BUGGY, FOUND, Case

from mcpref.fuzz.generate.client_scripts import SCRIPTS, era_of
from mcpref.fuzz.integrate.cli import main
from mcpref.reference.versions import Era

FULL = os.environ.get("MCPREF_CLIENT_CAMPAIGNS") == "full"
SEED, CASES = "1", 40
# The handshake's stage has no_initialized in make test; falls_back_on_32601_only, whose fallback
# check-client fails in make test too (test_check_client_finds.py), is left to make client-campaigns.
IN_MAKE_TEST = {"null_ids", "no_initialized", "kills_server", "mangles_text", "never_cancels"}
# The read path against a modern server, which the legacy examples above do not reach.
MODERN_IN_MAKE_TEST = {"splits_at_cr"}
CHOSEN = [
    param
    for param in FOUND
    if FULL
    or any(
        case.name in IN_MAKE_TEST or (case.name in MODERN_IN_MAKE_TEST and case.scenario.startswith("a modern server"))
        for case in param.values
        if isinstance(case, Case)
    )
]


@pytest.mark.parametrize("case", CHOSEN, ids=lambda case: case.name)
def test_a_seeded_campaign_catches_each_example_under_its_rule(
    case: Case, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = request.node.get_closest_marker("spec")
    assert marker is not None
    (rule,) = marker.args
    example = [sys.executable, str(BUGGY / f"{case.name}.py"), "--tool", "echo", *case.client, "--", "{server}"]
    # The servers of the era of the example's scenario: a legacy-only client is not drawn modern ones.
    era = era_of(next(script for script in SCRIPTS if script.name == case.scenario))
    version = "2026-07-28" if era is Era.MODERN else "2025-11-25"
    argv = ["fuzz-client", "--json", "--seed", SEED, "--cases", str(CASES), "--profile", case.profile, "--rule", rule,
            "--protocol-version", version, *case.options, "--", *example]  # fmt: skip
    status = main(argv)
    document = json.loads(capsys.readouterr().out)
    assert status == 1 and [row["id"] for row in document["rules"]] == [rule]
    [finding] = document["rules"][0]["findings"]
    assert finding["status"] == "fail" and document["first_found"][rule] <= CASES
    print(f"{case.name} ({era.value}): {rule} first broken by case {document['first_found'][rule]}, {document['cases']} cases in all; "
          f"smallest: {json.dumps(finding['script'])}")  # fmt: skip

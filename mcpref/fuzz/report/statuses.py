"""The statuses a rule's row can carry, and how a set of rows is summed up in one line.

``pass`` is a claim that the server was seen keeping the rule: a scenario that exercises it ran
to its end with the server answering, and the oracle found nothing, or under ``spec`` only notes
(a reference decision the server took otherwise, as the specification permits; the row's note
says what it did); notes of a server never seen answering there leave the rule untested. ``untested`` is a rule whose
scenarios never got that far (the server died or stopped answering first): nothing is claimed of
it either way. ``n/a``: the rule does not apply to this server or version, or no scenario judges
it (notes that scenarios judging other rules drew under it change nothing). ``of`` is the one
rule every command (``check``, ``check-client``) gives a row its status by.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from mcpref.fuzz.judge.findings import Status

FAIL: Final = "fail"
WARN: Final = "warn"
PASS: Final = "pass"
UNTESTED: Final = "untested"
NOT_APPLICABLE: Final = "n/a"
ORDER: Final = (FAIL, WARN, PASS, UNTESTED, NOT_APPLICABLE)  # what matters first
# Why a server asked for the legacy era has no verdict under its rules (``check``, ``fuzz``).
UNSERVED: Final = (
    "the server serves no legacy version: it accepted no initialize and answered as the 2026-07-28"
    " era does (judge it with --protocol-version 2026-07-28)"
)


def counts(rows: Iterable[Mapping[str, object]]) -> dict[str, int]:
    """How many rows carry each status, in ``ORDER``."""
    statuses = [str(row["status"]) for row in rows]
    return {status: statuses.count(status) for status in ORDER}


def summary(rows: Iterable[Mapping[str, object]], cause: str | None = None) -> str:
    """One line, leading with what matters: ``cause`` (why nothing could be judged) when given, then
    the counts that are not zero, worst first."""
    shown = ", ".join(f"{count} {status}" for status, count in counts(rows).items() if count)
    return f"{cause}: {shown}" if cause else shown


def of(findings: Sequence[Status], seen: bool, exercised: bool) -> str:
    """A rule's status from what its scenarios showed: the statuses of its findings under the
    profile, whether a scenario saw the rule's situation, whether any scenario lists the rule."""
    if Status.FAIL in findings:
        return FAIL
    if Status.WARN in findings:
        return WARN
    if seen:  # with notes alone, the server was seen doing what the specification permits
        return PASS
    # Notes alone claim nothing: of a rule whose scenarios never showed its situation (an echo, a
    # silence), it stays untested; of a rule no scenario judges, they came from scenarios judging
    # other rules, and it is n/a as it would be without them.
    return UNTESTED if exercised else NOT_APPLICABLE


def note(row: Mapping[str, object]) -> str:
    """What a row's table note says: its first finding, else why it is untested."""
    findings = row["findings"]
    assert isinstance(findings, list)
    return f"{findings[0]['scenario']}: {findings[0]['message']}" if findings else str(row.get("reason", ""))

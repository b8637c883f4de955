"""Whether each seeded campaign found every rule that ``check`` fails, per target and era.

In: the first run's results (``fieldlib.RunResults``). Out: a row per target and era in which a
campaign ran (profile ``spec``, as the campaigns are): the rules ``check --profile spec`` failed,
the rules the campaign failed, and the rules of the first it missed; and the summary's section
that shows them. ``check`` runs a fixed corpus and a campaign draws its sessions, so a rule of the
first that the second missed says what the campaign never drew, or filed under another rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from fieldlib import ERAS, TargetResult

TITLE = "Campaigns against `check`"
ANCHOR = "campaigns-against-check"  # the title's anchor in GitHub's Markdown


@dataclass(frozen=True)
class CampaignVsCheck:
    target: str
    era: str
    check_fails: tuple[str, ...]  # the rules check --profile spec failed, sorted
    campaign_fails: tuple[str, ...]  # the rules the campaign failed, sorted

    @property
    def missed(self) -> tuple[str, ...]:
        """The rules check failed that the campaign did not."""
        return tuple(rule for rule in self.check_fails if rule not in self.campaign_fails)


def campaign_vs_check(label: str, result: TargetResult) -> list[CampaignVsCheck]:
    """One row per era of ``result`` in which a campaign ran."""
    return [
        CampaignVsCheck(
            label,
            era,
            tuple(sorted(row["id"] for row in result["checks"][f"{era} spec"]["rules"] if row["status"] == "fail")),
            tuple(sorted({failure["id"] for failure in result["fuzz"][era]["failures"]})),
        )
        for era in ERAS
        if era in result["fuzz"]
    ]


def rules(names: tuple[str, ...]) -> str:
    return ", ".join(names) or "-"


def campaign_vs_check_lines(rows: list[CampaignVsCheck], seed: int, max_cases: int) -> list[str]:
    """The summary's section: a row per target and era, and how many agree."""
    agree = sum(1 for row in rows if not row.missed)
    out = [f"## {TITLE}", ""]
    out.append(
        f"For each target and each era it was fuzzed in: the rules `check --profile spec` failed, the rules "
        f"the campaign (`--seed {seed} --max-cases {max_cases}`, profile `spec`) failed, and whether the "
        f"campaign found every rule `check` failed. {agree} of {len(rows)} agree."
    )
    out += ["", "| target | era | `check` fails | the campaign fails | found every one? |", "|---|---|---|---|---|"]
    for row in rows:
        verdict = "agrees" if not row.missed else f"missed: {rules(row.missed)}"
        out.append(
            f"| `{row.target}` | {row.era} | {rules(row.check_fails)} | {rules(row.campaign_fails)} | {verdict} |"
        )
    return [*out, ""]

"""Whether each seeded campaign found every rule that ``check`` fails, per target and era.

In: the first run's results (``fieldlib.RunResults``). Out: a row per target and era in which a
campaign ran (profile ``spec``, as the campaigns are), or in which ``check`` failed a rule though
no campaign ran (the target does not speak that era): the rules ``check --profile spec`` failed,
the rules the campaign failed, and the rules of the first it missed; and the summary's section
that shows them. A campaign runs ``check``'s corpus and follow-ups first, then draws its sessions:
a rule ``check`` fails that the campaign missed says that the two runs differ (a scenario run in a
process kept from an earlier case, a server whose answers vary from run to run) or that the
campaign filed the cause under another rule.
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
    campaign_fails: tuple[str, ...] | None  # the rules the campaign failed, sorted; None: no campaign

    @property
    def missed(self) -> tuple[str, ...]:
        """The rules check failed that the campaign did not (all of them where none ran)."""
        return tuple(rule for rule in self.check_fails if rule not in (self.campaign_fails or ()))


def campaign_vs_check(label: str, result: TargetResult) -> list[CampaignVsCheck]:
    """One row per era of ``result`` in which a campaign ran or ``check`` failed a rule."""
    rows = []
    for era in ERAS:
        failed = sorted(row["id"] for row in result["checks"][f"{era} spec"]["rules"] if row["status"] == "fail")
        campaign = result["fuzz"].get(era)
        found = None if campaign is None else tuple(sorted({failure["id"] for failure in campaign["failures"]}))
        if found is not None or failed:
            rows.append(CampaignVsCheck(label, era, tuple(failed), found))
    return rows


def rule_list(names: tuple[str, ...] | None) -> str:
    return "no campaign (the target does not speak this era)" if names is None else ", ".join(names) or "-"


def verdict(row: CampaignVsCheck) -> str:
    if row.campaign_fails is None:
        return "-"
    return f"missed: {rule_list(row.missed)}" if row.missed else "agrees"


def agreeing(rows: list[CampaignVsCheck]) -> str:
    """How many of the campaigns found every rule check failed: "N of M campaigns"."""
    campaigns = [row for row in rows if row.campaign_fails is not None]
    return f"{sum(1 for row in campaigns if not row.missed)} of {len(campaigns)} campaigns"


def campaign_vs_check_lines(rows: list[CampaignVsCheck], seed: int, max_cases: int) -> list[str]:
    """The summary's section: a row per target and era, and how many agree."""
    out = [f"## {TITLE}", ""]
    out.append(
        f"For each target and each era it was fuzzed in: the rules `check --profile spec` failed, the rules "
        f"the campaign (`--seed {seed} --max-cases {max_cases}`, profile `spec`) failed, and whether the "
        f"campaign found every rule `check` failed; and an era in which `check` failed a rule but no campaign "
        f"ran. {agreeing(rows)} agree."
    )
    out += ["", "| target | era | `check` fails | the campaign fails | found every one? |", "|---|---|---|---|---|"]
    for row in rows:
        out.append(
            f"| `{row.target}` | {row.era} | {rule_list(row.check_fails)} | {rule_list(row.campaign_fails)} "
            f"| {verdict(row)} |"
        )
    return [*out, ""]

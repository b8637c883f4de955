"""``make field``: mcpref against pinned third-party stdio MCP servers, written up as ``docs/field-report.md``.

Installs each target, pinned exactly, into the git-ignored ``.field/`` (a venv per PyPI target,
``npm ci`` of ``field/package.json`` and ``field/package-lock.json`` into ``.field/node``), then,
for each target and each run:

- ``mcpref check --json`` in both profiles, for the legacy corpus and for ``--protocol-version 2026-07-28``
  (a legacy-only server gets n/a for the modern rules), each timed;
- ``mcpref fuzz --seed S --max-cases N`` in profile spec, legacy, and modern too for a target whose
  modern check shows it speaks that era.

Every command runs inside a fresh network namespace (``unshare --net --``): no tool call reaches
the network. A reproducer is saved under ``docs/field-repro/<target>/`` for every finding (fail
or warn; gzip-compressed when a line of its input passes 64 KiB) and replayed with ``mcpref
replay``; a finding of a scenario that ends by closing stdin (which ``replay`` cannot do) is
replayed by this script with the scenario's own end of input. With ``--runs 2`` the whole thing
runs twice and the verdict tables are compared. The report is a summary, ``docs/field-report.md``,
and its pages under ``docs/field/`` (one per target, the runs, the triage).

    .venv/bin/python field/make_field.py [--seed N] [--max-cases N] [--runs N] [--only LABEL ...]

Work files go to ``.field/runs/``; ``state.json`` there keeps what the report is written from, so
that ``--render-only`` writes it again without running anything. ``field/triage.md`` and
``field/triage.toml`` (hand-written) become the triage page. Not part of ``make test``.

The stages are modules beside this script (``fieldlib`` holds what they share): ``targets`` (what is run), ``install``, ``runs``
(check, fuzz, probes), ``comparison`` (the runs against each other), ``campaign_vs_check`` (each
campaign against the rules ``check`` fails), ``reproducers`` (the findings, saved and replayed),
``triage``, ``state``, and ``report`` with ``pages``.
"""

from __future__ import annotations

import argparse
import sys

from comparison import check_seconds, compare
from fieldlib import ROOT, RunResults
from install import Install, install
from report import write_report
from reproducers import Finding, collect, replay, replay_all, save_reproducers
from runs import forget_probes, load_run, one_run, run_probes
from state import State, kept_findings
from targets import Target, selected
from triage import triaged


def finish(
    targets: list[Target],
    runs: list[RunResults],
    installs: dict[str, Install],
    findings: list[Finding] | None,
    args: argparse.Namespace,
) -> list[Finding]:
    """Compare the runs, save and replay the first run's reproducers (unless given), write the report."""
    comparison = compare(runs)
    run_probes(targets)  # made once per make field (main() removes them before fresh runs)
    if findings is None:
        findings = collect(targets, runs[0])
        save_reproducers(targets, runs[0], findings)
        replay_all(findings)
    state = State(runs, findings, installs, comparison, check_seconds(runs), args.seed, args.max_cases)
    state.save()
    write_report(targets, state)
    print(f"make field: {len(runs)} run(s), {len(findings)} findings", flush=True)
    if comparison:
        print("make field: the runs' verdicts differ:\n" + "\n".join(comparison), flush=True)
    elif comparison is not None:
        print("make field: the runs' verdicts are identical", flush=True)
    return findings


def untriaged(findings: list[Finding]) -> int:
    """1 when a finding is left untriaged, or its reproducer replays as another rule or as nothing
    (the report lists them), else 0."""
    left = [f"F{index + 1}" for index, entry in triaged(findings).items() if entry is None]
    if left:
        print(f"make field: untriaged findings: {', '.join(left)} (field/triage.toml)", flush=True)
    astray = [f"F{index + 1}" for index, finding in enumerate(findings) if not finding.replayed.startswith("yes")]
    if astray:
        print(f"make field: reproducers not replayed as filed: {', '.join(astray)}", flush=True)
    return 1 if left or astray else 0


def rerender(labels: list[str] | None, again: bool) -> int:
    """The report written anew from the last state (its findings replayed again first, with ``again``)."""
    state = State.load()
    if again:
        for finding in state.findings:
            replay(finding)
        state.save()
    write_report(selected(labels, state.runs[0]), state)
    return untriaged(state.findings)


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-cases", type=int, default=150)
    parser.add_argument("--runs", type=int, default=2, help="run everything this many times and compare the verdicts")
    parser.add_argument("--start", type=int, default=1, help="number of the first run (its folder .field/runs/N)")
    parser.add_argument("--only", nargs="*", default=None, help="the targets to run (labels), default all")
    parser.add_argument(
        "--reuse", type=int, nargs="+", default=None, metavar="N",
        help="run nothing: report from the saved runs .field/runs/N (the first one's findings), compared",
    )  # fmt: skip
    parser.add_argument("--no-report", action="store_true", help="only run (with --start): report later with --reuse")
    parser.add_argument(
        "--render-only", action="store_true",
        help="run nothing: write the report again from the last state (.field/runs/state.json)",
    )  # fmt: skip
    parser.add_argument("--install-only", action="store_true", help="install the targets (--only), run nothing")
    parser.add_argument("--replay-again", action="store_true", help="replay the saved findings again, then render")
    return parser


def main() -> int:
    args = arguments().parse_args()
    sys.path.insert(0, str(ROOT))  # mcpref of this checkout, for the stages that import it
    if args.render_only or args.replay_again:
        return rerender(args.only, args.replay_again)
    if args.reuse is not None:
        runs = [load_run(index) for index in args.reuse]
        targets = selected(args.only, runs[0])  # the targets the runs were made of
        installs = install(targets)
        return untriaged(finish(targets, runs, installs, kept_findings(runs[0]), args))
    targets = selected(args.only)
    installs = install(targets)
    if args.install_only:
        return 0
    forget_probes()
    made: list[RunResults] = []
    findings: list[Finding] | None = None
    for index in range(args.start, args.start + args.runs):
        made.append(one_run(targets, index, args.seed, args.max_cases))
        if not args.no_report:
            findings = finish(targets, made, installs, findings, args)
    return untriaged(findings) if findings is not None else 0


if __name__ == "__main__":
    raise SystemExit(main())

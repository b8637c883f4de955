"""The conformance matrix as one self-contained HTML page (``check --html``, ``compare --html``).

A row per rule, a column per server, a colour per status, with each rule's level and
citations; then, for each failure and warning, what was sent and received (``->``/``<-``),
the expected and the actual answer, and the reproducer: ``mcpref replay`` on a file the
page carries (a download link), and a pasteable shell line where the bytes need no cutting.
Nothing is fetched: styles are inline, and the citations are plain links.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence

from mcpref.fuzz.generate.corpus import Scenario
from mcpref.fuzz.judge.oracle import Profile
from mcpref.fuzz.report.junit import more_like_it
from mcpref.fuzz.report.notes import entry
from mcpref.fuzz.report.reproducer import reproducer_json
from mcpref.reference.rules import BY_ID

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #1d1d1f; }
table { border-collapse: collapse; }
th, td { border: 1px solid #c8c8cc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.pass { background: #d7f5dd; } td.warn { background: #fff0c2; }
td.fail { background: #ffd6d6; font-weight: bold; } td.na { background: #eeeeee; color: #6e6e73; }
td.untested { background: #ffffff; color: #6e6e73; font-style: italic; }
pre { background: #f5f5f7; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
section.finding { border-top: 2px solid #c8c8cc; margin-top: 1.5em; }
.cite a { margin-right: 0.5em; }
"""

_CLASS = {"fail": "fail", "warn": "warn", "pass": "pass", "untested": "untested", "n/a": "na"}


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _citations(rule: str) -> str:
    return " ".join(f'<a href="{_e(url)}">{_e(url.split("//", 1)[-1])}</a>' for url in entry(rule).sources)


def _anchor(rule: str, label: str, index: int) -> str:
    return f"{rule}--{label}--{index}".replace(" ", "_")


EMBEDDED = 64 * 1024  # bytes of a case whose reproducer the page carries; a page stays small


def _reproducer_link(rule: str, profile: Profile, argv: list[str], scenario: Scenario) -> str:
    """A download link carrying the reproducer file of ``scenario``, and its replay command."""
    if len(scenario.case.stream) > EMBEDDED:
        return (
            f"<p>The case is {len(scenario.case.stream):,} bytes, too large to carry here: "
            f"<code>mcpref check --json</code> runs it again (scenario <i>{_e(scenario.name)}</i>).</p>"
        )
    case = scenario.case
    document = reproducer_json(rule, profile, argv, case.chunks, case.settle, scenario.era, eof=case.eof)
    href = "data:application/json;base64," + base64.b64encode(document.encode()).decode("ascii")
    name = f"{rule}.json"
    return (
        f'<p>Reproducer: <a download="{_e(name)}" href="{href}">{_e(name)}</a>, then</p>'
        f"<pre>mcpref replay --transcript {_e(name)}</pre>"
    )


def _finding(
    rule: str, label: str, index: int, finding: Mapping[str, object], profile: Profile, argv: list[str], ran: Mapping[str, Scenario]
) -> str:
    transcript = finding.get("transcript")
    lines = transcript if isinstance(transcript, list) else []
    shell = finding.get("shell")
    parts = [
        f'<section class="finding" id="{_e(_anchor(rule, label, index))}">',
        f"<h3>{_e(rule)} · {_e(label)} · {_e(finding['status'])}</h3>",
        f"<p>Scenario <b>{_e(finding['scenario'])}</b>: {_e(finding['message'])}</p>",
        f"<p>Expected: <code>{_e(finding['expected'])}</code><br>Actual: <code>{_e(finding['actual'])}</code></p>",
        f"<p>{_e(more_like_it(finding))}.</p>" if finding.get("more") else "",
        f"<pre>{_e(chr(10).join(str(line) for line in lines))}</pre>",
    ]
    if "script" in finding:  # a client's: the scripted server's behaviour, and the command that plays it again
        parts.append(f"<p>Reproducer:</p><pre>{_e(finding['reproducer'])}</pre>")
    else:
        parts.append(_reproducer_link(rule, profile, argv, ran[str(finding["scenario"])]))
    if isinstance(shell, str):
        parts.append(f"<p>Or, in a shell:</p><pre>{_e(shell)}</pre>")
    parts.append("</section>")
    return "\n".join(parts)


def page(result: Mapping[str, object], title: str, scenarios: Mapping[str, Mapping[str, Scenario]]) -> str:
    """``result`` is a matrix as ``fuzz.integrate.compare.matrix`` returns it (``check`` is one column of it);
    ``scenarios``: by column label, those ``check`` ran there by name (``check.Checked``), follow-ups built
    from that server's answers among them; a client's column needs none (its findings carry their scripts)."""
    profile = Profile(str(result["profile"]))
    commands = result["commands"]
    rules = result["rules"]
    assert isinstance(commands, Sequence) and isinstance(rules, Sequence)
    labels = [str(command["label"]) for command in commands]
    argvs = {str(command["label"]): list(command["command"]) for command in commands}
    head = "".join(f"<th>{_e(label)}</th>" for label in labels)
    rows, details = [], []
    for row in rules:
        rule = str(row["id"])
        cells = []
        for label in labels:
            status = str(row["statuses"][label])
            findings = row["findings"][label]
            text = _e(status)
            if findings:
                text = f'<a href="#{_e(_anchor(rule, label, 0))}">{text}</a>'
                details += [
                    _finding(rule, label, index, finding, profile, argvs[label], scenarios.get(label, {}))
                    for index, finding in enumerate(findings)
                ]
            cells.append(f'<td class="{_CLASS[status]}">{text}</td>')
        rows.append(
            f'<tr id="{_e(rule)}"><td><code>{_e(rule)}</code><br><small>{_e(BY_ID[rule].summary)}</small></td>'
            f"<td>{_e(row['level'])}</td>{''.join(cells)}<td class=\"cite\">{_citations(rule)}</td></tr>"
        )
    counts = {
        label: {status: sum(1 for row in rules if row["statuses"][label] == status) for status in _CLASS}
        for label in labels
    }
    summary = "".join(
        f"<li><b>{_e(label)}</b> <code>{_e(' '.join(argvs[label]))}</code>: "
        + ", ".join(f"{counts[label][status]} {status}" for status in _CLASS if counts[label][status])
        + "</li>"
        for label in labels
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
            f"<h1>{_e(title)}</h1>",
            f"<p>Profile <b>{_e(profile.value)}</b>: {len(rules)} rules of SPEC_NOTES.md.</p>",
            f"<ul>{summary}</ul>",
            f'<table id="matrix"><thead><tr><th>Rule</th><th>Level</th>{head}<th>Citation</th></tr></thead>',
            f"<tbody>{''.join(rows)}</tbody></table>",
            f"<h2>Failures and warnings ({len(details)})</h2>",
            *details,
            "</body></html>",
            "",
        ]
    )

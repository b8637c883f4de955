"""``make peers``: mcpref against the official SDK servers, written up as ``docs/peers.md``.

Runs ``mcpref compare`` in this process (``check``'s corpus and follow-ups) in both profiles against
the reference and the three peer servers, and a fixed-seed ``mcpref fuzz`` campaign
(profile spec) against each peer; then the same for the modern era (``--protocol-version
2026-07-28``): its corpus against the reference and the two SDK servers, and a campaign
against the Python SDK's server and the reference, its control. Saves a reproducer for
every failure under ``docs/repro/<peer>/`` (``modern-`` before the name for the modern
era; gzip-compressed, ``.json.gz``, when a line of its input passes 64 KiB, which ``mcpref
replay`` reads as it is), checks with ``mcpref replay`` that each still fails, and writes the
matrices and one short text per finding: ``docs/peers.md`` for the legacy era and
``docs/peers-modern.md`` for the modern one. The matrices as ``mcpref compare --html`` pages,
with every transcript (a few MB), and the other work files go to ``build/peers`` (git-ignored);
``state.json`` there keeps what the pages are written from, for ``--render-only``.

    .venv/bin/python tests/peers/make_peers.py [--budget SECONDS] [--seed N] [--render-only]

Not part of ``make test``: the campaigns take a few minutes.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from findings import IMPACT, MODERN_COLUMNS, MODERN_IMPACT, MODERN_NOTES, MODERN_UNFLAGGED, NOTES

if TYPE_CHECKING:
    from mcpref.fuzz.generate.corpus import Scenario

ROOT = Path(__file__).resolve().parents[2]
PEERS = ROOT / "tests" / "peers"
DOCS = ROOT / "docs"
REPRO = DOCS / "repro"
BUILD = ROOT / "build" / "peers"
MODERN_PAGE = DOCS / "peers-modern.md"
# A reproducer with an input line longer than this is kept gzip-compressed, as make field keeps its
# own: the lines that test a parser's limits run to hundreds of KiB and compress to a few.
LONG_LINE = 64 * 1024
PYTHON = sys.executable
MCPREF = [PYTHON, "-m", "mcpref"]


@dataclass(frozen=True)
class Peer:
    label: str
    title: str
    argv: list[str]  # as run here
    shown: list[str]  # the same, relative to the repository root, for reproducers and the page
    stack: str


EVERYTHING_JS = "tests/peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
PEER_LIST = [
    Peer(
        "reference",
        "mcpref (reference)",
        [PYTHON, "-m", "mcpref.reference"],
        [".venv/bin/python", "-m", "mcpref.reference"],
        "-",
    ),
    Peer(
        "python-sdk",
        "Python SDK `MCPServer`",
        [PYTHON, str(PEERS / "python_server.py")],
        [".venv/bin/python", "tests/peers/python_server.py"],
        "PyPI `mcp`",
    ),
    Peer(
        "typescript-sdk",
        "TypeScript SDK `McpServer`",
        ["node", str(PEERS / "ts_server.mjs")],
        ["node", "tests/peers/ts_server.mjs"],
        "npm `@modelcontextprotocol/sdk`",
    ),
    Peer(
        "server-everything",
        "`server-everything`",
        ["node", str(ROOT / EVERYTHING_JS), "stdio"],
        ["node", EVERYTHING_JS, "stdio"],
        "npm `@modelcontextprotocol/server-everything`",
    ),
]


MODERN = "2026-07-28"
# The modern era's columns: server-everything is built on the TypeScript SDK, which has no modern era.
MODERN_PEERS = PEER_LIST[:3]
# Its campaigns: the one dual-era SDK server, and the reference as the control (nothing to find).
MODERN_FUZZED = [PEER_LIST[1], PEER_LIST[0]]


def untraced_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if not key.startswith("COVERAGE_")}


def mcpref(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MCPREF, *args], cwd=ROOT, env=untraced_env(), capture_output=True, text=True, timeout=timeout, check=False
    )


@dataclass(frozen=True)
class Compared:
    """A compare's matrix, as ``mcpref compare --json`` prints it, and the scenarios run in each column
    by name (``check.Checked``): the corpus's and the follow-ups built from that server's answers."""

    result: dict[str, Any]
    ran: dict[str, Mapping[str, Scenario]]


def compare(profile: str, peers: list[Peer] = PEER_LIST, version: str | None = None) -> Compared:
    """``mcpref compare --json`` over ``peers``, in this process: its ``matrix``, which also gives the
    scenarios each finding names, a follow-up's among them, for its reproducer."""
    from mcpref.fuzz.drive.process import TargetError
    from mcpref.fuzz.drive.timing import Timing
    from mcpref.fuzz.generate.corpus_modern import era_of_version
    from mcpref.fuzz.integrate.compare import matrix
    from mcpref.fuzz.judge.oracle import Profile

    try:
        matrix_of, ran = matrix(
            [peer.argv for peer in peers],
            [peer.label for peer in peers],
            Profile(profile),
            Timing(),
            era_of_version(version),
        )
    except TargetError as exc:  # a peer that cannot be started: what mcpref compare says, exit 2
        raise SystemExit(f"mcpref compare failed: {exc}") from None
    result: dict[str, Any] = json.loads(json.dumps(matrix_of))  # as --json prints it
    done = Compared(result, dict(ran))
    if version is None:
        write_page(done, profile, f"mcpref compare, profile {profile}: the official SDKs")
    else:
        write_page(
            done,
            f"modern-{profile}",
            f"mcpref compare --protocol-version {version}, profile {profile}: the official SDKs",
        )
    return done


def write_page(compared: Compared, name: str, title: str) -> None:
    """The matrix as a web page, build/peers/peers-<name>.html, with the commands as ``shown``.

    Not under docs/: with every transcript, each page is up to 2 MB; the Markdown pages carry the
    matrices, and a reproducer per failure."""
    from mcpref.fuzz.report.html import page

    shown = {peer.label: peer for peer in PEER_LIST}
    text = json.dumps(compared.result)
    for peer in PEER_LIST:
        text = text.replace(json.dumps(shlex.join(peer.argv))[1:-1], json.dumps(shlex.join(peer.shown))[1:-1])
    local = json.loads(text)
    for command in local["commands"]:
        command["command"] = shown[command["label"]].shown
    (BUILD / f"peers-{name}.html").write_text(page(local, title, compared.ran))


def fuzz(peer: Peer, budget: float, seed: int, version: str | None = None) -> dict[str, Any]:
    prefix = f"{peer.label}-" if version is None else f"{peer.label}-{version}-"
    work = Path(tempfile.mkdtemp(prefix=prefix, dir=BUILD))  # a fresh example database: reproducible
    report = work / "report.json"
    done = mcpref(
        "fuzz", "--budget", str(budget), "--seed", str(seed), *(["--protocol-version", version] if version else []),
        "--report", str(report), "--campaign-dir", str(work), "--", *peer.argv, timeout=budget + 600,
    )  # fmt: skip
    if not report.exists():
        raise SystemExit(f"mcpref fuzz against {peer.label} wrote no report ({done.returncode}): {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(report.read_text())
    result["repro_dir"] = str(work / "repro")
    return result


def save_reproducer(document: dict[str, Any], peer: Peer, name: str) -> str:
    """``name`` under docs/repro/<peer>/, compressed as ``name.gz`` for an input line past ``LONG_LINE``.

    Without the folder it was recorded in: its command is relative to the repository root, where
    ``mcpref replay`` is run from in any clone (and a rerun elsewhere changes no byte)."""
    document = {key: value for key, value in document.items() if key != "directory"} | {"command": peer.shown}
    text = (json.dumps(document, indent=2) + "\n").encode()
    stream = b"".join(base64.b64decode(chunk) for chunk in document["chunks"])
    long = max(len(line) for line in stream.split(b"\n")) > LONG_LINE
    path = REPRO / peer.label / (f"{name}.gz" if long else name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text, mtime=0) if long else text)  # no time stamp: a rerun changes no byte
    return str(path.relative_to(DOCS))


def load_reproducer(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    document: dict[str, Any] = json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)
    return document


def check_reproducers(
    runs: list[Compared], peers: list[Peer] = PEER_LIST, modern: bool = False
) -> dict[tuple[str, str], str]:
    """A reproducer per failing (peer, rule): its first failing scenario, a follow-up's as a corpus's.

    ``runs`` are the compares, spec first: a rule failing there is saved with that profile. With
    ``modern`` they are the modern era's: ``modern-`` before the file name.
    """
    from mcpref.fuzz.judge.oracle import Profile
    from mcpref.fuzz.report.reproducer import reproducer_json

    saved: dict[tuple[str, str], str] = {}
    for run in runs:
        profile = Profile(run.result["profile"])
        for rule in run.result["rules"]:
            for peer in peers:
                key = (peer.label, rule["id"])
                if rule["statuses"][peer.label] != "fail" or key in saved:
                    continue
                names = [f["scenario"] for f in rule["findings"][peer.label] if f["status"] == "fail"]
                scenario = run.ran[peer.label][names[0]]
                case = scenario.case
                text = reproducer_json(
                    rule["id"], profile, peer.argv, case.chunks, case.settle, scenario.era, eof=case.eof
                )
                document = json.loads(text)
                document["scenario"] = scenario.name
                saved[key] = save_reproducer(document, peer, f"{'modern-' if modern else ''}{rule['id']}.json")
    return saved


def fuzz_reproducers(peer: Peer, report: dict[str, Any], modern: bool = False) -> dict[str, str]:
    saved: dict[str, str] = {}
    for failure in report["failures"]:
        source = Path(report["repro_dir"]) / f"{failure['id']}.json"
        if source.exists():
            document = load_reproducer(source)
            name = f"{'modern-' if modern else ''}fuzz-{failure['id']}.json"
            saved[failure["id"]] = save_reproducer(document, peer, name)
    return saved


def replays(path: str, peer: Peer) -> bool:
    """Whether ``mcpref replay`` still sees the saved case fail (exit 1)."""
    return mcpref("replay", str(DOCS / path), "--", *peer.argv, timeout=120).returncode == 1


def installed_versions() -> dict[str, str]:
    from importlib.metadata import version

    versions = {"mcp": version("mcp")}
    for name in ("@modelcontextprotocol/sdk", "@modelcontextprotocol/server-everything", "zod"):
        package = PEERS / "node_modules" / name / "package.json"
        versions[name] = json.loads(package.read_text())["version"] if package.exists() else "not installed"
    node = shutil.which("node")
    versions["node"] = (
        subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout.strip() if node else "-"
    )
    return versions


def cell(status: str, link: str | None, fuzz_link: str | None) -> str:
    text = f"[{status}]({link})" if link and status == "fail" else status
    if fuzz_link and status != "fail":
        text = f"[fail]({fuzz_link}) (fuzz)"
    elif fuzz_link:
        text += f", [fuzz]({fuzz_link})"
    return text


def render(
    spec: dict[str, Any],
    strict: dict[str, Any],
    fuzzed: dict[str, dict[str, Any]],
    check_links: dict[tuple[str, str], str],
    fuzz_links: dict[tuple[str, str], str],
    replayed: dict[str, bool],
    versions: dict[str, str],
    budget: float,
    seed: int,
    modern: dict[str, Any] | None = None,
) -> str:
    out: list[str] = []
    out.append("# mcpref against the official MCP implementations")
    out.append("")
    out.append(
        "Generated by `make peers` (`tests/peers/make_peers.py`); do not edit by hand. Each column is a stdio "
        "server: the reference, and three peers built on the official SDKs, kept in `tests/peers/`. "
        "The two SDK servers serve the reference's demo tools (`lire_prix`, `echo`, `fail`, `attendre`) "
        "with the same arguments, so what differs is the SDK's protocol layer; `server-everything` is the "
        "SDK team's own test server, run as published (it has none of those tools)."
    )
    out.append("")
    out.append("| column | server | stack | command (from the repository root) |")
    out.append("|---|---|---|---|")
    for peer in PEER_LIST:
        out.append(f"| `{peer.label}` | {peer.title} | {peer.stack} | `{' '.join(peer.shown)}` |")
    out.append("")
    pinned = ", ".join(f"`{name}` {value}" for name, value in versions.items())
    out.append(f"Versions: {pinned}.")
    out.append("")
    out.append(
        "Method: `mcpref compare` runs the fixed corpus of `mcpref check` (one scenario per edge case), and "
        "the follow-ups built from each server's own answers (read the first resource listed ...), against every column, once per profile: `spec` fails only on MUST and MUST NOT rules and warns on the rest, "
        "`strict` fails on every divergence from the reference's documented behaviour. Then "
        f"`mcpref fuzz --budget {budget:g} --seed {seed}` (profile `spec`, a fresh example database) runs "
        "against each peer. Each `fail` links to a reproducer under `docs/repro/`: `mcpref replay FILE` "
        "re-runs it (the saved command is relative to the repository root; a `.json.gz` one, kept compressed "
        "for an input line over 64 KiB, is read as it is). The matrices with what was sent and received for "
        "every warning and failure are web pages that `make peers` leaves in the git-ignored `build/peers/` "
        "(`peers-spec.html`, `peers-strict.html`; `mcpref compare --html PAGE` writes one)."
        + (f" The modern era (2026-07-28) has [its own page]({MODERN_PAGE.name})." if modern else "")
    )
    out.append("")
    for title, result in (("Profile `spec`", spec), ("Profile `strict`", strict)):
        out.append(f"## {title}")
        out.append("")
        out += matrix_lines(result, PEER_LIST, check_links, fuzz_links if result is spec else {})
        if result is spec:
            out.append("`(fuzz)`: the corpus passed the rule, the campaign found a failing case.")
            out.append("")
    out.append("## Fuzz campaigns")
    out.append("")
    out += campaign_lines(fuzzed, fuzz_links, "peer")
    out.append("## Findings")
    out.append("")
    out.append(
        "One entry per requirement that a peer fails in either profile: which peers, what the corpus saw (the "
        "first failing scenario), and why it matters to a client. Level and text of each rule: `SPEC_NOTES.md`."
    )
    out.append("")
    out += finding_lines(spec, strict, fuzzed, PEER_LIST[1:], check_links, fuzz_links, replayed, "###", legacy_why)
    return "\n".join(out).rstrip() + "\n"


def matrix_lines(
    result: dict[str, Any],
    peers: list[Peer],
    check_links: dict[tuple[str, str], str],
    fuzz_links: dict[tuple[str, str], str],
    rules: list[dict[str, Any]] | None = None,
) -> list[str]:
    """A compare matrix as a table, a campaign's finding linked in the cells of ``fuzz_links``."""
    labels = [peer.label for peer in peers]
    out = ["| ID | level | " + " | ".join(f"`{label}`" for label in labels) + " |", "|---|---|" + "---|" * len(labels)]
    for rule in result["rules"] if rules is None else rules:
        cells = []
        for label in labels:
            link = check_links.get((label, rule["id"]))
            cells.append(cell(rule["statuses"][label], link, fuzz_links.get((label, rule["id"]))))
        out.append(f"| {rule['id']} | {rule['level']} | " + " | ".join(cells) + " |")
    return [*out, ""]


def campaign_lines(
    fuzzed: dict[str, dict[str, Any]], fuzz_links: dict[tuple[str, str], str], first: str, control: str | None = None
) -> list[str]:
    out = [f"| {first} | cases | messages | failures (profile `spec`) |", "|---|---|---|---|"]
    for label, report in fuzzed.items():
        found = ", ".join(
            f"[{failure['id']}]({fuzz_links[(label, failure['id'])]})"
            if (label, failure["id"]) in fuzz_links
            else failure["id"]
            for failure in report["failures"]
        )
        shown = f"`{label}`" + (" (control)" if label == control else "")
        out.append(f"| {shown} | {report['cases']} | {report['messages']} | {found or 'none'} |")
    return [*out, ""]


def finding_lines(
    spec: dict[str, Any],
    strict: dict[str, Any],
    fuzzed: dict[str, dict[str, Any]],
    peers: list[Peer],
    check_links: dict[tuple[str, str], str],
    fuzz_links: dict[tuple[str, str], str],
    replayed: dict[str, bool],
    heading: str,
    explain: Callable[[str, list[str]], list[str]],
) -> list[str]:
    """One entry per rule that one of ``peers`` fails in either profile or in its campaign."""
    out: list[str] = []
    campaign: dict[tuple[str, str], dict[str, Any]] = {
        (label, failure["id"]): failure for label, report in fuzzed.items() for failure in report["failures"]
    }
    spec_by_id = {rule["id"]: rule for rule in spec["rules"]}
    for rule in strict["rules"]:
        rule_id = rule["id"]
        in_check = [
            peer
            for peer in peers
            if "fail" in (rule["statuses"][peer.label], spec_by_id[rule_id]["statuses"][peer.label])
        ]
        in_campaign = [peer for peer in peers if (peer.label, rule_id) in campaign]
        if not in_check and not in_campaign:
            continue
        mandatory = rule["level"] in ("MUST", "MUST NOT")
        out.append(f"{heading} {rule_id} ({rule['level']})")
        out.append("")
        for peer in peers:
            if peer in in_check:
                # The strict run's findings, or the spec run's when only that one failed (a slow peer
                # can fail a timing-sensitive scenario in one run and not the other).
                seen = rule["findings"][peer.label] or spec_by_id[rule_id]["findings"][peer.label]
                findings = [f for f in seen if f["status"] == "fail"] or seen
                first = findings[0]
                link = check_links.get((peer.label, rule_id), "")
                scenarios = sorted({name for f in findings for name in [f["scenario"], *f.get("also_in", [])]})
                out.append(
                    f"- `{peer.label}`: {'fails' if mandatory else 'diverges (warn in `spec`)'} in "
                    f"{len(scenarios)} scenario(s), first *{first['scenario']}*: {first['message']}; expected "
                    f"{first['expected']}, got `{first['actual'][:160]}`. Reproducer: [{link}]({link}).{confirmed(replayed, link)}"
                )
            if peer in in_campaign:
                failure = campaign[(peer.label, rule_id)]
                link = fuzz_links.get((peer.label, rule_id), "")
                intro = "the campaign found it too" if peer in in_check else "found by the campaign only"
                out.append(
                    f"- `{peer.label}`, {intro}: {failure['message']}; expected {failure['expected']}, got "
                    f"`{str(failure['actual'])[:160]}`. Minimal case: [{link}]({link}).{confirmed(replayed, link)}"
                )
        out += explain(rule_id, [peer.label for peer in peers if peer in in_check or peer in in_campaign])
    return out


def render_modern(modern: dict[str, Any], replayed: dict[str, bool], budget: float, seed: int) -> str:
    """The page of the modern era: its columns, its matrices, its campaigns and its findings."""
    spec, strict, fuzzed = modern["spec"], modern["strict"], modern["fuzzed"]
    check_links, fuzz_links = modern["check_links"], modern["fuzz_links"]
    labels = [peer.label for peer in MODERN_PEERS]
    out = ["# mcpref against the official MCP implementations: the modern era (2026-07-28)", ""]
    out.append(
        "Generated by `make peers` (`tests/peers/make_peers.py`); do not edit by hand. The legacy era, the "
        "columns' servers and their versions: [peers.md](peers.md)."
    )
    out.append("")
    out.append(
        "The 2026-07-28 revision is stateless: there is no `initialize`, every request carries its protocol "
        "version and the client's capabilities in `params._meta`, and `server/discover` tells a client which "
        'era a server speaks (`SPEC_NOTES.md`, "The modern era (2026-07-28)", rules MOD-*). '
        f"`mcpref compare --protocol-version {MODERN}` runs the modern corpus (`mcpref/fuzz/generate/corpus_modern.py`, one scenario per "
        "rule of the era, each ended by a `server/discover` probe, and the follow-ups built from each server's "
        "answers) against three columns, once per profile. "
        "A modern rule is `n/a` for a server that never shows it speaks the era (a DiscoverResult, a result "
        "with `resultType`, or the era's errors -32022 and -32021): such a server has none of its rules to keep, "
        "and its answers are judged as legacy ones."
    )
    out.append("")
    out.append("| column | era | what the column shows |")
    out.append("|---|---|---|")
    for label in labels:
        out.append(f"| `{label}` | {MODERN_COLUMNS[label][0]} | {MODERN_COLUMNS[label][1]} |")
    out.append("")
    out.append(
        "`server-everything` is not run here: it is built on the same TypeScript SDK, which has no modern era. "
        f"Then `mcpref fuzz --protocol-version {MODERN} --budget {budget:g} --seed {seed}` (profile `spec`, a fresh "
        "example database) runs against the Python SDK's server and, as the control, against the reference, "
        "which should give nothing. Reproducers are saved as `docs/repro/<column>/modern-*.json`; they name the "
        "modern era, so `mcpref replay` ends them with the modern probe. Rows where every column is `n/a` (rules "
        "the modern corpus does not exercise) are left out of the tables; the full matrices, with what was sent "
        "and received for every warning and failure, are left by `make peers` in the git-ignored `build/peers/`, "
        "as `peers-modern-spec.html` and `peers-modern-strict.html`."
    )
    out.append("")
    strict_by_id = {rule["id"]: rule for rule in strict["rules"]}
    for title, result in (("Profile `spec`", spec), ("Profile `strict`", strict)):
        shown = [
            rule
            for rule in result["rules"]
            if {rule["statuses"][label] for label in labels} != {"n/a"}
            or {strict_by_id[rule["id"]]["statuses"][label] for label in labels} != {"n/a"}
            or any((label, rule["id"]) in fuzz_links for label in labels)
        ]
        out.append(f"## {title}")
        out.append("")
        out += matrix_lines(result, MODERN_PEERS, check_links, fuzz_links if result is spec else {}, shown)
        if result is spec:
            out.append("`(fuzz)`: the corpus passed the rule, the campaign found a failing case.")
            out.append("")
    unflagged = [
        (rule_id, text)
        for rule_id, text in MODERN_UNFLAGGED.items()
        if strict_by_id[rule_id]["statuses"]["python-sdk"] == "pass"
    ]
    if unflagged:
        out.append(
            "What the tables do not show: the Python SDK's answers differ from the reference's in ways the "
            "specification allows, and which both profiles pass (the modern oracle judges these rules by the shape "
            "of an answer, not by its values):"
        )
        out.append("")
        out += [f"- {rule_id}: {text}" for rule_id, text in unflagged]
        out.append("")
    out.append("## Fuzz campaigns")
    out.append("")
    out += campaign_lines(fuzzed, fuzz_links, "server", control="reference")
    out.append("## Findings")
    out.append("")
    out.append(
        "As for the legacy era: one entry per requirement that a column fails in either profile or in its "
        "campaign, then why it matters and how to read it. A reading says whether the finding is a divergence "
        "of the SDK or a reading the specification allows."
    )
    out.append("")
    out += finding_lines(spec, strict, fuzzed, MODERN_PEERS, check_links, fuzz_links, replayed, "###", modern_why)
    return "\n".join(out).rstrip() + "\n"


def confirmed(replayed: dict[str, bool], link: str) -> str:
    verdict = replayed.get(link)
    if verdict is None:
        return ""
    return " `mcpref replay` confirms it." if verdict else " (`mcpref replay` did not reproduce it: timing-dependent.)"


def why(
    rule_id: str, labels: list[str], impact: dict[str, str], notes: dict[tuple[str, str], str], note: str
) -> list[str]:
    """The impact paragraph of a finding, and the notes that apply to it."""
    lines = ["", f"Why it matters: {impact.get(rule_id, 'see SPEC_NOTES.md.')}"]
    found = [(label, notes[(label, rule_id)]) for label in ["*", *labels] if (label, rule_id) in notes]
    for label, text in found:
        lines += ["", f"{note}{'' if label == '*' else f' (`{label}`)'}: {text}"]
    return [*lines, ""]


def legacy_why(rule_id: str, labels: list[str]) -> list[str]:
    return why(rule_id, labels, IMPACT, NOTES, "Note")


def modern_why(rule_id: str, labels: list[str]) -> list[str]:
    return why(rule_id, labels, {**IMPACT, **MODERN_IMPACT}, MODERN_NOTES, "Reading")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--render-only",
        action="store_true",
        help="rewrite docs/peers.md and docs/peers-modern.md from the last run's results",
    )
    args = parser.parse_args()
    state_file = BUILD / "state.json"
    if args.render_only:
        rerender(state_file)
        return 0
    shutil.rmtree(BUILD, ignore_errors=True)  # fresh campaign directories: a run does not depend on the last
    BUILD.mkdir(parents=True)
    print("make peers: compare, profile spec", flush=True)
    spec_run = compare("spec")
    print("make peers: compare, profile strict", flush=True)
    strict_run = compare("strict")
    spec, strict = spec_run.result, strict_run.result
    shutil.rmtree(REPRO, ignore_errors=True)
    check_links = check_reproducers([spec_run, strict_run])
    fuzzed: dict[str, dict[str, Any]] = {}
    fuzz_links: dict[tuple[str, str], str] = {}
    for peer in PEER_LIST[1:]:
        print(f"make peers: fuzz {peer.label}, {args.budget:g} s, seed {args.seed}", flush=True)
        report = fuzz(peer, args.budget, args.seed)
        fuzzed[peer.label] = report
        for rule, link in fuzz_reproducers(peer, report).items():
            fuzz_links[(peer.label, rule)] = link
    modern = run_modern(args.budget, args.seed)
    print("make peers: replaying the saved reproducers", flush=True)
    by_label = {peer.label: peer for peer in PEER_LIST}
    saved = [*check_links.items(), *fuzz_links.items(), *modern["check_links"].items(), *modern["fuzz_links"].items()]
    replayed = {link: replays(link, by_label[label]) for (label, _), link in saved}
    versions = installed_versions()
    stock = write_stock(
        {"legacy": {"spec": spec, "strict": strict}, "modern": {"spec": modern["spec"], "strict": modern["strict"]}},
        versions,
    )
    state = {
        "spec": spec, "strict": strict, "fuzzed": fuzzed, "replayed": replayed, "versions": versions,
        "budget": args.budget, "seed": args.seed,
        "check_links": {" ".join(key): value for key, value in check_links.items()},
        "fuzz_links": {" ".join(key): value for key, value in fuzz_links.items()},
        "modern": {
            **modern,
            "check_links": {" ".join(key): value for key, value in modern["check_links"].items()},
            "fuzz_links": {" ".join(key): value for key, value in modern["fuzz_links"].items()},
        },
    }  # fmt: skip
    state_file.write_text(json.dumps(state, indent=1))
    page = render(spec, strict, fuzzed, check_links, fuzz_links, replayed, versions, args.budget, args.seed, modern)
    (DOCS / "peers.md").write_text(page)  # the legacy era; the modern one has a page of its own
    MODERN_PAGE.write_text(render_modern(modern, replayed, args.budget, args.seed))
    print(
        f"make peers: wrote docs/peers.md, docs/peers-modern.md, {stock} and {len(saved)} reproducers under "
        "docs/repro/; the HTML matrices are in build/peers/"
    )
    return 0


def rerender(state_file: Path) -> None:
    """The pages written again from the state a run saved (its links' keys joined with a space)."""
    state = json.loads(state_file.read_text())

    def keyed(links: dict[str, str]) -> dict[tuple[str, str], str]:
        return {(key.split(" ", 1)[0], key.split(" ", 1)[1]): value for key, value in links.items()}

    modern = state.get("modern")
    if modern:
        for name in ("check_links", "fuzz_links"):
            modern[name] = keyed(modern[name])
    page = render(
        state["spec"], state["strict"], state["fuzzed"], keyed(state["check_links"]), keyed(state["fuzz_links"]),
        state["replayed"], state["versions"], state["budget"], state["seed"], modern,
    )  # fmt: skip
    (DOCS / "peers.md").write_text(page)
    if modern:
        MODERN_PAGE.write_text(render_modern(modern, state["replayed"], state["budget"], state["seed"]))


# The official SDKs whose stock servers' verdicts ``check --sdk`` compares with (mcpref/fuzz/report/stock.py):
# label -> (the package in installed_versions(), where the SDK takes bug reports).
STOCK = {
    "python-sdk": ("mcp", "https://github.com/modelcontextprotocol/python-sdk/issues"),
    "typescript-sdk": ("@modelcontextprotocol/sdk", "https://github.com/modelcontextprotocol/typescript-sdk/issues"),
}


def write_stock(by_era: dict[str, dict[str, dict[str, Any]]], versions: dict[str, str]) -> str:
    """The package's stock_sdks.json from ``compare`` results (era -> profile -> result); its path."""
    from mcpref.fuzz.report import stock

    entries = {}
    for label, (package, report_to) in STOCK.items():
        statuses = {
            era: {
                profile: {rule["id"]: rule["statuses"][label] for rule in result["rules"]}
                for profile, result in results.items()
            }
            for era, results in by_era.items()
        }
        entries[label] = (f"{package} {versions[package]}", report_to, statuses)
    path = Path(stock.__file__).with_name(stock.PACKAGED)  # beside the module that reads it
    path.write_text(stock.dump(entries))
    return str(path.relative_to(ROOT))


def run_modern(budget: float, seed: int) -> dict[str, Any]:
    """The modern era: its corpus in both profiles over ``MODERN_PEERS``, its campaigns over ``MODERN_FUZZED``."""
    print(f"make peers: compare --protocol-version {MODERN}, profile spec", flush=True)
    spec_run = compare("spec", MODERN_PEERS, MODERN)
    print(f"make peers: compare --protocol-version {MODERN}, profile strict", flush=True)
    strict_run = compare("strict", MODERN_PEERS, MODERN)
    spec, strict = spec_run.result, strict_run.result
    check_links = check_reproducers([spec_run, strict_run], MODERN_PEERS, modern=True)
    fuzzed: dict[str, dict[str, Any]] = {}
    fuzz_links: dict[tuple[str, str], str] = {}
    for peer in MODERN_FUZZED:
        print(f"make peers: fuzz --protocol-version {MODERN} {peer.label}, {budget:g} s, seed {seed}", flush=True)
        report = fuzz(peer, budget, seed, MODERN)
        fuzzed[peer.label] = report
        for rule, link in fuzz_reproducers(peer, report, modern=True).items():
            fuzz_links[(peer.label, rule)] = link
    return {"spec": spec, "strict": strict, "fuzzed": fuzzed, "check_links": check_links, "fuzz_links": fuzz_links}


if __name__ == "__main__":
    raise SystemExit(main())

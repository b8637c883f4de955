"""``make peers``: mcpref against the official SDK servers, written up as ``docs/peers.md``.

Runs ``mcpref compare`` (the fixed corpus of ``mcpref check``) in both profiles against
the reference and the three peer servers, and a fixed-seed ``mcpref fuzz`` campaign
(profile spec) against each peer; saves a reproducer for every failure under
``docs/repro/<peer>/``, checks with ``mcpref replay`` that each still fails, and writes
the matrix and one short text per finding. Work files go to ``build/peers`` (git-ignored).

    .venv/bin/python tests/peers/make_peers.py [--budget SECONDS] [--seed N]

Not part of ``make test``: the campaigns take a few minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from findings import IMPACT, NOTES

ROOT = Path(__file__).resolve().parents[2]
PEERS = ROOT / "tests" / "peers"
DOCS = ROOT / "docs"
REPRO = DOCS / "repro"
BUILD = ROOT / "build" / "peers"
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
    Peer("reference", "mcpref (reference)", [PYTHON, "-m", "mcpref.reference"], [".venv/bin/python", "-m", "mcpref.reference"], "-"),
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


def untraced_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if not key.startswith("COVERAGE_")}


def mcpref(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MCPREF, *args], cwd=ROOT, env=untraced_env(), capture_output=True, text=True, timeout=timeout, check=False
    )


def compare(profile: str) -> dict[str, Any]:
    argv: list[str] = ["compare", "--profile", profile, "--json"]
    for peer in PEER_LIST:
        argv += ["--label", peer.label]
    argv.append("--")
    for index, peer in enumerate(PEER_LIST):
        argv += (["---"] if index else []) + peer.argv
    done = mcpref(*argv)
    if done.returncode not in (0, 1):
        raise SystemExit(f"mcpref compare failed ({done.returncode}): {done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    write_page(result, profile)
    return result


def write_page(result: dict[str, Any], profile: str) -> None:
    """The matrix as a web page, docs/peers-<profile>.html, with the commands as ``shown``."""
    from mcpref.fuzz.html import page

    shown = {peer.label: peer for peer in PEER_LIST}
    text = json.dumps(result)
    for peer in PEER_LIST:
        text = text.replace(json.dumps(shlex.join(peer.argv))[1:-1], json.dumps(shlex.join(peer.shown))[1:-1])
    local = json.loads(text)
    for command in local["commands"]:
        command["command"] = shown[command["label"]].shown
    (DOCS / f"peers-{profile}.html").write_text(page(local, f"mcpref compare, profile {profile}: the official SDKs"))


def fuzz(peer: Peer, budget: float, seed: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix=f"{peer.label}-", dir=BUILD))  # a fresh example database: reproducible
    report = work / "report.json"
    done = mcpref(
        "fuzz", "--budget", str(budget), "--seed", str(seed), "--report", str(report),
        "--campaign-dir", str(work), "--", *peer.argv, timeout=budget + 600,
    )  # fmt: skip
    if not report.exists():
        raise SystemExit(f"mcpref fuzz against {peer.label} wrote no report ({done.returncode}): {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(report.read_text())
    result["repro_dir"] = str(work / "repro")
    return result


def save_reproducer(document: dict[str, Any], peer: Peer, name: str) -> str:
    document = {**document, "command": peer.shown}
    path = REPRO / peer.label / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n")
    return str(path.relative_to(DOCS))


def check_reproducers(results: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """A reproducer per failing (peer, rule): its first failing scenario, a probed one when there is one.

    ``results`` are the compare results, spec first: a rule failing there is saved with that profile.
    """
    sys.path.insert(0, str(ROOT))
    from mcpref.fuzz.corpus import SCENARIOS
    from mcpref.fuzz.oracle import Profile
    from mcpref.fuzz.report import reproducer_json

    by_name = {scenario.name: scenario for scenario in SCENARIOS}
    saved: dict[tuple[str, str], str] = {}
    for result in results:
        profile = Profile(result["profile"])
        for rule in result["rules"]:
            for peer in PEER_LIST:
                key = (peer.label, rule["id"])
                if rule["statuses"][peer.label] != "fail" or key in saved:
                    continue
                names = [f["scenario"] for f in rule["findings"][peer.label] if f["status"] == "fail"]
                probed = [name for name in names if not by_name[name].eof]
                scenario = by_name[(probed or names)[0]]
                text = reproducer_json(rule["id"], profile, peer.argv, scenario.case.chunks, scenario.case.settle)
                document = json.loads(text)
                document["scenario"] = scenario.name
                if scenario.eof:
                    document["note"] = "the scenario ends by closing stdin; mcpref replay probes instead: use mcpref check"
                saved[key] = save_reproducer(document, peer, f"{rule['id']}.json")
    return saved


def fuzz_reproducers(peer: Peer, report: dict[str, Any]) -> dict[str, str]:
    saved: dict[str, str] = {}
    for failure in report["failures"]:
        source = Path(report["repro_dir"]) / f"{failure['id']}.json"
        if source.exists():
            document = json.loads(source.read_text())
            saved[failure["id"]] = save_reproducer(document, peer, f"fuzz-{failure['id']}.json")
    return saved


def replays(path: str, peer: Peer) -> bool | None:
    """Whether ``mcpref replay`` still sees the saved case fail (exit 1); None for an end-of-input case."""
    if "note" in json.loads((DOCS / path).read_text()):
        return None
    return mcpref("replay", str(DOCS / path), "--", *peer.argv, timeout=120).returncode == 1


def installed_versions() -> dict[str, str]:
    from importlib.metadata import version

    versions = {"mcp": version("mcp")}
    for name in ("@modelcontextprotocol/sdk", "@modelcontextprotocol/server-everything", "zod"):
        package = PEERS / "node_modules" / name / "package.json"
        versions[name] = json.loads(package.read_text())["version"] if package.exists() else "not installed"
    node = shutil.which("node")
    versions["node"] = subprocess.run([node, "--version"], capture_output=True, text=True, check=False).stdout.strip() if node else "-"
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
    replayed: dict[str, bool | None],
    versions: dict[str, str],
    budget: float,
    seed: int,
) -> str:
    labels = [peer.label for peer in PEER_LIST]
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
        "Method: `mcpref compare` runs the fixed corpus of `mcpref check` (one scenario per edge case) against "
        "every column, once per profile: `spec` fails only on MUST and MUST NOT rules and warns on the rest, "
        "`strict` fails on every divergence from the reference's documented behaviour. Then "
        f"`mcpref fuzz --budget {budget:g} --seed {seed}` (profile `spec`, a fresh example database) runs "
        "against each peer. Each `fail` links to a reproducer under `docs/repro/`: `mcpref replay FILE` "
        "re-runs it (the saved command is relative to the repository root)."
    )
    out.append("")
    for title, result in (("Profile `spec`", spec), ("Profile `strict`", strict)):
        out.append(f"## {title}")
        out.append("")
        out.append("| ID | level | " + " | ".join(f"`{label}`" for label in labels) + " |")
        out.append("|---|---|" + "---|" * len(labels))
        for rule in result["rules"]:
            cells = []
            for label in labels:
                link = check_links.get((label, rule["id"]))
                fuzz_link = fuzz_links.get((label, rule["id"])) if result is spec else None
                cells.append(cell(rule["statuses"][label], link, fuzz_link))
            out.append(f"| {rule['id']} | {rule['level']} | " + " | ".join(cells) + " |")
        out.append("")
        if result is spec:
            out.append("`(fuzz)`: the corpus passed the rule, the campaign found a failing case.")
            out.append("")
    out.append("## Fuzz campaigns")
    out.append("")
    out.append("| peer | cases | messages | failures (profile `spec`) |")
    out.append("|---|---|---|---|")
    for label, report in fuzzed.items():
        found = ", ".join(
            f"[{failure['id']}]({fuzz_links[(label, failure['id'])]})" if (label, failure["id"]) in fuzz_links else failure["id"]
            for failure in report["failures"]
        )
        out.append(f"| `{label}` | {report['cases']} | {report['messages']} | {found or 'none'} |")
    out.append("")
    out.append("## Findings")
    out.append("")
    out.append(
        "One entry per requirement that a peer fails in either profile: which peers, what the corpus saw (the "
        "first failing scenario), and why it matters to a client. Level and text of each rule: `SPEC_NOTES.md`."
    )
    out.append("")
    campaign: dict[tuple[str, str], dict[str, Any]] = {
        (label, failure["id"]): failure for label, report in fuzzed.items() for failure in report["failures"]
    }
    spec_by_id = {rule["id"]: rule for rule in spec["rules"]}
    for rule in strict["rules"]:
        rule_id = rule["id"]
        in_check = [peer for peer in PEER_LIST[1:] if "fail" in (rule["statuses"][peer.label], spec_by_id[rule_id]["statuses"][peer.label])]
        in_campaign = [peer for peer in PEER_LIST[1:] if (peer.label, rule_id) in campaign]
        if not in_check and not in_campaign:
            continue
        mandatory = rule["level"] in ("MUST", "MUST NOT")
        out.append(f"### {rule_id} ({rule['level']})")
        out.append("")
        for peer in PEER_LIST[1:]:
            if peer in in_check:
                # The strict run's findings, or the spec run's when only that one failed (a slow peer
                # can fail a timing-sensitive scenario in one run and not the other).
                seen = rule["findings"][peer.label] or spec_by_id[rule_id]["findings"][peer.label]
                findings = [f for f in seen if f["status"] == "fail"] or seen
                first = findings[0]
                link = check_links.get((peer.label, rule_id), "")
                scenarios = sorted({finding["scenario"] for finding in findings})
                out.append(
                    f"- `{peer.label}`: {'fails' if mandatory else 'diverges (warn in `spec`)'} in "
                    f"{len(scenarios)} corpus scenario(s), first *{first['scenario']}*: {first['message']}; expected "
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
        out += why(rule_id, [peer.label for peer in PEER_LIST[1:] if peer in in_check or peer in in_campaign])
    return "\n".join(out).rstrip() + "\n"


def confirmed(replayed: dict[str, bool | None], link: str) -> str:
    verdict = replayed.get(link)
    if verdict is None:
        return " (It ends by closing stdin: `mcpref check` shows it, `mcpref replay` cannot.)"
    return " `mcpref replay` confirms it." if verdict else " (`mcpref replay` did not reproduce it: timing-dependent.)"


def why(rule_id: str, labels: list[str]) -> list[str]:
    """The impact paragraph of a finding, and the notes that apply to it."""
    lines = ["", f"Why it matters: {IMPACT.get(rule_id, 'see SPEC_NOTES.md.')}"]
    notes = [(label, NOTES[(label, rule_id)]) for label in ["*", *labels] if (label, rule_id) in NOTES]
    for label, note in notes:
        lines += ["", f"Note{'' if label == '*' else f' (`{label}`)'}: {note}"]
    return [*lines, ""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--render-only", action="store_true", help="rewrite docs/peers.md from the last run's results")
    args = parser.parse_args()
    state_file = BUILD / "state.json"
    if args.render_only:
        state = json.loads(state_file.read_text())
        links = {tuple(key.split(" ", 1)): value for key, value in state["check_links"].items()}
        fuzz_links = {tuple(key.split(" ", 1)): value for key, value in state["fuzz_links"].items()}
        page = render(
            state["spec"], state["strict"], state["fuzzed"], links, fuzz_links,
            state["replayed"], state["versions"], state["budget"], state["seed"],
        )  # fmt: skip
        (DOCS / "peers.md").write_text(page)
        return 0
    shutil.rmtree(BUILD, ignore_errors=True)  # fresh campaign directories: a run does not depend on the last
    BUILD.mkdir(parents=True)
    print("make peers: compare, profile spec", flush=True)
    spec = compare("spec")
    print("make peers: compare, profile strict", flush=True)
    strict = compare("strict")
    shutil.rmtree(REPRO, ignore_errors=True)
    check_links = check_reproducers([spec, strict])
    fuzzed: dict[str, dict[str, Any]] = {}
    fuzz_links: dict[tuple[str, str], str] = {}
    for peer in PEER_LIST[1:]:
        print(f"make peers: fuzz {peer.label}, {args.budget:g} s, seed {args.seed}", flush=True)
        report = fuzz(peer, args.budget, args.seed)
        fuzzed[peer.label] = report
        for rule, link in fuzz_reproducers(peer, report).items():
            fuzz_links[(peer.label, rule)] = link
    print("make peers: replaying the saved reproducers", flush=True)
    by_label = {peer.label: peer for peer in PEER_LIST}
    replayed = {link: replays(link, by_label[label]) for (label, _), link in [*check_links.items(), *fuzz_links.items()]}
    versions = installed_versions()
    state = {
        "spec": spec, "strict": strict, "fuzzed": fuzzed, "replayed": replayed, "versions": versions,
        "budget": args.budget, "seed": args.seed,
        "check_links": {" ".join(key): value for key, value in check_links.items()},
        "fuzz_links": {" ".join(key): value for key, value in fuzz_links.items()},
    }  # fmt: skip
    state_file.write_text(json.dumps(state, indent=1))
    page = render(spec, strict, fuzzed, check_links, fuzz_links, replayed, versions, args.budget, args.seed)
    (DOCS / "peers.md").write_text(page)
    print(f"make peers: wrote docs/peers.md and {len(check_links) + len(fuzz_links)} reproducers under docs/repro/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

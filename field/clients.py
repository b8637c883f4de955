"""``make field-clients``: published MCP clients under ``mcpref check-client``, and their triage.

    python field/clients.py [--render-only | --only LABEL...]

The clients, each pinned exactly and installed into the git-ignored ``.field/``: the official
Inspector's command-line mode and OpenAI's Codex CLI (npm ``@modelcontextprotocol/inspector`` and
``@openai/codex``, pinned with their lock in ``field/client-pins/``, in ``.field/clients``; Codex
through the driver ``field/codex_client.py``); FastMCP's own command-line client ``fastmcp call``
(PyPI, the venv of ``make field``'s FastMCP target); chuk-mcp, a Python MCP implementation with
its own stdio transport (PyPI, ``.field/py-chuk``, through ``field/chuk_client.py``); and the
official Python and TypeScript SDK clients through the small drivers of ``tests/peers/`` (the
SDKs pinned as ``make test`` installs them). Each runs every scenario of ``check-client`` in both
profiles, isolated from the network as ``make field`` isolates its targets (``isolation.py``).
Written: ``docs/field-clients.json`` (the results, read back by ``--render-only`` and by
``report.py``), ``docs/field-clients.md`` (the page: every finding with its reproducer and its
triage, from ``field/clients-triage.toml``) and the "Clients" section of
``docs/field-report.md``. A finding without a triage entry, or an entry no finding needs, makes
the exit status 1, but for an entry marked ``intermittent``: a finding some runs show.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from fieldlib import DOCS, MCPREF, REPORT, ROOT, SOURCE, WORK
from install import install_venv
from isolation import environment, isolation, prefixed
from targets import TARGETS, Target

PINS = SOURCE / "client-pins"
NODE = WORK / "clients"
RESULTS = DOCS / "field-clients.json"
PAGE = DOCS / "field-clients.md"
TRIAGE = SOURCE / "clients-triage.toml"
PEERS = ROOT / "tests" / "peers"
PROFILES = ("spec", "strict")
SECTION = "## Clients"
RELATIVE = "field-clients.md"  # the page, from the report
# FastMCP's client comes with make field's FastMCP target: one venv, one pin, for both.
FASTMCP = next(target for target in TARGETS if target.label == "fastmcp")
# chuk-mcp and everything it installs (its optional pydantic left out, as pip leaves it).
CHUK = Target("chuk-mcp", "chuk-mcp", "PyPI", [], venv="py-chuk", pins=(
    "chuk-mcp==0.9.4", "anyio==4.16.0", "certifi==2026.10.19.post1", "h11==0.16.0", "httpcore==1.0.9",
    "httpx==0.29.0", "idna==3.21", "typing_extensions==4.16.0"))  # fmt: skip


@dataclass(frozen=True)
class Client:
    label: str
    stack: str
    transport: str  # what reads and writes the pipes, as the client's source shows
    argv: list[str]  # the template, paths relative to the repository
    shown: list[str]  # the same as a reader types it


def clients() -> list[Client]:
    bins = str((NODE / "node_modules" / ".bin").relative_to(ROOT))
    call = ["--cli", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=hi", "--", "{server}"]
    python = [str(PEERS.relative_to(ROOT) / "python_client.py"), "--mode", "auto", "--", "{server}"]
    typescript = [str(PEERS.relative_to(ROOT) / "ts_client.mjs"), "default", "--", "{server}"]
    fastmcp = [
        f".field/{FASTMCP.venv}/bin/fastmcp",
        "call",
        "--command={server}",
        "--target",
        "echo",
        "--input-json",
        '{"text": "hi"}',
    ]
    chuk = [f".field/{CHUK.venv}/bin/python", "field/chuk_client.py", "--", "{server}"]
    codex = ["field/codex_client.py", "--", "{server}"]
    modern = ["field/codex_client.py", "--protocol-version", "2026-07-28", "--", "{server}"]
    sdk = "the TypeScript SDK's `StdioClientTransport`"
    return [
        Client("inspector-cli", f"TypeScript, {_npm_version('@modelcontextprotocol/inspector', NODE)}", sdk,
               [f"{bins}/mcp-inspector", *call], [f"{bins}/mcp-inspector", *call]),
        Client("python-sdk-client", f"Python, mcp {_pypi_version('mcp')}", "the Python SDK's `stdio_client`",
               [sys.executable, *python], ["python", *python]),
        Client("typescript-sdk-client", f"TypeScript, {_npm_version('@modelcontextprotocol/sdk', PEERS)}", sdk,
               ["node", *typescript], ["node", *typescript]),
        Client("fastmcp-cli", f"Python, fastmcp {_venv_version(FASTMCP, 'fastmcp')} (its `Client`) on mcp "
               f"{_venv_version(FASTMCP, 'mcp')}", "the Python SDK's `stdio_client`, under FastMCP's `StdioTransport`",
               fastmcp, fastmcp),
        Client("chuk-mcp", f"Python, chuk-mcp {_venv_version(CHUK, 'chuk-mcp')} (no official SDK)",
               "its own (`chuk_mcp.transports.stdio`, on anyio)", chuk, chuk),
        Client("codex", f"Rust, {_npm_version('@openai/codex', NODE)} (`codex app-server`), on rmcp",
               "rmcp's `AsyncRwTransport` on the pipes of the child Codex starts (its legacy mode; Codex's own "
               "`BoundedStdioTransport` serves only 2026-07-28)", [sys.executable, *codex], ["python", *codex]),
        Client("codex-2026-07-28", f"Rust, {_npm_version('@openai/codex', NODE)} (`codex app-server`, its 2026-07-28 "
               "mode), on rmcp", "Codex's own `BoundedStdioTransport` (`rmcp-client`) under rmcp's service layer",
               [sys.executable, *modern], ["python", *modern]),
    ]  # fmt: skip


def _npm_version(package: str, folder: Path) -> str:
    manifest = folder / "node_modules" / package / "package.json"
    version = json.loads(manifest.read_text())["version"] if manifest.exists() else "not installed"
    return f"{package} {version}"


def _pypi_version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _venv_version(target: Target, package: str) -> str:
    found = metadata.distributions(
        name=package, path=[str(p) for p in (WORK / str(target.venv)).glob("lib/*/site-packages")]
    )
    return next((dist.version for dist in found), "not installed")


def install() -> None:
    """``npm ci`` of the pins into ``.field/clients``, again only when they change; the PyPI
    clients' venvs, again only when their pins change."""
    for target in (FASTMCP, CHUK):
        print(f"make field-clients: .field/{target.venv} (installed unless its pins are)", file=sys.stderr)
        install_venv(target)
    stamp = NODE / ".installed"
    wanted = (PINS / "package-lock.json").read_text()
    if stamp.exists() and stamp.read_text() == wanted:
        return
    shutil.rmtree(NODE, ignore_errors=True)
    NODE.mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy(PINS / name, NODE / name)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=NODE, check=True)
    stamp.write_text(wanted)


def run_all(only: list[str] | None) -> dict[str, object]:
    """Every client (or those of ``only``, the others kept from the last run) in both profiles,
    each check inside the network isolation of ``make field``."""
    kept = json.loads(RESULTS.read_text()) if only and RESULTS.exists() else {}
    results: dict[str, object] = {}
    for client in clients():
        if only and client.label not in only:
            if client.label in kept:
                results[client.label] = kept[client.label]
            continue
        checks, started = {}, time.monotonic()
        for profile in PROFILES:
            print(f"make field-clients: {client.label}, profile {profile}", file=sys.stderr)
            argv = prefixed([*MCPREF, "check-client", "--json", "--profile", profile, "--", *client.argv])
            done = subprocess.run(argv, cwd=ROOT, env=environment(), capture_output=True, check=False)
            if done.returncode not in (0, 1):
                raise SystemExit(f"make field-clients: {client.label}: {done.stderr.decode()[-2000:]}")
            checks[profile] = json.loads(portable(done.stdout.decode()))["rules"]
        results[client.label] = {"stack": client.stack, "transport": client.transport, "command": client.shown,
                                 "seconds": round(time.monotonic() - started), "isolation": isolation()[2],
                                 "checks": checks}  # fmt: skip
    return results


def portable(text: str) -> str:
    """``text`` with this machine's paths as a reader of the repository types them."""
    return text.replace(json.dumps(sys.executable)[1:-1], "python").replace(json.dumps(str(ROOT) + "/")[1:-1], "")


def findings(results: dict[str, object]) -> list[dict[str, object]]:
    """Every rule a client does not pass in some profile: the worst profile's finding, once."""
    out = []
    for label, result in results.items():
        assert isinstance(result, dict)
        spec, strict = (result["checks"][profile] for profile in PROFILES)
        for spec_row, strict_row in zip(spec, strict, strict=True):
            if strict_row["status"] in ("pass", "untested", "n/a"):
                continue
            first = strict_row["findings"][0]
            out.append({"client": label, "rule": strict_row["id"], "level": strict_row["level"],
                        "spec": spec_row["status"], "strict": strict_row["status"], "scenario": first["scenario"],
                        "message": first["message"], "reproducer": first["reproducer"]})  # fmt: skip
    return out


def triage() -> dict[tuple[str, str], dict[str, str]]:
    entries = tomllib.loads(TRIAGE.read_text())["finding"]
    return {(entry["client"], entry["rule"]): entry for entry in entries}


def section(results: dict[str, object], link: str) -> list[str]:
    """The "Clients" section of the field report: a row per client."""
    found = findings(results)
    out = [SECTION, "", f"Published MCP clients under `mcpref check-client`, both profiles: [the clients' page]({link}), "
           "written by `make field-clients` (`field/clients.py`).", "",
           "| client | stack | stdio transport | fail (spec) | warn (spec) | rules with a finding |",
           "|---|---|---|---|---|---|"]  # fmt: skip
    for label, result in results.items():
        assert isinstance(result, dict)
        mine = [f for f in found if f["client"] == label]
        fails = sum(1 for f in mine if f["spec"] == "fail")
        warns = sum(1 for f in mine if f["spec"] == "warn")
        rules = ", ".join(f"{f['rule']} ({f['spec']}, strict {f['strict']})" for f in mine) or "-"
        out.append(f"| `{label}` | {result['stack']} | {result.get('transport', '-')} | {fails} | {warns} | {rules} |")
    return [*out, ""]


def page(results: dict[str, object]) -> str:
    known = triage()
    out = ["# mcpref in the field: MCP clients", "",
           "Generated by `make field-clients` (`field/clients.py`); do not edit by hand (the triage comes from "
           "`field/clients-triage.toml`). Each client ran every scenario of `mcpref check-client` in both "
           "profiles; a reproducer below runs its scenario again, from the repository, once `make field-clients` "
           "has installed the pins.", ""]  # fmt: skip
    out += section(results, RELATIVE)[4:]  # the table, without the report's heading and link
    for label, result in results.items():
        assert isinstance(result, dict)
        out += [f"## `{label}`", "", f"{result['stack']}: `{shlex.join(result['command'])}`", ""]
        if "seconds" in result:
            out += [f"Both profiles in {result['seconds']} s, inside {result['isolation']}.", ""]
        untested = [row for row in result["checks"]["strict"] if row["status"] == "untested"]
        if untested:
            out += [
                f"Untested ({len(untested)}): " + "; ".join(f"{row['id']}: {row['reason']}" for row in untested) + ".",
                "",
            ]
        mine = [f for f in findings(results) if f["client"] == label]
        seen = {str(f["rule"]) for f in mine}
        quiet = [(rule, entry) for (client, rule), entry in known.items() if client == label and entry.get("intermittent") and rule not in seen]
        if not mine:
            out += ["Every rule passes, or was not exercised, in both profiles.", ""]
        for rule, entry in quiet:
            out += [f"### {rule}: not seen in this run (intermittent)", "", f"Triage: **{entry['verdict']}**. {entry['why']}", ""]
        for finding in mine:
            entry = known.get((label, str(finding["rule"])), {})
            out += [f"### {finding['rule']} ({finding['level']}): {finding['spec']} under spec, {finding['strict']} under strict",
                    "", f"Scenario *{finding['scenario']}*: {finding['message']}", "", "```sh",
                    str(finding["reproducer"]), "```", "",
                    f"Triage: **{entry.get('verdict', 'untriaged')}**. {entry.get('why', '')}".rstrip(), ""]  # fmt: skip
    return "\n".join(out).rstrip() + "\n"


def write(results: dict[str, object]) -> int:
    PAGE.write_text(page(results))
    text = REPORT.read_text()  # the section replaced, or put before "More", as report.py writes it
    if f"\n{SECTION}\n" in text:
        start = text.index(f"\n{SECTION}\n") + 1
        end = text.index("\n## ", start) + 1
    else:
        start = end = text.index("## More")
    REPORT.write_text(text[:start] + "\n".join(section(results, RELATIVE)) + "\n" + text[end:])
    keys = {(str(f["client"]), str(f["rule"])) for f in findings(results)}
    # An intermittent finding's entry stays when a run did not show it (the page says so).
    untriaged, unused = keys - set(triage()), {key for key, entry in triage().items() if not entry.get("intermittent")} - keys
    for client, rule in sorted(untriaged):
        print(f"make field-clients: untriaged: {client} {rule}", file=sys.stderr)
    for client, rule in sorted(unused):
        print(f"make field-clients: a triage entry no finding needs: {client} {rule}", file=sys.stderr)
    print(f"make field-clients: wrote {PAGE.relative_to(ROOT)} and the clients of {REPORT.relative_to(ROOT)}")
    return 1 if untriaged or unused else 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="field/clients.py")
    parser.add_argument("--render-only", action="store_true", help=f"run nothing: write the pages from {RESULTS.name}")
    parser.add_argument("--only", nargs="+", metavar="LABEL", help="run only these clients; keep the others' results")
    args = parser.parse_args()
    if args.render_only:
        return write(json.loads(RESULTS.read_text()))
    install()
    results = run_all(args.only)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    return write(results)


if __name__ == "__main__":
    sys.exit(main())

"""``make field-clients``: published MCP clients under ``mcpref check-client``, and their triage.

    python field/clients.py [--render-only]

The clients: the official Inspector's command-line mode (npm ``@modelcontextprotocol/inspector``,
pinned with its lock in ``field/client-pins/``, installed into the git-ignored
``.field/clients``), and the official Python and TypeScript SDK clients through the small drivers
of ``tests/peers/`` (the SDKs pinned as ``make test`` installs them). Each runs every scenario of
``check-client`` in both profiles. Written: ``docs/field-clients.json`` (the results, read back by
``--render-only`` and by ``report.py``), ``docs/field-clients.md`` (the page: every finding with
its reproducer and its triage, from ``field/clients-triage.toml``) and the "Clients" section of
``docs/field-report.md``. A finding without a triage entry, or an entry no finding needs, makes
the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from fieldlib import DOCS, MCPREF, REPORT, ROOT, SOURCE, WORK

PINS = SOURCE / "client-pins"
NODE = WORK / "clients"
RESULTS = DOCS / "field-clients.json"
PAGE = DOCS / "field-clients.md"
TRIAGE = SOURCE / "clients-triage.toml"
PEERS = ROOT / "tests" / "peers"
PROFILES = ("spec", "strict")
SECTION = "## Clients"
RELATIVE = "field-clients.md"  # the page, from the report


@dataclass(frozen=True)
class Client:
    label: str
    stack: str
    argv: list[str]  # the template, paths relative to the repository
    shown: list[str]  # the same as a reader types it


def clients() -> list[Client]:
    inspector = str((NODE / "node_modules" / ".bin" / "mcp-inspector").relative_to(ROOT))
    call = ["--cli", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=hi", "--", "{server}"]
    python = [str(PEERS.relative_to(ROOT) / "python_client.py"), "--mode", "auto", "--", "{server}"]
    typescript = [str(PEERS.relative_to(ROOT) / "ts_client.mjs"), "default", "--", "{server}"]
    return [
        Client("inspector-cli", f"TypeScript, {_npm_version('@modelcontextprotocol/inspector', NODE)}", [inspector, *call],
               [inspector, *call]),
        Client("python-sdk-client", f"Python, mcp {_pypi_version('mcp')}", [sys.executable, *python], ["python", *python]),
        Client("typescript-sdk-client", f"TypeScript, {_npm_version('@modelcontextprotocol/sdk', PEERS)}",
               ["node", *typescript], ["node", *typescript]),
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


def install() -> None:
    """``npm ci`` of the pins into ``.field/clients``, again only when they change."""
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


def run_all() -> dict[str, object]:
    results: dict[str, object] = {}
    for client in clients():
        checks = {}
        for profile in PROFILES:
            print(f"make field-clients: {client.label}, profile {profile}", file=sys.stderr)
            done = subprocess.run([*MCPREF, "check-client", "--json", "--profile", profile, "--", *client.argv],
                                  cwd=ROOT, capture_output=True, check=False)  # fmt: skip
            if done.returncode not in (0, 1):
                raise SystemExit(f"make field-clients: {client.label}: {done.stderr.decode()[-2000:]}")
            checks[profile] = json.loads(portable(done.stdout.decode()))["rules"]
        results[client.label] = {"stack": client.stack, "command": client.shown, "checks": checks}
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
           "| client | stack | fail (spec) | warn (spec) | rules with a finding |", "|---|---|---|---|---|"]  # fmt: skip
    for label, result in results.items():
        assert isinstance(result, dict)
        mine = [f for f in found if f["client"] == label]
        fails = sum(1 for f in mine if f["spec"] == "fail")
        warns = sum(1 for f in mine if f["spec"] == "warn")
        rules = ", ".join(f"{f['rule']} ({f['spec']}, strict {f['strict']})" for f in mine) or "-"
        out.append(f"| `{label}` | {result['stack']} | {fails} | {warns} | {rules} |")
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
        untested = [row for row in result["checks"]["strict"] if row["status"] == "untested"]
        if untested:
            out += [f"Untested ({len(untested)}): " + "; ".join(f"{row['id']}: {row['reason']}" for row in untested) + ".", ""]
        mine = [f for f in findings(results) if f["client"] == label]
        if not mine:
            out += ["Every rule passes, or was not exercised, in both profiles.", ""]
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
    untriaged, unused = keys - set(triage()), set(triage()) - keys
    for client, rule in sorted(untriaged):
        print(f"make field-clients: untriaged: {client} {rule}", file=sys.stderr)
    for client, rule in sorted(unused):
        print(f"make field-clients: a triage entry no finding needs: {client} {rule}", file=sys.stderr)
    print(f"make field-clients: wrote {PAGE.relative_to(ROOT)} and the clients of {REPORT.relative_to(ROOT)}")
    return 1 if untriaged or unused else 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="field/clients.py")
    parser.add_argument("--render-only", action="store_true", help=f"run nothing: write the pages from {RESULTS.name}")
    args = parser.parse_args()
    if args.render_only:
        return write(json.loads(RESULTS.read_text()))
    install()
    results = run_all()
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    return write(results)


if __name__ == "__main__":
    sys.exit(main())

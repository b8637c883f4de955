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
or warn) and replayed with ``mcpref replay``; a finding of a scenario that ends by closing stdin
(which ``replay`` cannot do) is replayed by this script with the scenario's own end of input.
With ``--runs 2`` the whole thing runs twice and the verdict tables are compared.

    .venv/bin/python field/make_field.py [--seed N] [--max-cases N] [--runs N] [--only LABEL ...]

Work files go to ``.field/runs/``. ``field/triage.md`` (hand-written) becomes the report's
"Triage (draft)" section. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "field"
WORK = ROOT / ".field"
RUNS = WORK / "runs"
DOCS = ROOT / "docs"
REPRO = DOCS / "field-repro"
REPORT = DOCS / "field-report.md"
TRIAGE = SOURCE / "triage.md"  # the triage's prose: method, oracle errors found and fixed, observations
TRIAGE_TABLE = SOURCE / "triage.toml"  # one entry per kind of finding; every finding must match one
PYTHON = sys.executable
MCPREF = [PYTHON, "-m", "mcpref"]
MODERN = "2026-07-28"
MEASUREMENT = "measurement"  # the level of a rule that reports a time, not a verdict
ERAS = ("legacy", "modern")
PROFILES = ("spec", "strict")
NODE_DIR = WORK / "node"
NODE_MODULES = ".field/node/node_modules"
REPLAYS = 4  # reproducers replayed side by side (a verdict does not depend on the machine's load)
# The probes beside the runs (field/<script> and its arguments), each written to .field/runs/<stem>.txt,
# and their sections of the report.
PROBES = {"version_probe.py": [], "eof_probe.py": ["--repeat", "5"]}
PROBE_SECTIONS = {
    "version_probe.py": (
        "Versions answered, and what comes before the answer",
        "Each target gets `initialize` alone for each version asked, its answer awaited with stdin open, then "
        "`notifications/initialized` and `tools/list`: the version answered, the server's own requests and "
        "notifications before its initialize answer (LIFE-SERVER-EARLY), and the Tool fields it lists beyond "
        "`name`, `description` and `inputSchema` (TOOLS-LIST-SHAPE judges them against the version answered).",
    ),
    "eof_probe.py": (
        "Replies owed at end of input",
        "Each target gets `initialize` (2025-11-25), `notifications/initialized`, `tools/list` (id 1) and a "
        "call of one of its own tools (id 2) in one write, then its stdin is closed; five runs each, inside "
        "the same network namespace. Every answer listed is owed (STDIO-EOF-DRAIN; RPC-ONE-ANSWER).",
    ),
}


@dataclass(frozen=True)
class Target:
    label: str
    title: str
    source: str  # registry and pinned packages, for the report
    argv: list[str]  # relative to the repository root
    venv: str | None = None  # .field/<venv> for a PyPI target
    pins: tuple[str, ...] = ()
    stack: str = ""
    env: dict[str, str] = field(default_factory=dict)


TARGETS = [
    Target(
        "mcp-server-time",
        "`mcp-server-time` (reference servers, Python)",
        "PyPI `mcp-server-time==2026.10.19`, `mcp==2.3.0`",
        [".field/py-time/bin/mcp-server-time", "--local-timezone", "UTC"],
        venv="py-time",
        pins=("mcp-server-time==2026.10.19", "mcp==2.3.0"),
        stack="Python SDK `mcp` 2.3.0 (low-level `Server`)",
    ),
    Target(
        "mcp-server-git",
        "`mcp-server-git` (reference servers, Python)",
        "PyPI `mcp-server-git==2026.10.19`, `mcp==2.3.0`",
        [".field/py-git/bin/mcp-server-git", "--repository", ".field/repo"],
        venv="py-git",
        pins=("mcp-server-git==2026.10.19", "mcp==2.3.0"),
        stack="Python SDK `mcp` 2.3.0 (low-level `Server`)",
    ),
    Target(
        "fastmcp",
        "FastMCP, ten-line server `field/fastmcp_server.py` (tool `add`)",
        "PyPI `fastmcp==4.2.3`",
        [".field/py-fastmcp/bin/python", "field/fastmcp_server.py"],
        venv="py-fastmcp",
        pins=("fastmcp==4.2.3",),
        stack="FastMCP 4.2.3 on the Python SDK",
    ),
    Target(
        "server-memory",
        "`@modelcontextprotocol/server-memory` (reference servers, TypeScript)",
        "npm `@modelcontextprotocol/server-memory@2026.8.31`",
        # MEMORY_FILE_PATH, when relative, is taken from the package's dist/ folder: this one is
        # .field/node/memory.jsonl, whatever the working directory.
        [
            "env",
            "MEMORY_FILE_PATH=../../../../memory.jsonl",
            "node",
            f"{NODE_MODULES}/@modelcontextprotocol/server-memory/dist/index.js",
        ],
        stack="TypeScript SDK `@modelcontextprotocol/sdk`",
    ),
    Target(
        "server-sequential-thinking",
        "`@modelcontextprotocol/server-sequential-thinking` (reference servers, TypeScript)",
        "npm `@modelcontextprotocol/server-sequential-thinking@2026.8.31`",
        ["node", f"{NODE_MODULES}/@modelcontextprotocol/server-sequential-thinking/dist/index.js"],
        stack="TypeScript SDK `@modelcontextprotocol/sdk`",
    ),
    Target(
        "mcp-time-go",
        "`mcp-time` (Go, mark3labs/mcp-go), npm binary package",
        "npm `mcp-time-linux-x64@0.4.0`",
        [f"{NODE_MODULES}/mcp-time-linux-x64/bin/mcp-time", "--transport", "stdio"],
        stack="Go `mark3labs/mcp-go`",
    ),
    Target(
        "server-everything",
        "`@modelcontextprotocol/server-everything` (reference servers, TypeScript)",
        "npm `@modelcontextprotocol/server-everything@2026.8.31`",
        # Its tool get-env answers with its whole environment, which the saved transcripts would keep:
        # it gets an empty one, but for PATH.
        [
            "env",
            "-i",
            "PATH=/usr/local/bin:/usr/bin:/bin",
            "node",
            f"{NODE_MODULES}/@modelcontextprotocol/server-everything/dist/index.js",
            "stdio",
        ],
        stack="TypeScript SDK `@modelcontextprotocol/sdk`",
    ),
    Target(
        "server-filesystem",
        "`@modelcontextprotocol/server-filesystem` (reference servers, TypeScript), on `.field/files`",
        "npm `@modelcontextprotocol/server-filesystem@2026.8.31`",
        ["node", f"{NODE_MODULES}/@modelcontextprotocol/server-filesystem/dist/index.js", ".field/files"],
        stack="TypeScript SDK `@modelcontextprotocol/sdk`",
    ),
    Target(
        "kubernetes-go",
        "`kubernetes-mcp-server` (Go, official Go SDK), npm binary package, read-only, a kubeconfig with no cluster",
        "npm `kubernetes-mcp-server-linux-amd64@0.0.67`",
        # .field/kubeconfig (made by make_kubeconfig) names a cluster at 127.0.0.1:9, unreachable in the
        # network namespace: the server starts and lists its tools, and every call of one fails.
        [
            f"{NODE_MODULES}/kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64",
            "--kubeconfig",
            ".field/kubeconfig",
            "--read-only",
        ],
        stack="Go `modelcontextprotocol/go-sdk` v1.8.0",
    ),
    Target(
        "prometheus-go",
        "`mcp-prometheus` (Go, official Go SDK), npm binary package, a Prometheus URL that does not answer",
        "npm `mcp-prometheus-linux-amd64@2.1.1`",
        [f"{NODE_MODULES}/mcp-prometheus-linux-amd64/bin/mcp-prometheus-linux-amd64", "--url", "http://127.0.0.1:9"],
        stack="Go `modelcontextprotocol/go-sdk` v1.2.0",
    ),
    Target(
        "cortex-rust",
        "`cortex-mcp` (Temporal Cortex, Rust, rmcp), npm binary package, no calendar provider",
        "npm `@temporal-cortex/cortex-mcp-linux-x64@0.9.1`",
        # Its settings go to $HOME/.config/temporal-cortex: a HOME of its own under .field/.
        ["env", "HOME=.field/home", f"{NODE_MODULES}/@temporal-cortex/cortex-mcp-linux-x64/bin/cortex-mcp"],
        stack="Rust `rmcp` 1.1.1 (the official Rust SDK)",
    ),
    Target(
        "azure-csharp",
        "Azure MCP Server (`azmcp`, C#), npm binary package, read-only, no Azure credentials",
        "npm `@azure/mcp-linux-x64@2.0.5`",
        [
            "env",
            "HOME=.field/home",
            "AZURE_MCP_COLLECT_TELEMETRY=false",
            f"{NODE_MODULES}/@azure/mcp-linux-x64/dist/azmcp",
            "server",
            "start",
            "--read-only",
        ],
        stack="C# SDK `ModelContextProtocol` (ModelContextProtocol.Core 1.0.0)",
    ),
]


# ---------------------------------------------------------------------------------------------
# Isolation from the network


def isolation() -> tuple[list[str], dict[str, str], str]:
    """The prefix every command runs under, the extra environment, and a sentence for the report."""
    try:
        works = (
            subprocess.run(["unshare", "--net", "true"], capture_output=True, check=False, timeout=30).returncode == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        works = False
    if works:
        return (
            ["unshare", "--net", "--"],
            {},
            "a fresh network namespace (`unshare --net --`), with only a loopback that is down",
        )
    dead = "http://127.0.0.1:9"
    env = {name: dead for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy")}
    env.update({"NO_PROXY": "", "no_proxy": "", "npm_config_offline": "true"})
    return [], env, "proxies pointed at 127.0.0.1:9 (`unshare --net` is not permitted here): weaker isolation"


PREFIX, ISOLATION_ENV, ISOLATION_TEXT = isolation()


def environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("COVERAGE_")}
    env.update(ISOLATION_ENV)
    return env


def isolated(argv: list[str], timeout: float) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run(
        [*PREFIX, *argv], cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=timeout, check=False
    )
    return done, time.monotonic() - started


# ---------------------------------------------------------------------------------------------
# Installation


def run(argv: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"make field: {shlex.join(argv)} failed ({done.returncode}):\n{done.stderr[-3000:]}")


def size_of(path: Path) -> int:
    total = 0
    for item in path.rglob("*"):
        if item.is_file() and not item.is_symlink():
            total += item.stat().st_size
    return total


def install_venv(target: Target) -> dict[str, Any]:
    assert target.venv is not None
    venv = WORK / target.venv
    stamp = venv / ".field-installed"
    wanted = "\n".join(target.pins) + "\n"
    started = time.monotonic()
    fresh = not (stamp.exists() and stamp.read_text() == wanted)
    if fresh:
        shutil.rmtree(venv, ignore_errors=True)
        base = getattr(sys, "_base_executable", None) or shutil.which("python3") or PYTHON
        run([base, "-m", "venv", str(venv)])
        pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "--quiet"]
        run([*pip, "install", "--only-binary", ":all:", *target.pins])
        stamp.write_text(wanted)
    seconds = time.monotonic() - started
    listing = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "list", "--format", "json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    versions = {item["name"].lower(): item["version"] for item in json.loads(listing.stdout)}
    shown = {
        name: versions[name]
        for name in ("mcp", "mcp-types", "fastmcp", "mcp-server-time", "mcp-server-git", "pydantic", "anyio")
        if name in versions
    }
    return {
        "where": f".field/{target.venv}",
        "fresh": fresh,
        "seconds": round(seconds, 1),
        "bytes": size_of(venv),
        "versions": shown,
    }


def install_node() -> dict[str, Any]:
    lock = (SOURCE / "package-lock.json").read_bytes()
    manifest = (SOURCE / "package.json").read_bytes()
    digest = hashlib.sha256(manifest + lock).hexdigest()
    stamp = NODE_DIR / "node_modules" / ".field-installed"
    started = time.monotonic()
    fresh = not (stamp.exists() and stamp.read_text() == digest)
    if fresh:
        if not shutil.which("node") or not shutil.which("npm"):
            raise SystemExit("make field: node and npm are needed for the npm targets")
        NODE_DIR.mkdir(parents=True, exist_ok=True)
        (NODE_DIR / "package.json").write_bytes(manifest)
        (NODE_DIR / "package-lock.json").write_bytes(lock)
        run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=NODE_DIR)
        stamp.write_text(digest)
    seconds = time.monotonic() - started
    versions = {}
    for name in (
        "@modelcontextprotocol/server-memory",
        "@modelcontextprotocol/server-sequential-thinking",
        "@modelcontextprotocol/sdk",
        "mcp-time-linux-x64",
        "@modelcontextprotocol/server-everything",
        "@modelcontextprotocol/server-filesystem",
        "kubernetes-mcp-server-linux-amd64",
        "mcp-prometheus-linux-amd64",
        "@temporal-cortex/cortex-mcp-linux-x64",
        "@azure/mcp-linux-x64",
        "zod",
    ):
        package = NODE_DIR / "node_modules" / name / "package.json"
        versions[name] = json.loads(package.read_text())["version"] if package.exists() else "not installed"
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    versions["node"] = node
    return {
        "where": ".field/node",
        "fresh": fresh,
        "seconds": round(seconds, 1),
        "bytes": size_of(NODE_DIR),
        "versions": versions,
    }


def make_repository() -> None:
    """A small git repository for mcp-server-git: one file, one commit, fixed names and dates."""
    repo = WORK / "repo"
    if (repo / ".git").exists():
        return
    repo.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "field", "GIT_AUTHOR_EMAIL": "field@example.invalid",
        "GIT_COMMITTER_NAME": "field", "GIT_COMMITTER_EMAIL": "field@example.invalid",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    }  # fmt: skip
    run(["git", "init", "--quiet", "--initial-branch=main", "."], cwd=repo, env=env)
    (repo / "README").write_text("A repository for make field.\n")
    run(["git", "add", "README"], cwd=repo, env=env)
    run(["git", "commit", "--quiet", "-m", "One commit"], cwd=repo, env=env)


def make_files() -> None:
    """The rest of what the npm targets are started with: a folder for server-filesystem (not
    .field/repo, which mcp-server-git reads), a kubeconfig whose one cluster is unreachable (no
    credentials), and a HOME for the servers that keep settings there."""
    files = WORK / "files"
    if not files.exists():
        files.mkdir(parents=True)
        (files / "README").write_text("A folder for make field.\n")
    (WORK / "home").mkdir(parents=True, exist_ok=True)
    kubeconfig = WORK / "kubeconfig"
    if not kubeconfig.exists():
        kubeconfig.write_text(
            "apiVersion: v1\nkind: Config\n"
            "clusters:\n- name: field\n  cluster:\n    server: https://127.0.0.1:9\n"
            "contexts:\n- name: field\n  context:\n    cluster: field\n    user: field\n    namespace: default\n"
            "current-context: field\n"
            "users:\n- name: field\n  user: {}\n"
        )


def install(targets: list[Target]) -> dict[str, dict[str, Any]]:
    WORK.mkdir(exist_ok=True)
    installs: dict[str, dict[str, Any]] = {}
    for target in targets:
        if target.venv is not None:
            print(f"make field: .field/{target.venv} ({target.label}: installed unless its pins are)", flush=True)
            installs[target.label] = install_venv(target)
    if any(target.venv is None for target in targets):
        print("make field: .field/node (npm ci unless field/package-lock.json is installed)", flush=True)
        installs["npm"] = install_node()
    make_repository()
    make_files()
    return installs


# ---------------------------------------------------------------------------------------------
# Running mcpref


def check(target: Target, era: str, profile: str, out: Path) -> dict[str, Any]:
    argv = [*MCPREF, "check", "--profile", profile, "--json"]
    if era == "modern":
        argv += ["--protocol-version", MODERN]
    done, seconds = isolated([*argv, "--", *target.argv], timeout=900)
    if done.returncode not in (0, 1):
        raise SystemExit(
            f"make field: check {target.label} {era} {profile} failed ({done.returncode}): {done.stderr[-2000:]}"
        )
    result: dict[str, Any] = json.loads(done.stdout)
    result["seconds"] = round(seconds, 1)
    result["exit"] = done.returncode
    out.write_text(json.dumps(result, indent=1))
    return result


def speaks_modern(result: dict[str, Any]) -> bool:
    """Whether the modern check saw the target speak the era: a rule of that era alone exercised."""
    from mcpref.reference.rules import BY_ID
    from mcpref.reference.versions import Era

    return any(
        row["status"] != "n/a" and {version.era for version in BY_ID[row["id"]].versions} == {Era.MODERN}
        for row in result["rules"]
    )


def fuzz(target: Target, era: str, seed: int, max_cases: int, work: Path) -> dict[str, Any]:
    directory = work / f"{target.label}-fuzz-{era}"
    shutil.rmtree(directory, ignore_errors=True)  # a fresh example database: reproducible
    report = directory / "report.json"
    argv = [*MCPREF, "fuzz", "--seed", str(seed), "--max-cases", str(max_cases), "--report", str(report)]
    argv += ["--campaign-dir", str(directory)]
    if era == "modern":
        argv += ["--protocol-version", MODERN]
    done, seconds = isolated([*argv, "--", *target.argv], timeout=7200)
    if not report.exists():
        raise SystemExit(
            f"make field: fuzz {target.label} {era} wrote no report ({done.returncode}): {done.stderr[-2000:]}"
        )
    result: dict[str, Any] = json.loads(report.read_text())
    result["wall_seconds"] = round(seconds, 1)
    result["exit"] = done.returncode
    result["repro_dir"] = str(directory / "repro")
    return result


def one_run(targets: list[Target], index: int, seed: int, max_cases: int) -> dict[str, Any]:
    work = RUNS / str(index)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    results: dict[str, Any] = {}
    for target in targets:
        checks: dict[str, dict[str, Any]] = {}
        for era in ERAS:
            for profile in PROFILES:
                print(f"make field: run {index}: check {target.label} {era} {profile}", flush=True)
                result = check(target, era, profile, work / f"{target.label}-check-{era}-{profile}.json")
                print(f"make field:   {result['seconds']} s", flush=True)
                checks[f"{era} {profile}"] = result
        modern = speaks_modern(checks["modern spec"])
        fuzzed: dict[str, dict[str, Any]] = {}
        for era in ERAS if modern else ERAS[:1]:
            print(f"make field: run {index}: fuzz {target.label} {era}, seed {seed}, {max_cases} cases", flush=True)
            fuzzed[era] = fuzz(target, era, seed, max_cases, work)
            print(f"make field:   {fuzzed[era]['wall_seconds']} s, {fuzzed[era]['cases']} cases", flush=True)
        results[target.label] = {"checks": checks, "modern": modern, "fuzz": fuzzed}
    (work / "results.json").write_text(json.dumps(results, indent=1))
    return results


def verdicts(results: dict[str, Any]) -> dict[str, Any]:
    """What two runs must agree on: every rule's status per check, and the rules each campaign found broken."""
    table: dict[str, Any] = {}
    for label, result in results.items():
        entry: dict[str, Any] = {"modern": result["modern"]}
        for key, checked in result["checks"].items():
            # Not a measurement (STDIO-LATENCY): it reports the machine's speed as much as the
            # target's, and may differ between runs by its own definition (shown beside instead).
            entry[f"check {key}"] = {
                row["id"]: row["status"] for row in checked["rules"] if row["level"] != MEASUREMENT
            }
        for era, report in result["fuzz"].items():
            # Not the case counts: a racy target's outcomes steer Hypothesis's generation and shrinking
            # (the runs' counts are shown beside the verdicts instead).
            entry[f"fuzz {era}"] = {
                "failures": sorted(failure["id"] for failure in report["failures"]),
                "warnings": sorted(warning["id"] for warning in report["warnings"]),
            }
        table[label] = entry
    return table


def measured(runs: list[dict[str, Any]]) -> list[str]:
    """The statuses of the measurement rules, per run, where any run reports one."""
    lines = []
    for label, result in runs[0].items():
        for key, checked in result["checks"].items():
            for row in checked["rules"]:
                if row["level"] != MEASUREMENT:
                    continue
                statuses = [
                    next(r["status"] for r in run[label]["checks"][key]["rules"] if r["id"] == row["id"])
                    for run in runs
                    if label in run
                ]
                if set(statuses) - {"pass", "n/a"}:
                    lines.append(f"`{label}` check {key}, {row['id']}: {' / '.join(statuses)}")
    return lines


def differences(first: Any, second: Any, path: str = "") -> list[str]:
    if isinstance(first, dict) and isinstance(second, dict):
        found: list[str] = []
        for key in sorted(set(first) | set(second)):
            found += differences(first.get(key), second.get(key), f"{path} / {key}" if path else key)
        return found
    return [] if first == second else [f"{path}: {first!r} then {second!r}"]


# ---------------------------------------------------------------------------------------------
# Reproducers


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


@dataclass
class Finding:
    target: str
    era: str
    rule: str
    level: str
    source: str  # "check" or "fuzz"
    scenario: str  # the scenario, or "campaign" for a fuzz finding
    statuses: dict[str, str]  # profile -> fail or warn
    message: str
    expected: str
    actual: str
    shell: str | None
    transcript: list[str]
    eof: bool = False
    reproducer: str | None = None  # relative to the repository root
    replayed: str = "-"  # what replaying it showed
    also: list[str] = field(default_factory=list)  # the other scenarios that showed the same finding


def collect(targets: list[Target], results: dict[str, Any]) -> list[Finding]:
    from mcpref.fuzz.corpus_modern import BY_ERA
    from mcpref.reference.versions import Era

    scenarios = {era: {s.name: s for s in BY_ERA[Era(era if era == "legacy" else "modern")]} for era in ERAS}
    # One finding per target, era, rule and message: the same divergence seen in several scenarios is
    # one entry, shown with its first probed scenario (replay can run it) and naming the others.
    findings: dict[tuple[str, ...], Finding] = {}
    for target in targets:
        result = results[target.label]
        for era in ERAS:
            for profile in PROFILES:
                for row in result["checks"][f"{era} {profile}"]["rules"]:
                    for hit in row["findings"]:
                        key = (target.label, era, row["id"], "check", hit["message"], str(hit["expected"]))
                        eof = scenarios[era][hit["scenario"]].eof
                        found = findings.get(key)
                        if found is None or (found.eof and not eof and found.scenario != hit["scenario"]):
                            replaced = found
                            found = findings[key] = Finding(
                                target.label, era, row["id"], row["level"], "check", hit["scenario"], {},
                                hit["message"], str(hit["expected"]), str(hit["actual"]), hit.get("shell"),
                                hit.get("transcript", []), eof,
                            )  # fmt: skip
                            if replaced is not None:
                                found.statuses = replaced.statuses
                                found.also = [replaced.scenario, *replaced.also]
                        elif hit["scenario"] != found.scenario and hit["scenario"] not in found.also:
                            found.also.append(hit["scenario"])
                        if found.statuses.get(profile) != "fail":
                            found.statuses[profile] = hit["status"]
        for era, report in result["fuzz"].items():
            for status, entries in (("fail", report["failures"]), ("warn", report["warnings"])):
                for entry in entries:
                    key = (target.label, era, entry["id"], "fuzz", "campaign", "")
                    if key in findings:
                        continue
                    findings[key] = Finding(
                        target.label, era, entry["id"], entry["level"], "fuzz", "campaign", {"spec": status},
                        entry["message"], str(entry["expected"]), str(entry["actual"]), entry.get("shell"),
                        entry.get("transcript", []),
                    )  # fmt: skip
    return list(findings.values())


def save_reproducers(targets: list[Target], results: dict[str, Any], findings: list[Finding]) -> None:
    from mcpref.fuzz.corpus_modern import BY_ERA
    from mcpref.fuzz.oracle import Profile
    from mcpref.fuzz.report import reproducer_json
    from mcpref.reference.versions import Era

    by_label = {target.label: target for target in targets}
    shutil.rmtree(REPRO, ignore_errors=True)
    for finding in findings:
        target = by_label[finding.target]
        folder = REPRO / finding.target
        folder.mkdir(parents=True, exist_ok=True)
        if finding.source == "check":
            era = Era.LEGACY if finding.era == "legacy" else Era.MODERN
            scenario = {s.name: s for s in BY_ERA[era]}[finding.scenario]
            # The profile in which it fails, if one does: replay exits 1 then.
            profile = Profile.SPEC if finding.statuses.get("spec") == "fail" else Profile.STRICT
            document = json.loads(
                reproducer_json(
                    finding.rule, profile, target.argv, list(scenario.case.chunks), scenario.case.settle, era
                )
            )
            document["scenario"] = scenario.name
            if scenario.eof:
                document["note"] = (
                    "the scenario ends by closing stdin; mcpref replay probes instead: "
                    "field/make_field.py --replay-eof FILE, or mcpref check, shows it"
                )
            path = folder / f"{finding.era}-{finding.rule}-{slug(finding.scenario)}.json"
            number = 2
            while path.exists():  # two findings of one rule in one scenario (another message)
                path = folder / f"{finding.era}-{finding.rule}-{slug(finding.scenario)}-{number}.json"
                number += 1
        else:
            report = results[finding.target]["fuzz"][finding.era]
            status = finding.statuses["spec"]
            entry = next(e for e in report["failures" if status == "fail" else "warnings"] if e["id"] == finding.rule)
            document = json.loads(Path(entry["reproducer"]).read_text())
            document["command"] = target.argv
            path = folder / f"fuzz-{finding.era}-{finding.rule}{'' if status == 'fail' else '-warn'}.json"
        path.write_text(json.dumps(document, indent=2) + "\n")
        finding.reproducer = str(path.relative_to(ROOT))


def replay(finding: Finding) -> None:
    """Whether the saved case still shows the rule broken: ``mcpref replay``, or the EOF replay here."""
    assert finding.reproducer is not None, "save_reproducers() saves one for every finding"
    if finding.eof:
        argv = [PYTHON, str(Path(__file__).resolve()), "--replay-eof", finding.reproducer]
    else:
        argv = [*MCPREF, "replay", finding.reproducer]
    done, _ = isolated(argv, timeout=300)
    seen = re.findall(r"^(fail|warn) ([A-Z0-9-]+):", done.stdout, re.MULTILINE)
    how = "EOF replay" if finding.eof else "mcpref replay"
    mine = [status for status, rule in seen if rule == finding.rule]
    others = ", ".join(f"{status} {rule}" for status, rule in seen if rule != finding.rule)
    if mine:
        finding.replayed = f"yes ({how}: {mine[0]})"
    elif others:  # replay does not relabel (FRAME-LF-ONLY is told from RPC-ONE-ANSWER by check and fuzz alone)
        finding.replayed = f"NOT as {finding.rule} ({how}: {others})"
    else:
        finding.replayed = f"NO ({how}: exit {done.returncode}, no divergence)"


def replay_eof(path: Path) -> int:
    """Run a saved EOF scenario as ``mcpref check`` runs it (closing stdin at the end), print its findings."""
    from mcpref.fuzz.check import run_scenario
    from mcpref.fuzz.corpus import Scenario
    from mcpref.fuzz.oracle import Profile, Status
    from mcpref.fuzz.strategies import Case
    from mcpref.fuzz.target import Timing
    from mcpref.reference.versions import Era

    document = json.loads(path.read_text())
    chunks = tuple(base64.b64decode(chunk) for chunk in document["chunks"])
    stream = b"".join(chunks)
    cuts: list[int] = []
    offset = 0
    for chunk in chunks[:-1]:
        offset += len(chunk)
        cuts.append(offset)
    lines = tuple(re.findall(rb"[^\n]*\n|[^\n]+$", stream))
    case = Case(lines, tuple(cuts), float(document["settle"]))
    if case.chunks != chunks:
        print("make field: the chunks could not be rebuilt", file=sys.stderr)
        return 2
    scenario = Scenario(
        str(document.get("scenario", "replay")), (str(document["rule"]),), case, True, Era(document["era"])
    )
    run, findings = run_scenario(scenario, list(document["command"]), Timing())
    profile = Profile(document["profile"])
    for line in run.observation.output:
        print("<- " + line.decode("utf-8", "backslashreplace"))
    print(f"exit status: {run.exit_status}")
    for finding in findings:
        print(f"{finding.status(profile).value} {finding.rule}: {finding.message} (expected {finding.expected})")
    return 1 if any(f.status(profile) is Status.FAIL for f in findings) else 0


# ---------------------------------------------------------------------------------------------
# The report


def megabytes(count: int) -> str:
    return f"{count / 1_000_000:.0f} MB"


def short(text: str, limit: int = 300) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} chars)"


@dataclass(frozen=True)
class Triage:
    """One kind of finding: which targets, rules and scenarios it covers, and what it is."""

    id: str
    verdict: str  # genuine, reference decision, measurement
    title: str
    text: str
    rules: tuple[str, ...]
    targets: tuple[str, ...]
    scenarios: tuple[str, ...] = ()  # empty: any; "campaign" for a fuzz finding

    def covers(self, finding: Finding) -> bool:
        return (
            finding.rule in self.rules
            and finding.target in self.targets
            and (not self.scenarios or finding.scenario in self.scenarios)
        )


def triage_table() -> list[Triage]:
    entries = tomllib.loads(TRIAGE_TABLE.read_text())["entry"] if TRIAGE_TABLE.exists() else []
    return [
        Triage(e["id"], e["verdict"], e["title"], e["text"].strip(), tuple(e["rules"]), tuple(e["targets"]),
               tuple(e.get("scenarios", ())))
        for e in entries
    ]


def triaged(findings: list[Finding]) -> dict[int, Triage | None]:
    """Each finding's triage entry (by its position), the first that covers it; None: untriaged."""
    table = triage_table()
    return {index: next((t for t in table if t.covers(f)), None) for index, f in enumerate(findings)}


def render(
    targets: list[Target],
    runs: list[dict[str, Any]],
    findings: list[Finding],
    installs: dict[str, dict[str, Any]],
    comparison: list[str] | None,
    seconds: list[dict[str, dict[str, float]]],
    seed: int,
    max_cases: int,
) -> str:
    results = runs[0]
    out: list[str] = []
    out.append("# mcpref in the field: third-party stdio MCP servers")
    out.append("")
    out.append(
        "Generated by `make field` (`field/make_field.py`); do not edit by hand, except the triage, which comes "
        "from `field/triage.md`. Each target is a published stdio MCP server pinned exactly, installed under "
        "the git-ignored `.field/` and run as published. Every `mcpref` command ran inside "
        f"{ISOLATION_TEXT}, so no tool call could reach the network."
    )
    out.append("")
    out.append("| target | server | pinned | stack | command (from the repository root) |")
    out.append("|---|---|---|---|---|")
    for target in targets:
        out.append(
            f"| `{target.label}` | {target.title} | {target.source} | {target.stack} | `{shlex.join(target.argv)}` |"
        )
    out.append("")
    out.append("Installs (sizes on disk, time of the last install step; a reused install takes about a second):")
    out.append("")
    out.append("| install | where | size | seconds | versions |")
    out.append("|---|---|---|---|---|")
    for name, info in installs.items():
        versions = ", ".join(f"`{key}` {value}" for key, value in info["versions"].items())
        fresh = "" if info["fresh"] else " (reused)"
        out.append(
            f"| {name} | `{info['where']}` | {megabytes(info['bytes'])} | {info['seconds']}{fresh} | {versions} |"
        )
    out.append("")
    out.append(
        "Method: for each target, `mcpref check --json` in profiles `spec` and `strict`, for the legacy corpus "
        f"and with `--protocol-version {MODERN}` (a legacy-only server gets n/a for the modern rules); then "
        f"`mcpref fuzz --seed {seed} --max-cases {max_cases}` in profile `spec`, legacy, and with "
        f"`--protocol-version {MODERN}` for a target whose modern check shows it speaks that era. Each finding (fail or "
        "warn) has a reproducer under `docs/field-repro/`, replayed after the runs: `mcpref replay FILE` (prefix "
        "it with `unshare --net --`), or, for a scenario that ends by closing stdin, "
        "`.venv/bin/python field/make_field.py --replay-eof FILE`."
    )
    out.append("")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "fuzz", "reference"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    state = "with local changes in fuzz/ or reference/" if dirty.stdout.strip() else "fuzz/ and reference/ unchanged"
    out.append(f"mcpref (the oracle) at the time of this report: commit `{commit.stdout.strip()}`, {state}.")
    runs_commit = (RUNS / "oracle-commit.txt").read_text().strip() if (RUNS / "oracle-commit.txt").exists() else None
    if runs_commit and not commit.stdout.strip().startswith(runs_commit[:7]):
        out.append(f"The runs themselves were made with mcpref at commit `{runs_commit[:7]}` (`.field/runs/oracle-commit.txt`).")
    out.append("")
    out.append("## Check times")
    out.append("")
    out.append("Wall time of each `mcpref check` (the issue asks for under a minute each), per run:")
    out.append("")
    columns = [f"{era} {profile}" for era in ERAS for profile in PROFILES]
    out.append("| target | " + " | ".join(f"{c} (s)" for c in columns) + " |")
    out.append("|---|" + "---|" * len(columns))
    for target in targets:
        cells = [" / ".join(f"{run[target.label][c]:.1f}" for run in seconds) for c in columns]
        out.append(f"| `{target.label}` | " + " | ".join(cells) + " |")
    slow = [
        f"`{label}` {c} ({value:.1f} s, run {index + 1})"
        for index, run in enumerate(seconds)
        for label, row in run.items()
        for c, value in row.items()
        if value >= 60
    ]
    out.append("")
    out.append(f"Over a minute: {', '.join(slow)}." if slow else "Every check took under a minute.")
    out.append("")
    out.append("## Two runs")
    out.append("")
    if comparison is None:
        out.append("One run only so far: no comparison (the status at the top of the triage says what remains).")
    elif not comparison:
        out.append(
            f"The whole run was made {len(seconds)} times; every verdict (each rule's status in each check, and "
            "the rules each campaign found failing and warned of) was identical."
        )
    else:
        out.append(f"The whole run was made {len(seconds)} times; the verdicts differed in:")
        out.append("")
        out += [f"- {line}" for line in comparison]
    out.append("")
    out.append(
        "Not compared: the measurement rules (STDIO-LATENCY, a warning when a wait for the target passes 2 s, "
        "which depends on the machine's load as much as on the target), shown here per run where any run "
        "reported one:"
    )
    out.append("")
    out += [f"- {line}" for line in measured(runs)] or ["- none"]
    out.append("")
    out.append("Campaign figures, per run (cases run, first failing case):")
    out.append("")
    for target in targets:
        for era in results[target.label]["fuzz"]:
            figures = [
                f"{run[target.label]['fuzz'][era]['cases']}, {run[target.label]['fuzz'][era]['first_failure_at_case']}"
                for run in runs
                if era in run.get(target.label, {}).get("fuzz", {})
            ]
            out.append(f"- `{target.label}` {era}: " + " / ".join(figures))
    out.append("")
    out.append("## Verdicts")
    out.append("")
    out.append(
        "Rule by profile, per target and era; rows where every cell is `pass` or `n/a` are left out (counted below)."
    )
    out.append("")
    for target in targets:
        result = results[target.label]
        for era in ERAS:
            spec = result["checks"][f"{era} spec"]
            strict = {row["id"]: row for row in result["checks"][f"{era} strict"]["rules"]}
            speaks = (
                ""
                if era == "legacy"
                else (" (speaks the modern era)" if result["modern"] else " (legacy-only: modern rules n/a)")
            )
            out.append(f"### `{target.label}`, {era}{speaks}")
            out.append("")
            out.append("| rule | level | spec | strict |")
            out.append("|---|---|---|---|")
            quiet = {"pass": 0, "n/a": 0}
            for row in spec["rules"]:
                pair = (row["status"], strict[row["id"]]["status"])
                if set(pair) <= {"pass", "n/a"} and pair[0] == pair[1]:
                    quiet[pair[0]] += 1
                    continue
                out.append(f"| {row['id']} | {row['level']} | {pair[0]} | {pair[1]} |")
            out.append("")
            out.append(f"Not shown: {quiet['pass']} rules pass in both profiles, {quiet['n/a']} n/a in both.")
            out.append("")
        for era, report in result["fuzz"].items():
            fails = ", ".join(f["id"] for f in report["failures"]) or "none"
            warns = ", ".join(w["id"] for w in report["warnings"]) or "none"
            out.append(
                f"Campaign, {era}: {report['cases']} cases, {report['messages']} messages, {report['processes']} processes, "
                f"{report['wall_seconds']} s; failures: {fails}; warnings: {warns}; first failure at case "
                f"{report['first_failure_at_case']}."
            )
            out.append("")
    triage = triaged(findings)
    out.append("## Findings")
    out.append("")
    out.append(
        "Every fail and warn, one entry per target, era, rule and scenario (a campaign's finding is its minimal "
        "case). `statuses` gives the status in each profile where the rule did not pass."
    )
    out.append("")
    for number, finding in enumerate(findings, 1):
        statuses = ", ".join(f"{profile} {status}" for profile, status in finding.statuses.items())
        out.append(f"### F{number}. `{finding.target}`, {finding.era}: {finding.rule} ({finding.level}; {statuses})")
        out.append("")
        entry = triage[number - 1]
        if entry is None:
            out.append("- triage: **none** (untriaged)")
        else:
            out.append(f"- triage: [{entry.id}](#{entry.id.lower()}) ({entry.verdict}): {entry.title}")
        where = f"scenario *{finding.scenario}*" if finding.source == "check" else "the campaign's minimal case"
        out.append(f"- {where}: {short(finding.message)}")
        if finding.also:
            out.append(f"- also seen in: {', '.join(f'*{name}*' for name in finding.also)}")
        out.append(f"- expected: {short(finding.expected)}")
        out.append(f"- actual: `{short(finding.actual)}`")
        if finding.shell:
            out.append(f"- shell: `{short(finding.shell, 700)}`")
        if finding.reproducer:
            out.append(f"- reproducer: [`{finding.reproducer}`](../{finding.reproducer}); replayed: {finding.replayed}")
        else:
            out.append(f"- reproducer: none; {finding.replayed}")
        if finding.transcript:
            out.append("")
            out.append("  <details><summary>transcript</summary>")
            out.append("")
            out.append("  ```")
            shown = [line for line in finding.transcript if not line.startswith("~~ chunk")]  # the reproducer has them
            for line in shown[:8]:
                out.append("  " + (line if len(line) <= 200 else line[:200] + f"… ({len(line)} chars)"))
            if len(shown) > 8:
                out.append(f"  … {len(shown) - 8} more lines (`mcpref replay --transcript` shows them all)")
            out.append("  ```")
            out.append("")
            out.append("  </details>")
        out.append("")
    for script, (title, text) in PROBE_SECTIONS.items():
        probe_file = RUNS / f"{Path(script).stem}.txt"
        if probe_file.exists():
            out += [f"## {title} (`field/{script}`)", "", text, "", "```"]
            out += probe_file.read_text().rstrip().splitlines()
            out += ["```", ""]
    out.append("## Triage")
    out.append("")
    if TRIAGE.exists():
        out.append(TRIAGE.read_text().strip())
        out.append("")
    out.append("### Kinds of finding")
    out.append("")
    out.append(
        "Every finding above is covered by one entry of `field/triage.toml`, the first that names its target, "
        "rule and (when the entry names any) scenario; `make field` exits 1 while any finding is left untriaged."
    )
    out.append("")
    for entry in triage_table():
        numbers = [f"F{index + 1}" for index, t in triage.items() if t == entry]  # triage_table() anew: equal, not the same
        out.append(f"#### {entry.id}")
        out.append("")
        out.append(f"**{entry.title}** ({entry.verdict}; {len(numbers)} findings: {', '.join(numbers) or 'none'})")
        out.append("")
        out.append(entry.text)
        out.append("")
    untriaged = [f"F{index + 1}" for index, t in triage.items() if t is None]
    out.append(f"Untriaged: {', '.join(untriaged)}." if untriaged else "Untriaged: none.")
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------------------------------------


def finish(
    targets: list[Target],
    runs: list[dict[str, Any]],
    installs: dict[str, dict[str, Any]],
    findings: list[Finding] | None,
    args: argparse.Namespace,
) -> list[Finding]:
    """Compare the runs, save and replay the first run's reproducers (unless given), write the report."""
    comparison: list[str] | None = None
    if len(runs) > 1:
        comparison = []
        first = verdicts(runs[0])
        for number, later in enumerate(runs[1:], 2):
            comparison += [f"run 1 vs run {number}: {line}" for line in differences(first, verdicts(later))]
        (RUNS / "verdicts.json").write_text(json.dumps([verdicts(r) for r in runs], indent=1))
    seconds = [
        {label: {key: checked["seconds"] for key, checked in result["checks"].items()} for label, result in r.items()}
        for r in runs
    ]
    results = runs[0]
    for script, arguments in PROBES.items():
        probe_file = RUNS / f"{Path(script).stem}.txt"
        if not probe_file.exists():  # made once per make field (main() removes them before fresh runs)
            print(f"make field: field/{script}", flush=True)
            probe = subprocess.run(
                [PYTHON, str(SOURCE / script), *arguments], cwd=ROOT, capture_output=True, text=True, check=False
            )
            probe_file.write_text(
                probe.stdout + (f"(exit {probe.returncode}) {probe.stderr[-500:]}" if probe.returncode else "")
            )
    if findings is None:
        findings = collect(targets, results)
        save_reproducers(targets, results, findings)
        print(f"make field: replaying {len(findings)} reproducers, {REPLAYS} at a time", flush=True)
        with ThreadPoolExecutor(REPLAYS) as pool:  # each replay is a process of its own
            list(pool.map(replay, findings))
    state = {
        "runs": runs, "findings": [vars(f) for f in findings], "installs": installs,
        "comparison": comparison, "seconds": seconds, "seed": args.seed, "max_cases": args.max_cases,
    }  # fmt: skip
    (RUNS / "state.json").write_text(json.dumps(state, indent=1))
    REPORT.write_text(render(targets, runs, findings, installs, comparison, seconds, args.seed, args.max_cases))
    print(f"make field: wrote {REPORT.relative_to(ROOT)} ({len(runs)} run(s)), {len(findings)} findings", flush=True)
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


def main() -> int:
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
    parser.add_argument("--render-only", action="store_true", help="rewrite the report from the last state")
    parser.add_argument("--replay-eof", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--replay-again", action="store_true", help="replay the saved findings again, then render")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.replay_eof is not None:
        return replay_eof(args.replay_eof)
    targets = [t for t in TARGETS if args.only is None or t.label in args.only]
    if args.render_only or args.replay_again:
        state = json.loads((RUNS / "state.json").read_text())
        saved = [Finding(**entry) for entry in state["findings"]]
        if args.replay_again:
            for finding in saved:
                replay(finding)
            state["findings"] = [vars(f) for f in saved]
            (RUNS / "state.json").write_text(json.dumps(state, indent=1))
        page = render(
            targets, state["runs"], saved, state["installs"], state["comparison"], state["seconds"],
            state["seed"], state["max_cases"],
        )  # fmt: skip
        REPORT.write_text(page)
        return untriaged(saved)
    installs = install(targets)
    if args.reuse is not None:
        runs = [json.loads((RUNS / str(index) / "results.json").read_text()) for index in args.reuse]
        state_file = RUNS / "state.json"
        kept: list[Finding] | None = None  # the replays already made of the same first run are kept
        if state_file.exists():
            state = json.loads(state_file.read_text())
            if state.get("runs", [state.get("results")])[0] == runs[0]:  # "results": one run, an older state
                kept = [Finding(**entry) for entry in state["findings"]]
        return untriaged(finish(targets, runs, installs, kept, args))
    for script in PROBES:
        (RUNS / f"{Path(script).stem}.txt").unlink(missing_ok=True)
    runs = []
    findings: list[Finding] | None = None
    for index in range(args.start, args.start + args.runs):
        runs.append(one_run(targets, index, args.seed, args.max_cases))
        if not args.no_report:
            findings = finish(targets, runs, installs, findings, args)
    return untriaged(findings) if findings is not None else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Installing the pinned targets into the git-ignored ``.field/``, and what they are started with.

In: the targets. Out: a venv per PyPI target (``.field/<venv>``, reinstalled only when its pins
change), ``npm ci`` of ``field/package.json`` and its lock into ``.field/node`` (again only when
they change), the files the targets are started with (a git repository, a folder, a kubeconfig, a
HOME), and, per install, where it is, its size, the time it took and the versions it holds.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import TypedDict

from fieldlib import PYTHON, ROOT, SOURCE, WORK
from targets import Target

NODE_DIR = WORK / "node"


class Install(TypedDict):
    where: str
    fresh: bool  # False: reused as it was
    seconds: float
    bytes: int
    versions: dict[str, str]


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


def install_venv(target: Target) -> Install:
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


def install_node() -> Install:
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


def install(targets: list[Target]) -> dict[str, Install]:
    WORK.mkdir(exist_ok=True)
    installs: dict[str, Install] = {}
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

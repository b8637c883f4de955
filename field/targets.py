"""The targets of ``make field``: published stdio MCP servers, each pinned exactly.

In: nothing. Out: ``TARGETS``, each with its label, what the report says of it (server, pinned
packages, stack), the command that starts it (relative to the repository root, as installed by
``install``), and for a PyPI target the venv under ``.field/`` and the pins it is installed from.
The npm targets' pins are ``field/package.json`` and its lock.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

NODE_MODULES = ".field/node/node_modules"


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


def selected(labels: list[str] | None, present: Collection[str] | None = None) -> list[Target]:
    """The targets named by ``labels`` (all when None), in their order here; with ``present`` (the
    labels of a saved run), only those it holds: a run of some targets is reported as it was made."""
    return [
        target
        for target in TARGETS
        if (labels is None or target.label in labels) and (present is None or target.label in present)
    ]

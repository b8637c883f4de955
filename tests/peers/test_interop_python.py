"""The official Python SDK client (PyPI ``mcp``, pinned in the dev extras) against ``mcpref serve``.

For every protocol version both sides support, the SDK's own ``ClientSession`` starts the
reference over stdio, completes the handshake, lists the tools, calls ``lire_prix`` for a
success and for a tool error, and pings. The SDK always requests its latest handshake
version from ``ClientSession.initialize()``; to request another, the test sends the same
``InitializeRequest`` through the session's public ``send_request`` and then does what
``initialize()`` does after it (``adopt`` the result, send ``notifications/initialized``).
The SDK's high-level ``Client`` is run in its three modes. ``mode="auto"`` (the default)
probes ``server/discover`` (the 2026-07-28 era): ``mcpref serve`` (``--eras both``) answers
it and the client stays modern, ``--eras legacy`` refuses it as a request before initialize
and the client falls back to the handshake. ``mode="2026-07-28"`` adopts the modern era
without a probe, and ``mode="legacy"`` only runs the handshake. In the modern era the SDK
drives the ``input_required`` round trips (MRTR) of ``demander`` through its
``elicitation_callback``; the wire fields a result carried are read from the pydantic
models' ``model_fields_set`` (a default value is not in it).
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import pytest
from peerlib import REFERENCE, ROOT, SHARED_VERSIONS

mcp = pytest.importorskip("mcp", reason="the official Python SDK (PyPI mcp) is not installed: pip install -e '.[dev]'")

import mcp_types as types  # noqa: E402 (after the skip)
from mcp import Client  # noqa: E402
from mcp.client.session import ClientRequestContext, ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

pytestmark = pytest.mark.peers
CLIENT = types.Implementation(name="mcpref-interop-python", version="0.1.0")
MODERN = "2026-07-28"
LEGACY_TOOLS = ["lire_prix", "echo", "fail", "attendre"]
MODERN_TOOLS = [*LEGACY_TOOLS, "demander"]
ALL_VERSIONS = [MODERN, *reversed(SHARED_VERSIONS)]
SERVER_INFO = {"io.modelcontextprotocol/serverInfo": {"name": "mcpref", "version": "0.1.0"}}
LIMIT = 10.0  # seconds: every exchange below takes a fraction of one
T = TypeVar("T")


def server(*options: str) -> StdioServerParameters:
    return StdioServerParameters(command=REFERENCE[0], args=[*REFERENCE[1:], *options], cwd=str(ROOT))


async def handshake(session: ClientSession, version: str) -> types.InitializeResult:
    """``ClientSession.initialize()``, requesting ``version`` instead of the SDK's latest."""
    params = types.InitializeRequestParams(protocol_version=version, capabilities=types.ClientCapabilities(), client_info=CLIENT)
    result = await session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())
    return result


def text_of(result: types.CallToolResult) -> tuple[str, bool]:
    assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent)
    return result.content[0].text, bool(result.is_error)


def run(job: Callable[[], Awaitable[T]]) -> T:
    """``anyio.run(job)``, failing the test when it takes longer than ``LIMIT``."""

    async def bounded() -> T:
        with anyio.fail_after(LIMIT):
            return await job()

    return anyio.run(bounded)


def mcp_error(raised: BaseException) -> MCPError:
    """The one ``MCPError`` under the stdio transport's task groups, which wrap what ``async with Client`` raises."""
    while isinstance(raised, BaseExceptionGroup):
        assert len(raised.exceptions) == 1, raised
        raised = raised.exceptions[0]
    assert isinstance(raised, MCPError), raised
    return raised


def wire_fields(result: Any) -> set[str]:
    """The fields the server's result carried: a model default is not in ``model_fields_set``."""
    return set(result.model_fields_set)


async def answer_oui(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
    assert isinstance(params, types.ElicitRequestFormParams)
    assert params.message == "Ça va ?"
    assert params.requested_schema["required"] == ["answer"]
    return types.ElicitResult(action="accept", content={"answer": "oui"})


async def tour(client: Client) -> dict[str, Any]:
    """What a connection shows: its era's opening result, the listing, two calls and a tool error."""
    tools = await client.list_tools()
    echo = await client.call_tool("echo", {"text": "bonjour"})
    croissant = await client.call_tool("lire_prix", {"produit": "croissant"})
    kiwi = await client.call_tool("lire_prix", {"produit": "kiwi"})
    return {
        "version": client.protocol_version,
        "discover": client.session.discover_result,
        "initialize": client.session.initialize_result,
        "server": client.server_info,
        "tools": tools,
        "echo": echo,
        "texts": [text_of(echo), text_of(croissant), text_of(kiwi)],
    }


async def session_at(version: str) -> dict[str, Any]:
    async with stdio_client(server()) as (read, write), ClientSession(read, write, client_info=CLIENT) as session:
        result = await handshake(session, version)
        tools = await session.list_tools()
        croissant = await session.call_tool("lire_prix", {"produit": "croissant"})
        kiwi = await session.call_tool("lire_prix", {"produit": "kiwi"})
        await session.send_ping()
        return {
            "version": session.protocol_version,
            "server": (result.server_info.name, result.server_info.version),
            "capabilities": result.capabilities.model_dump(exclude_none=True),
            "tools": [(tool.name, tool.title) for tool in tools.tools],
            "croissant": text_of(croissant),
            "kiwi": text_of(kiwi),
        }


@pytest.mark.spec("LIFE-VERSION-ACCEPT", "LIFE-INIT-RESULT", "TOOLS-LIST-SHAPE", "TOOLS-EXEC-ERROR", "LIFE-PING")
@pytest.mark.parametrize("version", SHARED_VERSIONS)
def test_the_python_sdk_client_completes_a_session_at_each_shared_version(version: str) -> None:
    seen = anyio.run(session_at, version)
    assert seen["version"] == version
    assert seen["server"] == ("mcpref", "0.1.0")
    assert seen["capabilities"] == {"tools": {"list_changed": False}}
    with_title = version >= "2025-06-18"
    assert seen["tools"] == [
        ("lire_prix", "Prix" if with_title else None),
        ("echo", "Echo" if with_title else None),
        ("fail", "Fail" if with_title else None),
        ("attendre", "Attendre" if with_title else None),
    ]
    assert seen["croissant"] == ("130 centimes", False)
    assert seen["kiwi"] == ("Produit inconnu", True)


@pytest.mark.spec("LIFE-VERSION-REJECT", "LIFE-VERSION-COUNTER-OFFER")
def test_an_unsupported_version_is_refused_with_data_or_counter_offered() -> None:
    async def refused() -> MCPError:
        async with stdio_client(server()) as (read, write), ClientSession(read, write, client_info=CLIENT) as session:
            with pytest.raises(MCPError) as caught:
                await handshake(session, "2024-10-07")
            return caught.value

    error = anyio.run(refused)
    assert error.code == -32602
    assert error.error.data == {"requested": "2024-10-07", "supported": list(reversed(SHARED_VERSIONS))}

    async def counter_offered() -> str | None:
        params = server("--version-policy", "counter-offer")
        async with stdio_client(params) as (read, write), ClientSession(read, write, client_info=CLIENT) as session:
            result = await handshake(session, "2024-10-07")
            await session.send_ping()
            return result.protocol_version

    assert anyio.run(counter_offered) == "2025-11-25"


@pytest.mark.spec(
    "MOD-DISCOVER", "MOD-DUAL-ERA", "MOD-RESULT-TYPE", "MOD-TOOLS-CACHE", "TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR"
)
def test_the_default_python_client_stays_modern_with_the_dual_era_reference() -> None:
    async def auto() -> dict[str, Any]:
        async with Client(server(), client_info=CLIENT) as client:
            return await tour(client)

    seen = run(auto)
    assert seen["version"] == MODERN
    assert seen["initialize"] is None
    discover = seen["discover"]
    assert isinstance(discover, types.DiscoverResult)
    assert {"supported_versions", "capabilities", "ttl_ms", "cache_scope", "result_type"} <= wire_fields(discover)
    assert discover.supported_versions == ALL_VERSIONS
    assert discover.capabilities.model_dump(exclude_none=True) == {"tools": {"list_changed": False}}
    assert (discover.result_type, discover.ttl_ms, discover.cache_scope) == ("complete", 3_600_000, "public")
    assert discover.meta == SERVER_INFO and discover.instructions is None
    assert seen["server"] == types.Implementation(name="mcpref", version="0.1.0")
    tools = seen["tools"]
    assert [tool.name for tool in tools.tools] == MODERN_TOOLS
    assert {"ttl_ms", "cache_scope", "result_type"} <= wire_fields(tools)
    assert (tools.result_type, tools.ttl_ms, tools.cache_scope) == ("complete", 3_600_000, "public")
    assert "result_type" in wire_fields(seen["echo"]) and seen["echo"].result_type == "complete"
    assert seen["echo"].meta == SERVER_INFO
    assert seen["texts"] == [("bonjour", False), ("130 centimes", False), ("Produit inconnu", True)]


@pytest.mark.spec(
    "LIFE-PRE-INIT-REFUSED", "LIFE-VERSION-ACCEPT", "LIFE-INIT-RESULT", "MOD-DUAL-ERA", "TOOLS-CALL-RESULT", "TOOLS-EXEC-ERROR"
)
def test_the_default_python_client_falls_back_to_the_handshake_with_a_legacy_reference() -> None:
    async def auto() -> dict[str, Any]:
        async with Client(server("--eras", "legacy"), client_info=CLIENT) as client:
            return await tour(client)

    seen = run(auto)
    assert seen["version"] == "2025-11-25"
    assert seen["discover"] is None
    initialize = seen["initialize"]
    assert isinstance(initialize, types.InitializeResult)
    assert (initialize.server_info.name, initialize.server_info.version) == ("mcpref", "0.1.0")
    assert [tool.name for tool in seen["tools"].tools] == LEGACY_TOOLS
    # Legacy results carry none of the modern fields (MOD-RESULT-TYPE, MOD-TOOLS-CACHE).
    assert wire_fields(seen["tools"]) == {"tools"}
    assert wire_fields(seen["echo"]) == {"content", "is_error"}
    assert seen["texts"] == [("bonjour", False), ("130 centimes", False), ("Produit inconnu", True)]


@pytest.mark.spec("MOD-DISCOVER", "MOD-DUAL-ERA", "MOD-RESULT-TYPE", "MOD-TOOLS-CACHE", "TOOLS-CALL-RESULT")
@pytest.mark.parametrize("mode", ["auto", MODERN])
def test_the_python_client_works_with_a_modern_only_reference(mode: str) -> None:
    async def modern_only() -> dict[str, Any]:
        async with Client(server("--eras", "modern"), client_info=CLIENT, mode=mode) as client:
            seen = await tour(client)
            if mode == MODERN:  # no probe was sent (the session synthesized a result): probe now
                seen["probed"] = types.DiscoverResult.model_validate(await client.session.send_discover(MODERN))
            return seen

    seen = run(modern_only)
    assert seen["version"] == MODERN
    discover = seen.get("probed", seen["discover"])
    assert "result_type" in wire_fields(discover)
    assert (discover.supported_versions, discover.ttl_ms, discover.cache_scope) == ([MODERN], 3_600_000, "public")
    assert [tool.name for tool in seen["tools"].tools] == MODERN_TOOLS
    assert {"ttl_ms", "cache_scope", "result_type"} <= wire_fields(seen["tools"])
    assert seen["texts"] == [("bonjour", False), ("130 centimes", False), ("Produit inconnu", True)]


@pytest.mark.spec("MOD-DUAL-ERA", "LIFE-PRE-INIT-REFUSED")
def test_the_modern_python_client_fails_cleanly_against_a_legacy_only_reference() -> None:
    async def modern_client() -> tuple[str, MCPError]:
        async with Client(server("--eras", "legacy"), client_info=CLIENT, mode=MODERN) as client:
            # mode="2026-07-28" sends no probe: the first request is the first the server sees.
            with pytest.raises(MCPError) as caught:
                await client.list_tools()
            return client.protocol_version, caught.value

    version, error = run(modern_client)
    assert version == MODERN
    # The legacy-only reference ignores the request's _meta: a request before initialize.
    assert (error.code, error.error.message) == (-32600, "Not initialized")


@pytest.mark.spec("MOD-CAP-REQUIRED", "MOD-RESULT-TYPE", "TOOLS-CALL-RESULT")
def test_the_python_client_answers_demander_through_its_elicitation_callback() -> None:
    async def ask() -> tuple[types.CallToolResult | types.InputRequiredResult, types.CallToolResult]:
        async with Client(server(), client_info=CLIENT, elicitation_callback=answer_oui) as client:
            # One round by hand, to see the interim result; then Client.call_tool drives the round trips.
            first = await client.session.call_tool("demander", {"question": "Ça va ?"}, allow_input_required=True)
            return first, await client.call_tool("demander", {"question": "Ça va ?"})

    first, final = run(ask)
    assert isinstance(first, types.InputRequiredResult)
    assert "result_type" in wire_fields(first) and first.result_type == "input_required"
    assert first.input_requests is not None and list(first.input_requests) == ["answer"]
    assert first.input_requests["answer"].method == "elicitation/create"
    assert first.request_state is None
    assert text_of(final) == ("réponse : oui", False)
    assert final.result_type == "complete"


@pytest.mark.spec("MOD-CAP-REQUIRED")
def test_without_an_elicitation_callback_demander_is_refused_with_32021() -> None:
    async def ask() -> MCPError:
        async with Client(server(), client_info=CLIENT) as client:
            assert client.protocol_version == MODERN
            with pytest.raises(MCPError) as caught:
                await client.call_tool("demander", {"question": "Ça va ?"})
            return caught.value

    error = run(ask)
    assert error.code == -32021
    assert error.error.data == {"requiredCapabilities": {"elicitation": {}}}


@pytest.mark.spec("MOD-LEGACY-INIT")
def test_a_legacy_python_client_is_refused_by_a_modern_only_reference_naming_2026_07_28() -> None:
    async def legacy_client() -> MCPError:
        try:
            async with Client(server("--eras", "modern"), client_info=CLIENT, mode="legacy"):
                pass
        except BaseException as raised:  # the stdio transport's task groups wrap the MCPError
            return mcp_error(raised)
        raise AssertionError("initialize was accepted")

    error = run(legacy_client)
    assert error.code == -32022
    assert "2026-07-28" in error.error.message
    assert error.error.data == {"supported": [MODERN], "requested": "2025-11-25"}


@pytest.mark.spec("LIFE-INIT-RESULT", "MOD-DUAL-ERA", "MOD-STATELESS", "MOD-DISCOVER")
def test_one_python_session_uses_both_eras_of_the_dual_era_reference_in_turn() -> None:
    async def both() -> list[tuple[str | None, list[str]]]:
        seen: list[tuple[str | None, list[str]]] = []
        async with stdio_client(server()) as (read, write), ClientSession(read, write, client_info=CLIENT) as session:
            for open_era in (session.discover, session.initialize, session.discover):
                await open_era()  # each adopts its result, so the next requests are of its era
                tools = await session.list_tools()
                seen.append((session.protocol_version, [tool.name for tool in tools.tools]))
        return seen

    assert run(both) == [(MODERN, MODERN_TOOLS), ("2025-11-25", LEGACY_TOOLS), (MODERN, MODERN_TOOLS)]


def test_the_pinned_sdk_is_the_one_installed() -> None:
    from importlib.metadata import version

    pinned = [line for line in (ROOT / "pyproject.toml").read_text().splitlines() if '"mcp==' in line]
    assert pinned and f'"mcp=={version("mcp")}"' in pinned[0]
    assert sys.version_info >= (3, 11)

"""The seeds' scripted clients and what their answers must mean, shared by the dispatcher
tests (in process) and the server tests (through a real ``mcpref serve``).

The seeds are the French and Japanese lessons in ``../shared/seeds``; their tables of
answers are acceptance tests. The scripts themselves live in ``fuzz.corpus``, where
``mcpref check`` runs them against any server; what their answers must mean is checked
here. Where the reference differs from the lesson's toy server on purpose (more supported
versions, real demo tools), the checks say so.
"""

from __future__ import annotations

import json
from typing import Any

from mcpref.fuzz.generate.corpus import SEED_HANDSHAKE, SEED_TOOLS, call
from mcpref.fuzz.generate.messages import initialize, notification, request
from mcpref.reference.versions import SUPPORTED_NAMES

TOOL_NAMES = ["lire_prix", "echo", "fail", "attendre"]
init = initialize


def line(message: Any) -> bytes:
    """One message as JavaScript's ``JSON.stringify(m) + "\\n"`` writes it."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def error_code(answer: Any) -> int:
    code = answer["error"]["code"]
    assert isinstance(code, int)
    return code


def text_of(answer: Any) -> str:
    (content,) = answer["result"]["content"]
    assert content["type"] == "text"
    text = content["text"]
    assert isinstance(text, str)
    return text


HANDSHAKE_SCRIPT = SEED_HANDSHAKE


def check_handshake_answers(seen: list[Any]) -> None:
    assert [answer["id"] for answer in seen] == [1, 2, 3, 4, 5, 6]
    assert error_code(seen[0]) == -32600  # not initialised
    assert error_code(seen[1]) == -32602
    data = seen[1]["error"]["data"]
    assert data["requested"] == "1999-01-01"
    assert data["supported"] == list(SUPPORTED_NAMES)
    assert {"2025-03-26", "2024-11-05"} <= set(data["supported"])  # the lesson's two versions
    result = seen[2]["result"]
    assert result["protocolVersion"] == "2024-11-05"
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["serverInfo"] == {"name": "mcpref", "version": "0.1.0"}
    assert error_code(seen[3]) == -32600  # still not ready
    # The lesson's toy server has no tools; the reference lists its demo tools.
    assert [tool["name"] for tool in seen[4]["result"]["tools"]] == TOOL_NAMES
    assert error_code(seen[5]) == -32601  # never announced


TOOLS_SCRIPT = SEED_TOOLS


def check_tools_answers(seen: list[Any]) -> None:
    assert [answer["id"] for answer in seen] == [1, 2, 3, 4, 5, 6]
    assert seen[0]["result"]["protocolVersion"] == "2024-11-05"
    assert seen[0]["result"]["serverInfo"]["name"] == "mcpref"
    assert "lire_prix" in [tool["name"] for tool in seen[1]["result"]["tools"]]
    assert text_of(seen[2]) == "130 centimes"
    assert seen[2]["result"]["isError"] is False
    assert text_of(seen[3]) == "Produit inconnu"
    assert seen[3]["result"]["isError"] is True
    assert error_code(seen[4]) == -32602
    assert error_code(seen[5]) == -32601


# Lesson "Lire et écrire les messages MCP": the framing client. Its ``attendre`` method is
# the ``attendre`` tool here, called after a handshake. Offsets are in seconds.
def attendre(request_id: int, ms: int) -> bytes:
    return line(call(request_id, "attendre", {"ms": ms}))


PING = line(request(3, "ping"))
BAD_LINES = b"pas du json\n" + line({"jsonrpc": "2.0", "id": 5, "method": 5}) + line(notification("notifications/x"))
FRAMING_STEPS: list[tuple[float, bytes]] = [
    (0.000, attendre(1, 80)),
    (0.010, attendre(2, 10)),
    (0.020, PING[:12]),
    (0.040, PING[12:] + BAD_LINES),
]
FRAMING_CLOSE_AT = 0.200


def check_framing_answers(seen: list[Any]) -> None:
    assert [answer["id"] for answer in seen] == [2, 3, None, 5, 1]
    assert text_of(seen[0]) == "attendu 10 ms"  # the short wait finished first
    assert seen[1]["result"] == {}  # the ping was whole once its second half came
    assert error_code(seen[2]) == -32700  # "pas du json"
    assert error_code(seen[3]) == -32600  # a method that is a number
    assert text_of(seen[4]) == "attendu 80 ms"  # the long wait finished last

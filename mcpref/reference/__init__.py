"""mcpref's reference implementation of the MCP stdio layer: standard library only.

Layout, in the order data flows: ``framer`` (bytes to lines), ``messages`` (lines to
JSON-RPC messages, answers to bytes), ``handshake`` (the initialize state table),
``dispatcher`` (the sans-I/O server session; ``session_types``, its settings and effects),
``tools`` (the demo tools), ``server`` (the stdio loop, the only module doing I/O).
``versions`` and ``rules`` are the registries of protocol versions and of requirement IDs
(SPEC_NOTES.md).
"""

from .dispatcher import ServerSession
from .framer import LINE_TOO_LONG, LineFramer
from .handshake import Handshake, Phase
from .messages import classify, parse_line
from .session_types import VersionPolicy

__all__ = (
    "LINE_TOO_LONG",
    "Handshake",
    "LineFramer",
    "Phase",
    "ServerSession",
    "VersionPolicy",
    "classify",
    "parse_line",
)

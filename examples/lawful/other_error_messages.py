"""Lawful: every error carries a message of its own wording (in French), codes and data unchanged.

Rule: RPC-RESPONSE-SHAPE (MUST), which asks for a string ``message`` and nothing about its
text; the reference's texts ("Parse error: ...", "Not initialized", "Unknown tool: x") are
its own choice. This server replaces each with another sentence; the ``data`` member
(``supported``, ``requested``, ``requiredCapabilities``) is kept as it is.
Permitted: JSON-RPC 2.0 section 5.1 ("message: A String providing a short description of the
error"; "The message SHOULD be limited to a concise single sentence"); the MCP texts
(LIFE-VERSION-REJECT's "Unsupported protocol version") are examples, not requirements.
Expected under ``spec``: no failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/, for the shared _harness

from _harness import Answer, edit_answers, run

WORDING = {
    -32700: "Erreur de syntaxe JSON.",
    -32600: "Requête invalide.",
    -32601: "Méthode inconnue.",
    -32602: "Paramètres invalides.",
    -32603: "Erreur interne.",
    -32022: "Version du protocole non prise en charge ; voir data.supported.",
    -32021: "Capacité du client manquante ; voir data.requiredCapabilities.",
}


def reword(answer: Answer) -> None:
    error = answer.get("error")
    if isinstance(error, dict):
        error["message"] = WORDING.get(error["code"], "Erreur.")


if __name__ == "__main__":
    raise SystemExit(run(rewrite=lambda data: edit_answers(data, reword)))

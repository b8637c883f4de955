"""A client's reproducer file: the rule, the client command template and the scripted server's behaviour.

It has the server side's format (``report.reproducer``) with ``"side": "client"``; in place of
the bytes sent to a server, the ``ServerScript`` the scripted server plays (as ``dumps`` writes
it). ``mcpref replay FILE`` plays it again against the same client. A malformed or hostile
file is refused with ``ReproducerError``; the script is checked as ``ServerScript.loads`` does.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mcpref.fuzz.drive.client_run import PLACEHOLDER
from mcpref.fuzz.generate.client_scripts import ServerScript
from mcpref.fuzz.judge.findings import Profile
from mcpref.fuzz.report.reproducer import FORMAT, ReproducerError

SIDE = "client"


@dataclass(frozen=True)
class ClientReproducer:
    rule: str
    profile: Profile
    template: list[str]  # the client command, naming {server}
    script: ServerScript
    directory: str | None = None  # where the command ran


def is_client(document: Mapping[str, object]) -> bool:
    return document.get("side") == SIDE


def client_reproducer_json(
    rule: str, profile: Profile, template: list[str], script: ServerScript, finding: Mapping[str, object]
) -> str:
    document = {
        "format": FORMAT,
        "side": SIDE,
        "rule": rule,
        "profile": profile.value,
        "command": template,
        "script": json.loads(script.dumps()),
        "directory": os.getcwd(),
        "finding": {key: finding[key] for key in ("message", "expected", "actual")},
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def client_reproducer(path: Path, document: Mapping[str, object]) -> ClientReproducer:
    """The reproducer of ``document``, read from ``path``."""
    rule, profile, template = document.get("rule"), document.get("profile"), document.get("command")
    directory = document.get("directory")
    if not isinstance(rule, str) or profile not in {p.value for p in Profile}:
        raise ReproducerError(f"{path}: rule and profile are missing or malformed")
    if not isinstance(template, list) or not all(isinstance(word, str) for word in template):
        raise ReproducerError(f"{path}: command must be a list of strings")
    if not any(PLACEHOLDER in word for word in template):
        raise ReproducerError(f"{path}: the client command names no {PLACEHOLDER}")
    if directory is not None and not isinstance(directory, str):
        raise ReproducerError(f"{path}: directory must be a string")
    try:
        script = ServerScript.loads(json.dumps(document.get("script")))
    except ValueError as exc:
        raise ReproducerError(f"{path}: script: {exc}") from None
    return ClientReproducer(rule, Profile(profile), list(template), script, directory)

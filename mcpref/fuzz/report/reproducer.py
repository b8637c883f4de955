"""What a user gets back: reproducer files, shell one-liners, summary tables, JSON reports.

Files are written atomically (a temporary file in the same directory, then a rename),
so a campaign killed at any moment leaves the old file or the new one, never half.
A reproducer file is data only: its command is an argv list, never a shell string, and
a malformed or hostile file is refused with ``ReproducerError``.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import itertools
import json
import os
import secrets
import shlex
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mcpref.fuzz.drive.client_side import SENTINEL_IDS
from mcpref.fuzz.drive.observation import Direction, Event
from mcpref.fuzz.drive.target import Run, probe
from mcpref.fuzz.judge.oracle import Finding, Profile
from mcpref.reference.versions import Era

FORMAT = "mcpref-reproducer/1"
GZIP_MAGIC = b"\x1f\x8b"


class ReproducerError(Exception):
    """A reproducer file that cannot be used."""


@dataclass(frozen=True)
class Reproducer:
    rule: str
    profile: Profile
    argv: list[str]
    chunks: list[bytes]
    settle: float
    era: Era = Era.LEGACY  # which liveness probe follows the case
    directory: str | None = None  # where the command ran: a relative path in it means something there
    eof: bool = False  # the case ends by closing stdin (and no probe follows it)


def write_atomic(path: Path, text: str) -> None:
    """``text`` in ``path`` whole or not at all, with the mode the umask gives a new file (not
    the 0600 of ``tempfile``: reports are read by others, CI artifacts among them)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.parent / f".{path.name}.{secrets.token_hex(8)}.tmp"
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Columns padded to their widest cell, the last one left as it is (a finding's text)."""
    lines = [tuple(header), *rows]
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(header) - 1)]
    return "\n".join(
        "  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=False)) + "  " + str(line[-1])
        for line in lines
    )


def printf_argument(data: bytes) -> str:
    """``data`` as a single-quoted printf format that reproduces it byte for byte."""
    out = []
    for byte in data:
        char = chr(byte)
        if char == "%":
            out.append("%%")
        elif char == "\\":
            out.append("\\\\")
        elif char == "'":
            out.append("\\047")
        elif char == "\n":
            out.append("\\n")
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return "'" + "".join(out) + "'"


SHELL_LINE_MAX = 2048  # characters: longer than that, a line is no longer pasted but replayed


def shell_line(argv: list[str], stream: bytes, probed: bool = True, era: Era = Era.LEGACY) -> str | None:
    """A one-line reproduction: the case, then (with ``probed``) the era's liveness probe, piped
    into the command; None when that line is too long to paste (``mcpref replay`` is for it)."""
    return paced_shell_line(argv, (stream,), probed, era)


def paced_shell_line(argv: list[str], chunks: Sequence[bytes], probed: bool = True, era: Era = Era.LEGACY) -> str | None:
    """``shell_line`` for a case of several chunks: a second's pause between two writes, so that
    the command reads each on its own, as a pipe's reader that keeps up does."""
    tail = probe(SENTINEL_IDS[0], era) if probed else b""
    writes = [f"printf {printf_argument(chunk)}" for chunk in [*chunks[:-1], chunks[-1] + tail]]
    source = writes[0] if len(writes) == 1 else "{ " + "; sleep 1; ".join(writes) + "; }"
    line = f"{source} | {shlex.join(argv)}"
    return line if len(line) <= SHELL_LINE_MAX else None


def transcript(chunks: Sequence[bytes], run: Run) -> list[str]:
    lines = [f"-> {chunk.decode('utf-8', 'backslashreplace')!r}" for chunk in chunks]
    output = run.observation.output
    # A flood's first lines say what it is: a report holds kilobytes of it, not the 16 MiB a case keeps.
    lines += [f"<- {visible(line)}" for line in output[:TRANSCRIPT_RECEIVED]]
    if len(output) > TRANSCRIPT_RECEIVED:
        lines.append(f"<- ({len(output) - TRANSCRIPT_RECEIVED:,} more lines received, not shown)")
    if run.observation.trailing:
        lines.append(f"<- (unterminated) {visible(run.observation.trailing)}")
    return lines


# Characters a reader may take for a line end, or not see at all: shown as escapes (FRAME-LF-ONLY).
_INVISIBLE = {
    ord(char): f"\\u{ord(char):04x}" if ord(char) > 0xFF else f"\\x{ord(char):02x}"
    for char in [*map(chr, range(0x20)), "\x7f", "\x85", "\u2028", "\u2029", "\ufeff"]
}
_SHOWN = 2000  # characters of a line shown; the rest is counted


def visible(data: bytes) -> str:
    """``data`` as text a terminal or a page shows faithfully: invalid UTF-8, controls and false
    line ends escaped, a long line cut with its length said."""
    # No more is decoded than can be shown: a byte gives a character at least, and four at most a
    # character (a line of 16 MiB costs no more than one of 8 KiB).
    text = data[: 4 * _SHOWN].decode("utf-8", "backslashreplace").translate(_INVISIBLE)
    return text if len(text) <= _SHOWN and len(data) <= 4 * _SHOWN else f"{text[:_SHOWN]}… ({len(data):,} bytes in all)"


TRANSCRIPT_RECEIVED = 200  # stdout lines a transcript shows; the rest are counted


def session_transcript(events: tuple[Event, ...], trailing: bytes = b"") -> list[str]:
    """The session as the seeds' scripted clients print it: ``-> `` sent, ``<- `` received, ``!! `` stderr.

    Each write is one chunk, as the target could read it: a chunk boundary is a ``~~`` line, and a
    line cut by it is shown in pieces, each ending or starting where the cut is.
    """
    lines: list[str] = []
    sent = received = unshown = 0
    for event in events:
        if event.direction is Direction.RECEIVED and received >= TRANSCRIPT_RECEIVED:
            unshown += 1  # a flood: its first lines say what it is
            continue
        if event.direction is Direction.SENT:
            sent += 1
            if sent > 1:
                lines.append(f"~~ chunk {sent} ({len(event.data):,} bytes)")
            pieces = event.data.split(b"\n")
            lines += [f"-> {visible(piece)}" for piece in (pieces[:-1] if not pieces[-1] else pieces)]
        elif event.direction is Direction.RECEIVED:
            received += 1
            lines.append(f"<- {visible(event.data)}")
        else:
            lines += [f"!! {visible(line)}" for line in event.data.rstrip(b"\n").split(b"\n")]
    if unshown:
        lines.append(f"<- ({unshown:,} more lines received, not shown)")
    if trailing:
        lines.append(f"<- (unterminated) {visible(trailing)}")
    return lines


STDERR_INLINE = 200  # characters: a longer stderr text is kept once per report, and referred to


def stderr_once(findings: Iterable[dict[str, object]]) -> dict[str, str]:
    """Moves each long stderr text out of the findings' transcripts: a run of ``!! `` lines over
    ``STDERR_INLINE`` characters becomes one line naming it by a digest of its text, and the
    texts are returned by digest, once each (a report's ``stderr``; reports merged keep one)."""
    texts: dict[str, str] = {}
    for finding in findings:
        lines = finding.get("transcript")
        if not isinstance(lines, list):
            continue
        shared: list[object] = []
        for is_stderr, group in itertools.groupby(lines, key=lambda line: str(line).startswith("!! ")):
            block = [str(line)[3:] for line in group]
            text = "\n".join(block)
            if not is_stderr or len(text) <= STDERR_INLINE:
                shared += [f"!! {line}" for line in block] if is_stderr else block
                continue
            digest = hashlib.sha256(text.encode()).hexdigest()[:12]
            texts[digest] = text
            shared.append(f"!! (stderr {digest}: {len(block)} lines, {len(text):,} characters, in the report's stderr)")
        finding["transcript"] = shared
    return texts


def finding_json(finding: Finding, profile: Profile) -> dict[str, object]:
    from mcpref.reference.rules import BY_ID

    return {
        "id": finding.rule,
        "level": BY_ID[finding.rule].level.value,
        "status": finding.status(profile).value,
        "line": finding.line,
        "message": finding.message,
        "expected": finding.expected,
        "actual": finding.actual,
    }


def reproducer_json(
    rule: str,
    profile: Profile,
    argv: list[str],
    chunks: Sequence[bytes],
    settle: float,
    era: Era = Era.LEGACY,
    finding: Mapping[str, object] | None = None,
    *,
    eof: bool = False,
) -> str:
    """A reproducer file; with ``finding`` (as ``finding_json`` gives it), what was seen when it was
    saved, which ``explain`` reads."""
    document: dict[str, object] = {
        "format": FORMAT,
        "rule": rule,
        "profile": profile.value,
        "command": argv,
        "chunks": [base64.b64encode(chunk).decode("ascii") for chunk in chunks],
        "settle": settle,
        "era": era.value,
        "eof": eof,
        "directory": os.getcwd(),
        "preview": [chunk.decode("utf-8", "backslashreplace")[:200] for chunk in chunks],
    }
    if finding is not None:
        document["finding"] = {key: finding[key] for key in ("message", "expected", "actual")}
    return json.dumps(document, indent=2) + "\n"


def load_document(path: Path, form: str | None, error: type[Exception]) -> dict[str, object]:
    """The JSON object in ``path``, whose ``format`` must be ``form`` (any without one); ``error``
    says what is wrong. A gzip file is read through: reproducers of lines of several MiB are kept
    compressed."""
    try:
        data = path.read_bytes()
        document = json.loads(gzip.decompress(data) if data.startswith(GZIP_MAGIC) else data)
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, RecursionError, EOFError, zlib.error):
        raise error(f"{path} is not JSON") from None
    if not isinstance(document, dict) or (form is not None and document.get("format") != form):
        raise error(f"{path} is not a {form or 'JSON object'} file")
    return document


def load_reproducer(path: Path) -> Reproducer:
    document = load_document(path, FORMAT, ReproducerError)
    rule, profile, argv = document.get("rule"), document.get("profile"), document.get("command")
    chunks, settle = document.get("chunks"), document.get("settle", 0.0)
    era = document.get("era", Era.LEGACY.value)
    directory, eof = document.get("directory"), document.get("eof", False)
    if not isinstance(rule, str) or profile not in {p.value for p in Profile}:
        raise ReproducerError(f"{path}: rule and profile are missing or malformed")
    if not isinstance(argv, list) or not argv or not all(isinstance(word, str) for word in argv):
        raise ReproducerError(f"{path}: command must be a non-empty list of strings")
    if not isinstance(chunks, list) or not all(isinstance(chunk, str) for chunk in chunks):
        raise ReproducerError(f"{path}: chunks must be a list of base64 strings")
    if not isinstance(settle, int | float) or not 0 <= settle <= 60:
        raise ReproducerError(f"{path}: settle must be a number of seconds from 0 to 60")
    if era not in {e.value for e in Era}:
        raise ReproducerError(f"{path}: era must be one of {', '.join(e.value for e in Era)}")
    if directory is not None and not isinstance(directory, str):
        raise ReproducerError(f"{path}: directory must be a string")
    if not isinstance(eof, bool):
        raise ReproducerError(f"{path}: eof must be true or false")
    try:
        decoded = [base64.b64decode(chunk, validate=True) for chunk in chunks]
    except ValueError:
        raise ReproducerError(f"{path}: a chunk is not valid base64") from None
    return Reproducer(rule, Profile(profile), argv, decoded, float(settle), Era(era), directory, eof)

"""The HTML conformance page: self-contained, complete, and rendered by a real browser.

``check --html`` and ``compare --html`` write one page; it is parsed here, then loaded in
Debian's headless Chromium, whose DOM must hold the matrix and the failures' transcripts and
whose screenshot must show the status colours. Without Chromium those browser checks skip
and say why (``.ci/run`` installs it, so that CI always runs them).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SILENT = [sys.executable, str(ROOT / "examples" / "buggy" / "silent_on_parse_error.py")]
REFERENCE = [sys.executable, "-m", "mcpref.reference"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# As root, in a closed network: no sandbox, and none of the browser's own connections.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FAIL_RGB, PASS_RGB = (0xFF, 0xD6, 0xD6), (0xD7, 0xF5, 0xDD)  # td.fail and td.pass in mcpref/fuzz/report/html.py


def mcpref(*argv: str) -> int:
    done = subprocess.run([sys.executable, "-m", "mcpref", *argv], cwd=ROOT, capture_output=True)
    assert b"Traceback" not in done.stderr, done.stderr.decode()[-2000:]
    return done.returncode


class Cells(HTMLParser):
    """The matrix: rule -> the classes of its status cells, in column order; and the page's external fetches."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self.row: str | None = None
        self.fetches: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "tr" and attributes.get("id"):
            self.row = attributes["id"]
            self.rows[str(self.row)] = []
        elif tag == "td" and self.row and attributes.get("class") in {"pass", "warn", "fail", "na"}:
            self.rows[self.row].append(str(attributes["class"]))
        elif tag in {"script", "link", "img", "iframe", "object", "embed"} or "src" in attributes:
            self.fetches.append(tag)


def cells(page: Path) -> Cells:
    parser = Cells()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def check_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    page = tmp_path_factory.mktemp("html") / "check.html"
    assert mcpref("check", "--html", str(page), "--", *SILENT) == 1
    return page


@pytest.mark.spec("RPC-PARSE-ERROR", "FRAME-UTF8")
def test_the_check_page_holds_the_matrix_and_each_failure_and_fetches_nothing(check_page: Path) -> None:
    parsed = cells(check_page)
    assert parsed.fetches == []
    assert parsed.rows["RPC-PARSE-ERROR"] == ["fail"] and parsed.rows["FRAME-CRLF"] == ["pass"]
    text = check_page.read_text(encoding="utf-8")
    assert "https://www.jsonrpc.org/specification#error_object" in text  # the citation
    # The failure: transcript, expected and actual, reproducer file and command, shell line.
    assert "-&gt; pas du json" in text and "&lt;- " in text
    assert "Expected: <code>error -32700 with id null</code>" in text
    assert 'download="RPC-PARSE-ERROR.json" href="data:application/json;base64,' in text
    assert "mcpref replay --transcript RPC-PARSE-ERROR.json" in text
    assert "printf " in text
    # One section a cause, shown by its smallest scenario: "not JSON", not the line among cut reads.
    assert text.count('<section class="finding"') == 2 and text.count('download="RPC-PARSE-ERROR.json"') == 1
    assert "Scenario <b>not JSON</b>" in text


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_the_compare_page_has_a_column_per_server(tmp_path: Path) -> None:
    page = tmp_path / "compare.html"
    status = mcpref("compare", "--html", str(page), "--label", "ref", "--label", "silent", "--", *REFERENCE, "---", *SILENT)
    assert status == 1
    parsed = cells(page)
    assert parsed.rows["RPC-PARSE-ERROR"] == ["pass", "fail"]
    assert parsed.rows["STDIO-SIGNALS"] == ["na", "na"]


def chromium(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[bytes]:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)")
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *argv]
    return subprocess.run(command, capture_output=True, timeout=180, check=False)


@pytest.mark.spec("RPC-PARSE-ERROR")
def test_a_real_browser_renders_the_page(check_page: Path, tmp_path: Path) -> None:
    dom = chromium(tmp_path, "--dump-dom", check_page.as_uri()).stdout.decode()
    assert re.search(r'<tr id="RPC-PARSE-ERROR">.*?<td class="fail">', dom, re.DOTALL)
    assert "-&gt; pas du json" in dom
    shot = tmp_path / "check.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,1600", check_page.as_uri())
    width, height, pixels = decode_png(shot.read_bytes())
    assert (width, height) == (1280, 1600)
    assert pixels.count(FAIL_RGB) > 100 and pixels.count(PASS_RGB) > 1000  # the status colours, painted


def decode_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """An 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes) as its pixels' colours."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, header, idat = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind, body = data[position + 4 : position + 8], data[position + 8 : position + 8 + length]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        position += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0
    size = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * size
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - size] if x >= size else 0
            up, corner = previous[x], previous[x - size] if x >= size else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                nearest = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
                line[x] = (line[x] + nearest[2]) & 0xFF
        rows.append(line)
        previous = line
    return width, height, [(row[x], row[x + 1], row[x + 2]) for row in rows for x in range(0, stride, size)]

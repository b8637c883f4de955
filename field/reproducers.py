"""The findings of a run, each with a reproducer under ``docs/field-repro/``, replayed.

In: the first run's results (``fieldlib.RunResults``). Out: the findings (every fail and warn, one
per target, era, rule and message), a reproducer file for each under ``docs/field-repro/<target>/``
(gzip-compressed, ``.json.gz``, when a line of its input passes 64 KiB: ``mcpref replay`` reads
either), and, on each finding, what ``mcpref replay`` of its reproducer showed (a scenario that
ends by closing stdin is replayed so: its reproducer says ``"eof": true``).

mcpref's modules are imported inside the functions that need them: the script's other modes
need nothing but the standard library.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from fieldlib import ERAS, MCPREF, PROFILES, REPRO, ROOT, Json, RunResults
from isolation import isolated
from targets import Target

REPLAYS = 4  # reproducers replayed side by side (a verdict does not depend on the machine's load)
# A reproducer with an input line longer than this is kept compressed: the lines that test a
# parser's limits run to several MiB, and compress to a few KiB.
LONG_LINE = 64 * 1024
GZIP_MAGIC = b"\x1f\x8b"
ENTRY_POINT = Path(__file__).resolve().with_name("make_field.py")


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
    # A follow-up's (built from the target's own answers, in no corpus): the reproducer check wrote.
    written: str | None = None

    @property
    def fails(self) -> bool:
        return "fail" in self.statuses.values()


def collect(targets: list[Target], results: RunResults) -> list[Finding]:
    from mcpref.fuzz.generate.corpus_modern import BY_ERA
    from mcpref.reference.versions import Era

    scenarios = {era: {s.name: s for s in BY_ERA[Era(era if era == "legacy" else "modern")]} for era in ERAS}
    # One finding per target, era, rule and message: the same divergence seen in several scenarios is
    # one entry, shown with its first probed scenario (the one closest to a campaign's) and naming the others.
    findings: dict[tuple[str, ...], Finding] = {}
    for target in targets:
        result = results[target.label]
        for era in ERAS:
            for profile in PROFILES:
                for row in result["checks"][f"{era} {profile}"]["rules"]:
                    for hit in row["findings"]:
                        key = (target.label, era, row["id"], "check", hit["message"], str(hit["expected"]))
                        scenario = scenarios[era].get(hit["scenario"])
                        eof = scenario is not None and scenario.eof  # a follow-up never closes stdin
                        found = findings.get(key)
                        if found is None or (found.eof and not eof and found.scenario != hit["scenario"]):
                            replaced = found
                            found = findings[key] = Finding(
                                target.label, era, row["id"], row["level"], "check", hit["scenario"], {},
                                hit["message"], str(hit["expected"]), str(hit["actual"]), hit.get("shell"),
                                hit.get("transcript", []), eof,
                                written=None if scenario is not None else hit["reproducer"].split(" ")[-1],
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


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def longest_line(document: Json) -> int:
    """The longest line, in bytes, of the input a reproducer sends (its chunks, joined)."""
    stream = b"".join(base64.b64decode(chunk) for chunk in document["chunks"])
    return max(len(line) for line in stream.split(b"\n"))


def taken(folder: Path, stem: str) -> bool:
    return (folder / f"{stem}.json").exists() or (folder / f"{stem}.json.gz").exists()


def write_reproducer(folder: Path, stem: str, document: Json) -> Path:
    """``<stem>.json``, or ``<stem>.json.gz`` for an input line past ``LONG_LINE``."""
    text = json.dumps(document, indent=2) + "\n"
    if longest_line(document) <= LONG_LINE:
        path = folder / f"{stem}.json"
        path.write_text(text)
    else:
        path = folder / f"{stem}.json.gz"
        path.write_bytes(gzip.compress(text.encode(), mtime=0))  # no time stamp: a rerun changes no byte
    return path


def read_document(path: Path) -> Json:
    """A reproducer as ``write_reproducer`` wrote it, compressed or not."""
    data = path.read_bytes()
    document: Json = json.loads(gzip.decompress(data) if data.startswith(GZIP_MAGIC) else data)
    return document


def save_reproducers(targets: list[Target], results: RunResults, findings: list[Finding]) -> None:
    from mcpref.fuzz.generate.corpus_modern import BY_ERA
    from mcpref.fuzz.judge.oracle import Profile
    from mcpref.fuzz.report.reproducer import reproducer_json
    from mcpref.reference.versions import Era

    by_label = {target.label: target for target in targets}
    shutil.rmtree(REPRO, ignore_errors=True)
    for finding in findings:
        target = by_label[finding.target]
        folder = REPRO / finding.target
        folder.mkdir(parents=True, exist_ok=True)
        if finding.source == "check":
            era = Era.LEGACY if finding.era == "legacy" else Era.MODERN
            scenario = {s.name: s for s in BY_ERA[era]}.get(finding.scenario)
            # The profile in which it fails, if one does: replay exits 1 then.
            profile = Profile.SPEC if finding.statuses.get("spec") == "fail" else Profile.STRICT
            if scenario is None:  # a follow-up: its bytes are those check wrote
                assert finding.written is not None
                document = {**read_document(Path(finding.written)), "command": target.argv, "profile": profile.value}
            else:
                case = scenario.case
                document = json.loads(
                    reproducer_json(finding.rule, profile, target.argv, case.chunks, case.settle, era, eof=case.eof)
                )
            document["scenario"] = finding.scenario
            stem = f"{finding.era}-{finding.rule}-{slug(finding.scenario)}"
            number = 2
            while taken(folder, stem):  # two findings of one rule in one scenario (another message)
                stem = f"{finding.era}-{finding.rule}-{slug(finding.scenario)}-{number}"
                number += 1
        else:
            report = results[finding.target]["fuzz"][finding.era]
            status = finding.statuses["spec"]
            entry = next(e for e in report["failures" if status == "fail" else "warnings"] if e["id"] == finding.rule)
            document = read_document(Path(entry["reproducer"]))
            document["command"] = target.argv
            stem = f"fuzz-{finding.era}-{finding.rule}{'' if status == 'fail' else '-warn'}"
        path = write_reproducer(folder, stem, document)
        finding.reproducer = str(path.relative_to(ROOT))


def replay(finding: Finding) -> None:
    """Whether the saved case still shows the rule broken, by ``mcpref replay``."""
    assert finding.reproducer is not None, "save_reproducers() saves one for every finding"
    done, _ = isolated([*MCPREF, "replay", finding.reproducer], timeout=300)
    seen = re.findall(r"^(fail|warn) ([A-Z0-9-]+):", done.stdout, re.MULTILINE)
    how = "mcpref replay"
    mine = [status for status, rule in seen if rule == finding.rule]
    others = ", ".join(f"{status} {rule}" for status, rule in seen if rule != finding.rule)
    if mine:
        finding.replayed = f"yes ({how}: {mine[0]})"
    elif others:  # replay does not relabel (FRAME-LF-ONLY is told from RPC-ONE-ANSWER by check and fuzz alone)
        finding.replayed = f"NOT as {finding.rule} ({how}: {others})"
    else:
        finding.replayed = f"NO ({how}: exit {done.returncode}, no divergence)"


def replay_all(findings: list[Finding]) -> None:
    print(f"make field: replaying {len(findings)} reproducers, {REPLAYS} at a time", flush=True)
    with ThreadPoolExecutor(REPLAYS) as pool:  # each replay is a process of its own
        list(pool.map(replay, findings))

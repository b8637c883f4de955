"""Running mcpref against the installed targets: one run of ``make field``, and the probes beside it.

In: the targets, a run's number, the campaigns' seed and case count. Out: ``.field/runs/<N>/``,
each check's ``--json`` output and each campaign's folder (its report and reproducers), and
``results.json``, the run's results by target (``fieldlib.RunResults``): four checks (both eras,
both profiles) and a campaign per era the target speaks. The probes (``field/*_probe.py``) write
their text to ``.field/runs/<stem>.txt``, once per ``make field``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from fieldlib import ERAS, MCPREF, MODERN, PROFILES, PYTHON, ROOT, RUNS, SOURCE, Json, RunResults
from isolation import isolated
from targets import Target

# The probes beside the runs (field/<script> and its arguments), each written to .field/runs/<stem>.txt.
PROBES: dict[str, list[str]] = {"version_probe.py": [], "eof_probe.py": ["--repeat", "5"]}


def probe_file(script: str) -> Path:
    return RUNS / f"{Path(script).stem}.txt"


def check(target: Target, era: str, profile: str, out: Path) -> Json:
    # The JUnit file's reproducers: those of follow-ups, built from the target's answers, are in no corpus.
    argv = [*MCPREF, "check", "--profile", profile, "--json", "--junit-xml", str(out.with_suffix(".xml"))]
    if era == "modern":
        argv += ["--protocol-version", MODERN]
    done, seconds = isolated([*argv, "--", *target.argv], timeout=900)
    if done.returncode not in (0, 1):
        raise SystemExit(
            f"make field: check {target.label} {era} {profile} failed ({done.returncode}): {done.stderr[-2000:]}"
        )
    result: Json = json.loads(done.stdout)
    result["seconds"] = round(seconds, 1)
    result["exit"] = done.returncode
    out.write_text(json.dumps(result, indent=1))
    return result


def speaks_modern(result: Json) -> bool:
    """Whether the modern check saw the target speak the era: a rule of that era alone exercised."""
    # Imported here: the script's other modes (--help, rendering) need nothing of mcpref.
    from mcpref.reference.rules import BY_ID
    from mcpref.reference.versions import Era

    return any(
        row["status"] != "n/a" and {version.era for version in BY_ID[row["id"]].versions} == {Era.MODERN}
        for row in result["rules"]
    )


def fuzz(target: Target, era: str, seed: int, max_cases: int, work: Path) -> Json:
    directory = work / f"{target.label}-fuzz-{era}"
    shutil.rmtree(directory, ignore_errors=True)  # a fresh example database: reproducible
    report = directory / "report.json"
    argv = [*MCPREF, "fuzz", "--seed", str(seed), "--max-cases", str(max_cases), "--report", str(report)]
    argv += ["--campaign-dir", str(directory)]
    if era == "modern":
        argv += ["--protocol-version", MODERN]
    done, seconds = isolated([*argv, "--", *target.argv], timeout=7200)
    if not report.exists():
        raise SystemExit(
            f"make field: fuzz {target.label} {era} wrote no report ({done.returncode}): {done.stderr[-2000:]}"
        )
    result: Json = json.loads(report.read_text())
    result["wall_seconds"] = round(seconds, 1)
    result["exit"] = done.returncode
    result["repro_dir"] = str(directory / "repro")
    return result


def one_run(targets: list[Target], index: int, seed: int, max_cases: int) -> RunResults:
    work = RUNS / str(index)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    results: RunResults = {}
    for target in targets:
        checks: dict[str, Json] = {}
        for era in ERAS:
            for profile in PROFILES:
                print(f"make field: run {index}: check {target.label} {era} {profile}", flush=True)
                result = check(target, era, profile, work / f"{target.label}-check-{era}-{profile}.json")
                print(f"make field:   {result['seconds']} s", flush=True)
                checks[f"{era} {profile}"] = result
        modern = speaks_modern(checks["modern spec"])
        fuzzed: dict[str, Json] = {}
        for era in ERAS if modern else ERAS[:1]:
            print(f"make field: run {index}: fuzz {target.label} {era}, seed {seed}, {max_cases} cases", flush=True)
            fuzzed[era] = fuzz(target, era, seed, max_cases, work)
            print(f"make field:   {fuzzed[era]['wall_seconds']} s, {fuzzed[era]['cases']} cases", flush=True)
        results[target.label] = {"checks": checks, "modern": modern, "fuzz": fuzzed}
    (work / "results.json").write_text(json.dumps(results, indent=1))
    return results


def load_run(index: int) -> RunResults:
    results: RunResults = json.loads((RUNS / str(index) / "results.json").read_text())
    return results


def forget_probes() -> None:
    """Before fresh runs: the probes are made again, with the targets as they are now."""
    for script in PROBES:
        probe_file(script).unlink(missing_ok=True)


def run_probes(targets: list[Target]) -> None:
    """Each probe not yet made since the last fresh runs, of the targets reported."""
    labels = [target.label for target in targets]
    for script, arguments in PROBES.items():
        path = probe_file(script)
        if path.exists():
            continue
        print(f"make field: field/{script}", flush=True)
        probe = subprocess.run(
            [PYTHON, str(SOURCE / script), *arguments, "--only", *labels],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        path.write_text(probe.stdout + (f"(exit {probe.returncode}) {probe.stderr[-500:]}" if probe.returncode else ""))

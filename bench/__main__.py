"""``python -m bench [--only 1,2,3,4,5,6,8,9]``: run the benchmarks and print the results table.

Progress goes to stderr; the table (Markdown, the same text README.md records) goes to
stdout, headed by the machine it ran on.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from . import bounds, campaign, check_speed, framer, long_campaign, memory, scale, serve
from .common import Row, machine, progress, table

ITEMS: dict[str, Callable[[], list[Row]]] = {
    "1": framer.run,
    "2": serve.run,
    "3": campaign.throughput,
    "4": campaign.detection,
    "5": memory.run,
    "6": scale.run,
    "7": long_campaign.run,
    "8": check_speed.run,
    "9": bounds.run,
}
SOAK = "7"  # the long campaign: make soak, not make bench


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    default = ",".join(item for item in ITEMS if item != SOAK)
    parser.add_argument("--only", default=default, help=f"comma-separated items (default: all but {SOAK}, the soak)")
    items = [item.strip() for item in parser.parse_args().only.split(",")]
    unknown = [item for item in items if item not in ITEMS]
    if unknown:
        parser.error(f"unknown items: {', '.join(unknown)}")
    where = machine()
    started = time.monotonic()
    rows: list[Row] = []
    for item in ITEMS:
        if item in items:
            rows += ITEMS[item]()
    progress(f"done in {time.monotonic() - started:.0f} s")
    print(f"mcpref bench — {where}\n")
    print(table(rows))
    missed = [row for row in rows if row.met is False]
    print(f"\n{sum(row.met is True for row in rows)} targets met, {len(missed)} not met.")


if __name__ == "__main__":
    main()

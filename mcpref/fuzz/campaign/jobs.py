"""Campaigns side by side, one process each, merged into one outcome (``mcpref fuzz --jobs``).

Each job is a ``Campaign`` of its own (``Campaign.side_by_side``), with its own target
processes and seed. The jobs share the deadline and the example database (``fuzz.campaign.database``):
the campaign directory's, which Hypothesis writes one file at a time, or Redis, to which each
job opens a connection of its own (a failure one job saves, every job replays first on the
next run). Their outcomes are merged: counts added, each rule's smallest failure kept, and
the first warning seen of each rule. The merged failures are then attributed
(``Campaign.attribute``) once each, shared out among the jobs, which take the next as they
finish one: rather than by each job for the same rules, and rather than one after the other.
"""

from __future__ import annotations

import functools
import multiprocessing
import operator
import queue
import traceback
from dataclasses import dataclass
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

from mcpref.fuzz.campaign.outcome import Failure, Outcome, Progress, Stats, one_a_rule, settled
from mcpref.fuzz.campaign.runner import GRACE_SECONDS, Campaign
from mcpref.fuzz.drive import stopping


@dataclass(frozen=True)
class _Attributed:
    """Merged failure ``position``, attributed by a job."""

    position: int
    failure: Failure


# From job i: where it is, what it found, a failure it attributed, its counts once it has
# attributed its share, or its crash.
Message = tuple[int, Progress | Outcome | _Attributed | Stats | str]
Task = tuple[int, Failure] | None  # a merged failure to attribute, at its position; None: no more
_ADDED = ("cases", "messages", "processes", "kept", "target_seconds", "fresh_seconds", "oracle_seconds")


def _report(messages: Queue[Message], index: int, progress: Progress) -> None:
    messages.put((index, progress))


def _work(
    index: int, campaign: Campaign, progress: bool, messages: Queue[Message], stop: Event, tasks: Queue[Task]
) -> None:
    # A signal, from the terminal or passed on by mcpref, kills this job's targets and ends its
    # campaign, which sends what it found as any job does.
    with stopping.on_signals(at_once=False):
        _campaign(index, campaign, progress, messages, stop, tasks)


def _campaign(
    index: int, campaign: Campaign, progress: bool, messages: Queue[Message], stop: Event, tasks: Queue[Task]
) -> None:
    try:
        if progress:
            campaign.progress = functools.partial(_report, messages, index)
        campaign.stopped = stop.is_set
        messages.put((index, campaign.run()))
        try:
            while (task := tasks.get()) is not None:
                position, failure = task
                messages.put((index, _Attributed(position, campaign.attribute(failure))))
        finally:
            campaign.close()
        messages.put((index, campaign.stats))  # the attribution's runs included
    except BaseException:  # a crash of a job is our bug: the user must see it
        messages.put((index, traceback.format_exc()))


def run_jobs(jobs: int, campaign: Campaign) -> Outcome:
    """Run ``campaign`` as ``jobs`` jobs side by side; one job runs here, in this process."""
    if jobs == 1:
        return campaign.run()
    context = multiprocessing.get_context("spawn")  # no state of this process leaks into the jobs
    messages: Queue[Message] = context.Queue()
    tasks: Queue[Task] = context.Queue()
    stop = context.Event()
    show = campaign.progress is not None
    workers = [
        context.Process(
            target=_work, args=(index, campaign.side_by_side(index, jobs), show, messages, stop, tasks), daemon=True
        )
        for index in range(jobs)
    ]
    with stopping.held():  # until a job handles SIGINT and SIGTERM, it holds them back
        for worker in workers:
            worker.start()
        stopping.forward_to([worker.pid for worker in workers if worker.pid is not None])
    outcomes: dict[int, Outcome] = {}
    finals: dict[int, Stats] = {}
    attributed: dict[int, Failure] = {}
    latest: dict[int, Progress] = {}
    silent: set[int] = set()  # jobs seen ended with nothing sent, at the last look
    merged: Outcome | None = None
    try:
        while len(finals) < jobs:
            try:
                index, item = messages.get(timeout=1.0)
            except queue.Empty:
                ended = {i for i, worker in enumerate(workers) if worker.exitcode is not None and i not in finals}
                if ended & silent:
                    raise RuntimeError(f"job {min(ended & silent)} ended without an outcome") from None
                silent = ended  # its last message may still be on its way: look once more
                continue
            if isinstance(item, str):
                raise RuntimeError(f"job {index} crashed:\n{item}")
            if isinstance(item, Outcome):
                outcomes[index] = item
                if len(outcomes) == jobs:
                    merged = merge([outcomes[i] for i in range(jobs)], campaign.stats.started)
                    for task in enumerate(merged.failures):
                        tasks.put(task)
                    _no_more(tasks, jobs)
            elif isinstance(item, _Attributed):
                attributed[item.position] = item.failure
            elif isinstance(item, Stats):
                finals[index] = item
            elif campaign.progress is not None:
                latest[index] = item
                campaign.progress(functools.reduce(operator.add, latest.values()))
    finally:
        if merged is None:
            _no_more(tasks, jobs)  # after a crash: the jobs that sent their outcome wait for failures
        stop.set()  # after a crash, the other jobs end at their next case, and end their targets
        for worker in workers:
            worker.join(timeout=GRACE_SECONDS + campaign.timing.patience.limit)
            if worker.is_alive():
                worker.kill()
        stopping.forward_to([])
    assert merged is not None  # every job sent its outcome before its counts
    # The attribution's runs count with the jobs' runs.
    for index, outcome in outcomes.items():
        outcome.stats = finals[index]
    counted = merge([outcomes[index] for index in range(jobs)], campaign.stats.started)
    campaign.stats = counted.stats
    attributed_failures = one_a_rule(attributed[position] for position in range(len(merged.failures)))
    counted.failures = settled(attributed_failures, counted.warnings, campaign.profile)
    return counted


def _no_more(tasks: Queue[Task], jobs: int) -> None:
    """The end of the failures to attribute, for each job."""
    for _ in range(jobs):
        tasks.put(None)


def merge(outcomes: list[Outcome], started: float) -> Outcome:
    """One outcome for campaigns run side by side since ``started``."""
    stats = Stats(started=started)
    best: dict[str, Failure] = {}
    warnings: dict[str, Failure] = {}
    for outcome in outcomes:
        part = outcome.stats
        for name in _ADDED:
            setattr(stats, name, getattr(stats, name) + getattr(part, name))
        for rule, count in part.unconfirmed.items():
            stats.unconfirmed[rule] = stats.unconfirmed.get(rule, 0) + count
        # Case numbers count within a job: the earliest job to get there.
        stats.fresh_only_from = _earliest(stats.fresh_only_from, part.fresh_only_from)
        stats.first_failure = _earliest(stats.first_failure, part.first_failure)
        stats.out_of_time = stats.out_of_time or part.out_of_time
        stats.legacy_session = stats.legacy_session or part.legacy_session
        stats.modern_era = stats.modern_era or part.modern_era
        for failure in outcome.failures:
            if failure.rule not in best or failure.size < best[failure.rule].size:
                best[failure.rule] = failure
        for rule, warned in outcome.warnings.items():
            warnings.setdefault(rule, warned)
    return Outcome(list(best.values()), stats, warnings)


def _earliest(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)

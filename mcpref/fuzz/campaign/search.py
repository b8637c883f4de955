"""Hypothesis as the campaigns' search: its settings, the exception a failing case raises (one type a
rule, so that each is shrunk on its own), and draws that depend on the seed and the outcomes alone."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from unittest import mock

from hypothesis import HealthCheck, Phase, Verbosity, example, settings
from hypothesis.database import ExampleDatabase
from hypothesis.internal.conjecture import engine, providers
from hypothesis.internal.constants_ast import Constants


class Divergence(AssertionError):
    """A case on which the target broke a rule (one subclass per rule)."""


_DIVERGENCES: dict[str, type[Divergence]] = {}


def divergence(rule: str) -> type[Divergence]:
    if rule not in _DIVERGENCES:
        _DIVERGENCES[rule] = type(f"Divergence_{rule.replace('-', '_')}", (Divergence,), {})
    return _DIVERGENCES[rule]


def campaign_settings(max_examples: int, database: ExampleDatabase | None) -> settings:
    """Hypothesis's settings for a campaign: every failure kept and shrunk, no deadline, no health
    check (a target's speed is not the search's business), nothing printed."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        database=database,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=True,
        verbosity=Verbosity.quiet,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
        derandomize=False,
    )


def explicitly(test: Callable[[], None], cases: Sequence[object]) -> Callable[[], None]:
    """``test``, a Hypothesis test of ``case``, running ``cases`` first, in their order: Hypothesis runs
    explicit examples before it generates, and reports their failures with those it finds, unshrunk."""
    for case in reversed(cases):  # Hypothesis runs the last one applied first
        test = example(case=case)(test)
    return test


class _StillClock:
    """The ``time`` module as Hypothesis's engine sees it during a campaign: ``monotonic`` stands still."""

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)

    @staticmethod
    def monotonic() -> float:
        return 0.0


@contextlib.contextmanager
def reproducible() -> Iterator[None]:
    """Hypothesis draws on nothing but the seed and the outcomes of the cases.

    Two of its inputs would make the cases differ from one install or machine to the next.
    Its engine reads a clock once, to stop looking for more bugs ten seconds after the
    first: it sees a clock that stands still, so that its own count of calls ends that
    search. Its provider mixes into its draws the literals of every loaded module that lies
    outside site-packages: which those are depends on how mcpref was installed and on what
    the process imported, so a campaign draws from Hypothesis's own constants only.
    """
    providers.CONSTANTS_CACHE.cache.clear()  # it may hold the local constants of earlier draws
    try:
        with mock.patch.object(engine, "time", _StillClock()), mock.patch.object(
            providers, "_get_local_constants", Constants
        ):
            yield
    finally:
        providers.CONSTANTS_CACHE.cache.clear()

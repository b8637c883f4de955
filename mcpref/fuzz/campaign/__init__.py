"""Campaigns: cases generated, driven and judged until a budget is spent.

In: a target's argv, a seed, a budget. Out: an ``Outcome`` with the failures found, shrunk by
Hypothesis, and the example database that replays them; ``jobs`` runs campaigns side by side,
``selffuzz`` fuzzes the reference itself in process.
"""

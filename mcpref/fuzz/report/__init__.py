"""Reporting: findings and rows of verdicts written for people and for tools.

In: findings (from ``judge``), runs (from ``drive``), the rows of a ``check`` or the outcome of a
campaign. Out: reproducer files and shell lines, JSON, HTML, JUnit XML, baselines, explanations,
language-neutral test vectors, and the rules' citations (``notes``) that they quote.
"""

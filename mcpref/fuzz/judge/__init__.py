"""Judging: what a conforming stdio server may answer to a session, and where one did not.

In: the lines written (a ``Case``) and the ``Observation`` of a run (from ``drive``). Out:
``Finding`` values, each under the one rule (an ID of ``mcpref.reference.rules``) that names its
cause. Pure functions of their inputs: no process, no clock.
"""

"""Driving a process: a case's chunks written to a target's stdin, what it writes read back.

In: an argv list and a ``Case`` (from ``generate``). Out: a ``Run``, the ``Observation`` the oracle
judges (stdout lines, survival, latency) and the timed events of the session. ``waiting`` decides
how long to wait for a target, from what it does, never from the machine's speed.
"""

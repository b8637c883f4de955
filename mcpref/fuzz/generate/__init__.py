"""Generating cases: what mcpref will write to a target.

In: a seed, a protocol era, Hypothesis' choices. Out: ``Case`` values (the lines of a session and
the chunks they are cut into) from the strategies of both eras, and the fixed scenarios of
``check``'s corpora. Nothing here runs a process or judges an answer.
"""

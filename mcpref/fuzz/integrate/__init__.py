"""Integrations: the ways people run mcpref.

The ``mcpref`` command (``cli``; ``check``, ``compare`` and ``merge`` are its commands with a module
each), the pytest plugin and the GitHub Action's script. They put the earlier stages together and
only they parse options, print, and choose exit statuses.
"""

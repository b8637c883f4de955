"""mcpref's benchmarks (issue 5): ``make bench`` or ``.venv/bin/python -m bench``.

One module per item of the issue: ``framer`` (1), ``serve`` (2), ``campaign`` (3 and 4),
``memory`` (5); ``common`` has the timing, the rows and the table; ``client`` drives a
server over pipes; ``bare_loop`` is item 2's reference point; ``profile`` shows where
``mcpref serve`` spends its time (py-spy).
"""

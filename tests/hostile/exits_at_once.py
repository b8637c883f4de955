"""Hostile target: exits as soon as it starts."""

raise SystemExit(0)

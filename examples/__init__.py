"""Worked examples of services built on scopedb (importable, so their tests can drive them)."""

"""scopedb's benchmarks. Run ``python -m bench --help``."""

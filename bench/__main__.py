"""``python -m bench [name]``: run scopedb's benchmarks and write their results to ``bench/results/``."""

from __future__ import annotations

import argparse

from bench import scope_entry

BENCHMARKS = {"scope-entry": scope_entry.main}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("name", nargs="?", choices=sorted(BENCHMARKS), default="scope-entry")
    parser.add_argument("--repeat", type=int, default=2000, help="transactions per measurement")
    args = parser.parse_args()
    BENCHMARKS[args.name](repeat=args.repeat)


if __name__ == "__main__":
    main()

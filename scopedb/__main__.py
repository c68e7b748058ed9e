"""``python -m scopedb``: the command line (what the ``scopedb`` script runs)."""

from scopedb.cli import main

raise SystemExit(main())

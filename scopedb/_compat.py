"""The blocking side of :mod:`scopedb._acompat`: same names, for the generated sync modules."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

#: Reentrant: a Database's lazy set-up may reach the admin pool while it holds the lock.
Lock = threading.RLock


def to_thread(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Blocking code runs where it is called."""
    return fn(*args, **kwargs)

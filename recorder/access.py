"""What the store's services (:mod:`recorder.keys`, :mod:`recorder.listing`,
:mod:`recorder.verify`) use of a store: its connections and its clock.

Both SQL stores give a connection that takes ``?`` parameters (PostgreSQL's through an
adapter), so a service's SQL is written once, against the common ground of both
dialects, and runs on either."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol


class SqlAccess(Protocol):
    #: Now, as the recorded-at text.
    clock: Callable[[], str]

    def reading(self) -> AbstractContextManager[Any]:
        """A connection to read with, for the length of the ``with`` block."""
        ...

    def writing(self) -> AbstractContextManager[Any]:
        """One write transaction: committed when the block ends, rolled back on an error."""
        ...

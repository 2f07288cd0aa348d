"""Fixtures shared by every test folder: a throwaway PostgreSQL cluster per test process
(see tests/pgcluster.py), and a fresh schema of it per test."""

from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from pgcluster import SKIP_REASON, Cluster, find_bindir  # noqa: E402


def need_postgres() -> Path:
    """The PostgreSQL binaries' folder; without them, skip (fail under CI=true)."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true and no PostgreSQL binaries: .ci/run installs postgresql")
        pytest.skip(SKIP_REASON)
    return bindir


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """This test process's PostgreSQL server (started on first use, stopped at the end)."""
    cluster = Cluster(need_postgres()).init().start()
    atexit.register(cluster.remove)  # also when a run is interrupted
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """The URL of a fresh, empty schema of the test process's PostgreSQL server."""
    return pg_cluster.new_schema()

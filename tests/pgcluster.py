"""A throwaway PostgreSQL cluster for the tests: ``initdb`` into a temporary folder,
``pg_ctl start`` on a Unix socket in that folder (no TCP port), stopped and removed at
the end.  ``initdb`` and ``postgres`` refuse to run as root, so as root they run as the
``postgres`` system user (which Debian's ``postgresql`` package makes).

The binaries are found in ``$TABLELOG_PG_BINDIR``, Debian's ``/usr/lib/postgresql/*/bin``
or on ``PATH``; without them the PostgreSQL tests skip outside CI (``.ci/run`` installs
them, so with ``CI=true`` they must be there).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import psycopg

#: The one line that says why the PostgreSQL tests did not run, and how to run them.
SKIP_REASON = (
    "PostgreSQL tests skipped: no initdb found (apt-get install postgresql, or set "
    "TABLELOG_PG_BINDIR; .ci/run installs it)"
)

_SCHEMAS = itertools.count(1)


def find_bindir() -> Path | None:
    """Where initdb, pg_ctl and postgres are, or None."""
    candidates = [os.environ.get("TABLELOG_PG_BINDIR") or ""]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(str(Path(on_path).parent))
    for c in candidates:
        if c and (Path(c) / "initdb").exists() and (Path(c) / "pg_ctl").exists():
            return Path(c)
    return None


class Cluster:
    """One PostgreSQL server of the tests' own, with its data in a temporary folder."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="tablelog-pg-"))
        self.data = self.root / "data"
        self.user = None if os.geteuid() != 0 else "postgres"
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.log = self.root / "server.log"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

    def init(self) -> Cluster:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "tablelog",
            "--auth=trust",
            "--no-locale",
            "-E",
            "UTF8",
            "--no-sync",
        )
        # The tests' own role logs in freely; any other role needs its password (a
        # refused login is tested).
        hba = self.data / "pg_hba.conf"
        hba.write_text("local all tablelog trust\nlocal all all scram-sha-256\n")
        return self

    def start(self, *, durable: bool = False) -> Cluster:
        """Start the server; ``durable`` keeps PostgreSQL's own syncing (for figures),
        else it is off (a test's data is thrown away)."""
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{self.root}'"
            " -c max_connections=100"
        )
        if not durable:
            options += " -c fsync=off -c full_page_writes=off"
        done = self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "start",
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {done.stderr}{self.log.read_text()}")
        return self

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def kill(self) -> None:
        """SIGKILL the postmaster, as a crash would, and wait until its backends (which
        notice their postmaster died) are gone too."""
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        children = _children(pid)
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        for child in [pid, *children]:
            while time.monotonic() < deadline:
                try:
                    os.kill(child, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)

    def remove(self) -> None:
        if self.root.exists():
            self.stop()
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres", schema: str | None = None) -> str:
        """A URL of the cluster's database (and a schema of it as the search path)."""
        query = f"host={quote(str(self.root), safe='')}"
        if schema:
            query += "&options=" + quote(f"-c search_path={schema}", safe="")
        return f"postgresql://tablelog@/{database}?{query}"

    def new_schema(self, prefix: str = "t") -> str:
        """A fresh, empty schema's URL: a database of its own for one test."""
        name = f"{prefix}{os.getpid()}_{next(_SCHEMAS)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return self.url(schema=name)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(Path(stat).parent.name))
    return out

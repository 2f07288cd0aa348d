"""``tablelog serve``: sample games for an empty database, and the real server answering."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cli.main import cli
from recorder import EventStore
from web.samples import ensure_sample_games, sample_files

ROOT = Path(__file__).resolve().parents[2]


def test_empty_database_gets_simulated_games_when_no_sample_loads(tmp_path: Path) -> None:
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / "broken.json").write_text("{not json", encoding="utf-8")
    said: list[str] = []
    with EventStore.open(str(tmp_path / "t.db")) as store:
        added = ensure_sample_games(store, folder, simulated=3, say=said.append)
        assert added == 3 and store.count_games() == 3
        assert any("broken.json" in line for line in said)
        assert any("simulated" in line for line in said)
        # a database that holds games is left alone
        assert ensure_sample_games(store, folder, say=said.append) == 0
        assert store.count_games() == 3


def test_repository_samples_load(tmp_path: Path) -> None:
    files = sample_files(ROOT / "fixtures" / "games")
    said: list[str] = []
    with EventStore.open(str(tmp_path / "t.db")) as store:
        added = ensure_sample_games(store, ROOT / "fixtures" / "games", say=said.append)
        assert added == store.count_games() > 0
    if files:
        assert not any(line.startswith("skipped") for line in said), said


def test_serve_refuses_an_unusable_database(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path), "--port", "0"])
    assert result.exit_code != 0
    assert str(tmp_path) in result.output
    assert "Traceback" not in result.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str) -> tuple[int, bytes, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read(), r.headers
    finally:
        conn.close()


def test_serve_creates_the_database_loads_samples_and_answers(tmp_path: Path) -> None:
    db = tmp_path / "data" / "site.db"
    port = _free_port()
    env = {**os.environ, "TABLELOG_DB": str(db)}
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "tablelog"), "serve", "--port", str(port),
         "--samples", str(tmp_path / "none")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, body, headers = _get(port, "/")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(proc.stdout.read() if proc.stdout else "") from None
                time.sleep(0.2)
        assert status == 200 and b"vs" in body
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        status, body, _ = _get(port, "/api/games")
        assert status == 200 and b'"total":6' in body
        status, _, _ = _get(port, "/games/unknown")
        assert status == 404
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert db.exists()
    assert "simulated" in out

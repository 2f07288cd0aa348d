"""Hypothesis fuzzing of the JSON import, the whole path a file takes (read, schemas,
payloads, the import's check): a real game's document, changed at random places (values
replaced by any JSON, keys dropped or added, events swapped, text broken), must be
imported or refused with an ImportRejected (a StoreError) that names the file; nothing
else may escape, and validate must say the same as the import."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recorder import ImportRejected, StoreError
from recorder.io import read_text
from recorder.prepare import prepare_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("TABLELOG_FUZZ_EXAMPLES", "60"))


def _document() -> dict[str, Any]:
    from recorder.io import load_file

    record = load_file(ROOT / "fixtures" / "games" / "dispute.tl")[0]
    events = []
    for payload, meta in zip(
        record.events, record.meta or [None] * len(record.events), strict=False
    ):
        events.append({**payload, **({"meta": meta} if meta else {})})
    return {
        "format": "tablelog-game",
        "version": 1,
        "kind": record.kind,
        "headers": record.headers,
        "events": events[:30],
    }


DOC = _document()

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["c3", "a1", "1-11", "red", "Ann", "tokens_taken", "1-0", ""]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _places(item, (*path, i))
    return out


PLACES = [p for p in _places(DOC) if p]


def _mutate(data: st.DataObject) -> str:
    doc = json.loads(json.dumps(DOC))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(PLACES))
        parent: Any = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            last = path[-1]
            action = data.draw(st.sampled_from(["replace", "drop", "add", "swap"]))
            if action == "replace":
                parent[last] = data.draw(json_values)
            elif action == "drop" and isinstance(parent, dict):
                del parent[last]
            elif action == "add" and isinstance(parent, dict):
                parent[data.draw(st.sampled_from(["by", "meta", "event_id", "x", "player"]))] = (
                    data.draw(json_values | st.sampled_from(["Ann", "Bo", "Chloé"]))
                )
            elif action == "swap" and isinstance(parent, list) and len(parent) > 1:
                j = data.draw(st.integers(0, len(parent) - 1))
                parent[last], parent[j] = parent[j], parent[last]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change moved the place
    text = json.dumps(doc, ensure_ascii=False)
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(text)))
        insert = data.draw(
            st.sampled_from(["", "\\ud800", "[" * 40, "9" * 5000, "}", ",", '"', "\x00", "é"])
        )
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + insert + text[at + cut :]
    return text


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_a_mutated_json_game_is_imported_or_refused_naming_the_file(data: st.DataObject) -> None:
    text = _mutate(data)
    try:
        records = read_text(text, "fuzz.json").games or []
        for record in records:
            prepare_game(record)
    except ImportRejected as err:
        located = err.located(source="fuzz.json", game=None)
        assert isinstance(err, StoreError)
        assert str(located).startswith("fuzz.json"), str(located)
        assert len(str(located)) < 1000  # hostile values are not echoed whole
    # validate says the same (the one check both run)
    import tempfile

    from recorder.validate import validate_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.json"
        path.write_text(text, encoding="utf-8")
        reports = validate_file(path)
    imported = _imports(text)
    assert all(r.ok for r in reports) == imported, (text[:300], [r.errors for r in reports])


def _imports(text: str) -> bool:
    try:
        for record in read_text(text, "fuzz.json").games or []:
            prepare_game(record)
    except ImportRejected:
        return False
    return True

"""Stored JSON is read back exactly as ``json.loads`` reads it, however it was kept."""

from __future__ import annotations

import json

import pytest

from recorder.errors import CorruptEvent
from recorder.stored import decode


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"tokens_taken","spaces":["c3"]}',
        '{"a":[1,2,{"b":null}],"c":"\\u00e9"}',
        ' {"a":1}',  # spaces around the value: json.loads reads them
        '{"a":1}\n',
        "[]",
        '"text"',
        "12",
    ],
)
def test_a_stored_text_reads_as_json_loads_reads_it(text):
    assert decode("g", 3, text, "payload") == json.loads(text)


@pytest.mark.parametrize("text", ['{"a":1}x', '{"a":1} {"b":2}', '{"a":', "", "nope", None])
def test_what_is_not_one_json_value_names_the_game_and_the_event(text):
    with pytest.raises(CorruptEvent, match="game g, event 3: stored meta is not valid JSON"):
        decode("g", 3, text, "meta")  # type: ignore[arg-type]

"""``companion replay`` on records that make no sense: exit 2 and one line, never a
traceback. The records are the fixtures bent by hypothesis: a value replaced by another
of any JSON type, a key dropped, a list cut short, the file's bytes cut or spoilt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.app.cli import main

RECORDS = Path(__file__).parent.parent / "fixtures" / "records"
FIXTURES = {path.name: json.loads(path.read_text()) for path in sorted(RECORDS.glob("*.json"))}
SMALL = sorted(name for name, data in FIXTURES.items() if len(json.dumps(data)) < 20_000)
"""The big match records replay slowly; the fuzz bends the others (each game is among them)."""

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**20) | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(["\ud800", "", "7x", "Ann", "draw", "2c"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def replay(tmp_path: Path, content: bytes, *args: str):
    path = tmp_path / "record.json"
    path.write_bytes(content)
    return CliRunner().invoke(main, ["replay", str(path), *args])


def assert_answered(result) -> None:
    assert result.exit_code in (0, 2), (result.exit_code, result.output[-500:], result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("Error: ")


@st.composite
def bent_records(draw) -> bytes:
    record = json.loads(json.dumps(FIXTURES[draw(st.sampled_from(SMALL))]))
    for _ in range(draw(st.integers(1, 3))):
        # Walk to a random place in the record, then bend what is there.
        parent: object = record
        key: object = None
        for _depth in range(draw(st.integers(0, 4))):
            container = parent[key] if key is not None else parent  # type: ignore[index]
            if isinstance(container, dict) and container:
                parent, key = container, draw(st.sampled_from(sorted(container)))
            elif isinstance(container, list) and container:
                parent, key = container, draw(st.integers(0, len(container) - 1))
            else:
                break
        if key is None:
            continue
        how = draw(st.sampled_from(["replace", "replace", "drop", "cut"]))
        if how == "replace":
            parent[key] = draw(VALUES)  # type: ignore[index]
        elif how == "drop" and isinstance(parent, dict):
            del parent[key]
        elif how == "cut" and isinstance(parent[key], list):  # type: ignore[index]
            del parent[key][draw(st.integers(0, 3)):]  # type: ignore[index]
    return json.dumps(record, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=bent_records(), args=st.sampled_from([(), ("--upto", "3"), ("--seat", "1"), ("--seat", "9"),
                                                     ("--upto", "-1")]))
def test_a_bent_record_is_replayed_or_refused_in_one_line(tmp_path, content, args):
    assert_answered(replay(tmp_path, content, *args))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(SMALL), cut=st.floats(0, 1), spoil=st.binary(min_size=1, max_size=4))
def test_a_spoilt_file_is_refused_in_one_line(tmp_path, name, cut, spoil):
    content = (RECORDS / name).read_bytes()
    at = int(len(content) * cut)
    assert_answered(replay(tmp_path, content[:at] + spoil + content[at + 1:]))


@pytest.mark.parametrize("change, words", [
    ({"players": [None, None]}, "players[0]: not a string"),
    ({"players": ["Ann", ""]}, "players[1]: must not be empty"),
    ({"players": "Ann"}, "field 'players' should be a list"),
    ({"house_rules": []}, "field 'house_rules' should be an object"),
    ({"seed": "42"}, "field 'seed' should be an integer"),
    ({"actions": {}}, "field 'actions' should be a list"),
    ({"game": ["crocodile"]}, "field 'game'"),
])
def test_a_header_that_makes_no_sense_is_refused(tmp_path, change, words):
    record = {**FIXTURES["crocodile-refereed-round.json"], **change}
    result = replay(tmp_path, json.dumps(record).encode())
    assert result.exit_code == 2 and words in result.stderr, result.output


@pytest.mark.parametrize("field, value", [("seat", "1"), ("seat", 1.0), ("seat", True), ("slots", [0, "1"]),
                                          ("colour", "red")])
def test_an_action_field_of_the_wrong_type_is_refused_naming_the_action(tmp_path, field, value):
    record = json.loads(json.dumps(FIXTURES["crocodile-refereed-round.json"]))
    record["actions"][1][field] = value  # {"type": "look", "seat": 0, "slots": [0, 1]}
    result = replay(tmp_path, json.dumps(record).encode())
    assert result.exit_code == 2 and "action 1:" in result.stderr, result.output


def test_every_fixture_still_replays_or_is_refused_as_before():
    for name in FIXTURES:
        result = CliRunner().invoke(main, ["replay", str(RECORDS / name)])
        expected = 2 if any(w in name for w in ("illegal", "malformed", "misread")) else 0
        assert result.exit_code == expected, (name, result.output[-300:])

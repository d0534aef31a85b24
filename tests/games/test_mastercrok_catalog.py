"""The Master Crok card catalog: the shipped example, the file formats, the effect
vocabulary, and errors that name the file, the card and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.crok_catalogs import load_catalog, shipped_catalog, shipped_catalog_names
from companion.games.mastercrok import (
    Catalog,
    CatalogError,
    EffectKind,
    MasterCrok,
    Timing,
    parse_catalog,
)
from companion.games.mastercrok.effects import PARAMETERS, EffectSpecError, parse_effect

EXAMPLE = shipped_catalog("example").to_json()

NAMED_ABILITIES = {"Samurai", "Priest", "Police", "Sheriff", "Bond", "Master", "Jungle"}

SMALL = """
name = "small"
groups = ["sun", "moon"]

[abilities.boost]
name = "Boost"
text = "+1"
timing = "immediate"
effect = "change_stat"
amount = 1

[[crok]]
id = "k1"
name = "First"
group = "sun"
power = 1
intelligence = 2
reflex = 3
ability = "boost"

[[crok]]
id = "k2"
name = "Second"
group = "moon"
power = 4
intelligence = 5
reflex = 6

[crok.ability]
name = "Win"
timing = "conditional"
effect = "win_battle"
"""


def write(tmp_path: Path, text: str, name: str = "small.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_catalog_uses_the_named_abilities_as_house_definitions() -> None:
    example = shipped_catalog("example")
    assert "example" in shipped_catalog_names()
    assert len(example) == 24 and len(example.groups) == 8
    abilities = {c.ability.name for c in example.croks}
    assert NAMED_ABILITIES <= abilities
    assert all(c.ability.definition == "house" for c in example.croks) and example.house_definitions
    effects = {c.ability.effect.kind for c in example.croks}
    assert effects >= {EffectKind.CHANGE_STAT, EffectKind.CANCEL_ABILITY, EffectKind.WIN_BATTLE,
                       EffectKind.LOSE_BATTLE, EffectKind.SWAP_CROKS, EffectKind.TAKE_CARD, EffectKind.MANUAL}
    assert {c.ability.timing for c in example.croks if c.ability.name in ("Samurai", "Priest")} == {Timing.IMMEDIATE}


@pytest.mark.parametrize("deck", ["red", "blue", "green", "yellow", "mini-a", "mini-b"])
def test_the_example_decks_are_legal(deck: str) -> None:
    game = MasterCrok(["Ann", "Bob"], setup={"catalog": EXAMPLE, "decks": [deck, "red"]})
    assert len(game.deck_lists[0]) == len(shipped_catalog("example").decks[deck])


def test_toml_and_json_files_give_the_same_catalog(tmp_path: Path) -> None:
    from_toml = load_catalog(write(tmp_path, SMALL))
    assert from_toml["k1"].ability.name == "Boost" and from_toml["k2"].ability.timing is Timing.CONDITIONAL
    json_path = write(tmp_path, json.dumps(from_toml.to_json()), "small.json")
    assert load_catalog(json_path) == from_toml
    assert parse_catalog(from_toml.to_json()) == from_toml


def test_the_card_list_for_vision_is_plain_data() -> None:
    cards = shipped_catalog("example").to_json()["crok"]
    assert json.loads(json.dumps(cards)) == cards
    assert set(cards[0]) == {"id", "name", "group", "power", "intelligence", "reflex", "ability"}
    assert set(cards[0]["ability"]) >= {"name", "text", "timing", "effect", "definition"}


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("power = 1", 'power = "x"', "crok 'k1': field 'power': must be an integer from 0 to 999"),
        ("power = 4", "power = -1", "crok 'k2': field 'power'"),
        ('group = "moon"', 'group = "star"', "crok 'k2': field 'group': 'star' is not one of"),
        ('id = "k2"', 'id = "k1"', "crok #2: field 'id': this id is used by an earlier Crok"),
        ('id = "k1"', 'id = "k 1"', "crok #1: field 'id'"),
        ('ability = "boost"', 'ability = "nope"', "crok 'k1': field 'ability': 'nope' is not in the abilities"),
        ('effect = "win_battle"', 'effect = "fly"',
         "crok 'k2': field 'ability.effect': 'fly' is not in the vocabulary"),
        ("amount = 1", "amount = 0", "ability 'boost': field 'ability.amount': must be a non-zero integer"),
        ('effect = "win_battle"', 'effect = "take_card"', "crok 'k2': field 'ability.source': missing"),
        ('effect = "win_battle"', 'effect = "win_battle"\nbetween = "any_two"',
         "crok 'k2': field 'ability.between': not a parameter of win_battle"),
        ('timing = "conditional"', 'timing = "later"', "crok 'k2': field 'ability.timing'"),
        ('timing = "conditional"', 'timing = "conditional"\ndefinition = "mine"', "field 'ability.definition'"),
        ("reflex = 3", "reflex = 3\ncolour = 1", "crok 'k1': field 'colour': unknown field"),
        ('name = "small"', 'name = "small"\nextra = 1', "field 'extra': unknown field"),
        ('name = "small"', "", "field 'name': must be a non-empty string"),
    ],
)
def test_errors_name_the_file_the_card_and_the_field(tmp_path: Path, old: str, new: str, where: str) -> None:
    assert old in SMALL
    path = write(tmp_path, SMALL.replace(old, new, 1))
    with pytest.raises(CatalogError) as caught:
        load_catalog(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert where in str(caught.value)


def test_a_deck_naming_an_unknown_crok(tmp_path: Path) -> None:
    path = write(tmp_path, SMALL + '\n[decks]\nmine = ["k1", "k9"]\n')
    with pytest.raises(CatalogError, match=r"field 'decks.mine': card 2: 'k9' is not a Crok"):
        load_catalog(path)
    with pytest.raises(CatalogError, match=r"field 'decks.mine': 'k1': the number of copies"):
        load_catalog(write(tmp_path, SMALL + "\n[decks]\nmine = { k1 = 0 }\n"))
    assert load_catalog(write(tmp_path, SMALL + "\n[decks]\nmine = { k1 = 2, k2 = 1 }\n")).decks == {
        "mine": ("k1", "k1", "k2")
    }


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.toml", "name = ", "not TOML"),
        ("bad.json", "{\n  oops", "line 2 column 3: not JSON"),
        ("bad.yaml", "name: x", "ends in .toml or .json"),
        ("empty.toml", 'name = "empty"', "field 'crok': a catalog needs at least one [[crok]]"),
    ],
)
def test_file_level_errors(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = write(tmp_path, text, name)
    with pytest.raises(CatalogError) as caught:
        load_catalog(path)
    assert str(caught.value).startswith(str(path)) and message in str(caught.value)


def test_missing_file_and_unknown_shipped_catalog(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="cannot read"):
        load_catalog(tmp_path / "absent.toml")
    with pytest.raises(CatalogError, match="no shipped catalog 'absent'; shipped: example"):
        shipped_catalog("absent")


def test_a_record_setup_with_a_broken_embedded_catalog_names_it() -> None:
    data = shipped_catalog("example").to_json()
    data["crok"][3]["reflex"] = 1000
    with pytest.raises(CatalogError, match=r"^setup.catalog: crok 'moon-shade': field 'reflex'"):
        MasterCrok(["Ann", "Bob"], setup={"catalog": data, "decks": ["red", "blue"]})


# -- the effect vocabulary ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind", list(EffectKind))
def test_every_effect_kind_parses_with_its_defaults(kind: EffectKind) -> None:
    data: dict[str, object] = {"effect": kind.value}
    if kind is EffectKind.CHANGE_STAT:
        data["amount"] = -2
    if kind is EffectKind.TAKE_CARD:
        data["source"] = "own_deck"
    effect = parse_effect(data)
    assert effect.kind is kind and set(effect.params()) == set(PARAMETERS[kind])
    assert parse_effect(effect.to_json()) == effect
    assert effect.describe().startswith("-2 battle" if kind is EffectKind.CHANGE_STAT else kind.value)


@pytest.mark.parametrize(
    ("data", "needed"),
    [
        ({"effect": "change_stat", "amount": 1}, 0),
        ({"effect": "change_stat", "amount": 1, "target": "opponent"}, 1),
        ({"effect": "swap_croks"}, 1),
        ({"effect": "swap_croks", "between": "any_two"}, 2),
        ({"effect": "lose_battle"}, 1),
        ({"effect": "lose_battle", "target": "all_opponents"}, 0),
        ({"effect": "take_card", "source": "own_deck"}, 0),
        ({"effect": "take_card", "source": "opponent_winners"}, 1),
        ({"effect": "cancel_ability"}, 1),
        ({"effect": "win_battle"}, 0),
    ],
)
def test_how_many_target_seats_an_effect_needs(data: dict, needed: int) -> None:
    assert parse_effect(data).target_seats_needed() == needed


def test_effect_errors_name_the_field() -> None:
    with pytest.raises(EffectSpecError) as caught:
        parse_effect({"effect": "change_stat", "amount": True})
    assert caught.value.field == "amount"
    with pytest.raises(EffectSpecError, match="field 'effect': missing"):
        parse_effect({})
    with pytest.raises(EffectSpecError, match="field 'stat': 'luck' is not allowed"):
        parse_effect({"effect": "change_stat", "amount": 1, "stat": "luck"})


def test_catalog_lookup() -> None:
    catalog: Catalog = shipped_catalog("example")
    assert "sun-kroko" in catalog and "nope" not in catalog
    assert catalog["sun-kroko"].stat("power") == 8
    with pytest.raises(KeyError):
        catalog["nope"]

"""The pages as Flask renders them: the live table's shell, the setup form (every game and
every house rule with its default, allowed values, gap id and reason) and the history."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from companion.games import game_class
from companion.refereeing.registry import REFEREED, offer, rule_choices, value_label
from web import create_app
from web.pages import setup_games

from .conftest import SAME_ORIGIN


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text inside each element with an id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def find(self, tag: str | None = None, **attrs: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if (tag is None or t == tag)
                and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def by_id(self, element_id: str) -> dict[str, str | None]:
        found = self.find(id=element_id)
        assert len(found) == 1, f"{len(found)} elements with id {element_id!r}"
        return found[0]


def page(client, path: str) -> tuple[str, Elements]:
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    return html, Elements(html)


@pytest.mark.parametrize("path", ["/", "/setup", "/history", "/players"])
def test_every_page_has_the_nav_the_indicator_and_only_local_assets(client, path):
    html, tags = page(client, path)
    assert tags.by_id("connection")["role"] == "status"
    links = {a["href"] for a in tags.find("a")}
    assert {"/", "/setup", "/history"} <= links
    current = tags.find("a", aria_current="page")
    assert [a["href"] for a in current] == [path]
    scripts = [s["src"] for s in tags.find("script")]
    assert scripts and all(src.startswith("/static/") for src in scripts)
    assert all(s.get("type") == "module" for s in tags.find("script"))
    assert "http://" not in html and "https://" not in html  # no CDN: the table may be offline


def static_file(client, path: str) -> str:
    """A static file's text (the response is closed: static files are streamed)."""
    response = client.get(path)
    try:
        assert response.status_code == 200, path
        return response.get_data(as_text=True)
    finally:
        response.close()


def test_every_script_a_page_loads_is_served_with_its_imports(client):
    for path in ["/", "/setup", "/history", "/players", "/rules", "/rules/crocodile"]:
        _html, tags = page(client, path)
        for script in tags.find("script"):
            source = static_file(client, script["src"])
            # Each module's own imports are relative and served too.
            imports = re.findall(r'from "\./([\w.]+)"', source)
            assert imports, script["src"]
            for imported in imports:
                static_file(client, f"/static/{imported}")


def test_the_table_page_has_each_live_part(client):
    _html, tags = page(client, "/")
    for part in ["headline", "last-ruling", "question-panel", "question-options", "seats", "discard-top",
                 "scoreboard", "camera-picture", "undo-button", "next-round-button", "pin-dialog", "move-button",
                 "move-dialog", "scores-dialog", "finish-button", "join-qr", "rule-dialog"]:
        tags.by_id(part)
    assert tags.by_id("last-ruling")["aria-live"] == "polite"
    assert tags.by_id("pin-input")["type"] == "password"
    assert tags.find("label", **{"for": "pin-input"})


def test_the_simulated_pads_are_on_the_page_only_in_demo_mode(client, store):
    _html, tags = page(client, "/")
    tags.by_id("demo-pads")  # the fixture's referee is a demo one
    from companion.referee import Referee

    referee = Referee(store, demo=False)
    plain = create_app({"TESTING": True}, referee=referee).test_client()
    _html, tags = page(plain, "/")
    assert tags.find(id="demo-pads") == []


def test_the_setup_page_lists_every_refereed_game_with_its_seat_limits(client):
    _html, tags = page(client, "/setup")
    radios = tags.find("input", type="radio", name="game")
    assert [r["value"] for r in radios] == list(tuple(REFEREED))
    for radio in radios:
        cls = game_class(radio["value"])
        assert (int(radio["data-min"]), int(radio["data-max"])) == (cls.MIN_PLAYERS, cls.MAX_PLAYERS)
    assert "checked" in radios[0]


def test_the_setup_page_starts_from_the_tables_seat_names_and_offers_each_as_dealer(client):
    html, tags = page(client, "/setup")
    names = [i["value"] for i in tags.find("input", name="seat")]
    assert names == ["Ann", "Bob", "Cid"]
    assert options_of(html, "dealer") == [("0", False, "Ann"), ("1", False, "Bob"), ("2", False, "Cid")]
    assert (tags.by_id("pin")["minlength"], tags.by_id("pin")["maxlength"]) == ("4", "64")
    assert "hidden" in tags.by_id("admin-pin-field")  # a fresh table, set up from the Pi itself


@pytest.mark.parametrize("game", tuple(REFEREED))
def test_the_setup_page_shows_every_house_rule_with_default_gap_and_reason(client, game):
    html, tags = page(client, "/setup")
    for rule in game_class(game).HOUSE_RULES:
        if rule.name == offer(game).match_rule:
            assert not tags.find("div", data_rule=rule.name)  # chosen under "How the match ends"
            continue
        block = tags.find("div", data_rule=rule.name)
        assert block, rule.name
        assert any(json.loads(b["data-default"]) == rule.default for b in block)
        control_id = f"rule-{game}-{rule.name}"
        assert tags.find("label", **{"for": control_id}), rule.name
        help_text = _text_of(html, f"{control_id}-help")
        assert rule.gap in help_text and f"Default: {value_label(rule.default)}." in help_text
        chips = tags.find("a", href=f"/rules/rule/{rule.gap}")  # the tag opens the rule
        assert any(chip.get("class") == "gap" for chip in chips), rule.gap
        assert "RULES.md" not in help_text
        assert " ".join(rule.reason.split()) in help_text
        if rule.disabled_reason:
            assert "disabled" in tags.by_id(control_id)
            assert rule.disabled_reason in help_text


def test_a_rule_of_listed_values_is_a_select_with_the_default_chosen(client):
    _html, tags = page(client, "/setup")
    select = tags.by_id("rule-crocodile-tie_break")
    assert "disabled" not in select
    options = options_of(client.get("/setup").get_data(as_text=True), "rule-crocodile-tie_break")
    assert [json.loads(value) for value, _, _ in options] == ["shared", "fewer_cards", "caller_loses", "caller_wins"]
    assert [(json.loads(value), label) for value, chosen, label in options if chosen] == [
        ("fewer_cards", "fewer cards (default)")]


def test_a_rule_that_takes_a_number_gets_a_number_field_with_its_bounds(client):
    _html, tags = page(client, "/setup")
    jokers = tags.by_id("rule-crocodile-jokers_per_deck")
    assert (jokers["type"], jokers["min"], jokers["max"], jokers["value"]) == ("number", "0", "2", "2")
    penalty = tags.by_id("rule-crocodile-wrong_smack_penalty_cards")
    assert penalty["min"] == "0" and penalty["value"] == "1"


def test_the_setup_page_offers_the_common_ends_of_a_match_first_game_first(client):
    html, tags = page(client, "/setup")
    start = html.index('id="match-end"')
    options = re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', html[start:html.index("</select>", start)])
    assert options[0][1].startswith("100 points") and ("points", "To another total…") in options
    ends = json.loads(tags.by_id("match-end")["data-ends"])
    assert [end["rounds"] for end in ends[2]][:1] == [1]  # Pool Party: one game first
    assert ends == [[e.to_json() for e in offer(game).match_ends] for game in REFEREED]


def test_rule_choices_keep_value_types_and_mark_the_default():
    rules = {r.name: r for r in game_class("crocodile").HOUSE_RULES}
    decks = rule_choices(rules["decks"])  # "auto", 1, 2: the numbers must stay numbers
    assert [json.loads(c["json"]) for c in decks["choices"]] == ["auto", 1, 2]
    assert [c["default"] for c in decks["choices"]] == [True, False, False] and decks["range"] is None
    swap = rule_choices(rules["discard_take_must_swap"])
    assert [(c["json"], c["label"]) for c in swap["choices"]] == [("true", "yes"), ("false", "no")]
    target = rule_choices(rules["match_target"])
    assert target["default_choice"] == json.dumps("none")
    assert target["range"] == {"min": 1, "max": None, "describe": "an integer >= 1", "step": 1}


def test_setup_games_lists_the_same_rules_as_the_api(client, referee):
    api = {g["name"]: g for g in client.get("/api/games").get_json()["games"]}
    for game in setup_games(referee):
        assert [r["name"] for r in game["house_rules"]] == [r["name"] for r in api[game["name"]]["house_rules"]]
        assert (game["min_players"], game["max_players"]) == (api[game["name"]]["min_players"],
                                                              api[game["name"]]["max_players"])


def test_the_setup_page_asks_other_phones_for_the_tables_pin_once_it_has_one(app, client, referee):
    client.post("/api/setup", json={"game": "crocodile", "seats": ["Ann", "Bob"], "pin": "2468"},
                headers=SAME_ORIGIN)
    referee.process_pending()
    _html, tags = page(client, "/setup")
    assert "hidden" in tags.by_id("admin-pin-field")  # the phone that chose it is signed in
    assert "hidden" not in tags.by_id("running-note")
    assert [i["value"] for i in tags.find("input", name="seat")] == ["Ann", "Bob"]
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    _html, tags = page(phone, "/setup")
    assert "hidden" not in tags.by_id("admin-pin-field")


def test_seat_names_are_escaped_on_the_setup_page(client, referee):
    client.post("/api/setup", json={"game": "crocodile", "seats": ["<b>Ann</b>", "Bob"]}, headers=SAME_ORIGIN)
    referee.process_pending()
    html = client.get("/setup").get_data(as_text=True)
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html


def test_the_history_page_is_a_shell_filled_from_the_api(client):
    _html, tags = page(client, "/history")
    tags.by_id("history")
    assert tags.by_id("history-status")["role"] == "status"


def options_of(html: str, select_id: str) -> list[tuple[str, bool, str]]:
    """The options of a select: (value, selected, label), entities decoded."""
    start = html.index(f'id="{select_id}"')
    block = html[start: html.index("</select>", start)]
    found = re.findall(r'<option value="([^"]+)"( selected)?>([^<]*)</option>', block)
    return [(unescape(value), bool(chosen), unescape(label)) for value, chosen, label in found]


def _text_of(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` (tags dropped, spaces collapsed)."""
    start = html.index(f'id="{element_id}"')
    start = html.index(">", start) + 1
    end = html.index("</p>", start)
    text = re.sub(r"<[^>]+>", " ", html[start:end])
    return " ".join(unescape(text).split())

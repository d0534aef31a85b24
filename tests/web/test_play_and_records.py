"""Playing by hand, players, statistics, exports, the rules pages and the QR code, through the API."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from companion.refereeing.setup import hash_pin
from web import create_app
from web.admin import PIN_KEY

from .conftest import SAME_ORIGIN


def post(client, path: str, body: dict):
    return client.post(path, json=body, headers=SAME_ORIGIN)


def start(client, referee, game="crocodile", seats=("Ann", "Bob"), **extra):
    response = post(client, "/api/setup", {"game": game, "seats": list(seats), **extra})
    assert response.status_code == 200, response.get_json()
    referee.process_pending()


def phone(app):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    return client


# -- moves by hand --------------------------------------------------------------------------


def test_the_moves_and_a_move_entered_by_hand(client, referee):
    assert client.get("/api/moves").get_json()["moves"] == []
    assert post(client, "/api/act", {"action": {"type": "draw", "seat": 0}}).status_code == 409
    start(client, referee)
    moves = client.get("/api/moves").get_json()
    (turn_up,) = moves["moves"]
    assert turn_up["path"] == ["Turn up the first card"] and "As" in moves["cards"] and "JOKER" in moves["cards"]
    action = {**turn_up["action"], "card": "7c"}
    assert post(client, "/api/act", {"action": action}).status_code == 200
    referee.process_pending()
    assert referee.public_state()["game"]["view"]["discard"]["top"] == "7c"
    cards = client.get("/api/moves").get_json()["cards"]
    assert "7c" not in cards and "7h" in cards  # one deck: the only 7♣ is on the pile


@pytest.mark.parametrize("body, field", [
    ({"action": "draw"}, "action"),
    ({"action": {"type": "fly", "seat": 0}}, "action"),
    ({"action": {"type": "turn_up", "seat": 0, "card": "11x"}}, "action"),
    ({}, "action"),
    ({"action": {}, "extra": 1}, "extra"),
])
def test_a_malformed_move_is_a_400_naming_the_field_and_is_not_stored(client, referee, store, body, field):
    start(client, referee)
    events = len(store.events(referee.session_id))
    response = post(client, "/api/act", body)
    assert response.status_code == 400 and response.get_json()["field"] == field
    assert len(store.events(referee.session_id)) == events


# -- scores and the finish ----------------------------------------------------------------


def test_scores_and_the_finish_are_the_admins_and_name_who_made_them(app, referee, store):
    store.set_private(PIN_KEY, hash_pin("2468"))
    store.set_private("first_setup_wall", "0")
    pi = app.test_client()
    start(pi, referee, admin_pin="2468")
    other = phone(app)
    refused = post(other, "/api/score", {"round": 1, "points": [3, 4], "by": "Ann"})
    assert refused.status_code == 403 and refused.get_json()["field"] == "pin"
    assert post(other, "/api/score", {"round": 1, "points": [3, 4], "by": "Ann", "pin": "2468"}).status_code == 200
    referee.process_pending()
    assert post(other, "/api/finish", {"by": "Bob"}).status_code == 200  # signed in by the good PIN
    referee.process_pending()
    scores = referee.public_state()["game"]["scores"]
    assert scores["over"] and scores["winners"] == [0] and scores["finished_by"] == "Bob"
    assert scores["changes"] == [{"round": 1, "before": None, "after": [3, 4], "by": "Ann"}]
    again = post(other, "/api/finish", {"by": "Bob"})
    assert again.status_code == 409 and "over" in again.get_json()["error"]


@pytest.mark.parametrize("body, field", [
    ({"round": 2, "points": [1, 2], "by": "Ann"}, "round"),
    ({"round": 1, "points": [1], "by": "Ann"}, "points"),
    ({"round": 1, "points": [1, "2"], "by": "Ann"}, "points.1"),
    ({"round": 1, "points": [1, 2]}, "by"),
    ({"round": 1, "points": [1, 2], "by": "  "}, "by"),
    ({"round": 0, "points": [1, 2], "by": "Ann"}, "round"),
])
def test_bad_scores_are_a_400_naming_the_field(client, referee, body, field):
    start(client, referee)
    response = post(client, "/api/score", body)
    assert response.status_code == 400 and response.get_json()["field"] == field


# -- players, statistics, history and exports ----------------------------------------------


def test_setup_with_players_kept_across_games(client, referee, store):
    ann = post(client, "/api/players", {"name": "Ann"}).get_json()["player"]
    assert post(client, "/api/players", {"name": "ann"}).get_json()["player"] == ann
    start(client, referee, seats=["whatever", "Bob"], players=[ann["id"], None])
    setup = referee.public_state()["game"]["setup"]
    bob = store.player_named("Bob")
    assert setup["seats"] == ["Ann", "Bob"] and setup["players"] == [ann["id"], bob.id]
    assert [p["name"] for p in client.get("/api/players").get_json()["players"]] == ["Ann", "Bob"]
    unknown = post(client, "/api/setup", {"game": "crocodile", "seats": ["A", "B"], "players": [77, None]})
    assert unknown.status_code == 400 and unknown.get_json()["field"] == "players[0]"
    short = post(client, "/api/setup", {"game": "crocodile", "seats": ["A", "B"], "players": [None]})
    assert short.status_code == 400 and short.get_json()["field"] == "players"


def test_the_history_exported_as_csv_reads_back(client, referee):
    start(client, referee, seats=["Ann", "=Bob"], rounds=2)
    post(client, "/api/score", {"round": 1, "points": [3, -1], "by": "Ann"})
    referee.process_pending()
    post(client, "/api/next-round", {})
    referee.process_pending()
    post(client, "/api/score", {"round": 2, "points": [10, 4], "by": "Cid"})
    referee.process_pending()
    start(client, referee, game="pool-party", seats=["Ann", "Cid"])  # the first game goes to the history
    response = client.get("/api/history.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(r["seat"], r["player"], r["round"], r["points"], r["total"], r["winner"], r["changed_by"])
            for r in rows] == [("1", "Ann", "1", "3", "13", "no", "Ann"),
                               ("1", "Ann", "2", "10", "13", "no", "Cid"),
                               ("2", "'=Bob", "1", "-1", "3", "yes", "Ann"),  # never read as a formula
                               ("2", "'=Bob", "2", "4", "3", "yes", "Cid")]
    assert {r["game"] for r in rows} == {"crocodile"} and {r["played_to_end"] for r in rows} == {"yes"}
    session = rows[0]["session"]
    one = client.get(f"/api/history/{session}.csv").get_data(as_text=True)
    assert one == response.get_data(as_text=True)
    data = client.get(f"/api/history/{session}.json").get_json()
    assert data["result"]["totals"] == {"0": 13, "1": 3}
    assert client.get("/api/history.json?game=pool-party").get_json() == {"games": []}
    assert client.get("/api/history/999.csv").status_code == 404


@pytest.mark.parametrize("query, field", [("game=chess", "game"), ("player=" + "x" * 41, "player")])
def test_history_filters_are_checked(client, query, field):
    response = client.get("/api/history?" + query)
    assert response.status_code == 400 and response.get_json()["field"] == field


def test_statistics_through_the_api(client, referee):
    start(client, referee, seats=["Ann", "Bob"], rounds=1)
    post(client, "/api/score", {"round": 1, "points": [5, 9], "by": "Ann"})
    referee.process_pending()
    stats = client.get("/api/stats?game=crocodile").get_json()
    ann = next(r for r in stats["players"] if r["player"]["name"] == "Ann" and r["game"] == "crocodile")
    assert ann["wins"] == 1 and ann["average"] == 5 and ann["win_rate"] == 1.0
    assert client.get("/api/stats?player=1").status_code == 400


# -- the rules and the QR code ---------------------------------------------------------------


def test_a_rule_chip_opens_the_rules_own_passage_and_its_page(client):
    rule = client.get("/api/rules/CR-18").get_json()
    assert rule["url"] == "/rules/crocodile#CR-18" and "Simultaneous smacks" in rule["html"]
    page = client.get("/rules/crocodile").get_data(as_text=True)
    assert 'id="CR-18"' in page and 'id="CR-G4"' in page and "<table>" in page
    assert 'href="/rules/recall"' in page  # links between the pages follow the served pages
    assert client.get("/rules/rule/PP-03").headers["Location"].endswith("/rules/pool-party#PP-03")
    assert client.get("/api/rules/PP-G5").get_json()["game"] == "pool-party"
    assert client.get("/api/rules/XX-99").status_code == 404
    assert client.get("/api/rules/rm -rf").status_code == 400
    assert client.get("/rules/nothing").status_code == 404


def test_every_rule_the_referee_names_has_its_passage(client):
    """Every rule id in the refereed games' code opens its text (none leads nowhere)."""
    root = Path(__file__).resolve().parents[2] / "companion"
    named = set()
    for folder in ("games/cabo", "games/poolparty", "refereeing"):
        for path in (root / folder).glob("*.py"):
            named |= set(re.findall(r'"((?:CR|RE|PP)-G?\d+[a-z]?)"', path.read_text()))
    assert len(named) > 20
    missing = sorted(rule for rule in named if client.get(f"/api/rules/{rule}").status_code != 200)
    assert missing == []


def test_the_join_qr_code_encodes_the_tables_address(referee):
    app = create_app({"TESTING": True, "JOIN_URL": "http://192.168.1.20:8000/"}, referee=referee)
    client = app.test_client()
    svg = client.get("/join.svg")
    assert svg.mimetype == "image/svg+xml" and b"<svg" in svg.data and b"192.168.1.20:8000" in svg.data
    assert client.get("/api/join").get_json() == {"url": "http://192.168.1.20:8000/"}

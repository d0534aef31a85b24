"""The web shell: state, health, the live stream, CSRF protection, demo presses."""

from __future__ import annotations

import json

from companion.events import InputEvent
from web import create_app

from .conftest import SAME_ORIGIN


def read_sse_event(chunks) -> dict:
    """Read one SSE message (up to a blank line) from a streamed response."""
    buffer = ""
    while "\n\n" not in buffer:
        buffer += next(chunks).decode()
    block, _ = buffer.split("\n\n", 1)
    fields: dict = {}
    for line in block.splitlines():
        if line.startswith(":"):
            fields.setdefault("comment", []).append(line)
            continue
        key, _, value = line.partition(": ")
        fields[key] = value
    return fields


def test_state_and_health(client):
    body = client.get("/api/state").get_json()
    assert body["version"] >= 1
    assert [s["name"] for s in body["state"]["seats"]] == ["Ann", "Bob", "Cid"]
    health = client.get("/healthz").get_json()
    assert health["ok"] is True and health["session"] == body["state"]["session"]


def test_table_page_renders_with_local_assets_only(client):
    page = client.get("/").get_data(as_text=True)
    assert "Test table" in page and "/static/live.js" in page
    assert "http://" not in page and "https://" not in page  # no CDN: the table may be offline


def test_stream_sends_the_full_state_then_each_change(client, referee):
    response = client.get("/api/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    assert read_sse_event(chunks) == {"retry": "2000"}
    first = read_sse_event(chunks)
    assert first["event"] == "state"
    assert json.loads(first["data"])["inputs"] == 0

    referee.submit(InputEvent("button", "slap", 123, seat=1))
    referee.process_pending()
    second = read_sse_event(chunks)
    state = json.loads(second["data"])
    assert int(second["id"]) > int(first["id"])
    assert state["inputs"] == 1
    assert state["recent"][0]["kind"] == "slap" and state["recent"][0]["seat_name"] == "Bob"
    response.close()


def test_stream_sends_keepalives_when_nothing_changes(client):
    response = client.get("/api/events", buffered=False)
    chunks = iter(response.response)
    read_sse_event(chunks)  # retry
    read_sse_event(chunks)  # state
    assert read_sse_event(chunks)["comment"] == [": keep-alive"]
    response.close()


def test_cross_site_posts_are_refused(client, referee):
    cross = client.post("/api/demo/press", json={"seat": 0, "button": "call"}, headers={"Origin": "http://evil.test"})
    assert cross.status_code == 403 and "cross-site" in cross.get_json()["error"]
    no_origin = client.post("/api/demo/press", json={"seat": 0, "button": "call"})
    assert no_origin.status_code == 403
    form = client.post("/api/demo/press", data={"seat": "0"}, headers=SAME_ORIGIN)
    assert form.status_code == 403 and "JSON" in form.get_json()["error"]
    assert referee.process_pending() == 0


def test_demo_press_goes_through_the_simulated_pads(client, referee):
    pressed = []
    referee.press_simulator = lambda seat, button: pressed.append((seat, button))
    ok = client.post("/api/demo/press", json={"seat": 2, "button": "slap"}, headers=SAME_ORIGIN)
    assert ok.status_code == 200 and pressed == [(2, "slap")]
    bad = client.post("/api/demo/press", json={"seat": 9, "button": "slap"}, headers=SAME_ORIGIN)
    assert bad.status_code == 400 and "seat must be 0 to 2" in bad.get_json()["error"]
    bad = client.post("/api/demo/press", json={"seat": 0, "button": "kick"}, headers=SAME_ORIGIN)
    assert bad.status_code == 400


def test_demo_routes_exist_only_in_demo_mode(store):
    from companion.referee import Referee

    referee = Referee(store, demo=False)
    app = create_app({"TESTING": True}, referee=referee)
    response = app.test_client().post("/api/demo/press", json={"seat": 0, "button": "call"}, headers=SAME_ORIGIN)
    assert response.status_code == 404


def test_create_app_without_a_referee_opens_the_database(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3")})
    assert app.test_client().get("/healthz").get_json()["ok"] is True
    assert (tmp_path / "t.sqlite3").exists()


SETUP = {"game": "crocodile", "seats": ["Ann", "Bob", "Cid"], "pin": "2468"}


def test_setup_starts_a_game_and_the_state_shows_it(client, referee):
    response = client.post("/api/setup", json=SETUP, headers=SAME_ORIGIN)
    assert response.status_code == 200
    referee.process_pending()
    game = client.get("/api/state").get_json()["state"]["game"]
    assert game["game"] == "crocodile" and game["view"]["phase"] == "deal"
    assert "pin_hash" not in str(game)
    assert client.get("/api/admin").get_json()["pin_set"] is True


def test_a_bad_setup_is_refused_with_the_field_named(client, referee):
    bad = client.post("/api/setup", json={**SETUP, "seats": ["Solo"]}, headers=SAME_ORIGIN)
    assert bad.status_code == 400 and bad.get_json()["error"].startswith("seats:")
    bad = client.post("/api/setup", json={**SETUP, "house_rules": {"tie_break": "dice"}}, headers=SAME_ORIGIN)
    assert bad.status_code == 400 and "tie_break" in bad.get_json()["error"]
    assert referee.process_pending() == 0


def test_admin_actions_need_the_pin(app, client, referee):
    client.post("/api/setup", json=SETUP, headers=SAME_ORIGIN)
    referee.process_pending()
    phone = app.test_client()  # another phone: not signed in as admin
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    assert phone.post("/api/undo", json={"pin": "0000"}, headers=SAME_ORIGIN).status_code == 403
    assert phone.post("/api/undo", json={}, headers=SAME_ORIGIN).status_code == 403
    assert phone.post("/api/undo", json={"pin": "2468"}, headers=SAME_ORIGIN).status_code == 200
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.168.1.51"
    again = other.post("/api/setup", json={**SETUP, "seats": ["X", "Y"]}, headers=SAME_ORIGIN)
    assert again.status_code == 403
    ok = other.post("/api/setup", json={**SETUP, "seats": ["X", "Y"], "admin_pin": "2468"}, headers=SAME_ORIGIN)
    assert ok.status_code == 200


def test_a_new_game_sends_the_old_one_to_the_history(client, referee):
    client.post("/api/setup", json=SETUP, headers=SAME_ORIGIN)
    referee.process_pending()
    client.post("/api/setup", json={**SETUP, "admin_pin": "2468"}, headers=SAME_ORIGIN)
    referee.process_pending()
    games = client.get("/api/history").get_json()["games"]
    assert len(games) == 1 and games[0]["game"] == "crocodile"
    assert games[0]["result"]["players"] == ["Ann", "Bob", "Cid"]


def test_games_lists_house_rules_with_their_defaults(client):
    games = {g["name"]: g for g in client.get("/api/games").get_json()["games"]}
    rules = {r["name"]: r for r in games["crocodile"]["house_rules"]}
    assert rules["tie_break"]["default"] == "fewer_cards" and rules["tie_break"]["gap"] == "CR-G16"
    assert games["recall"]["max_players"] == 8

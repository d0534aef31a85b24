"""Teaching a deck of Croks through the table's camera (the Teach page's API, which
``companion teach deck`` uses on a Pi): card by card with progress, a picture of each card
learned, a card shown twice refused, skipping, storing into the service's data directory,
and the deck then chosen at setup, where MC-01 and MC-02 are checked."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.app.crok_decks import fill_setup
from companion.app.teaching import Teaching
from companion.crok_catalogs import shipped_catalog
from companion.referee import Referee
from companion.store import Store
from vision.frame import Frame
from vision.mat.battle import battle_layout
from vision.render.camera import overhead_camera
from vision.render.croks import crok_piece
from vision.render.scene import Scene, SceneRenderer
from vision.taught.defaults import TEACH_LIGHT
from vision.taught.store import TaughtDeck
from web import create_app

SAME_ORIGIN = {"Origin": "http://localhost"}
LAYOUT = battle_layout(2)
CARDS = {c["id"]: c for c in shipped_catalog("example").to_json()["crok"]}


class Camera:
    """The camera loop as teaching sees it: ``divert`` is where its frames go."""

    divert = None


class Hand:
    """Lays one card at a time on the battle mat, as a player teaching does."""

    def __init__(self, teaching: Teaching) -> None:
        self.teaching = teaching
        self.renderer = SceneRenderer()
        self.camera = overhead_camera(LAYOUT.size_mm, tilt_deg=3.0, pan_deg=-2.0)
        self.index = 0

    def lay(self, crok: str, face_up: bool = True, frames: int = 4, shift: float = 0.0) -> None:
        x, y = LAYOUT.zones[0].rect.centre
        piece = crok_piece(CARDS[crok], x + shift, y, face_up=face_up)
        effects = replace(TEACH_LIGHT, noise_seed=self.index)
        image = self.renderer.render(Scene(self.camera, layout=LAYOUT, effects=effects, pieces=(piece,))).image
        for _ in range(frames):
            assert self.teaching.camera.divert is not None, "the camera is not diverted to the lesson"
            self.teaching.camera.divert(Frame(image, self.index, self.index, "renderer"))
            self.index += 1

    def clear(self) -> None:
        image = self.renderer.render(Scene(self.camera, layout=LAYOUT, effects=TEACH_LIGHT)).image
        self.teaching.camera.divert(Frame(image, self.index, self.index, "renderer"))
        self.index += 1


@pytest.fixture
def table(tmp_path):
    teaching = Teaching(tmp_path / "data", LAYOUT)
    teaching.camera = Camera()
    referee = Referee(Store(tmp_path / "t.db"), table_name="Test table", seats=["Ann", "Bob"])
    referee.fill_setup = lambda data: fill_setup(data, tmp_path / "data")
    app = create_app({"TESTING": True}, referee=referee, teaching=teaching)
    yield app.test_client(), teaching, referee
    referee.stop()


def start(client, **body):
    return client.post("/api/teach/start", json={"deck": "anns-deck", "catalog": "example", "deck_list": "mini-a",
                                                  **body}, headers=SAME_ORIGIN)


def test_a_deck_is_taught_card_by_card_with_a_picture_of_each_and_stored_where_the_service_keeps_data(table):
    client, teaching, referee = table
    response = start(client)
    assert response.status_code == 200
    lesson = response.get_json()
    croks = list(dict.fromkeys(shipped_catalog("example").decks["mini-a"]))
    assert lesson["total"] == len(croks) + 1 and lesson["asking"]["label"] == croks[0]
    hand = Hand(teaching)
    hand.lay(croks[0])
    status = client.get("/api/teach").get_json()["lesson"]
    assert status["position"] == 1 and status["taken"] == [croks[0]] and status["message"].startswith("taken")
    picture = client.get("/api/teach/picture/0.jpg")
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg" and picture.data[:2] == b"\xff\xd8"
    hand.lay(croks[0], shift=15.0)  # not lifted: the card taken still lies there
    assert client.get("/api/teach").get_json()["lesson"]["message"] == "taken: lift it, then lay the next card"
    hand.clear()
    hand.lay(croks[0], shift=15.0)  # the same card again: taught already
    status = client.get("/api/teach").get_json()["lesson"]
    assert status["position"] == 1 and status["message"].startswith(f"that is the card taught as {croks[0]}")
    for crok in croks[1:-1]:
        hand.clear()
        hand.lay(crok)
    assert client.post("/api/teach/store", json={}, headers=SAME_ORIGIN).status_code == 409  # not every card yet
    assert client.post("/api/teach/skip", json={}, headers=SAME_ORIGIN).get_json()["skipped"] == [croks[-1]]
    hand.clear()
    hand.lay(croks[0], face_up=False)  # the back
    status = client.get("/api/teach").get_json()["lesson"]
    assert status["done"] and status["taken"][-1] == "BACK"
    stored = client.post("/api/teach/store", json={}, headers=SAME_ORIGIN).get_json()
    assert stored["stored"] and teaching.camera.divert is None  # the camera goes back to the game
    deck = TaughtDeck.load(teaching.data_dir, "anns-deck")
    assert deck.ids == (*croks[:-1], "BACK") and deck.extra["deck"] == list(shipped_catalog("example").decks["mini-a"])
    listed = client.get("/api/decks").get_json()["decks"]
    assert listed == [{"name": "anns-deck", "croks": 10, "taught": 10, "catalog": "example", "has_catalog": True,
                       "untaught": [croks[-1]]}]
    # chosen at setup for both seats: checked (10 Croks, one of each) and spelled out
    setup = {"game": "master-crok", "seats": ["Ann", "Bob"], "decks": ["anns-deck", "anns-deck"]}
    assert client.post("/api/setup", json=setup, headers=SAME_ORIGIN).status_code == 200
    referee.process_pending()
    game = referee.public_state()["game"]
    assert game["mastercrok"]["decks"] == ["anns-deck", "anns-deck"]
    assert game["mastercrok"]["untaught"] == [[croks[-1]], [croks[-1]]]


def test_MC_02_a_deck_over_the_copy_limit_is_refused_at_setup_naming_the_crok(table, tmp_path):
    client, teaching, referee = table
    catalog = shipped_catalog("example").to_json()
    catalog["decks"]["doubled"] = catalog["decks"]["red"][1:19] + ["sun-kroko", "sun-kroko"]
    body = {"deck": "doubled", "catalog_data": catalog, "deck_list": "doubled"}
    response = client.post("/api/teach/start", json=body, headers=SAME_ORIGIN)
    assert response.status_code == 200
    hand = Hand(teaching)
    for _ in range(response.get_json()["total"] - 1):
        client.post("/api/teach/skip", json={}, headers=SAME_ORIGIN)
    hand.lay("sun-kroko", face_up=False)
    assert client.post("/api/teach/store", json={}, headers=SAME_ORIGIN).status_code == 200
    setup = {"game": "master-crok", "seats": ["Ann", "Bob"], "decks": ["doubled", "doubled"]}
    refused = client.post("/api/setup", json=setup, headers=SAME_ORIGIN)
    assert refused.status_code == 400 and refused.get_json()["field"] == "decks"
    assert "2 copies of 'sun-kroko' (Kroko the Bold)" in refused.get_json()["error"]
    allowed = {**setup, "house_rules": {"copy_limit": "per_ten"}}  # MC-G1: two of each in 20
    assert client.post("/api/setup", json=allowed, headers=SAME_ORIGIN).status_code == 200


def test_bad_lessons_are_refused_with_the_field_named(table):
    client, teaching, _ = table
    assert start(client, catalog="nope").get_json()["field"] == "catalog"
    assert start(client, deck_list="nope").get_json()["error"].startswith("deck_list: example: no deck 'nope'")
    assert start(client, deck="../etc").status_code == 400
    assert client.post("/api/teach/start", json={"deck": "x", "catalog_data": {"crok": "many"}},
                       headers=SAME_ORIGIN).get_json()["field"] == "catalog_data"
    assert client.post("/api/teach/skip", json={}, headers=SAME_ORIGIN).status_code == 409  # no lesson
    assert start(client).status_code == 200
    assert start(client, deck="another").status_code == 409  # one lesson at a time
    assert client.post("/api/teach/cancel", json={}, headers=SAME_ORIGIN).status_code == 200
    assert teaching.camera.divert is None
    teaching.camera = None
    refused = start(client)
    assert refused.status_code == 409 and "no camera" in refused.get_json()["error"]


def test_teaching_needs_the_admin_once_the_table_has_a_pin(table):
    client, teaching, referee = table
    from companion.refereeing.setup import hash_pin
    from web.admin import PIN_KEY

    referee.store.set_private(PIN_KEY, hash_pin("4321"))
    assert start(client).status_code == 403
    assert start(client, pin="4321").status_code == 200


def test_without_a_camera_the_teach_api_says_so(tmp_path):
    referee = Referee(Store(tmp_path / "t.db"))
    client = create_app({"TESTING": True}, referee=referee).test_client()
    assert client.get("/api/teach").status_code == 409
    assert client.get("/api/decks").get_json() == {"decks": [], "catalogs": []}
    assert client.get("/teach").status_code == 200
    referee.stop()


def test_companion_teach_deck_goes_through_the_running_service_which_owns_the_camera(tmp_path):
    """On a Pi the service owns the camera: the CLI teaches through it, and the deck lands in
    the service's data directory. A player lays each card the lesson asks for."""
    import json
    import threading
    import time

    from click.testing import CliRunner

    from companion.app.cli import main
    from companion.app.server import start_in_thread

    teaching = Teaching(tmp_path / "service-data", LAYOUT)
    teaching.camera = Camera()
    referee = Referee(Store(tmp_path / "t.db"))
    server = start_in_thread(create_app({"TESTING": True}, referee=referee, teaching=teaching), threads=4)
    hand, done = Hand(teaching), threading.Event()

    def player() -> None:
        laid = None
        while not done.is_set():
            lesson = teaching.status()["lesson"]
            asking = lesson and lesson["asking"]
            if asking and asking["label"] != laid and teaching.camera.divert is not None:
                hand.clear()
                back = asking["label"] == "BACK"
                hand.lay(croks[0] if back else asking["label"], face_up=not back)
                laid = asking["label"]
            time.sleep(0.05)

    croks = list(dict.fromkeys(shipped_catalog("example").decks["mini-b"]))
    catalog_file = tmp_path / "example.json"
    catalog_file.write_text(json.dumps(shipped_catalog("example").to_json()), encoding="utf-8")
    thread = threading.Thread(target=player, daemon=True)
    thread.start()
    try:
        result = CliRunner().invoke(main, ["teach", "deck", "bobs", "--catalog", str(catalog_file), "--deck-list",
                                           "mini-b", "--service", server.url, "--data-dir", str(tmp_path / "mine")])
    finally:
        done.set()
        thread.join(timeout=5)
        server.close()
        referee.stop()
    assert result.exit_code == 0, result.output
    assert f"Teaching deck 'bobs' through the service at {server.url}: 10 Croks, then the back" in result.output
    # progress as it was polled: the first card asked for, the last line once all are taught
    assert " 1/11  " in result.output and "11/11  done" in result.output
    assert "stored deck 'bobs' (11 cards) by the service" in result.output
    assert TaughtDeck.load(tmp_path / "service-data", "bobs").ids == (*croks, "BACK")
    assert not (tmp_path / "mine").exists()  # nothing stored where the CLI would have kept it

"""Each player's taught deck at a setup: the names spelled out into the game's set-up (the
catalog and the deck lists kept with the pictures), with a clear refusal for a deck that is
not taught, was taught without its catalog, or comes from another catalog; the camera reads
every deck at the table at once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.app.crok_decks import fill_setup, reader_deck, summaries, with_catalog
from companion.app.demo.mastercrok import DECK_NAMES, UNTAUGHT, story_decks, story_setup, teach_story_decks
from companion.crok_catalogs import shipped_catalog
from companion.events import InputEvent
from companion.referee import Referee
from companion.refereeing.setup import SetupError
from companion.store import Store
from vision.taught.store import TaughtDeck


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    teach_story_decks(folder)
    return folder


def test_a_setup_naming_taught_decks_is_spelled_out_with_their_catalog(data_dir):
    filled = fill_setup(story_setup(resolved=False), data_dir)
    assert "decks" not in filled
    game_setup = filled["game_setup"]
    assert game_setup["deck_names"] == list(DECK_NAMES)
    assert game_setup["decks"] == story_decks()
    assert game_setup["catalog"] == shipped_catalog("example").to_json()
    assert game_setup["untaught"] == [[UNTAUGHT], []]
    assert fill_setup({"game": "pool-party", "seats": ["a", "b"]}, data_dir) == {"game": "pool-party",
                                                                                 "seats": ["a", "b"]}


def test_the_referee_checks_the_decks_it_was_given_by_name(data_dir, tmp_path):
    referee = Referee(Store(tmp_path / "t.db"))
    referee.fill_setup = lambda data: fill_setup(data, data_dir)
    setup = referee.check_setup(story_setup(resolved=False))
    referee.submit(InputEvent("phone", "setup", 1, None, setup.to_json()))
    referee.process_pending()
    state = referee.public_state()["game"]
    assert state["mastercrok"]["decks"] == list(DECK_NAMES) and state["mastercrok"]["untaught"] == [[UNTAUGHT], []]
    assert "game_setup" not in state["setup"]  # the catalog is not sent to every phone
    # MC-G1: with per_ten the decks still pass; a deck short of seats is named
    with pytest.raises(SetupError, match="one deck per player: 2 players, 1 decks"):
        referee.check_setup({**story_setup(resolved=False), "decks": ["ann-red"]})


def test_a_deck_not_taught_is_refused_naming_the_decks_there_are(data_dir):
    with pytest.raises(SetupError) as refused:
        fill_setup({**story_setup(resolved=False), "decks": ["ann-red", "nobody"]}, data_dir)
    assert refused.value.field == "decks"
    assert "no taught deck 'nobody'" in str(refused.value) and "ann-red, bob-blue" in str(refused.value)


def test_a_deck_taught_without_its_catalog_or_from_another_is_refused(data_dir, tmp_path):
    old = replace(TaughtDeck.load(data_dir, "bob-blue"), name="old-blue", extra={"catalog": "example.toml"})
    old.save(data_dir)
    with pytest.raises(SetupError, match="taught without its catalog.*teach it again"):
        fill_setup({**story_setup(resolved=False), "decks": ["ann-red", "old-blue"]}, data_dir)
    other = shipped_catalog("example").to_json()
    other["name"] = "house"
    from companion.games.mastercrok import parse_catalog

    alien = with_catalog(replace(old, name="house-blue"), parse_catalog(other), story_decks()[1])
    alien.save(data_dir)
    with pytest.raises(SetupError, match="share one catalog"):
        fill_setup({**story_setup(resolved=False), "decks": ["ann-red", "house-blue"]}, data_dir)
    listed = {s["name"]: s for s in summaries(data_dir)}
    assert listed["ann-red"]["untaught"] == [UNTAUGHT] and listed["ann-red"]["croks"] == 20
    assert listed["old-blue"]["has_catalog"] is False


def test_the_camera_reads_every_deck_at_the_table(data_dir):
    deck = reader_deck(data_dir, DECK_NAMES)
    assert UNTAUGHT not in deck.ids and "wind-gale" in deck.ids and "sun-kroko" in deck.ids
    assert deck.ids.count("BACK") == 1

"""Setting venue mode up: the config's [venue] and [league] keys checked like the rest (key,
file, line), secrets hidden by 'config show'; 'companion serve' wires the table's publisher;
'companion venue' runs the board on a real Mosquitto and a real HTTP server, '--check' tries
the broker, and a wrong config is one line, never a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.app.assemble import assemble_table
from companion.app.cli import main
from companion.app.config import ConfigError, parse_config
from companion.events import InputEvent

VENUE_OK = """\
[table]
name = "Table 1"

[venue]
name = "club"
broker = "127.0.0.1"
password = "secret-t1"

[league]
title = "Thursday league"
password = "secret-board"
play_points = 1

[league.win_points]
crocodile = 3
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_a_venue_config_is_read():
    config = parse_config(VENUE_OK)
    assert config.venue.enabled and config.venue.name == "club" and config.league.win_points == {"crocodile": 3}
    assert not parse_config("").venue.enabled


@pytest.mark.parametrize("text, key, line, words", [
    ('[venue]\nbroker = "pi.local"\n', "venue.name", 1, "needed with venue.broker"),
    ('[venue]\nname = "The Club"\n', "venue.name", 2, "not an id"),
    ('[table]\nname = "***"\n[venue]\nname = "club"\nbroker = "pi.local"\n', "venue.table_id", 3, "makes no id"),
    ('[venue]\nbroker = "pi local"\n', "venue.broker", 2, "not a host name"),
    ('[venue]\ntls = "yes"\n', "venue.tls", 2, "should be a bool"),
    ('[venue]\nca_file = "/no/such/ca.crt"\n', "venue.ca_file", 2, "no such file"),
    ('[venue]\nusername = "t/1"\n', "venue.username", 2, "not a broker user name"),
    ('[league]\nseason_start = "2026-13-01"\n', "league.season_start", 2, "not a date"),
    ('[league]\ndatabase = "mysql://db/league"\n', "league.database", 2, "postgresql://"),
    ('[league]\nnew_day_hour = 24\n', "league.new_day_hour", 2, "out of range"),
    ('[league.win_points]\nchess = 3\n', "league.win_points", 1, "not a game"),
    ('[league.win_points]\nrecall = "3"\n', "league.win_points", 1, "whole number"),
])
def test_each_venue_mistake_names_key_and_line(tmp_path, text, key, line, words):
    with pytest.raises(ConfigError) as caught:
        parse_config(text, write(tmp_path, text))
    assert caught.value.key == key and caught.value.line == line and words in str(caught.value)


def test_config_show_hides_the_broker_passwords(tmp_path):
    result = CliRunner().invoke(main, ["config", "show", "--config", str(write(tmp_path, VENUE_OK))])
    assert result.exit_code == 0 and "secret" not in result.output
    shown = json.loads(result.output)
    assert shown["venue"]["password"] == shown["league"]["password"] == "****"


def test_companion_venue_refuses_a_wrong_config_in_one_line(tmp_path):
    no_venue = CliRunner().invoke(main, ["venue", "--config", str(write(tmp_path, "[table]\nname = \"T\"\n"))])
    assert no_venue.exit_code == 2 and "needs venue.name and venue.broker" in no_venue.output
    broken = CliRunner().invoke(main, ["venue", "--config", str(write(tmp_path, "[league]\nport = 0\n"))])
    assert broken.exit_code == 2 and "league.port" in broken.output and "Traceback" not in broken.output


def venue_config(tmp_path, mosquitto, board_password="pass-board", table_password="pass-t1"):
    return write(tmp_path, f"""\
[table]
name = "Table 1"

[buttons]
pin_factory = "mock"

[venue]
name = "club"
table_id = "t1"
broker = "{mosquitto.host}"
port = {mosquitto.port}
password = "{table_password}"

[league]
title = "Thursday league"
password = "{board_password}"
""")


def test_companion_venue_check(tmp_path, mosquitto):
    good = CliRunner().invoke(main, ["venue", "--check", "--config", str(venue_config(tmp_path, mosquitto))])
    assert good.exit_code == 0 and "ok   board" in good.output and "ok   table" in good.output
    bad = CliRunner().invoke(main, ["venue", "--check", "--config",
                                    str(venue_config(tmp_path, mosquitto, board_password="wrong"))])
    assert bad.exit_code == 1 and "FAIL board" in bad.output and "fix: " in bad.output


def test_serve_publishes_the_table_and_companion_venue_shows_it(tmp_path, mosquitto, eventually):
    path = venue_config(tmp_path, mosquitto)
    from companion.app.config import load_config

    table = assemble_table(load_config(path), tmp_path / "table")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    board = subprocess.Popen([sys.executable, "-m", "companion", "venue", "--config", str(path), "--data-dir",
                              str(tmp_path / "board"), "--host", "127.0.0.1", "--port", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    try:
        assert table.publisher is not None
        table.referee.submit(InputEvent("phone", "setup", table.referee.clock(), None,
                                        {"game": "crocodile", "seats": ["Ann", "Bob"], "house_rules": {},
                                         "dealer": 0}))
        url = None
        for line in board.stdout:
            if "http://" in line:
                url = line.split("http://", 1)[1].split("/")[0]
                break
        assert url is not None, "the board never said where it listens"

        def wall():
            with urllib.request.urlopen(f"http://{url}/api/board", timeout=5) as response:
                return json.loads(response.read())["board"]

        tables = eventually(lambda: wall()["tables"], "the table on the wall")
        assert tables[0]["table"] == "t1" and tables[0]["name"] == "Table 1"
        assert eventually(lambda: wall()["tables"][0]["summary"]["game"] == "crocodile", "the game on the wall")
        assert wall()["title"] == "Thursday league" and wall()["status"]["broker"] == "connected"
    finally:
        board.send_signal(signal.SIGTERM)
        output = board.communicate(timeout=20)[0]
        table.close()
    assert board.returncode == 0 and "Stopped." in output and "Traceback" not in output

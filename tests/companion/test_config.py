"""Config: a good file, and each kind of bad file, with the error text checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.app.cli import main
from companion.app.config import EXAMPLE, ConfigError, find_config, key_lines, load_config, parse_config

GOOD = """\
[table]
name = "Kitchen"
game = "crocodile"

[web]
port = 8080
threads = 40

[buttons]
tie_threshold_ms = 0.5
hold_to_withdraw_ms = 800

[[seats]]
name = "Ann"
call_pin = 5
slap_pin = 6

[[seats]]
name = "Bob"
call_pin = 13
slap_pin = 16
led_pin = 17
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_good_file_is_loaded_with_defaults_for_the_rest(tmp_path):
    cfg = load_config(write(tmp_path, GOOD))
    assert cfg.table.name == "Kitchen"
    assert cfg.web.port == 8080 and cfg.web.threads == 40 and cfg.web.host == "0.0.0.0"
    assert [s.name for s in cfg.seats] == ["Ann", "Bob"]
    assert cfg.seats[1].led_pin == 17 and cfg.seats[0].led_pin is None
    assert cfg.buttons.tie_threshold_ms == 0.5 and cfg.buttons.settle_ms == 15.0
    assert cfg.buttons.hold_to_withdraw_ms == 800


def test_the_example_file_is_valid_and_matches_the_defaults():
    cfg = parse_config(EXAMPLE)
    default = load_config(None, env={})
    assert cfg.to_json() == default.to_json()


def test_zero_hold_means_withdrawing_is_off(tmp_path):
    cfg = load_config(write(tmp_path, "[buttons]\nhold_to_withdraw_ms = 0\n"))
    assert cfg.buttons.hold_to_withdraw_ms is None


@pytest.mark.parametrize(
    "text, key, line, words",
    [
        ("[web]\nport = 8000\nprot = 1\n", "web.prot", 3, "unknown key"),
        ("[wbe]\nport = 1\n", "wbe", 1, "unknown section"),
        ("[web]\nport = \"8000\"\n", "web.port", 2, "should be a int"),
        ("[web]\nport = 70000\n", "web.port", 2, "out of range"),
        ("[web]\nthreads = 2\n", "web.threads", 2, "out of range"),
        ("[camera]\nsource = \"webcam\"\n", "camera.source", 2, "is not auto, none, renderer"),
        ("[buttons]\npin_factory = \"pigpio\"\n", "buttons.pin_factory", 2, "not one of lgpio, mock"),
        ("[table]\ngame = \"chess\"\n", "table.game", 2, "not one of crocodile"),
        ("[web]\nadmin_pin = \"12a\"\n", "web.admin_pin", 2, "4 to 64 characters"),
        ("[buttons]\ntie_threshold_ms = true\n", "buttons.tie_threshold_ms", 2, "should be a"),
    ],
)
def test_each_kind_of_mistake_names_key_file_and_line(tmp_path, text, key, line, words):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert err.value.key == key
    assert err.value.line == line
    assert str(path) in message and f"line {line}" in message and key in message
    assert words in message


def test_a_pin_used_twice_is_refused_naming_both_keys(tmp_path):
    text = GOOD.replace("led_pin = 17", "led_pin = 6")
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    message = str(err.value)
    assert "seats[1].led_pin" in message and "seats[0].slap_pin" in message
    assert err.value.line == text.splitlines().index("led_pin = 6") + 1


def test_too_many_seats(tmp_path):
    text = "".join(f"[[seats]]\nname = \"S{i}\"\n" for i in range(9))
    with pytest.raises(ConfigError, match="9 seats: a table has 1 to 8"):
        load_config(write(tmp_path, text))


def test_broken_toml_names_the_line(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "[web]\nport = = 3\n"))
    assert err.value.line == 2 and "not valid TOML" in str(err.value)


def test_lookup_order(tmp_path):
    explicit = write(tmp_path, "")
    (tmp_path / "cfgdir").mkdir()
    systemd_file = tmp_path / "cfgdir" / "config.toml"
    systemd_file.write_text("")
    (tmp_path / "xdg" / "companion").mkdir(parents=True)
    xdg_file = tmp_path / "xdg" / "companion" / "config.toml"
    xdg_file.write_text("")
    env = {"COMPANION_CONFIG": str(explicit), "CONFIGURATION_DIRECTORY": str(tmp_path / "cfgdir"),
           "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    assert find_config(None, env) == explicit
    assert find_config(xdg_file, env) == xdg_file
    del env["COMPANION_CONFIG"]
    assert find_config(None, env) == systemd_file
    del env["CONFIGURATION_DIRECTORY"]
    assert find_config(None, env) == xdg_file
    with pytest.raises(ConfigError, match="does not exist"):
        find_config(tmp_path / "missing.toml", env)


def test_key_lines_follow_arrays_of_tables():
    lines = key_lines(GOOD)
    assert lines["seats[1].led_pin"] == GOOD.splitlines().index("led_pin = 17") + 1
    assert lines["web.port"] == 6


def test_config_check_command_exits_nonzero_and_touches_no_data(tmp_path):
    path = write(tmp_path, "[web]\nport = 0\n")
    data = tmp_path / "data"
    result = CliRunner().invoke(main, ["serve", "--config", str(path), "--data-dir", str(data)])
    assert result.exit_code == 2
    assert "web.port" in result.output and "line 2" in result.output
    assert not data.exists()
    result = CliRunner().invoke(main, ["config", "check", "--config", str(path)])
    assert result.exit_code == 2
    ok = CliRunner().invoke(main, ["config", "check", "--config", str(write(tmp_path, GOOD))])
    assert ok.exit_code == 0 and "OK" in ok.output


def test_config_show_hides_the_admin_pin(tmp_path):
    path = write(tmp_path, "[web]\nadmin_pin = \"4321\"\n")
    result = CliRunner().invoke(main, ["config", "show", "--config", str(path)])
    assert result.exit_code == 0
    assert "4321" not in result.output and "****" in result.output


def test_a_pin_that_is_not_on_the_header_is_refused(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "[[seats]]\nname = \"Ann\"\ncall_pin = 40\n"))
    assert err.value.key == "seats[0].call_pin" and err.value.line == 3
    assert "40" in str(err.value)


def test_house_rules_are_checked_against_the_game(tmp_path):
    text = "[house_rules.crocodile]\ntie_break = \"shared\"\n"
    assert load_config(write(tmp_path, text)).house_rules == {"crocodile": {"tie_break": "shared"}}
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "[house_rules.crocodile]\n\ntie_break = \"coin toss\"\n"))
    assert err.value.key == "house_rules.crocodile.tie_break" and err.value.line == 3
    assert "'coin toss' is not allowed" in str(err.value)
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "[house_rules.chess]\nx = 1\n"))
    assert err.value.key == "house_rules.chess" and "unknown game" in str(err.value)

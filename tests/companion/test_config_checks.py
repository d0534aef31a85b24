"""``companion config check`` refuses what ``companion serve`` would fail on, one case each."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.app.cli import main
from companion.app.config import ConfigError, load_config


def check(tmp_path: Path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path, CliRunner().invoke(main, ["config", "check", "--config", str(path)])


@pytest.mark.parametrize("text, key, words", [
    ("[camera]\nfps = nan\n", "camera.fps", "not a finite number"),
    ("[camera]\nfps = inf\n", "camera.fps", "not a finite number"),
    ("[camera]\nfps = -inf\n", "camera.fps", "not a finite number"),
    ("[buttons]\nsettle_ms = nan\n", "buttons.settle_ms", "not a finite number"),
    ("[buttons]\nlockout_ms = inf\n", "buttons.lockout_ms", "not a finite number"),
    ('[camera]\nsource = "folder:no/such/folder"\n', "camera.source", "no such folder"),
    ('[camera]\nsource = "video:no/such/video.mp4"\n', "camera.source", "no such file"),
    ('[camera]\nsource = "folder:"\n', "camera.source", "is not auto, none, renderer"),
    ('[camera]\nmat_paper = "50x50"\n', "camera.mat_paper", "unknown paper"),
    ('[web]\nhost = ""\n', "web.host", "must not be empty"),
    ('[web]\nhost = "  "\n', "web.host", "must not be empty"),
    ('[web]\nhost = "0.0.0.0 8000"\n', "web.host", "not a host name"),
    ('[web]\nhost = "192.0.2.1"\n', "web.host", "not an address of this machine"),
    ('[web]\nhost = "no-such-host.invalid"\n', "web.host", "does not resolve"),
    ("[web]\nport = 0\n", "web.port", "out of range"),
    ("[web]\nport = 65536\n", "web.port", "out of range"),
    ("[web]\nport = -1\n", "web.port", "out of range"),
    ('[web]\nallowed_hosts = "localhost"\n', "web.allowed_hosts", "should be a list"),
    ("[web]\nallowed_hosts = [1, 2]\n", "web.allowed_hosts", "item 0: should be a string"),
    ('[web]\nallowed_hosts = ["localhost", ""]\n', "web.allowed_hosts", "item 1: must not be empty"),
    ('[web]\nallowed_hosts = ["http://table.local"]\n', "web.allowed_hosts", "not a host name"),
    ("[web]\nallowed_hosts = []\n", "web.allowed_hosts", "an empty list would refuse every request"),
    ('[web]\nadmin_pin = "abc"\n', "web.admin_pin", "4 to 64 characters"),
    ('[web]\nadmin_pin = "12\\u000734"\n', "web.admin_pin", "no control characters"),
    ('[[seats]]\nname = "A\\u0000"\n', "seats[0].name", "no control characters"),
    (f'[[seats]]\nname = "{"x" * 41}"\n', "seats[0].name", "at most 40 characters"),
    ('[store]\ndata_dir = "config.toml/data"\n', "store.data_dir", "is not a folder"),
])
def test_config_check_refuses_what_serve_would_fail_on(tmp_path, monkeypatch, text, key, words):
    monkeypatch.chdir(tmp_path)  # relative paths (a camera folder) are the working directory's, as for serve
    path, result = check(tmp_path, text)
    assert result.exit_code == 2, result.output
    assert key in result.output and words in result.output
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.key == key and err.value.line is not None


def test_a_camera_folder_with_images_and_a_list_of_hosts_pass(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "0001.png").write_bytes(b"")
    text = ('[web]\nhost = "127.0.0.1"\nallowed_hosts = ["companion.local", "192.168.1.20", "::1"]\n'
            'admin_pin = "correct horse"\n\n[camera]\nsource = "folder:frames"\nmat_paper = "700x500"\n')
    path, result = check(tmp_path, text)
    assert result.exit_code == 0, result.output
    config = load_config(path)
    assert config.web.allowed_hosts == ("companion.local", "192.168.1.20", "::1")


def test_an_empty_camera_folder_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "frames").mkdir()
    _path, result = check(tmp_path, '[camera]\nsource = "folder:frames"\n')
    assert result.exit_code == 2 and "no images" in result.output

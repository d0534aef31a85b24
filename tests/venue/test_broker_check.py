"""The broker check ``companion doctor`` runs (and ``companion venue --check``): ok, or what is
wrong and what to do, for each way a venue's broker set-up goes wrong. Never a traceback."""

from __future__ import annotations

import shutil

import pytest

from companion.live import LiveState
from companion.store import Store
from companion.venue.mosquitto import LocalMosquitto, free_port
from companion.venue.mqtt import BrokerSettings, check_board, check_broker
from companion.venue.publisher import TablePublisher

from .conftest import USERS


def test_the_table_may_publish_as_itself(login):
    check = check_broker(login("t1"), "club", "t1")
    assert check.ok and "may publish as table t1" in check.message and check.problem == ""


def test_a_wrong_password(login):
    check = check_broker(login("t1", "nope"), "club", "t1")
    assert not check.ok and "connection refused: Not authorized" in check.problem
    assert "mosquitto_passwd" in check.fix and "t1" in check.fix


def test_another_tables_topics(login):
    check = check_broker(login("t1"), "club", "t2")
    assert not check.ok and "may not publish to companion/club/t2/doctor" in check.problem and "ACL" in check.fix


def test_no_broker_there(mosquitto):
    check = check_broker(BrokerSettings("127.0.0.1", free_port(), "t1", "x"), "club", "t1", timeout=2)
    assert not check.ok and "cannot connect" in check.problem and "systemctl enable --now mosquitto" in check.fix
    check = check_broker(BrokerSettings("no-such-broker.invalid", 1883, "t1", "x"), "club", "t1")
    assert not check.ok and "does not resolve" in check.problem and "venue.broker" in check.fix


def test_tls_to_a_plain_port_is_named(login):
    plain = login("t1")
    settings = BrokerSettings(plain.host, plain.port, "t1", "pass-t1", tls=True)
    check = check_broker(settings, "club", "t1", timeout=3)
    assert not check.ok and "TLS failed" in check.problem and "ca_file" in check.fix


def test_the_board_may_subscribe(login):
    assert check_board(login("board"), "club").ok
    assert not check_board(login("board", "nope"), "club").ok


def test_a_broker_with_tls(mosquitto, tmp_path, eventually):
    """A Mosquitto listening with TLS only: the table's check and its publisher get through with
    the venue's CA; without it (the system's CAs) the check names the certificate."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl not found: apt-get install openssl")
    with LocalMosquitto(tmp_path / "tls", "club", {"t1": "pass-t1"}, tls=True) as broker:
        settings = BrokerSettings(broker.host, broker.port, "t1", "pass-t1", tls=True, ca_file=broker.ca_file)
        assert check_broker(settings, "club", "t1").ok
        unknown = check_broker(BrokerSettings(broker.host, broker.port, "t1", "pass-t1", tls=True), "club", "t1")
        assert not unknown.ok and "certificate verify failed" in unknown.problem and "ca_file" in unknown.fix
        store, live = Store(tmp_path / "t1.db"), LiveState({"session": 1, "seats": [], "game": None})
        publisher = TablePublisher(store, live, settings, venue="club", table="t1", table_name="Table 1").start()
        eventually(publisher.connected.is_set, "the table connects over TLS")
        publisher.stop()
        store.close()


def test_companion_doctor_checks_the_venues_broker(tmp_path, mosquitto):
    """The doctor names the broker check: ok on the venue's broker with this table's login,
    a failure with its fix on a wrong password; nothing when the table keeps to itself."""
    from companion.app.config import parse_config
    from companion.app.doctor import check_broker

    def config(password: str):
        return parse_config(f'[venue]\nname = "club"\ntable_id = "t1"\nbroker = "{mosquitto.host}"\n'
                            f'port = {mosquitto.port}\nusername = "t1"\npassword = "{password}"\n')

    good = list(check_broker(config(USERS["t1"])))
    assert [(f.check, f.state) for f in good] == [("venue broker", "ok")]
    bad = list(check_broker(config("wrong")))
    assert bad[0].state == "fail" and bad[0].fix
    assert list(check_broker(parse_config(""))) == []

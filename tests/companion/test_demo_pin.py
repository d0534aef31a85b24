"""The demo sets an admin PIN of its own and says it, so a phone needs it to undo."""

from __future__ import annotations

from companion.app.assemble import assemble_table
from companion.app.cli.server import demo_pin
from companion.app.config import Config

ORIGIN = {"Origin": "http://localhost"}


def test_the_demo_sets_a_pin_a_phone_needs_and_the_printed_one_opens(tmp_path):
    table = assemble_table(Config(), tmp_path, demo=True)
    try:
        pin = demo_pin(table)
        assert len(pin) == 4 and pin.isdigit()
        phone = table.app.test_client()
        phone.environ_base["REMOTE_ADDR"] = "192.168.1.50"
        assert phone.get("/api/admin").get_json()["pin_set"] is True
        wrong = "0000" if pin != "0000" else "1111"
        assert phone.post("/api/admin/login", json={"pin": wrong}, headers=ORIGIN).status_code == 403
        assert phone.post("/api/admin/login", json={"pin": pin}, headers=ORIGIN).status_code == 200
    finally:
        table.close()

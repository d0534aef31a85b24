"""``companion demo --game recall``: the demo's table plays Recall's story through the rendered
camera, the real card reader and the referee, as it plays Crocodile's."""

from __future__ import annotations

import time

from companion.app.assemble import assemble_table
from companion.app.config import Config
from companion.app.demo.run import DEMOS


def test_the_recall_demo_sets_up_recall_and_the_referee_follows_its_first_moves(tmp_path):
    table = assemble_table(Config(), tmp_path, demo=True)
    run = DEMOS["recall"](table, hold_s=0.6, fps=6).start()
    try:
        deadline = time.monotonic() + 120
        rulings: list[str] = []
        while time.monotonic() < deadline:
            current = table.referee.table
            rulings = [r["rule_id"] for r in current.rulings] if current is not None else []
            if "RE-09" in rulings:
                break
            time.sleep(0.2)
        assert table.referee.table.setup.game == "recall"
        # Everyone looked and Bob started (no card is turned up in Recall); Cid's match out of turn
        assert rulings[:1] == ["RE-07"] and "RE-09" in rulings
    finally:
        run.stop()
        table.close()

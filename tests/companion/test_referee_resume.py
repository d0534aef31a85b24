"""The table's state is a function of the stored inputs: a restart resumes it."""

from __future__ import annotations

from companion.events import InputEvent
from companion.referee import Referee
from companion.store import Store


def test_restart_resumes_the_same_session_and_state(tmp_path):
    path = tmp_path / "t.sqlite3"
    store = Store(path)
    referee = Referee(store, seats=["Ann", "Bob"])
    for seat, kind in [(0, "call"), (1, "slap"), (0, "slap")]:
        referee.submit(InputEvent("button", kind, 1000 + seat, seat=seat))
    assert referee.process_pending() == 3
    before = referee.live.current().state
    store.close()

    again = Referee(Store(path), seats=["ignored"])
    assert again.resumed and again.session_id == referee.session_id
    assert again.live.current().state == before


def test_a_game_replaced_by_a_setup_resumes_as_it_was_shown(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    referee = Referee(store, seats=["Ann", "Bob"])
    for t_ns, kind, data in [(1, "setup", {"game": "crocodile", "seats": ["Ann", "Bob"]}),
                             (2, "answer", {"question": 1, "option": 0}),
                             (3, "setup", {"game": "crocodile", "seats": ["Ann", "Bob", "Cid"]}),
                             (4, "answer", {"question": 2, "option": 1})]:
        referee.submit(InputEvent("phone", kind, t_ns, data=data))
    referee.process_pending()
    shown = referee.public_state()
    assert [r["kind"] for r in shown["recent"]] == ["answer", "setup"] and shown["inputs"] == 2

    assert Referee(store, seats=["ignored"]).public_state() == shown


def test_inputs_from_threads_are_handled_in_order_by_the_loop(tmp_path):
    import threading

    referee = Referee(Store(tmp_path / "t.sqlite3"))
    referee.start()
    threads = [
        threading.Thread(target=lambda s=s: [referee.submit(InputEvent("phone", "tap", i, seat=s)) for i in range(25)])
        for s in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    deadline = referee.live.current().version
    while referee.input_count < 100:
        referee.live.wait_for_change(deadline, timeout=2)
        deadline = referee.live.current().version
    referee.stop()
    seqs = [e.seq for e in referee.store.events(referee.session_id)]
    assert seqs == list(range(1, 101))

"""A table's publisher on a real Mosquitto: what the table shows and its results go out
retained with QoS 1; a result is marked as published in the table's store only once the
broker acknowledged it, so a lost broker or a restart sends exactly what was not
acknowledged; the table referees on whatever the broker does; only public facts leave."""

from __future__ import annotations

import json
import time

from companion.app.demo.league import league_setup, play, zones
from companion.events import InputEvent
from companion.referee import Referee
from companion.store import Store
from companion.venue.messages import parse_message
from companion.venue.publisher import MIN_INTERVAL_S, PUBLISHED, TablePublisher

SEATS = ["Ann", "Bob", "Cid", "Dee"]


def new_table(path, table="t1"):
    referee = Referee(Store(path), table_name=f"Table {table[1:]}", mat_zones=zones)
    return referee


def publisher(referee, settings, table="t1"):
    return TablePublisher(referee.store, referee.live, settings, venue="club", table=table,
                          table_name=referee.table_name).start()


def set_up(referee, game="crocodile", seats=SEATS, **extra):
    referee.submit(InputEvent("phone", "setup", 1, None, {**league_setup(game, seats), **extra}))
    referee.process_pending()


def marks(referee):
    return referee.store.private_items(PUBLISHED)


def test_state_and_result_reach_the_broker_retained(tmp_path, login, listen, eventually):
    referee = new_table(tmp_path / "t1.db")
    table = publisher(referee, login("t1"))
    set_up(referee)
    play(referee, "crocodile")
    over = referee.table.result()
    live = listen()

    def last(listener, suffix):
        got = listener.on(suffix)
        return parse_message(got[-1][0], got[-1][1])[1] if got else None

    eventually(lambda: (last(live, "/t1/state") or None) and last(live, "/t1/state").summary["over"], "the last state")
    eventually(lambda: (last(live, "/t1/result/1") or None) and last(live, "/t1/result/1").over, "the final result")
    late = listen()  # a board that subscribes afterwards gets the retained copies, the last of each
    eventually(lambda: late.on("/t1/state") and late.on("/t1/result/1"), "the retained copies")
    assert [retained for _t, _p, retained in late.on("/t1/state") + late.on("/t1/result/1")] == [True, True]
    summary = last(late, "/t1/state")
    assert summary.summary["over"] and summary.summary["winners"] == [0] and summary.name == "Table 1"
    final = last(late, "/t1/result/1")
    assert list(final.totals) == [over["totals"][i] for i in range(4)]
    assert final.over and final.winners == (0,) and final.seats == tuple(SEATS) and final.session == 1
    assert final.seq == referee.store.events(1)[-1].seq
    assert late.on("/t1/online")[-1][1] == b"1"
    table.stop()
    eventually(lambda: late.on("/t1/online")[-1][1] == b"0", "the table says it is gone")


def test_a_lost_broker_costs_nothing_and_sends_nothing_twice(tmp_path, mosquitto, login, listen, eventually):
    referee = new_table(tmp_path / "t1.db")
    table = publisher(referee, login("t1"))
    fresh = listen(retained=False)  # counts what is published from now on, not the retained copies
    eventually(table.connected.is_set, "the table connects")
    set_up(referee)
    mosquitto.stop()
    eventually(lambda: not table.connected.is_set(), "the table notices")
    play(referee, "crocodile")  # the table referees on
    assert referee.table.result()["over"] and referee.store.results()[0].result["over"]
    assert marks(referee) == {}  # nothing acknowledged: nothing marked
    assert "lost the broker" in table.problem
    mosquitto.start()
    eventually(lambda: marks(referee), "the result is acknowledged once the broker is back")
    eventually(lambda: fresh.ready.is_set() and fresh.on("/t1/result/1"), "the board's subscription hears it")
    sent = [parse_message(t, p)[1] for t, p, _ in fresh.on("/t1/result/1")]
    assert len(sent) == 1 and sent[0].over  # the final result, once (no earlier revision was left in flight)
    table.stop()


def test_a_restart_sends_only_what_was_not_acknowledged(tmp_path, mosquitto, login, listen, eventually):
    path = tmp_path / "t1.db"
    referee = new_table(path)
    table = publisher(referee, login("t1"))
    set_up(referee)
    play(referee, "crocodile")
    eventually(lambda: PUBLISHED + "companion/club/t1/result/1" in marks(referee), "the first result acknowledged")
    eventually(lambda: not table._inflight, "nothing in flight")
    mosquitto.stop()
    set_up(referee, "recall")  # the next game: the first one is finished
    play(referee, "recall")
    table.stop()  # the table is switched off before the broker is back: the recall result was never sent
    referee.stop()
    referee.store.close()

    mosquitto.start()
    fresh = listen(retained=False)
    again = new_table(path)
    assert again.resumed and again.session_id == 2
    table = publisher(again, login("t1"))
    eventually(lambda: PUBLISHED + "companion/club/t1/result/2" in marks(again), "the recall result acknowledged")
    eventually(lambda: fresh.on("/t1/result/2"), "the recall result arrives")
    table.stop()  # its drain waits for what is in flight
    assert [t for t, _p, _r in fresh.messages if "/result/" in t] == ["companion/club/t1/result/2"]


def test_a_refused_login_is_a_clear_problem_and_the_table_referees_on(tmp_path, login, eventually):
    referee = new_table(tmp_path / "t1.db")
    table = publisher(referee, login("t1", "wrong password"))
    set_up(referee, "recall")
    eventually(lambda: table.problem, "the problem is said")
    assert "refused the connection" in table.problem and "venue.password" in table.problem
    play(referee, "recall")
    assert referee.table.result()["over"] and marks(referee) == {}
    table.stop()


def test_another_tables_topics_are_refused_and_nothing_is_marked(tmp_path, login, eventually):
    referee = new_table(tmp_path / "t1.db")
    table = publisher(referee, login("t1"), table="t2")  # t1's user posing as table t2: the ACL says no
    set_up(referee, "recall")
    play(referee, "recall")
    eventually(lambda: "Not authorized" in table.problem, "the refusal is said")
    assert marks(referee) == {}
    table.stop()


def test_only_public_facts_leave_the_table(tmp_path, login, listen, eventually):
    """Every text in every message the broker got during a whole game was on the public page
    (a name, a ruling, a game, a question): the cards players looked at, the PIN's hash and
    the private views never leave."""
    referee = new_table(tmp_path / "t1.db")
    public: list[dict] = [referee.live.current().state]  # the table before any game is public too
    original = referee.live.publish

    def keep(state):
        public.append(state)
        return original(state)

    referee.live.publish = keep
    listener = listen()
    table = publisher(referee, login("t1"))
    set_up(referee, pin_hash="scrypt:32768:8:1$salt$0123456789abcdef")
    play(referee, "crocodile", pace=lambda: time.sleep(MIN_INTERVAL_S + 0.02))  # every change goes out
    eventually(lambda: marks(referee), "the result is acknowledged")
    table.stop()
    said = set()

    def strings(value, into):
        if isinstance(value, str):
            into.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                strings(item, into)
        elif isinstance(value, list):
            for item in value:
                strings(item, into)
        return into

    for state in public:
        strings(state, said)
    sent = [(topic, json.loads(payload)) for topic, payload, _ in listener.messages if not topic.endswith("/online")]
    assert len(sent) > 20
    for topic, message in sent:
        for text in strings(message, set()) - {"t1", "Table 1"}:
            assert text in said, (topic, text)
        assert "pin" not in json.dumps(message) and "scrypt" not in json.dumps(message)

"""Venue mode: many tables, one league board, on a real MQTT broker (Mosquitto).

Each table's Pi publishes what the public page shows and every game's result to the venue's
broker (:mod:`.publisher`); ``companion venue`` subscribes, keeps the results in its own
database (:mod:`.league`) and serves the wall's board (:mod:`.board`, the page in
``web.board``). The table's event store stays the source of truth: a result is marked as
published there only once the broker has acknowledged it, so a lost broker or a restart
republishes exactly what was not acknowledged, and the board keeps one result per
``(table id, session id)``.

Pure parts (names and topics, messages, standings) know no broker and no database; the
I/O parts (the paho client, the publisher, the league store, the subscriber) use them.
"""

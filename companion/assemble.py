"""The composition root: builds a table from the config — store, referee, seat pads,
camera, web app — and takes it apart again. The only module that knows every part.
"""

from __future__ import annotations

import logging
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.paths import DB_NAME
from companion.referee import Referee
from companion.store import Store

log = logging.getLogger(__name__)


@dataclass
class Table:
    config: Config
    store: Store
    referee: Referee
    app: Any
    data_dir: Path
    demo: bool
    _closers: ExitStack = field(default_factory=ExitStack)

    def close(self) -> None:
        self.referee.stop()
        self._closers.close()
        self.store.close()


def assemble_table(config: Config, data_dir: Path, *, demo: bool = False) -> Table:
    """Open the store in ``data_dir``, resume or start the table session, wire the
    inputs and build the web app. In demo mode every input device is simulated, and
    says so loudly."""
    from web import create_app

    store = Store(data_dir / DB_NAME, synchronous=config.store.synchronous)
    referee = Referee(
        store,
        table_name=config.table.name,
        seats=[seat.name for seat in config.seats],
        demo=demo,
    )
    table = Table(config, store, referee, None, data_dir, demo)
    try:
        _wire_pads(table)
        table.app = create_app({"TABLE_NAME": config.table.name, "DEMO": demo}, referee=referee)
    except BaseException:
        table.close()
        raise
    referee.start()
    return table


def _wire_pads(table: Table) -> None:
    """Seat pads: real ones through gpiozero's lgpio factory, or, in the demo,
    simulated ones through gpiozero's MockFactory (the same path)."""
    from companion.events import InputEvent

    referee = table.referee
    if table.demo:
        log.warning("DEMO MODE: seat pads simulated (no GPIO)")

        def press(seat: int, button: str) -> None:
            import time

            referee.submit(InputEvent("button", button, time.monotonic_ns(), seat))

        referee.press_simulator = press

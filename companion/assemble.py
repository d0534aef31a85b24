"""The composition root: builds a table from the config — store, referee, seat pads,
camera, web app — and takes it apart again. The only module that knows every part.
"""

from __future__ import annotations

import logging
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.events import InputEvent
from companion.paths import DB_NAME
from companion.referee import Referee
from companion.store import Store
from hardware.arbiter import SlapResult
from hardware.pads import PadEvent
from hardware.table import open_table_pads

log = logging.getLogger(__name__)


@dataclass
class Table:
    config: Config
    store: Store
    referee: Referee
    app: Any
    data_dir: Path
    demo: bool
    simulated_pads: Any = None
    """Demo only: the simulated pads (keyboard and page press here)."""
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


def pad_input(item: Any) -> InputEvent:
    """A seat-pad output (a press, a slap ruling, a withdrawn call) as the referee's input.
    ``hardware`` does not know ``companion``, so the conversion lives here."""
    data = item.to_json()
    if isinstance(item, SlapResult):
        return InputEvent("button", item.kind, item.first_ns if item.order else item.t_arm_ns, item.winner, data)
    kind = "press" if isinstance(item, PadEvent) else item.kind
    return InputEvent("button", kind, item.t_ns, item.seat, data)


def _wire_pads(table: Table) -> None:
    """Seat pads: real ones through gpiozero's lgpio factory (kernel edge timestamps), or,
    in the demo, simulated ones on gpiozero's MockFactory. Simulated presses drive mock pins,
    so they travel the real path: pad device -> debounce -> arbiter -> referee."""
    config, referee = table.config, table.referee
    if not any(seat.call_pin or seat.slap_pin for seat in config.seats):
        log.warning("no seat pads configured: calls and slaps come from the page only")
        return
    buttons = replace(config.buttons, pin_factory="mock") if table.demo else config.buttons
    if buttons.pin_factory == "mock":
        log.warning("SIMULATED seat pads: gpiozero MockFactory, no real GPIO")
    pads = open_table_pads(config.seats, buttons, lambda item: referee.submit(pad_input(item)))
    table._closers.callback(pads.close)
    referee.arm_slaps = pads.runtime.arm
    referee.feedback = pads.feedback
    if pads.simulated is not None:
        referee.press_simulator = pads.simulated.press
        table.simulated_pads = pads.simulated

"""Where data lives: ``--data-dir``, the config's ``store.data_dir``, ``$STATE_DIRECTORY``
(systemd's ``StateDirectory=``), ``$XDG_DATA_HOME/companion``, ``~/.local/share/companion``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DB_NAME = "companion.sqlite3"


def data_dir(explicit: str | Path | None = None, configured: str = "", env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    if explicit:
        return Path(explicit)
    if configured:
        return Path(configured).expanduser()
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    xdg = env.get("XDG_DATA_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".local" / "share")
    return Path(xdg) / "companion"

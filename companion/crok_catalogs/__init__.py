"""Master Crok card catalogs as files: a TOML or JSON file given by path, or a catalog
shipped with the program (``companion/crok_catalogs/NAME.toml``).

The rules engine (``companion.games.mastercrok``) does no I/O: it takes a catalog as data
(``parse_catalog``), embedded in the game's set-up and its records, so a replay reads
nothing. Reading files is done here, by the composition root and the CLI.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from companion.games.mastercrok.catalog import Catalog, CatalogError, parse_catalog

SHIPPED_PACKAGE = "companion.crok_catalogs"


def _parse_text(text: str, suffix: str, where: str) -> Any:
    if suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise CatalogError(f"line {exc.lineno} column {exc.colno}: not JSON: {exc.msg}", where=where) from None
    if suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise CatalogError(f"not TOML: {exc}", where=where) from None
    raise CatalogError(f"a catalog file ends in .toml or .json, not {suffix or 'nothing'!r}", where=where)


def load_catalog(path: str | Path) -> Catalog:
    """The catalog in the TOML or JSON file at ``path``. Every error is a
    :class:`CatalogError` that names the file, and the card and field when it is about one."""
    path = Path(path)
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogError(f"cannot read: {exc.strerror or exc}", where=where) from None
    return parse_catalog(_parse_text(text, path.suffix.lower(), where), where=where)


def shipped_catalog_names() -> list[str]:
    """Names of the catalogs shipped with the program (``example``)."""
    folder = resources.files(SHIPPED_PACKAGE)
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def shipped_catalog(name: str) -> Catalog:
    """The shipped catalog ``name``; :class:`CatalogError` lists the shipped ones."""
    names = shipped_catalog_names()
    if name not in names:
        raise CatalogError(f"no shipped catalog {name!r}; shipped: {', '.join(names) or 'none'}")
    where = f"{name}.toml (shipped)"
    text = resources.files(SHIPPED_PACKAGE).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return parse_catalog(_parse_text(text, ".toml", where), where=where)

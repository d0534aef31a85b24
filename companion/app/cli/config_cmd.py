"""``companion config check|show|example``."""

from __future__ import annotations

import json
import sys

import click

from companion.app.config import EXAMPLE, ConfigError, find_config, load_config


@click.group()
def config() -> None:
    """Check or show the configuration.

    The file is looked up in this order: --config, $COMPANION_CONFIG,
    $CONFIGURATION_DIRECTORY/config.toml, $XDG_CONFIG_HOME/companion/config.toml,
    /etc/companion/config.toml; with none, the built-in defaults apply.
    """


def _load(path: str | None):  # type: ignore[no-untyped-def]
    try:
        return load_config(path)
    except ConfigError as exc:
        click.echo(f"Config error: {exc}", err=True)
        sys.exit(2)


@config.command()
@click.option("--config", "path", type=click.Path(dir_okay=False), help="The config file to check.")
def check(path: str | None) -> None:
    """Validate the config file; exit 2 with the key, file and line of the first mistake."""
    cfg = _load(path)
    where = str(cfg.path) if cfg.path else "built-in defaults (no config file found)"
    click.echo(f"OK: {where}")


@config.command()
@click.option("--config", "path", type=click.Path(dir_okay=False), help="The config file to show.")
def show(path: str | None) -> None:
    """Print the effective configuration (the file over the defaults) as JSON."""
    cfg = _load(path)
    click.echo(json.dumps({"file": str(cfg.path) if cfg.path else None, **cfg.to_json()}, indent=2))


@config.command()
def example() -> None:
    """Print a commented example config file with every key and its default."""
    click.echo(EXAMPLE, nl=False)


@config.command()
@click.option("--config", "path", type=click.Path(dir_okay=False))
def where(path: str | None) -> None:
    """Print which config file would be used."""
    try:
        found = find_config(path)
    except ConfigError as exc:
        click.echo(f"Config error: {exc}", err=True)
        sys.exit(2)
    click.echo(str(found) if found else "(none: built-in defaults)")

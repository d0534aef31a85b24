"""``companion replay RECORD.json``: replay a game or match record and print the result."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from companion.games.base import GameError
from companion.games.match import MATCH_FORMAT, match_from_record
from companion.games.records import game_from_record, replay_summary


@click.command()
@click.argument("record_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--upto", type=int, default=None, help="Replay only the first N actions (what undo does).")
@click.option("--seat", type=int, default=None, help="Print the state as this seat sees it instead of the public view.")
def replay(record_file: Path, upto: int | None, seat: int | None) -> None:
    """Replay RECORD_FILE (a game or match record) and print, as JSON, the final state,
    every ruling with its rule id and the scores.

    A malformed or illegal record exits with status 2 and names the action's index and
    the reason; the file is never changed.
    """
    where = str(record_file)
    try:
        text = record_file.read_text(encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"{where}: cannot read: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{where}: line {exc.lineno} column {exc.colno}: not JSON: {exc.msg}") from exc
    try:
        if isinstance(data, dict) and data.get("format") == MATCH_FORMAT:
            match = match_from_record(data, where=where)
            out = {"match": match.summary(), "rounds": [replay_summary(g) for g in match.rounds]}
        else:
            game = game_from_record(data, upto=upto, where=where)
            out = replay_summary(game)
            if seat is not None:
                out["state"] = game.view(seat)
    except GameError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(2)
    click.echo(json.dumps(out, indent=2, ensure_ascii=False))

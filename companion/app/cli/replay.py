"""``companion replay RECORD.json``: replay a game or match record and print the result."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NoReturn

import click

from companion.games.base import GameError
from companion.record_checks import replay_record


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

    def refuse(message: str) -> NoReturn:  # one line, exit 2: never a traceback
        click.echo("Error: " + " ".join(message.split()), err=True)
        sys.exit(2)

    try:
        data = json.loads(record_file.read_text(encoding="utf-8"))
        out = replay_record(data, upto=upto, seat=seat, where=where)
    except OSError as exc:
        refuse(f"{where}: cannot read: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        refuse(f"{where}: not UTF-8 text (byte {exc.start})")
    except json.JSONDecodeError as exc:
        refuse(f"{where}: line {exc.lineno} column {exc.colno}: not JSON: {exc.msg}")
    except (ValueError, RecursionError) as exc:  # an integer of thousands of digits; nesting
        refuse(f"{where}: not JSON this program reads: {exc}")
    except GameError as exc:
        refuse(str(exc))
    click.echo(json.dumps(out, indent=2, ensure_ascii=False))

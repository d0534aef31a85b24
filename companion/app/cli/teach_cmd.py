"""``companion teach``: show the camera the pieces it cannot know from the project's own
drawings, once, and keep what recognises them.

* ``companion teach tiles``: the 24 Pool Party tile faces, one at a time on the pool.
* ``companion teach tiles --default``: store the renderer's own tile set (demo, tests).
* ``companion teach deck NAME --catalog FILE [--deck-list DECK]``: every Crok of a Master
  Crok deck (a deck the catalog names, or every Crok of the catalog), one at a time on the
  battle mat, then the back. When the service runs on this machine (it owns the camera on a
  Pi), the deck is taught through it and stored in its data directory (``--service``).
* ``companion teach list``: what has been taught.

Each piece is asked for by name with a progress line; once it lies still (``--steady``
frames in a row agree) it is taken, and checked against what was already taught.
Nothing is stored until the whole set is taught (files under ``<data>/taught/``, see
``vision.taught.store``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from companion.app.paths import data_dir as default_data_dir

V = TypeVar("V")


def _data_dir(explicit: Path | None) -> Path:
    return default_data_dir(explicit)


def _board(board_file: Path | None) -> dict[str, Any]:
    """The pool's geometry as plain data: the engine's default board, or a board config file."""
    from companion.games.poolparty import Board, BoardConfigError

    if board_file is None:
        return Board.default().to_json()
    try:
        data = json.loads(board_file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise click.ClickException(f"{board_file}: not a readable JSON board config: {exc}") from exc
    try:
        return Board.from_json(data, str(data.get("goal_end", "far")) if isinstance(data, dict) else "far",
                               where=str(board_file)).to_json()
    except BoardConfigError as exc:
        raise click.ClickException(str(exc)) from exc


def parse_corners(text: str) -> list[list[float]]:
    """``"x,y;x,y;x,y;x,y"`` -> four points; ValueError saying what is wrong."""
    try:
        points = [[float(v) for v in part.split(",")] for part in text.split(";")]
    except ValueError:
        raise ValueError(f"--corners {text!r}: four points x,y separated by ';' are needed") from None
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise ValueError(f"--corners {text!r}: four points x,y separated by ';' are needed")
    return points


def _source(spec: str) -> Any:
    from vision.sources import SourceError, open_source

    try:
        return open_source(spec)
    except SourceError as exc:
        raise click.ClickException(str(exc)) from exc


def _progress(k: int, total: int, text: str) -> str:
    width = 24
    done = int(round(width * k / total))
    return f"[{'#' * done}{'.' * (width - done)}] {k + 1:>2}/{total}  {text}"


def _frames(source: Any) -> Iterator[Any]:
    from vision.sources import SourceError

    try:
        yield from source.frames()
    except SourceError as exc:
        raise click.ClickException(str(exc)) from exc


def _take(items: Sequence[Any], capture: Callable[[Any], V | str], same: Callable[[V, V], bool],
          check: Callable[[Any, V, dict[str, V]], str | None], source: Any, steady: int,
          timeout: float) -> dict[str, V]:
    """Ask for each item in turn and take it when it lies still; ``check(item, capture,
    taken so far)`` may object (it looks like something already taught), and the user
    decides. Returns the captures by item label; raises Abort when the user quits."""
    from vision.taught.teach import wait_steady

    taken: dict[str, V] = {}
    frames = _frames(source)
    for k, item in enumerate(items):
        click.echo(_progress(k, len(items), item.prompt))
        while True:
            answer = click.prompt("  place it, then press Enter (s: skip, q: quit)", default="",
                                  show_default=False).strip().lower()
            if answer == "q":
                raise click.Abort()
            if answer == "s":
                click.echo("  skipped")
                break
            got = wait_steady(frames, capture, same, steady, timeout)
            if isinstance(got, str):
                click.echo(f"  not taken: {got}")
                continue
            objection = check(item, got, taken)
            if objection and not click.confirm(f"  {objection}: keep it anyway?", default=False):
                continue
            taken[item.label] = got
            click.echo("  taken")
            break
    return taken


@click.group()
def teach() -> None:
    """Teach the camera a deck of custom cards or the Pool Party tiles."""


DATA_DIR_OPTION = click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                               help="Where taught sets are kept (default: the XDG data directory).")


def taking_options(piece: str) -> Callable[[Any], Any]:
    """The options every teaching command shares: the frame source, the data directory,
    and how long and how steadily a ``piece`` must lie before it is taken."""
    def wrap(f: Any) -> Any:
        f = click.option("--timeout", type=float, default=20.0, show_default=True,
                         help=f"Seconds to wait for a {piece} to lie still.")(f)
        f = click.option("--steady", type=click.IntRange(1, 30), default=3, show_default=True,
                         help=f"Frames in a row that must agree before a {piece} is taken.")(f)
        f = DATA_DIR_OPTION(f)
        return click.option("--source", default="picamera2", show_default=True,
                            help="Frames: picamera2, usb:N, folder:PATH or video:PATH.")(f)
    return wrap


@teach.command("tiles")
@taking_options("tile")
@click.option("--board", "board_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="The pool's board config (JSON, as the engine's Board.to_json()); default: the standard pool.")
@click.option("--paper", default="a2", show_default=True, help="The paper the pool mat was printed on.")
@click.option("--corners", default=None, metavar="X,Y;X,Y;X,Y;X,Y",
              help="A real board instead of the printed mat: the pool's four outer corners in the camera's "
                   "picture, clockwise from row 1 column 1.")
@click.option("--default", "use_default", is_flag=True,
              help="Store the renderer's own tile set instead (for the demo and tests).")
def tiles(source: str, board_file: Path | None, paper: str, corners: str | None, data_dir: Path | None, steady: int,
          timeout: float, use_default: bool) -> None:
    """Teach the 24 tile faces: the six red and six yellow swimmers, then the crocodiles
    1-6 of each colour, each laid alone on any square of the printed pool mat."""
    from vision.mat import MatError
    from vision.taught.teach import TileTeacher, build_tile_set, nearest_other, same_place, tile_items, too_close
    from vision.taught.tiles import MIN_SEPARATION

    board = _board(board_file)
    folder = _data_dir(data_dir)
    if use_default:
        from vision.taught.defaults import default_tile_set

        where = default_tile_set(board).save(folder)
        click.echo(f"stored the renderer's tile set (24 faces) in {where}")
        return
    try:
        teacher = TileTeacher(board, paper=paper, corners=parse_corners(corners) if corners else None)
    except (MatError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    items = tile_items()
    click.echo(f"Teaching {len(items)} tile faces. Lay each tile alone on any square of the pool, the named side "
               f"up, in good light.")

    def check(item: Any, view: Any, taken: dict[str, Any]) -> str | None:
        near = nearest_other(view, item.label, taken, items)
        if near is not None and near[1] < MIN_SEPARATION:
            return f"it looks like the {near[0].replace('/', ' ')} taught already"
        return None

    with _source(source) as frames_source:
        taken = _take(items, teacher.capture, same_place, check, frames_source, steady, timeout)
    missing = [i.label for i in items if i.label not in taken]
    if missing:
        raise click.ClickException(f"not stored: {len(missing)} face(s) not taught ({', '.join(missing[:4])}...)")
    tile_set = build_tile_set(items, {k: [v] for k, v in taken.items()})
    for a, b, gap in too_close(tile_set):
        click.echo(f"warning: {a} and {b} look alike (separation {gap:.2f}): teach them again in better light")
    where = tile_set.save(folder)
    click.echo(f"stored {len(items)} tile faces in {where} (tiles {tile_set.tile_mm:.1f} mm)")


@teach.command("deck")
@click.argument("name")
@click.option("--catalog", "catalog_file", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The Master Crok catalog (TOML or JSON) whose Croks are shown one by one.")
@click.option("--deck-list", default=None, metavar="DECK",
              help="Which Croks: a deck the catalog names (its copies are the deck's); default every Crok once.")
@taking_options("card")
@click.option("--paper", default="auto", show_default=True, help="The battle mat's size (as `companion mat --size`).")
@click.option("--no-mat", is_flag=True, help="No printed mat: cards lie on a plain cloth.")
@click.option("--service", default="auto", show_default=True, metavar="URL|auto|off",
              help="Teach through the running service (it owns the camera on a Pi, and stores the deck in its data "
                   "directory): its address, auto (the one in the config, when it answers and no --source is "
                   "given), or off.")
@click.option("--pin", default=None, help="The table's admin PIN, for teaching through the service (asked if needed).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="Config file: where the service listens (see 'companion config').")
def deck(name: str, catalog_file: Path, deck_list: str | None, source: str, paper: str, no_mat: bool,
         data_dir: Path | None, steady: int, timeout: float, service: str, pin: str | None,
         config_path: str | None) -> None:
    """Teach deck NAME: each Crok of the deck, then the back, laid alone and face up (the
    back face down) under the camera. The deck keeps its catalog and its deck list, which a
    setup checks (MC-01, MC-02)."""
    from companion.app.crok_decks import deck_list as croks_of
    from companion.app.crok_decks import with_catalog
    from companion.crok_catalogs import load_catalog
    from companion.games.mastercrok.catalog import CatalogError
    from vision.mat import MatError
    from vision.mat.battle import battle_layout
    from vision.taught.store import TaughtError, check_deck_name
    from vision.taught.teach import CardTeacher, build_deck, deck_items, deck_problems, same_card_place, shown_again

    try:
        check_deck_name(name)
        catalog = load_catalog(catalog_file)
        ids = croks_of(catalog, deck_list)
        layout = None if no_mat else battle_layout(2, paper)
    except (TaughtError, CatalogError, MatError) as exc:
        raise click.ClickException(str(exc)) from exc
    through = _service(service, pin, config_path, explicit_source=_given("source"))
    if through is not None:
        from companion.app.cli.teach_service import teach_through

        stored = teach_through(through, name, catalog.to_json(), deck_list)
        for problem in stored.get("problems") or []:
            click.echo(f"warning: {problem}")
        click.echo(f"stored deck {name!r} ({len(stored['taken'])} cards) by the service, in {stored['stored']}")
        return
    cards = {c["id"]: c for c in catalog.to_json()["crok"]}
    items = deck_items([cards[i] for i in dict.fromkeys(ids)])
    teacher = CardTeacher(layout)
    click.echo(f"Teaching deck {name!r}: {len(items) - 1} Croks of {catalog_file.name}, then the back. Lay each "
               f"card alone, flat and whole{' on the mat' if layout else ''}.")
    def check(item: Any, view: Any, taken: dict[str, Any]) -> str | None:
        if not taken:
            return None
        twin = shown_again(view.grey, build_deck(name, items, taken))
        return f"that is the card taught as {twin}" if twin is not None else None

    with _source(source) as frames_source:
        taken = _take(items, teacher.capture, same_card_place, check, frames_source, steady, timeout)
    missing = [i.label for i in items if i.label not in taken]
    if missing:
        raise click.ClickException(f"not stored: {len(missing)} card(s) not taught ({', '.join(missing[:4])})")
    taught = with_catalog(build_deck(name, items, taken, extra={"catalog": catalog_file.name}), catalog, ids)
    for problem in deck_problems(taught):
        click.echo(f"warning: {problem}")
    where = taught.save(_data_dir(data_dir))
    click.echo(f"stored deck {name!r} ({len(taught.cards)} cards) in {where}")


def _given(parameter: str) -> bool:
    """Whether the user gave ``parameter`` on the command line (not its default)."""
    from click.core import ParameterSource

    return click.get_current_context().get_parameter_source(parameter) is not ParameterSource.DEFAULT


def _service(choice: str, pin: str | None, config_path: str | None, explicit_source: bool) -> Any:
    """The running service to teach through, or None to open the camera here: ``off``;
    a URL; or ``auto``, the config's address when it answers and no ``--source`` was given
    (on a Pi the service owns the camera, and a second opener would find it busy)."""
    from companion.app.cli.teach_service import Service

    if choice == "off" or (choice == "auto" and explicit_source):
        return None
    if choice != "auto":
        return Service(choice, pin)
    from companion.app.config import ConfigError, load_config

    try:
        port = load_config(config_path).web.port
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    found = Service(f"http://127.0.0.1:{port}", pin, timeout_s=30.0)
    return found if Service(found.url, timeout_s=1.0).answers() else None


@teach.command("list")
@DATA_DIR_OPTION
def list_taught(data_dir: Path | None) -> None:
    """Show what has been taught."""
    from vision.taught.store import TaughtDeck, TaughtError, TileSet, taught_decks

    folder = _data_dir(data_dir)
    try:
        tile_set = TileSet.load(folder)
        click.echo(f"tiles: {len(tile_set.labels)} faces ({tile_set.source}), {tile_set.tile_mm:.1f} mm")
    except TaughtError:
        click.echo("tiles: not taught (companion teach tiles)")
    for name in taught_decks(folder):
        try:
            click.echo(f"deck {name}: {len(TaughtDeck.load(folder, name).cards)} cards")
        except TaughtError as exc:
            click.echo(f"deck {name}: unreadable: {exc}")

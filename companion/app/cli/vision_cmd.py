"""``companion vision read IMAGE...`` and ``companion vision watch``: what the camera reads.

``read`` prints, for each picture, every card found: its code, confidence, four corners
in image pixels and, when a mat is given and visible, its zone. ``watch`` follows a frame
source (camera, folder, video, or the scene renderer) and prints what changes, writing
the annotated picture to a file as it goes.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from companion.observation import Observation

if TYPE_CHECKING:  # numpy and OpenCV are imported only by the commands that read images
    import numpy as np


def _layout(mat_json: Path | None, game: str | None, seats: int | None, paper: str) -> Any:
    """The mat layout the options name, or None (no mat: plain photographs)."""
    from vision.mat import MatError, mat_layout
    from vision.mat.layout import MatLayout

    if mat_json is not None and game is not None:
        raise click.UsageError("give either --mat FILE or --game, not both")
    try:
        if mat_json is not None:
            try:
                data = json.loads(mat_json.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise click.ClickException(f"{mat_json}: not a readable JSON mat layout: {exc}") from exc
            return MatLayout.from_json(data, where=str(mat_json))
        if game is not None:
            if game.lower() in ("crocodile", "recall") and seats is None:
                seats = 4
            return mat_layout(game, seats, paper)
    except MatError as exc:
        raise click.ClickException(str(exc)) from exc
    return None


def mat_options(f: Any) -> Any:
    f = click.option("--paper", default="auto", show_default=True,
                     help="With --game: the mat's size (as `companion mat --size`).")(f)
    f = click.option("--seats", type=click.IntRange(2, 8), default=None,
                     help="With --game crocodile/recall: seats at the table (default 4).")(f)
    f = click.option("--game", default=None,
                     help="The mat in view is this game's (crocodile, recall, crapo), as `companion mat` prints it.")(f)
    f = click.option("--mat", "mat_json", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                     default=None, help="The mat in view, as `companion mat --layout-json` wrote it.")(f)
    return f


def format_observation(obs: Observation) -> list[str]:
    """Human-readable lines: one per card."""
    if not obs.cards:
        return ["  no cards"]
    lines = []
    for c in obs.cards:
        corners = " ".join(f"({x:.0f},{y:.0f})" for x, y in c.corners)
        zone = f"  zone {c.zone}" if c.zone else ""
        covered = "  covered" if c.covered else ""
        lines.append(f"  {c.code or '?':5} {100 * c.confidence:5.1f}%  {corners}{zone}{covered}")
    return lines


@click.group()
def vision() -> None:
    """Read cards from images or a camera."""


@vision.command("read")
@click.argument("images", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per image, one per line.")
@click.option("--annotate", "annotate_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write each image with the cards outlined and labelled into this folder.")
@click.option("--deck", default=None, help="--game master-crok: the taught deck (companion teach deck NAME).")
@click.option("--board", "board_json", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="--game pool-party: the board config as JSON (default: the rules' 6x14 board).")
@click.option("--default-tiles", is_flag=True,
              help="--game pool-party: recognise the project's drawn tiles instead of the taught ones.")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where taught tiles and decks are stored (default: the data directory).")
@mat_options
def read(images: tuple[Path, ...], as_json: bool, annotate_dir: Path | None, deck: str | None,
         board_json: Path | None, default_tiles: bool, data_dir: Path | None, mat_json: Path | None,
         game: str | None, seats: int | None, paper: str) -> None:
    """Print every card found in each IMAGE: code, confidence, corners (image pixels) and,
    with a mat, its zone. A card seen but not identified prints as ``?``.

    With ``--game pool-party`` it prints the board instead (square -> top tile, and the
    bars) as JSON; with ``--game master-crok --deck NAME`` the taught cards found (an
    unknown card has the id null, never the nearest guess).
    """
    import cv2

    from vision.cards.annotate import annotate
    from vision.reader import CardReader

    unreadable: list[Path] = []
    if game is not None and game.lower() in ("pool-party", "master-crok"):
        reading = _taught_reader(game.lower(), deck, board_json, default_tiles, data_dir, seats, paper)
        for _, path, image in _readable_images(images, unreadable):
            click.echo(json.dumps({"image": str(path), **reading(image)}, indent=None if as_json else 1))
        _fail_if_any_unreadable(unreadable, len(images))
        return

    reader = CardReader(_layout(mat_json, game, seats, paper))
    if annotate_dir is not None:
        annotate_dir.mkdir(parents=True, exist_ok=True)
    for n, path, image in _readable_images(images, unreadable):
        obs = reader.read_image(image, frame_index=n)
        if as_json:
            click.echo(json.dumps({"image": str(path), "width": image.shape[1], "height": image.shape[0],
                                   **obs.to_json()}))
        else:
            click.echo(f"{path}: {len(obs.cards)} card(s), calibration {obs.calibration}")
            if obs.camera.warning:
                click.echo(f"  warning: {obs.camera.warning}")
            for line in format_observation(obs):
                click.echo(line)
        if annotate_dir is not None:
            cv2.imwrite(str(annotate_dir / (path.stem + ".annotated.jpg")), annotate(image, obs))
    _fail_if_any_unreadable(unreadable, len(images))


def _readable_images(paths: tuple[Path, ...], unreadable: list[Path]) -> Iterator[tuple[int, Path, np.ndarray]]:
    """(index, path, BGR image) of each of ``paths`` OpenCV can read. One it cannot is said
    on stderr at once and added to ``unreadable``, and the others are read all the same: a
    folder of photos with one broken file still gives the rest."""
    from vision.sources.replay import UnreadableImage, read_image_file

    for n, path in enumerate(paths):
        try:
            image = read_image_file(path)
        except UnreadableImage as exc:
            click.echo(f"Error: {exc}", err=True)
            unreadable.append(path)
            continue
        yield n, path, image


def _fail_if_any_unreadable(unreadable: list[Path], total: int) -> None:
    if unreadable:
        raise click.ClickException(f"{len(unreadable)} of {total} image(s) not read: "
                                   + ", ".join(str(p) for p in unreadable))


def _taught_reader(game: str, deck: str | None, board_json: Path | None, default_tiles: bool,
                   data_dir: Path | None, seats: int | None, paper: str) -> Any:
    """A function image -> JSON reading for the games whose pieces are taught."""
    from companion.app.paths import data_dir as default_data_dir
    from vision.taught.store import TaughtError

    folder = data_dir or default_data_dir()
    try:
        if game == "pool-party":
            from companion.games.poolparty.board import Board
            from vision.mat import mat_layout
            from vision.pool.reader import read_pool_party
            from vision.taught.defaults import default_tile_set
            from vision.taught.store import TileSet

            try:
                board = json.loads(board_json.read_text(encoding="utf-8")) if board_json else Board.default().to_json()
            except (OSError, json.JSONDecodeError) as exc:
                raise click.ClickException(f"{board_json}: not a readable JSON board: {exc}") from exc
            tiles = default_tile_set(board) if default_tiles else TileSet.load(folder)
            layout = mat_layout("pool-party", paper=paper, board=board)
            return lambda image: read_pool_party(image, board, tiles, layout)
        if deck is None:
            raise click.UsageError("--game master-crok needs --deck NAME (a deck taught with companion teach deck)")
        from vision.mat.battle import battle_layout
        from vision.taught.cards import read_master_crok
        from vision.taught.store import TaughtDeck

        taught = TaughtDeck.load(folder, deck)
        battle = battle_layout(seats or 2, paper)
        return lambda image: read_master_crok(image, taught, battle)
    except TaughtError as exc:
        raise click.ClickException(f"{exc} (teach them first: companion teach --help)") from exc


@vision.command("watch")
@click.option("--source", default="renderer", show_default=True,
              help="picamera2, usb:N, folder:PATH, video:PATH or renderer[:GAME[:SEATS]].")
@click.option("--frames", type=int, default=0, help="Stop after this many frames (0: until the source ends).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Keep writing the latest annotated frame to this JPEG file.")
@click.option("--json", "as_json", is_flag=True, help="Print each new reading as one JSON line.")
@mat_options
def watch(source: str, frames: int, out_path: Path | None, as_json: bool, mat_json: Path | None,
          game: str | None, seats: int | None, paper: str) -> None:
    """Follow a frame source and print each new reading of the table (when it settles),
    annotating frames into --out as they come."""
    from vision.cards.annotate import annotate_jpeg
    from vision.reader import CardReader
    from vision.sources import SourceError, open_source

    layout = _layout(mat_json, game, seats, paper)
    options: dict[str, Any] = {}
    if source.startswith("renderer") and layout is not None:
        options["layout"] = layout
    try:
        src = open_source(source, **options)
    except SourceError as exc:
        raise click.ClickException(str(exc)) from exc
    if layout is None and source.startswith("renderer"):
        layout = getattr(src, "layout", None)
    reader = CardReader(layout)
    count = 0
    warning = None
    started = time.monotonic()
    try:
        with src:
            for frame in src.frames():
                obs = reader.read(frame)
                if out_path is not None:
                    out_path.write_bytes(annotate_jpeg(frame.image, obs))
                # said when it comes and when it goes: someone turning the lens or moving the
                # camera watches for it to go
                if obs.camera.warning != warning and not as_json:
                    warning = obs.camera.warning
                    click.echo(f"frame {frame.index}: " + (f"warning: {warning}" if warning
                                                           else "the camera reads well now (no warning)"))
                if obs.changed_zones or count == 0:
                    if as_json:
                        click.echo(json.dumps(obs.to_json()))
                    else:
                        click.echo(f"frame {frame.index}: {len(obs.cards)} card(s), changed: "
                                   f"{', '.join(obs.changed_zones) or '-'}")
                        for line in format_observation(obs):
                            click.echo(line)
                    sys.stdout.flush()
                count += 1
                if frames and count >= frames:
                    break
    except SourceError as exc:
        raise click.ClickException(str(exc)) from exc
    except KeyboardInterrupt:
        pass
    elapsed = time.monotonic() - started
    click.echo(f"{count} frame(s) in {elapsed:.1f} s", err=True)


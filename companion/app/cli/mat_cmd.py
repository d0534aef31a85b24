"""``companion mat GAME -o FILE.pdf``: print the play mat of a game, on sheets of any paper."""

from __future__ import annotations

import json
from pathlib import Path

import click

from vision.mat import GAMES, PAPERS_MM, MatError, mat_layout
from vision.mat.art import MAT_STYLES
from vision.mat.pdf import save_mat_pdf, sheet_hint

DEFAULT_SEATS = {"crocodile": 4, "recall": 4, "master-crok": 2}


@click.command()
@click.argument("game", type=click.Choice(GAMES, case_sensitive=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the mat: FILE.pdf.")
@click.option("--paper", default="a4", show_default=True,
              help=f"The paper it is printed on: {', '.join(PAPERS_MM)}, or WIDTHxHEIGHT in mm. A mat bigger "
                   "than the paper is printed in overlapping pages to tape together.")
@click.option("--size", default="auto", show_default=True,
              help="The mat's own size: auto (as small as the game allows with cards at real size, as "
                   "camera.mat_paper = \"auto\" in the config expects), a paper name, or WIDTHxHEIGHT in mm.")
@click.option("--seats", "--players", "seats", type=click.IntRange(2, 8), default=None,
              help="Crocodile, Recall, Master Crok: players at the table (default 4; Master Crok 2).")
@click.option("--style", type=click.Choice(sorted(MAT_STYLES)), default="felt", show_default=True,
              help="Colours: dark felt (best for the camera), blue, or light (less ink).")
@click.option("--layout-json", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the layout (zones and markers in mm) as JSON.")
@click.option("--board", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="pool-party: the board as JSON: the engine's board config (default: the rules' 6x14 "
                   "board) or its zones ({\"zones\": [{name, rect: [x, y, w, h]}, ...]}).")
def mat(game: str, output: Path, paper: str, size: str, seats: int | None, style: str,
        layout_json: Path | None, board: Path | None) -> None:
    """Print the play mat of GAME (crocodile, recall, crapo, pool-party, master-crok): ArUco
    markers that let the camera find the mat, and the game's zones, labelled, at real card size.

    Print at 100 % (no "fit to page"); the 100 mm bar on the mat checks the scale.
    """
    game = game.lower()
    if seats is None:
        seats = DEFAULT_SEATS.get(game)
    board_data = None
    if game == "pool-party" and board is None:
        # The engine's default board (RULES.md 2.2): the mat follows the rules' geometry.
        from companion.games.poolparty.board import Board

        board_data = Board.default().to_json()
    if board is not None:
        try:
            board_data = json.loads(board.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise click.ClickException(f"{board}: not a readable JSON board: {exc}") from exc
    try:
        layout = mat_layout(game, seats, size, board=board_data)
        plan = save_mat_pdf(layout, output, paper, style)
        if layout_json is not None:
            layout_json.write_text(json.dumps(layout.to_json(), indent=1), encoding="utf-8")
    except MatError as exc:
        raise click.ClickException(str(exc)) from exc
    except OSError as exc:
        raise click.ClickException(f"{layout_json}: cannot write: {exc.strerror or exc}") from exc
    seats_text = f" for {layout.seats} seats" if game != "crapo" and layout.seats else ""
    click.echo(
        f"wrote the {layout.game} mat{seats_text} to {output}: {layout.width_mm:g} x {layout.height_mm:g} mm, "
        f"{len(layout.markers)} markers, {sum(1 for z in layout.zones if z.kind != 'seat')} zones, "
        f"{sheet_hint(layout, plan)}"
    )

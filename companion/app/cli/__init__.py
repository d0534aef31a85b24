"""The ``companion`` command: the composition root, the only place that knows every part.

Each area keeps its subcommands in its own module here, loaded only when used, so a
missing optional part (no camera stack) never breaks ``companion --help`` for the rest.
"""

from __future__ import annotations

import importlib

import click

from companion import __version__

# name -> "module:attribute" of a click command or group.
SUBCOMMANDS: dict[str, str] = {
    "serve": "companion.app.cli.server:serve",
    "demo": "companion.app.cli.server:demo",
    "config": "companion.app.cli.config_cmd:config",
    "replay": "companion.app.cli.replay:replay",
    "mat": "companion.app.cli.mat_cmd:mat",
    "vision": "companion.app.cli.vision_cmd:vision",
    "teach": "companion.app.cli.teach_cmd:teach",
    "buttons": "companion.app.cli.buttons:buttons",
    "doctor": "companion.app.cli.doctor_cmd:doctor",
    "venue": "companion.app.cli.venue_cmd:venue",
}

HELP = {
    "serve": "Run the referee for a real table (camera, seat pads, web page).",
    "demo": "Play a simulated table in the browser: no Pi, no camera, a temporary database.",
    "config": "Check or show the configuration.",
    "replay": "Replay a game record and print the final state, the rulings and the scores.",
    "mat": "Print a play mat with ArUco markers and the zones of a game.",
    "vision": "Read cards or tiles from images or a camera.",
    "teach": "Teach the camera a deck of custom cards or the Pool Party tiles.",
    "buttons": "Check the seat pads' wiring.",
    "doctor": "Check the camera, seat pads, data, clock, port and service, with a fix for each problem.",
    "venue": "Run the venue's league board: every table live and the standings, from the broker.",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("companion.app.cli"):
                return _not_built(cmd_name)
            raise
        command: click.Command = getattr(module, attr)
        return command


def _not_built(name: str) -> click.Command:
    @click.command(name=name, help=HELP.get(name, "") + " (not available in this build)")
    def unavailable() -> None:
        raise click.ClickException(f"'companion {name}' is not available in this build")

    return unavailable


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="companion")
def main() -> None:
    """Table Companion: a referee for a real card table.

    A camera reads the cards, a pad at every seat registers calls and slaps, and the
    game follows live on a web page on every phone.
    """

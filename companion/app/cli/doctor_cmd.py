"""``companion doctor``: check everything a table needs and say how to fix what is wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from companion.app.config import ConfigError, load_config
from companion.app.paths import data_dir as resolve_data_dir

MARK = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL"}


@click.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Config file (see 'companion config').")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), help="Where the event store lives.")
@click.option("--press", "press_s", type=click.FloatRange(min=0), default=0.0,
              help="Also wait this many seconds for a press on every pad (the press test).")
@click.option("--skip", multiple=True, type=click.Choice(["camera", "pads", "service"]),
              help="Leave a check out (the camera and pads while the service holds them; the service before "
                   "it is started). Repeat for more.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def doctor(config_path: str | None, data_dir: Path | None, press_s: float, skip: tuple[str, ...],
           as_json: bool) -> None:
    """Check Python and the libraries (against systemd/pi-constraints.txt on a Pi), the
    camera (a frame, its exposure and focus, the mat's markers), the seat pads (the GPIO
    chip, each pin's level, with --press a press test), the data directory and database,
    the clock, the port and the service, with a fix for each problem.

    Exits 1 when something fails, 0 otherwise (warnings included).
    """
    from companion.app.doctor import Finding, run_checks, worst

    try:
        config = load_config(config_path)
    except ConfigError as exc:
        findings = [Finding("config", "fail", str(exc), "correct that line ('companion config check' again)")]
    else:
        where = str(config.path) if config.path else "built-in defaults (no config file found)"
        findings = [Finding("config", "ok", where)]
        if not as_json:
            _print(findings[0])
        directory = resolve_data_dir(data_dir, config.store.data_dir)
        for finding in run_checks(config, directory, press_s=press_s, camera="camera" not in skip,
                                  pads="pads" not in skip, service="service" not in skip):
            findings.append(finding)
            if not as_json:
                _print(finding)
    if as_json:
        click.echo(json.dumps([f.to_json() for f in findings], indent=2))
    else:
        if findings[0].state != "ok":
            _print(findings[0])
        state = worst(findings)
        click.echo({"ok": "\nAll good.", "warn": "\nWorks, with warnings (above).",
                    "fail": "\nSomething fails (above): fix it and run companion doctor again."}[state])
    sys.exit(1 if worst(findings) == "fail" else 0)


def _print(finding) -> None:  # type: ignore[no-untyped-def]
    click.echo(f"{MARK[finding.state]}  {finding.check}: {finding.message}")
    if finding.fix and finding.state != "ok":
        click.echo(f"      fix: {finding.fix}")

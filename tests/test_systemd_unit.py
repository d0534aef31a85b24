"""The service unit (systemd/companion.service) as systemd reads it: ``systemd-analyze verify``
finds nothing wrong, and ``systemd-analyze security`` rates its exposure 2.5 or better.
Skipped, with the reason, where systemd's tools are not installed."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "companion.service"
ANALYZE = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed on this machine")


def installed_copy(tmp_path: Path) -> Path:
    """The unit with its program and folder where they are on this machine (verify checks
    that ExecStart's program exists; /opt/companion is there only on an installed Pi)."""
    program = tmp_path / "companion"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    text = UNIT.read_text().replace("/opt/companion/.venv/bin/companion", str(program))
    text = text.replace("WorkingDirectory=/opt/companion", f"WorkingDirectory={tmp_path}")
    copy = tmp_path / "companion.service"
    copy.write_text(text)
    return copy


@needs_systemd
def test_the_unit_verifies(tmp_path):
    done = subprocess.run([ANALYZE, "verify", str(installed_copy(tmp_path))], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


@needs_systemd
def test_the_unit_is_exposed_2_5_or_less(tmp_path):
    done = subprocess.run([ANALYZE, "security", "--offline=true", str(installed_copy(tmp_path))],
                          capture_output=True, text=True, timeout=60)
    if "offline" in done.stderr and "unrecognized" in done.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd < 250)")
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert match, done.stdout + done.stderr
    assert float(match.group(1)) <= 2.5, done.stdout


def test_the_unit_waits_for_ready_and_does_not_loop_on_what_a_person_must_fix():
    text = UNIT.read_text()
    assert "Type=notify" in text and re.search(r"^WatchdogSec=\d+", text, re.M)
    from companion.app.cli.server import EXIT_CONFIG, EXIT_PORT, EXIT_STORE

    prevented = re.search(r"^RestartPreventExitStatus=(.*)$", text, re.M)
    assert prevented and {int(v) for v in prevented.group(1).split()} == {EXIT_CONFIG, EXIT_PORT, EXIT_STORE}

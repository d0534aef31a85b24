"""The dependency directions of the design, checked on every test run: an import against
them (an engine reaching for OpenCV, the web page for an engine, the referee for a game)
fails the build. The contracts are in ``.importlinter``; `make lint` runs them too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lint_imports(config: Path) -> subprocess.CompletedProcess[str]:
    script = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run([sys.executable, "-c", script, str(config), "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_every_import_follows_the_designs_directions():
    run = lint_imports(ROOT / ".importlinter")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_an_import_against_a_contract_breaks_the_build(tmp_path):
    """The same linter on the same tree, with one arrow the code has (vision reads the core's
    observation type) forbidden: it must fail and name the import."""
    config = tmp_path / "contracts.ini"
    config.write_text("\n".join([
        "[importlinter]", "root_packages =", "    companion", "    vision", "",
        "[importlinter:contract:forbidden-arrow]", "name = vision without the core's observation",
        "type = forbidden", "source_modules =", "    vision", "forbidden_modules =", "    companion.observation", "",
    ]))
    run = lint_imports(config)
    assert run.returncode != 0
    assert "vision" in run.stdout and "companion.observation" in run.stdout and "BROKEN" in run.stdout

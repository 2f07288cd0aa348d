"""Every command is documented: it has help text and a row in the README's command table."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_command_is_in_the_readme_and_has_help(name):
    assert f"`tablelog {name}" in README
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0
    assert cli.commands[name].help and len(cli.commands[name].help.strip()) > 20

"""`repopilot learn --out DIR` where DIR cannot be written (a file of that name, a file in the way
of its parent): one line on stderr naming DIR and exit 2, not an OSError traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.cli import main

pytestmark = pytest.mark.unit


def _log(tmp_path: Path) -> Path:
    log = tmp_path / "build.log"
    log.write_text("$ ./zork-link all\nzork linker lost symbol at 0x1f in unit core\nexit 1\n")
    return log


@pytest.mark.parametrize("where", ["taken", "taken/sub"])
def test_an_out_dir_that_cannot_be_made_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
):
    (tmp_path / "taken").write_text("a file, not a directory\n")
    out = tmp_path / where
    assert main(["learn", str(_log(tmp_path)), "--line", "2", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("repopilot: --out ") and str(out) in lines[0], err
    assert (tmp_path / "taken").read_text() == "a file, not a directory\n"

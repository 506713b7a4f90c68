"""`repopilot calibrate`'s arguments are checked before the fit (minutes on ../shared): a --write
path that cannot be written or a --l2 that is no penalty is one line, not a traceback after it."""

from __future__ import annotations

import pytest

from repopilot.cli import main

pytestmark = pytest.mark.unit


def _argv(tmp_path, *extra: str) -> list[str]:
    gha, lc = tmp_path / "gha", tmp_path / "lc"
    gha.mkdir()
    lc.mkdir()
    labels, chunks = tmp_path / "labels.csv", tmp_path / "chunks.csv"
    return ["calibrate", str(gha), str(labels), str(lc), str(chunks), *extra]


def test_a_write_path_in_no_directory_is_refused_first(tmp_path, capsys):
    target = tmp_path / "no-such-dir" / "calibration.json"
    assert main(_argv(tmp_path, "--write", str(target))) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--write {target}" in err


@pytest.mark.parametrize("l2", ["-1", "nan"])
def test_a_negative_or_nan_l2_is_refused(tmp_path, capsys, l2):
    assert main(_argv(tmp_path, "--l2", l2)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--l2" in err


def test_every_argument_is_explained_in_help(capsys):
    with pytest.raises(SystemExit):
        main(["calibrate", "--help"])
    out = capsys.readouterr().out
    for name in (
        "DIR_GHA ",
        "LABELS.csv ",
        "DIR_LOGCHUNKS ",
        "CHUNKS.csv ",
        "--folds FOLDS ",
        "--l2 L2 ",
    ):
        line = next(x for x in out.splitlines() if x.strip().startswith(name.strip() + " "))
        assert len(line.split(None, len(name.split()))) > len(name.split()), line

"""repopilot/report/inputs.py: the store and the traces read, and bad files named in one line."""

from __future__ import annotations

import pytest

from repopilot.errors import UsageError
from repopilot.report.inputs import load_store, load_traces
from tests.report.seen_data import sample, trace, write_store, write_trace

pytestmark = pytest.mark.unit


def test_the_store_reads_back(tmp_path):
    path = write_store(tmp_path / "seen.json", sample())
    assert load_store(path).records == sample()


def test_the_actions_one_record_a_line_file_reads(tmp_path):
    # the Action writes one record per line (repopilot/github/seen_store.py dump)
    lines = ",\n".join(r.model_dump_json() for r in sample())
    (tmp_path / "seen.json").write_text('{"version": 1, "records": [\n' + lines + "\n]}\n")
    assert len(load_store(tmp_path / "seen.json").records) == 7


def test_a_missing_store_says_how_to_get_it(tmp_path):
    with pytest.raises(UsageError) as err:
        load_store(tmp_path / "seen.json")
    msg = str(err.value)
    assert msg.startswith(f"{tmp_path / 'seen.json'}: no such file") and "\n" not in msg
    assert "git show origin/repopilot-memory:seen.json > seen.json" in msg


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "not a RepoPilot seen-before store (top level: Invalid JSON"),
        ('{"version": 2, "records": []}', "(version: Input should be 1)"),
        ('{"version": 1, "records": [{"signature": "x"}]}', "(records.0.category: Field required)"),
        ("[]", "not a RepoPilot seen-before store"),
    ],
)
def test_a_corrupt_store_is_one_line_naming_it(tmp_path, text, why):
    path = tmp_path / "seen.json"
    path.write_text(text)
    with pytest.raises(UsageError) as err:
        load_store(path)
    assert str(err.value).startswith(f"{path}: ") and why in str(err.value)
    assert "\n" not in str(err.value)


def test_a_store_that_is_a_directory_is_one_line(tmp_path):
    with pytest.raises(UsageError, match=r": Is a directory$"):
        load_store(tmp_path)


def test_traces_nest_and_a_corrupt_one_is_skipped_with_a_warning(tmp_path):
    write_trace(tmp_path / "runs", trace("a", "2026-11-17T00:00:00Z", 10, 5))
    write_trace(tmp_path / "runs" / "artifact-2", trace("b", "2026-11-18T00:00:00Z", 10, 5))
    write_trace(tmp_path / "runs" / "copy", trace("a", "2026-11-17T00:00:00Z", 10, 5))
    (tmp_path / "runs" / "broken.json").write_text('{"run_id": "c"')
    got = load_traces(tmp_path / "runs")
    assert sorted(t.run_id for t in got.traces) == ["a", "b"]  # one per run id
    assert got.files == 4
    (warning,) = got.warnings
    assert warning.startswith(f"skipped {tmp_path / 'runs' / 'broken.json'}: not a RepoPilot trace")


def test_a_missing_trace_directory_is_one_line(tmp_path):
    with pytest.raises(UsageError, match=r"runs: no such directory \(--traces"):
        load_traces(tmp_path / "runs")
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageError, match=r"file: not a directory"):
        load_traces(tmp_path / "file")

from report.render import render_rows, summarize


def test_render_header():
    assert render_rows([], ["a", "b"]).splitlines() == ["a,b"]


def test_summarize():
    rows = [{"s": "ok"}, {"s": "ok"}, {"s": "fail"}]
    assert summarize(rows, "s") == {"ok": 2, "fail": 1}

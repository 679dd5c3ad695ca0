"""Smoke test of the main job: every report notebook executes at quick sizes and feeds the assembled report."""
from __future__ import annotations

import pytest

from bounds.errata import findings
from bounds.report import ReportError, build_report, notebooks, table_problems


@pytest.mark.parametrize("nb", notebooks(), ids=lambda p: p.stem)
def test_notebook_executes_and_report_assembles(nb, tmp_path):
    try:
        path = build_report(tmp_path, quick=True, only=[nb.stem])
    except ReportError:
        pytest.fail((tmp_path / "report.md").read_text()[-3000:])
    text = path.read_text()
    frag = (tmp_path / f"{nb.stem}.md").read_text().strip().splitlines()
    assert (tmp_path / f"{nb.stem}.ipynb").exists() and frag[0].startswith("# ")
    assert "## Claims" in text and "## Errata" in text and f"_Notebook `notebooks/{nb.name}`" in text
    assert f"\n## {frag[0][2:]}\n" in text  # the fragment's title heads its section
    body = text.splitlines()
    for line in frag[1:]:  # every line kept, headings one level down
        assert ("#" + line if line.startswith("#") else line) in body
    # issue 12: tables intact (|S_T| escaped), no hypothesis database in the output, each finding stated once
    assert table_problems(text) == []
    assert not (tmp_path / ".hypothesis").exists()
    for f in findings():
        assert text.count(f.erratum["cause"]) == 1, f.id
        assert text.count(f"### {f.claim}: {f.id} ({f.kind})") == 1
    # issue 13: report.html beside it embeds every plot the Markdown links, byte for byte
    import base64
    import re

    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    pngs = re.findall(r"!\[[^\]]*\]\(([^)\s]+\.png)\)", text)
    embedded = re.findall(r'<img(?: id="[^"]+")? src="data:image/png;base64,([^"]+)"', page)
    assert len(embedded) == len(pngs) and " src=\"http" not in page and " href=\"http" not in page
    assert [base64.b64decode(e) for e in embedded] == [(tmp_path / p).read_bytes() for p in pngs]


def test_unknown_notebook_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no notebook named"):
        build_report(tmp_path, only=["nosuch"])

"""The self-contained HTML report (bounds/report_html.py, issue 13 deliverable 5): built by ``build_report`` beside the
Markdown from the same model; it parses, fetches nothing (no external src/href, no script), every in-page link has
its target, the table of contents has an entry per claim (grouped by paper) and per finding, every plot is embedded
and decodes, and every text is escaped."""
from __future__ import annotations

import base64
import html.parser
import re

import pytest

from bounds import report
from bounds.catalog import CATALOG
from bounds.errata import findings

NOTEBOOK = '''# %%
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from bounds.report import Fragment
nb = Fragment("probe", "Probe <paper> & co")
fig, ax = plt.subplots()
ax.plot([1, 2, 3], [3, 1, 2], label="M")
nb.md += ["## First <b>section</b>", "", nb.figure(fig, "probe.png"), ""]
nb.md += ["## First <b>section</b>", "", "<script>alert(1)</script> see [the paper](https://example.org/p.pdf), "
          "[the notebook](probe.ipynb) and [the claims](#claims); ![](missing.png)", ""]
nb.md += nb.table(["data", "|S_T|"], [["a|b", "<i>3</i>"]])
nb.write()
'''


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.ids, self.links, self.srcs, self.toc, self.in_nav = [], set(), [], [], [], False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if "id" in a:
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids.add(a["id"])
        if tag == "nav":
            self.in_nav = True
        for key in ("href", "src", "action", "data", "poster"):
            if key in a:
                (self.srcs if key != "href" else self.links).append(a[key])
        if tag == "a" and self.in_nav:
            self.toc.append(a["href"])

    def handle_endtag(self, tag):
        if tag == "nav":
            self.in_nav = False


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One report over a probe notebook (the witnesses' replays, a few minutes on a loaded machine, are covered by
    test_report.py: here each replay line is its file name only)."""
    root = tmp_path_factory.mktemp("html")
    (root / "nbs").mkdir()
    (root / "nbs" / "probe.py").write_text(NOTEBOOK)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(report, "NOTEBOOK_DIR", root / "nbs")
        mp.setattr(report, "_replay_line", lambda w: f"`{w.source_path.name}`: replay <skipped> in this test")
        md_path = report.build_report(root / "out", quick=True)
    return md_path, (root / "out" / "report.html").read_text(encoding="utf-8")


def test_page_parses_and_fetches_nothing(built):
    _, page = built
    p = Page()
    p.feed(page)
    p.close()
    assert p.tags[0] == "html" and "script" not in p.tags and "link" not in p.tags and "iframe" not in p.tags
    assert all(h.startswith("#") for h in p.links), [h for h in p.links if not h.startswith("#")]
    assert all(h[1:] in p.ids for h in p.links), sorted({h for h in p.links if h[1:] not in p.ids})
    assert p.srcs and all(s.startswith("data:image/png;base64,") for s in p.srcs)
    assert not re.search(r"(?i)(https?:)?//[^\s\"'<]*\"", page.split("<body>")[0])  # nothing fetched by the head


def test_embedded_plots_decode_to_the_files_written(built):
    md_path, page = built
    p = Page()
    p.feed(page)
    (src,) = p.srcs
    data = base64.b64decode(src.split(",", 1)[1], validate=True)
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data == (md_path.parent / "probe.png").read_bytes()
    assert "[image missing.png not embedded]" in page


def test_contents_list_every_claim_by_paper_and_every_finding(built):
    _, page = built
    p = Page()
    p.feed(page)
    for e in CATALOG:
        assert p.toc.count("#" + report.claim_anchor(e.id)) == 1, e.id
    fs = findings()
    for f in fs:
        assert p.toc.count("#" + report.finding_anchor(f.id)) == 1, f.id
    papers = list(dict.fromkeys(e.section for e in CATALOG))
    nav = page[page.index("<nav"):page.index("</nav>")]
    positions = [nav.index(f"<li>{report_html_escape(s)}<ul>") for s in papers]
    assert positions == sorted(positions)  # papers in catalog order
    first, second = (nav.index("#" + report.claim_anchor(e.id)) for e in (CATALOG[0], CATALOG[-1]))
    assert first < second and len(p.toc) == 1 + len(CATALOG) + 1 + 2 + 1 + len(fs)  # claims, probe (+2), errata


def report_html_escape(s):
    import html

    return html.escape(s, quote=True)


def test_every_string_is_escaped(built):
    _, page = built
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Probe &lt;paper&gt; &amp; co" in page and "<b>section</b>" not in page
    assert "<th>|S_T|</th>" in page and "<td>a|b</td>\n<td>&lt;i&gt;3&lt;/i&gt;</td>" in page  # \| read once
    assert "<span>the paper</span> [https://example.org/p.pdf]" in page
    assert "<span>the notebook</span> [probe.ipynb]" in page and '<a href="#claims">the claims</a>' in page


def test_same_content_as_the_markdown(built):
    md_path, page = built
    md = md_path.read_text()
    for f in findings():
        title = f"{f.claim}: {f.id} ({f.kind})"
        assert md.count(f"### {title}") == 1 and page.count(f"<h3>{report_html_escape(title)}</h3>") == 1
        for w in f.witnesses:
            assert md.count(f"`{w.source_path.name}`: replay") == 1
            assert page.count(f"<code>{w.source_path.name}</code>: replay &lt;skipped&gt;") == 1
    for e in CATALOG:
        assert f"| {e.id} |" in md and f'<tr id="{report.claim_anchor(e.id)}"><td>{e.id}</td>' in page
    assert len(re.findall(r"^### First <b>section</b>$", md, re.M)) == 2  # demoted under the notebook's "## Probe"
    assert page.count(">First &lt;b&gt;section&lt;/b&gt;</h3>") == 2


def test_repeated_headings_get_numbered_ids(tmp_path):
    """Every heading gets the id <prefix>--<anchor of its text>; repeats get -2, -3, ... in order."""
    from bounds.report_html import _markdown

    page = _markdown(tmp_path).render("# A b\n\n# A b\n\n## A b\n")
    assert re.findall(r'id="([^"]+)"', page) == ["section--a-b", "section--a-b-2", "section--a-b-3"]


def test_report_figures_are_saved_at_110_dpi(tmp_path, monkeypatch):
    """A report figure is a PNG at 110 dpi: a 2 × 1 inch figure is 220 × 110 pixels (the PNG header's size)."""
    import struct

    import matplotlib.pyplot as plt

    from bounds.report import Fragment

    monkeypatch.setenv("BOUNDLAB_REPORT_DIR", str(tmp_path))
    fig = plt.figure(figsize=(2, 1))
    fig.add_subplot().plot([0, 1], [1, 0])
    assert Fragment("probe", "Probe").figure(fig, "f.png") == "![](f.png)"
    head = (tmp_path / "f.png").read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (220, 110)

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
nb.claim("PER-T1", [{"T": 10, "observed": 3, "bound": 4, "verdict": "holds", "why": "certified (arb)"},
                    {"T": 20, "observed": 5, "bound": 8, "verdict": "holds", "why": "certified (arb)"}],
         plot="probe.png", section="First <b>section</b>")
nb.write()
'''


def skipped_replay(path):
    """A stand-in for the certified replay of a witness (bounds.report._replay_record): its file name only, and a
    certified violation for the witnesses of PER-TIGHT (so the matrix shows one VIOLATED row from a witness)."""
    from pathlib import Path

    from bounds.errata import Witness

    w = Witness.load(path)
    return {"claim": w.claim, "file": Path(path).name, "line": f"`{Path(path).name}`: replay <skipped> in this test",
            "confirmed": w.claim == "PER-TIGHT", "status": "skipped"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.ids, self.links, self.srcs, self.toc, self.in_nav = [], set(), [], [], [], False
        self.img_ids = {}  # id of an <img> -> its src

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
        if tag == "img" and "id" in a:
            self.img_ids[a["id"]] = a["src"]

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
        mp.setattr(report, "_replay_record", skipped_replay)
        md_path = report.build_report(root / "out", quick=True, jobs=1)  # jobs=1: the stub replays run here
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
    """The probe's plot and the Perceptron paper's tightness figure (the probe records PER-T1 at two T): each
    embedded once, decoding to the PNG written beside the report; the missing image is named, not linked."""
    md_path, page = built
    p = Page()
    p.feed(page)
    decoded = [base64.b64decode(src.split(",", 1)[1], validate=True) for src in p.srcs]
    names = ["summary-perceptron-and-the-budget-lower-bound.png", "probe.png"]
    assert decoded == [(md_path.parent / n).read_bytes() for n in names]
    assert all(d.startswith(b"\x89PNG\r\n\x1a\n") for d in decoded)
    assert sorted(p.img_ids) == ["fig-probe-png", "fig-summary-perceptron-and-the-budget-lower-bound-png"]
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
    # verdicts, tightness, claims (+ each claim), probe (+2 headings), errata (+ each finding)
    assert first < second and len(p.toc) == 2 + 1 + len(CATALOG) + 1 + 2 + 1 + len(fs)


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


def test_the_first_screen_is_the_verdict_matrix(built):
    """Before the table of contents: the verdict counts, one matrix table per paper (in catalog order) with one row
    per claim (id verdict-ID), then the tightness figures."""
    _, page = built
    head = page[:page.index("<nav")]
    assert head.index('<section id="verdicts">') < head.index('<section id="tightness">')
    rows = re.findall(r'<tr id="verdict-([^"]+)">', head)
    assert rows == [report.anchor(e.id) for e in CATALOG]
    papers = re.findall(r"<h3>([^<]+)</h3>\n<table class=\"matrix\">", head)
    assert papers == [report_html_escape(s) for s in dict.fromkeys(e.section for e in CATALOG)]
    # PER-T1 holds (the probe), PER-TIGHT is VIOLATED (its stub replay certifies); the other claims with a witness
    # are inconclusive (their stub replay certifies nothing); the rest are not checked
    witnessed = {w.claim for f in findings() for w in f.witnesses} - {"PER-TIGHT"}
    assert (f"{len(CATALOG)} claims: <strong>1 hold</strong>, <strong>1 VIOLATED</strong>, {len(witnessed)} "
            f"inconclusive, {len(CATALOG) - 2 - len(witnessed)} not checked") in head


def _row(page, claim):
    start = page.index(f'<tr id="verdict-{report.anchor(claim)}">')
    return page[start:page.index("</tr>", start)]


def test_a_checked_claim_shows_its_verdict_tightness_and_links(built):
    """PER-T1, recorded by the probe at T = 10 (3/4) and T = 20 (5/8): holds, tightness 5/8 at the largest T with a
    bar 62.5 % wide, links to its plot and its section (ids that exist in the page)."""
    _, page = built
    row = _row(page, "PER-T1")
    assert '<span class="verdict-holds">holds</span>' in row and "all 2 checks shown are certified to hold" in row
    assert '0.625<span class="bar" title="0.625"><span style="width:62%"></span></span>' in row
    assert '<span class="why">T = 20</span>' in row
    p = Page()
    p.feed(page)
    links = re.findall(r'href="#([^"]+)"', row)
    assert links == ["claim-per-t1", "fig-probe-png", "notebook-probe--first-b-section-b"]
    assert all(target in p.ids for target in links)


def test_a_witness_s_certified_violation_makes_the_claim_violated(built):
    """PER-TIGHT: the stub replay certifies its witness: VIOLATED, with the finding, its kind and a link to the
    finding's section; a claim nothing checks is "not checked" with its status."""
    _, page = built
    f = next(f for f in findings() if f.claim == "PER-TIGHT")
    row = _row(page, "PER-TIGHT")
    assert '<span class="verdict-violated">VIOLATED</span>' in row and "violation certified by its replay" in row
    assert f"{f.id} ({f.kind})" in row and f'href="#{report.finding_anchor(f.id)}">witnesses</a>' in row
    assert '<span class="verdict-not-checked">not checked</span>' in _row(page, "PER-T2")

"""The report as one self-contained HTML page (``report.html`` beside ``report.md``): the same model
(:class:`bounds.report.Report`) as the Markdown, rendered a second time.

* Markdown bodies (the notebooks' fragments, the errata) go through markdown-it (CommonMark plus tables) with raw
  HTML disabled, so every text is escaped; the claims table is rendered from its rows, each cell escaped with
  :func:`html.escape`, each row anchored ``claim-ID``.
* Plots are embedded: an image whose source names a file of the report folder becomes a ``data:image/png;base64``
  (or ``image/svg+xml``) URI; an image that cannot be embedded is replaced by its name in text.
* Nothing is fetched: the style sheet is inline, there is no script, and a link that leaves the page (a URL, a file
  beside the report such as a notebook) is rendered as its text with the target in brackets; only in-page anchors
  stay links.
* The first screen is the verdict matrix (bounds.report_matrix): per claim, grouped by paper, the certified verdict
  with why, the tightness as a number and a small bar, the finding and its kind, and links to the claim's plot
  (every embedded image carries the id ``fig-<file name>``), its witnesses (the finding's section) and the section
  of its table; then the tightness figures per paper.
* A table of contents follows: the claims by paper (each linking to its row in the claims table, with its status),
  the notebook sections with their headings, and the errata's findings, each linking to its section.
"""
from __future__ import annotations

import base64
import html
from pathlib import Path

from .report import MATRIX_HEADER, Matrix, Part, Report, Table, anchor, claim_anchor, finding_anchor

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;
line-height:1.45;color:#1b1b1b}
table{border-collapse:collapse;margin:.8rem 0;font-size:.9rem}th,td{border:1px solid #bbb;padding:.25rem .5rem;
text-align:left;vertical-align:top}th{background:#f0f0f0}tr:target{background:#fff3b0}
code{background:#f4f4f4;padding:0 .2rem}pre{background:#f4f4f4;padding:.6rem;overflow-x:auto}
img{max-width:100%}nav{border:1px solid #ddd;padding:.5rem 1rem;background:#fafafa}nav ul{margin:.2rem 0}
section:target>h2,section:target>h3{background:#fff3b0}.status-erratum{color:#a00}.status-tested{color:#060}
.verdict-holds{color:#060;font-weight:600}.verdict-violated{color:#a00;font-weight:700}
.verdict-inconclusive{color:#8a5a00}.verdict-not-checked{color:#666}.why{font-size:.8rem;color:#444}
.bar{display:inline-block;width:5rem;height:.6rem;background:#e6e6e6;margin-left:.3rem;vertical-align:middle}
.bar>span{display:block;height:100%;background:#3a7}.bar.over>span{background:#c33}
"""
IMAGE_TYPES = {".png": "image/png", ".svg": "image/svg+xml"}


def to_html(report: Report) -> str:
    """The whole page (see the module docstring)."""
    md = _markdown(report.out)
    sections: dict[str, str] = {}  # a notebook section's heading text -> the id of its first heading of that text
    for part in report.parts:
        for hid, text in _headings(part, md):
            sections.setdefault(text, hid)
    body = [f"<h1>{_e(report.title)}</h1>", md.render("\n".join(report.preamble), {"prefix": "preamble"})]
    body += [_part(p, md, 2, sections) for p in report.lead] + [_toc(report, md)]
    body += [_part(p, md, 2, sections) for p in report.parts]
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_e(report.title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def _e(text) -> str:
    return html.escape(str(text), quote=True)


# ----------------------------------------------------------------------------------------------- sections
def _part(part: Part, md, level: int, sections: "dict | None" = None) -> str:
    out = [f'<section id="{_e(part.anchor)}">', f"<h{level}>{_e(part.title)}</h{level}>"]
    out += _blocks(part.body, md, part.anchor, sections or {})
    out += [_part(c, md, level + 1, sections) for c in part.children]
    out += _blocks(part.tail, md, part.anchor, sections or {})
    return "\n".join(out + ["</section>"])


def _blocks(blocks: list, md, prefix: str, sections: dict) -> list[str]:
    """Runs of Markdown lines rendered by markdown-it; tables rendered from their rows; the verdict matrix."""
    out, run = [], []
    for b in blocks + [None]:
        if isinstance(b, str):
            run.append(b)
            continue
        if run:
            out.append(md.render("\n".join(run), {"prefix": prefix}))
            run = []
        if isinstance(b, Table):
            out.append(_table(b))
        elif isinstance(b, Matrix):
            out.append(_matrix(b, sections))
    return out


# ---------------------------------------------------------------------------------------------- the matrix
def _matrix(m: Matrix, sections: dict) -> str:
    """One table per paper; rows anchored ``verdict-ID``; links to the plot, witnesses and section in the page."""
    out = []
    for paper in dict.fromkeys(r.paper for r in m.rows):
        head = "".join(f"<th>{_e(h)}</th>" for h in MATRIX_HEADER)
        body = [_matrix_row(r, sections) for r in m.rows if r.paper == paper]
        out.append(f"<h3>{_e(paper)}</h3>\n<table class=\"matrix\">\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
                   + "\n".join(body) + "\n</tbody>\n</table>")
    return "\n".join(out)


def _matrix_row(r, sections: dict) -> str:
    from .report_matrix import findings_text

    cells = [f'<a href="#{_e(claim_anchor(r.claim))}">{_e(r.claim)}</a>',
             f'<span class="verdict-{anchor(r.verdict)}">{_e(r.verdict)}</span>',
             f'<span class="why">{_e(r.why)}</span>', _tightness(r), _e(findings_text(r)), _see(r, sections)]
    return f'<tr id="verdict-{_e(anchor(r.claim))}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _tightness(r) -> str:
    """The ratio, a small bar (red and full above 1) and the sizes it was taken at."""
    if r.ratio is None:
        return "–"
    width = max(0.0, min(r.ratio, 1.0)) * 100
    over = " over" if r.ratio > 1 else ""
    return (f'{r.ratio:.3g}<span class="bar{over}" title="{r.ratio:.3g}"><span style="width:{width:.0f}%"></span>'
            f'</span><br><span class="why">{_e(r.at)}</span>')


def _see(r, sections: dict) -> str:
    links = []
    if r.plot:
        links.append(f'<a href="#{_e(figure_id(r.plot))}">plot</a>')
    if r.witness:
        links.append(f'<a href="#{_e(finding_anchor(r.witness))}">witnesses</a>')
    if r.section and r.section in sections:
        links.append(f'<a href="#{_e(sections[r.section])}">section</a>')
    return " · ".join(links) or "–"


def figure_id(src: str) -> str:
    """The id of the embedded image of file ``src`` (its first appearance in the page)."""
    return "fig-" + anchor(Path(src).name)


def _table(t: Table) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in t.header)
    rows = []
    for i, r in enumerate(t.rows):
        rid = f' id="{_e(t.anchors[i])}"' if i < len(t.anchors) else ""
        cells = "".join(f"<td{_status_class(t.header[j], c)}>{_e(c)}</td>" for j, c in enumerate(r))
        rows.append(f"<tr{rid}>{cells}</tr>")
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>"


def _status_class(column: str, value) -> str:
    return f' class="status-{anchor(str(value))}"' if column == "status" else ""


# --------------------------------------------------------------------------------------- table of contents
def _toc(report: Report, md) -> str:
    items = []
    for part in report.lead + report.parts:
        sub = []
        for block in part.body:
            if isinstance(block, Table) and block.anchors:
                sub.append(_claims_by_paper(block))
        sub += [_li(c.anchor, c.title) for c in part.children]
        sub += [_li(a, t) for a, t in _headings(part, md)]
        inner = f"<ul>{''.join(sub)}</ul>" if sub else ""
        items.append(f'<li><a href="#{_e(part.anchor)}">{_e(part.title)}</a>{inner}</li>')
    return f'<nav id="contents"><h2>Contents</h2><ul>{"".join(items)}</ul></nav>'


def _li(target: str, text: str) -> str:
    return f'<li><a href="#{_e(target)}">{_e(text)}</a></li>'


def _claims_by_paper(t: Table) -> str:
    """One entry per row (claim id and status), grouped under its paper, in table order."""
    status = t.header.index("status") if "status" in t.header else None
    groups: dict[str, list[str]] = {}
    for i, row in enumerate(t.rows):
        label = f"{row[0]} ({row[status]})" if status is not None else str(row[0])
        groups.setdefault(t.groups[i] if i < len(t.groups) else "", []).append(_li(t.anchors[i], label))
    return "".join(f"<li>{_e(g or 'other')}<ul>{''.join(v)}</ul></li>" for g, v in groups.items())


def _headings(part: Part, md) -> list[tuple[str, str]]:
    """(id, text) of the level-3 headings of a part's Markdown (a notebook's sections), as the renderer ids them."""
    text = "\n".join(b for b in part.body if isinstance(b, str))
    tokens = md.parse(text, {"prefix": part.anchor})
    return [(tok.attrGet("id"), tokens[i + 1].content) for i, tok in enumerate(tokens)
            if tok.type == "heading_open" and tok.tag == "h3"]


def _heading_ids(state) -> None:
    """Core rule: every heading gets the id ``<prefix>--<its text>`` (``-2``, ``-3``, ... for repeats)."""
    seen = state.env.setdefault("ids", set())
    for i, tok in enumerate(state.tokens):
        if tok.type == "heading_open":
            base = f"{state.env.get('prefix', 'section')}--{anchor(state.tokens[i + 1].content)}"
            hid, n = base, 1
            while hid in seen:
                n += 1
                hid = f"{base}-{n}"
            seen.add(hid)
            tok.attrSet("id", hid)


# ------------------------------------------------------------------------------------------------ Markdown
def _markdown(folder: Path):
    """A markdown-it renderer (CommonMark + tables, raw HTML off) that ids headings, embeds the report folder's
    images and keeps only in-page links."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.push("heading_ids", _heading_ids)
    figures: set[str] = set()

    def image(self, tokens, idx, options, env):
        tok = tokens[idx]
        src = tok.attrGet("src") or ""
        alt = self.renderInlineAsText(tok.children or [], options, env)
        uri = _data_uri(folder, src)
        if uri is None:
            return f"<em>[image {_e(src)} not embedded]</em>"
        fid = figure_id(src)
        ident = "" if fid in figures else f' id="{_e(fid)}"'  # the first appearance is the link target
        figures.add(fid)
        return f'<img{ident} src="{uri}" alt="{_e(alt or Path(src).name)}">'

    def link_open(self, tokens, idx, options, env):
        href = tokens[idx].attrGet("href") or ""
        if href.startswith("#"):
            return self.renderToken(tokens, idx, options, env)
        env.setdefault("external", []).append(href)
        return "<span>"

    def link_close(self, tokens, idx, options, env):
        external = env.get("external")
        if external:
            return f"</span> [{_e(external.pop())}]"
        return self.renderToken(tokens, idx, options, env)

    for name, rule in (("image", image), ("link_open", link_open), ("link_close", link_close)):
        md.add_render_rule(name, rule)
    return md


def _data_uri(folder: Path, src: str) -> "str | None":
    """``data:`` URI of the image file ``src`` of the report folder (None for a URL, a missing file or another
    type; a path leaving the folder is refused)."""
    if not src or ":" in src or src.startswith(("/", "\\")):
        return None
    path = (folder / src).resolve()
    kind = IMAGE_TYPES.get(path.suffix.lower())
    if kind is None or folder.resolve() not in path.parents or not path.is_file():
        return None
    return f"data:{kind};base64," + base64.b64encode(path.read_bytes()).decode("ascii")

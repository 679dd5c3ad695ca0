"""The report's presentation rules (issue 12 friction points): escaped table cells, identical curves drawn once,
no text under MIN_FONT points, the hypothesis database kept out of the report folder, one section per finding, and
no "0 holds" before the first test run."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from bounds import report  # noqa: E402
from bounds.errata import findings  # noqa: E402
from bounds.report import MIN_FONT, Fragment, md_table, table_problems  # noqa: E402


def test_table_cells_are_escaped_and_checked():
    raw = ["| data | |S_T| |", "|---|---|", "| a | 3 |"]
    assert len(table_problems("\n".join(raw))) == 2  # the unescaped |S_T| splits the header into 4 cells
    lines = md_table(["data", "|S_T|"], [["a", 3], ["b|c", "|S|"]])
    assert table_problems("\n".join(lines)) == []
    # the message counts the cells between the outer bars: 2 in the header, 3 in the row with an unescaped |
    wide = ["| a | b |", "|---|---|", "| 1 | x|y |"]
    assert table_problems("\n".join(wide)) == ["line 3: 3 cells, header has 2: | 1 | x|y |"]
    assert lines[0] == "| data | \\|S_T\\| |" and lines[3] == "| b\\|c | \\|S\\| |"
    assert md_table(["x"], [["already \\| escaped"]])[2] == "| already \\| escaped |"  # not escaped twice


def test_identical_curves_are_drawn_once_with_joined_labels(tmp_path, monkeypatch):
    monkeypatch.setenv("BOUNDLAB_REPORT_DIR", str(tmp_path))
    nb = Fragment("t", "T")
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [4, 5, 6], label="Thm 4 preset")
    ax.plot([1, 2, 3], [4, 5, 6], label="experiments preset")
    ax.plot([1, 2, 3], [4, 5, 7], label="other")
    ax.legend()
    nb.figure(fig, "f.png")
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert labels == ["Thm 4 preset = experiments preset", "other"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == labels
    assert nb.merged == ["Thm 4 preset = experiments preset"] and (tmp_path / "f.png").exists()
    assert "Identical curves, each drawn once: Thm 4 preset = experiments preset" in nb.write().read_text()


@pytest.mark.parametrize("size, want", [(11.0, 11.0), (6.0, MIN_FONT)])
def test_a_rebuilt_legend_keeps_the_old_legend_s_font_size_at_least_min_font(size, want):
    """merge_identical_lines rebuilds the legend at the old legend's font size (its first entry's), raised to
    MIN_FONT: an old legend of one entry ("a", size 11 or 6) over curves a, b = a and c gives the legend
    "a = b", "c" at 11, or at MIN_FONT = 8 for 6."""
    from bounds.report import merge_identical_lines

    fig, ax = plt.subplots()
    (a,) = ax.plot([1, 2, 3], [4, 5, 6], label="a")
    ax.plot([1, 2, 3], [4, 5, 6], label="b")
    ax.plot([1, 2, 3], [4, 5, 7], label="c")
    ax.legend(handles=[a], fontsize=size)
    assert merge_identical_lines(ax) == ["a = b"]
    texts = ax.get_legend().get_texts()
    assert [(t.get_text(), t.get_fontsize()) for t in texts] == [("a = b", want), ("c", want)]
    plt.close(fig)


def test_no_text_below_the_minimum_size(tmp_path, monkeypatch):
    monkeypatch.setenv("BOUNDLAB_REPORT_DIR", str(tmp_path))
    fig, ax = plt.subplots()
    ax.plot(np.arange(5), np.arange(5), label="a")
    ax.set_xticks(range(5))
    ax.set_xticklabels(list("abcde"), fontsize=6)
    ax.legend(fontsize=6)
    Fragment("t", "T").figure(fig, "g.png")
    sizes = [t.get_fontsize() for t in ax.get_xticklabels() + ax.get_legend().get_texts()]
    assert min(sizes) >= MIN_FONT == 8.0


def test_hypothesis_database_stays_out_of_the_report(tmp_path, monkeypatch):
    """A notebook that runs a hypothesis test leaves no .hypothesis folder beside the report."""
    nbdir = tmp_path / "nbs"
    nbdir.mkdir()
    (nbdir / "hyp.py").write_text(
        "# %%\nfrom hypothesis import given, strategies as st\nfrom bounds.report import Fragment\n"
        "nb = Fragment('hyp', 'Hypothesis')\n@given(st.integers())\ndef t(i):\n    assert i == i\n"
        "t()\nnb.md += ['ran']\nnb.write()\n")
    monkeypatch.setattr(report, "NOTEBOOK_DIR", nbdir)
    out = tmp_path / "out"
    path = report.build_report(out, quick=True)
    assert "ran" in path.read_text() and not (out / ".hypothesis").exists()


def test_a_failing_notebook_reports_the_last_4000_characters_of_its_error(tmp_path, monkeypatch):
    """execute() on a notebook whose run raises: (False, seconds, the exception's one-line report cut to its last
    4000 characters, where the cause of a long error is), and the notebook is still written. The client is
    stubbed to raise RuntimeError("x" × 5000 + "THE CAUSE"); the report is "RuntimeError: " + that + newline."""
    import jupyter_client.manager
    import nbclient

    msg = "x" * 5000 + "THE CAUSE"

    class Client:
        def __init__(self, *args, **kwargs):
            pass

        def execute(self, **kwargs):
            raise RuntimeError(msg)

    class Manager:
        has_kernel = False

        def __init__(self, **kwargs):
            pass

    monkeypatch.setattr(nbclient, "NotebookClient", Client)
    monkeypatch.setattr(jupyter_client.manager, "KernelManager", Manager)
    path = tmp_path / "boom.py"
    path.write_text("# %%\nprint(1)\n")
    ok, secs, err = report.execute(path, tmp_path, quick=True)
    whole = "RuntimeError: " + msg + "\n"
    assert (ok, err, len(err)) == (False, whole[-4000:], 4000) and err.endswith("x" * 3985 + "THE CAUSE\n")
    assert secs >= 0 and (tmp_path / "boom.ipynb").exists()


def test_errata_section_states_each_finding_once():
    text = "\n".join(report._errata_section())
    fs = findings()
    for f in fs:
        assert text.count(f"### {f.claim}: {f.id} ({f.kind})") == 1
        assert text.count(f.erratum["cause"]) == 1
        for p in f.files:
            assert text.count(f"`{p.name}` (") == 1
    assert text.count("### ") == len(fs)
    assert f"{len(fs)} findings" in text


def test_claims_table_before_any_test_run(tmp_path, monkeypatch):
    monkeypatch.setenv("BOUNDLAB_STATE", str(tmp_path / "none.json"))
    text = "\n".join(report._claims_table())
    assert "holds" not in text and "No test run of this exact code is recorded" in text
    assert table_problems(text) == []


@pytest.mark.parametrize("stem", [p.stem for p in report.notebooks()])
def test_notebooks_use_the_escaping_table_helper(stem):
    """No notebook writes a table header by hand with a bare |S…| in it (the three tables that broke)."""
    src = (report.NOTEBOOK_DIR / f"{stem}.py").read_text()
    assert "| |S" not in src and "| |difference" not in src


def test_report_command_exits_0_and_names_the_report(tmp_path, monkeypatch, capsys):
    """`boundlab report` on a one-notebook folder: exit status 0 and the path of report.md on stdout."""
    from bounds import cli

    nbdir = tmp_path / "nbs"
    nbdir.mkdir()
    (nbdir / "tiny.py").write_text("# %%\nfrom bounds.report import Fragment\n"
                                   "nb = Fragment('tiny', 'Tiny')\nnb.md += ['ok']\nnb.write()\n")
    monkeypatch.setattr(report, "NOTEBOOK_DIR", nbdir)
    out = tmp_path / "out"
    assert cli.main(["report", "--out", str(out), "--quick"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == f"report written to {out / 'report.md'}"
    assert "ok" in (out / "report.md").read_text()


def test_markdown_lines_renders_each_block_in_order():
    """A body of the report: a text line, a table (through md_table) and another line, in that order."""
    table = report.Table(["claim", "verdict"], [["PER-T1", "holds"], ["FGT-L6", "VIOLATED"]])
    lines = report.markdown_lines(["## heading", table, "after"])
    assert lines == ["## heading", *md_table(table.header, table.rows), "after"]

"""bench/compare.py: the one before/after mechanism; what it runs and what it refuses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import compare, harness
from bench.scratch import drop_kept, kept_database


@pytest.mark.parametrize("given", ["engines", "bench.engines", "bench/engines.py", "studies/ceiling"])
def test_a_bench_is_named_by_module_or_path(given):
    expected = "bench.studies.ceiling" if "ceiling" in given else "bench.engines"

    assert compare.module_name(given) == expected


def test_without_a_bench_command_it_prints_its_usage_and_exits_2(capsys):
    assert compare.main(["--before", "HEAD"]) == 2
    assert capsys.readouterr().err.startswith("usage: python -m bench.compare --before REV")


def test_an_unknown_revision_is_refused_with_exit_code_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        compare.main(["--before", "no-such-revision", "--", "engines"])
    assert exit_info.value.code == 2
    assert "--before 'no-such-revision' is not a revision of" in capsys.readouterr().err


def test_an_unknown_bench_is_refused_with_exit_code_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        compare.main(["--before", "HEAD", "--", "sundial"])
    assert exit_info.value.code == 2
    assert "no bench module bench.sundial" in capsys.readouterr().err


def test_a_run_reads_the_medians_the_bench_wrote(tmp_path):
    figures = compare.run_bench(compare.ROOT, "bench.engines", ["--games", "1", "--repeats", "1"], tmp_path)

    assert len(figures) == 16
    assert figures["nacho_pile games_per_s"] > 0


def test_with_shared_the_state_is_built_once_reused_by_every_run_and_dropped_at_the_end(monkeypatch, capsys):
    """Both sides run on the one state the after side built: the build, then before/after alternating with
    `--reuse STATE`, then the drop, however the runs went."""
    calls: list[tuple[str, list[str]]] = []

    def hook(tree, module, arguments):
        calls.append((f"hook in {'after' if tree == compare.ROOT else 'before'}", arguments))
        if "--build-only" in arguments:
            Path(arguments[-1]).write_text("{}")

    def bench(tree, module, arguments, scratch):
        calls.append((f"run in {'after' if tree == compare.ROOT else 'before'}", arguments))
        return {"page ms": 2.0 if tree == compare.ROOT else 1.0}

    monkeypatch.setattr(compare, "run_hook", hook)
    monkeypatch.setattr(compare, "run_bench", bench)

    assert (
        compare.main(["--before", "HEAD", "--repeats", "2", "--shared", "--", "pages", "--scale", "0.2"]) == 0
    )

    state = calls[0][1][-1]
    assert [where for where, _ in calls] == [
        "hook in after",
        "run in before",
        "run in after",
        "run in before",
        "run in after",
        "hook in after",
    ]
    assert calls[0][1] == ["--scale", "0.2", "--build-only", state]
    assert all(arguments == ["--scale", "0.2", "--reuse", state] for _, arguments in calls[1:5])
    assert calls[5][1] == ["--drop", state]
    assert capsys.readouterr().out.splitlines()[-1].split() == [
        "page",
        "ms",
        "1",
        "[1",
        "–",
        "1]",
        "n=2",
        "2",
        "[2",
        "–",
        "2]",
        "n=2",
        "2.000",
    ]


def test_pages_renders_a_site_built_before_writes_its_figures_and_drop_removes_it(tmp_path):
    """`bench.pages --reuse` and `--drop` on a tiny kept SQLite site (two pages without queries)."""
    url = kept_database(None)
    folder = Path(url.removeprefix("sqlite:///")).parent
    state = tmp_path / "state.json"
    pages = {"log in": ["/accounts/login/"], "sign up": ["/accounts/signup/"]}
    state.write_text(json.dumps({"database_url": url, "pages": pages}))
    environment = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}

    def pages_bench(*arguments: str) -> None:
        command = [sys.executable, "-m", "bench.pages", *arguments]
        done = subprocess.run(command, cwd=compare.ROOT, env=environment, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]

    try:
        pages_bench(
            "--reuse", str(state), "--repeat", "1", "--clock", "cpu", "--json", str(tmp_path / "out.json")
        )
        figures = harness.read_medians(tmp_path / "out.json")
        assert list(figures) == ["log in ms", "log in queries", "sign up ms", "sign up queries"]
        assert figures["log in queries"] == 0 and figures["sign up queries"] == 0
        assert figures["log in ms"] > 0
        assert folder.exists()
    finally:
        pages_bench("--drop", str(state))

    assert not folder.exists()


def test_drop_refuses_a_database_the_bench_did_not_make():
    with pytest.raises(ValueError, match="is not a bench's scratch database"):
        drop_kept("postgres://postgres@127.0.0.1:5432/postgres")
    with pytest.raises(ValueError, match="is not a bench's scratch database"):
        drop_kept("sqlite:////tmp/elsewhere/bench.sqlite3")

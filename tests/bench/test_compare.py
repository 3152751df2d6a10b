"""bench/compare.py: the one before/after mechanism; what it runs and what it refuses."""

from __future__ import annotations

import pytest

from bench import compare


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

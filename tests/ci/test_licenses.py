"""`.ci/licenses.py`: which SPDX expressions pass, where a distribution's expression comes from, and the run
over this virtualenv."""

import importlib.util
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("ci_licenses", ROOT / ".ci" / "licenses.py")
licenses = importlib.util.module_from_spec(SPEC)
sys.modules["ci_licenses"] = licenses  # dataclasses look their module up there
SPEC.loader.exec_module(licenses)


@pytest.mark.parametrize(
    ("expression", "verdict"),
    [
        ("MIT", True),
        ("LGPL-3.0-only", True),
        ("MPL-2.0 AND (Apache-2.0 OR MIT)", True),
        ("Apache-2.0 OR BSD-2-Clause", True),
        ("MIT OR GPL-3.0-only", True),  # the project takes it under MIT
        ("GPL-3.0-only", False),
        ("GPL-2.0-or-later WITH Classpath-exception-2.0", False),
        ("AGPL-3.0-or-later", False),
        ("MIT AND GPL-2.0-only", False),
        ("(MIT OR GPL-2.0-only) AND AGPL-3.0-only", False),
        ("LicenseRef-Proprietary", False),
    ],
)
def test_an_expression_passes_only_when_it_admits_allowed_licences(expression, verdict):
    assert licenses.allowed(expression) is verdict


@pytest.mark.parametrize("text", ["", "MIT AND", "(MIT", "MIT)", "MIT OR OR BSD-3-Clause", "BSD License"])
def test_text_that_is_no_expression_is_refused(text):
    with pytest.raises(licenses.NotSPDX):
        licenses.allowed(text)


def test_a_plain_license_field_counts_only_with_known_identifiers():
    assert licenses.allowed("BSD-3-Clause", known=licenses.KNOWN) is True
    for vague in ("BSD", "LGPLv3", "Dual License"):
        with pytest.raises(licenses.NotSPDX):
            licenses.allowed(vague, known=licenses.KNOWN)


def fake_distribution(tmp_path: Path, name: str, *fields: str, files: dict[str, str] | None = None):
    info = tmp_path / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.4\nName: {name}\nVersion: 1.0\n" + "".join(fields))
    for path, text in (files or {}).items():
        (info / path).parent.mkdir(parents=True, exist_ok=True)
        (info / path).write_text(text)
    return metadata.PathDistribution(info)


def test_where_each_distribution_s_licence_comes_from(tmp_path):
    declared = fake_distribution(tmp_path, "declared", "License-Expression: GPL-3.0-or-later\n")
    assert licenses.licence_of(declared, {}) == licenses.Verdict(
        "declared", "1.0", "GPL-3.0-or-later", "License-Expression", "licence not allowed"
    )
    vague = fake_distribution(tmp_path, "vague", "License: BSD\n", files={"licenses/LICENSE": "BSD 3-clause"})
    assert licenses.licence_of(vague, {}).problem == "no SPDX expression: add it to licenses.toml"
    overridden = licenses.licence_of(
        vague, {"vague": {"license": "BSD-3-Clause", "file": "licenses/LICENSE"}}
    )
    assert overridden == licenses.Verdict(
        "vague", "1.0", "BSD-3-Clause", "licenses.toml (licenses/LICENSE)", None
    )
    missing = licenses.licence_of(vague, {"vague": {"license": "MIT", "file": "COPYING"}})
    assert missing.problem == "licenses.toml names COPYING, not in it"
    field = fake_distribution(tmp_path, "field", "License: Apache-2.0\n")
    assert licenses.licence_of(field, {}) == licenses.Verdict("field", "1.0", "Apache-2.0", "License", None)
    assert licenses.licence_of(field, {"field": {"license": "MIT", "file": "x"}}).problem == (
        "licenses.toml overrides a declared expression"
    )


def test_every_distribution_installed_from_the_dev_requirements_passes():
    run = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "licenses.py")], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stdout
    lines = run.stdout.splitlines()
    assert any(line.startswith("psycopg ") and "LGPL-3.0-only" in line for line in lines)
    assert any(line.startswith("django ") and "BSD-3-Clause" in line for line in lines)
    assert lines[-1].endswith(" refused, 0 stale overrides") and ", 0 refused" in lines[-1]

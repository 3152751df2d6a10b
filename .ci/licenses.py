"""The licence of every distribution installed from requirements/dev.txt, transitive ones included.

Each distribution's SPDX expression comes from its metadata (`License-Expression`, or a `License` field that
is an SPDX expression) or, for a distribution without one, from requirements/licenses.toml, which names the
file in the distribution that says so. An expression passes when it admits only the licences below: `OR`
needs one side allowed, `AND` both. GPL and AGPL, and anything not listed, fail the run.

    .venv/bin/python .ci/licenses.py

It prints one line per distribution and exits 1 on a refused or unknown licence.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "requirements" / "dev.txt"
OVERRIDES = ROOT / "requirements" / "licenses.toml"

# LGPL is allowed for libraries used as separate, unmodified packages (psycopg today).
ALLOWED = frozenset(
    {
        "MIT",
        "BSD-2-Clause",
        "BSD-3-Clause",
        "Apache-2.0",
        "ISC",
        "PSF-2.0",
        "MPL-2.0",
        "LGPL-2.1-only",
        "LGPL-2.1-or-later",
        "LGPL-3.0-only",
        "LGPL-3.0-or-later",
        "LGPL-2.1",  # the deprecated identifiers of the same two licences
        "LGPL-3.0",
    }
)
# Identifiers a plain `License` field may use to count as an SPDX expression (a field such as "BSD" or
# "LGPLv3" names no one licence, so its distribution needs an entry in licenses.toml).
KNOWN = ALLOWED | {
    "LGPL-2.1",
    "LGPL-3.0",
    "GPL-2.0",
    "GPL-2.0-only",
    "GPL-2.0-or-later",
    "GPL-3.0",
    "GPL-3.0-only",
    "GPL-3.0-or-later",
    "AGPL-3.0",
    "AGPL-3.0-only",
    "AGPL-3.0-or-later",
    "0BSD",
    "BSL-1.0",
    "CC0-1.0",
    "EPL-2.0",
    "Unlicense",
    "Zlib",
}
_TOKEN = re.compile(r"\s*(\(|\)|[A-Za-z0-9.+-]+)")
_IDENTIFIER = re.compile(r"(?:LicenseRef-)?[A-Za-z0-9.-]+\+?")


class NotSPDX(ValueError):
    """The text is not an SPDX license expression."""


def _tokens(expression: str) -> list[str]:
    tokens, position = [], 0
    expression = expression.strip()
    while position < len(expression):
        found = _TOKEN.match(expression, position)
        if not found:
            raise NotSPDX(expression)
        tokens.append(found.group(1))
        position = found.end()
    return tokens


def allowed(expression: str, *, known: frozenset[str] | None = None) -> bool:
    """Whether an SPDX expression admits only ALLOWED licences (`A OR B`: either; `A AND B`: both;
    `A WITH exception`: A). Raises NotSPDX on text that is not an expression, or that uses an identifier
    outside `known` when that is given."""
    tokens = _tokens(expression)
    if not tokens:
        raise NotSPDX(expression)
    position = 0

    def disjunction() -> bool:
        nonlocal position
        result = conjunction()
        while position < len(tokens) and tokens[position] == "OR":
            position += 1
            result = conjunction() or result
        return result

    def conjunction() -> bool:
        nonlocal position
        result = term()
        while position < len(tokens) and tokens[position] == "AND":
            position += 1
            result = term() and result
        return result

    def term() -> bool:
        nonlocal position
        if position >= len(tokens):
            raise NotSPDX(expression)
        token = tokens[position]
        position += 1
        if token == "(":
            result = disjunction()
            if position >= len(tokens) or tokens[position] != ")":
                raise NotSPDX(expression)
            position += 1
            return result
        if token in {")", "AND", "OR", "WITH"} or not _IDENTIFIER.fullmatch(token):
            raise NotSPDX(expression)
        if known is not None and token not in known:
            raise NotSPDX(expression)
        if position < len(tokens) and tokens[position] == "WITH":
            position += 2  # the exception widens what is allowed; the licence it modifies decides
        return token in ALLOWED

    result = disjunction()
    if position != len(tokens):
        raise NotSPDX(expression)
    return result


def requirement_lines(path: Path) -> list[str]:
    """The requirement lines of a requirements file, following `-r other.txt`."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            lines.extend(requirement_lines(path.parent / line[3:].strip()))
        elif not line.startswith("-"):
            lines.append(line)
    return lines


def installed_closure(lines: list[str]) -> dict[str, metadata.Distribution]:
    """Canonical name → installed distribution, for the requirements and everything they require (with the
    extras asked for and the markers of this interpreter)."""
    found: dict[str, metadata.Distribution] = {}
    pending = [(Requirement(line), frozenset()) for line in lines]
    pending = [(requirement, frozenset(requirement.extras)) for requirement, _ in pending]
    seen: set[tuple[str, frozenset[str]]] = set()
    while pending:
        requirement, extras = pending.pop()
        name = canonicalize_name(requirement.name)
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        try:
            distribution = found.get(name) or metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            raise SystemExit(
                f"{requirement.name} is required by {REQUIREMENTS.name} but not installed"
            ) from None
        found[name] = distribution
        for text in distribution.requires or []:
            needed = Requirement(text)
            environments = [{"extra": extra} for extra in extras] or [{"extra": ""}]
            if needed.marker is None or any(needed.marker.evaluate(env) for env in environments):
                pending.append((needed, frozenset(needed.extras)))
    return found


@dataclass(frozen=True)
class Verdict:
    name: str
    version: str
    expression: str | None
    source: str
    problem: str | None


def licence_of(distribution: metadata.Distribution, overrides: dict[str, dict[str, str]]) -> Verdict:
    name = canonicalize_name(distribution.metadata["Name"])
    version = distribution.version
    declared = distribution.metadata.get("License-Expression")
    source = "License-Expression"
    if not declared:
        field = (distribution.metadata.get("License") or "").strip()
        try:
            if field and "\n" not in field:
                allowed(field, known=KNOWN)
                declared, source = field, "License"
        except NotSPDX:
            pass
    override = overrides.get(name)
    if declared and override:
        return Verdict(name, version, declared, source, f"{OVERRIDES.name} overrides a declared expression")
    if not declared:
        if not override:
            return Verdict(name, version, None, "-", f"no SPDX expression: add it to {OVERRIDES.name}")
        if distribution.read_text(override["file"]) is None:
            return Verdict(name, version, None, "-", f"{OVERRIDES.name} names {override['file']}, not in it")
        declared, source = override["license"], f"{OVERRIDES.name} ({override['file']})"
    try:
        ok = allowed(declared)
    except NotSPDX:
        return Verdict(name, version, declared, source, "not an SPDX expression")
    return Verdict(name, version, declared, source, None if ok else "licence not allowed")


def main() -> int:
    overrides = {
        canonicalize_name(name): entry for name, entry in tomllib.loads(OVERRIDES.read_text()).items()
    }
    distributions = installed_closure(requirement_lines(REQUIREMENTS))
    verdicts = [licence_of(distributions[name], overrides) for name in sorted(distributions)]
    stale = sorted(set(overrides) - set(distributions))
    width = max(len(v.name) + len(v.version) for v in verdicts) + 2
    for verdict in verdicts:
        line = (
            f"{verdict.name} {verdict.version}".ljust(width)
            + f"{verdict.expression or '?'}  [{verdict.source}]"
        )
        print(line + (f"  REFUSED: {verdict.problem}" if verdict.problem else ""))
    for name in stale:
        print(f"{name}: in {OVERRIDES.name} but not installed from {REQUIREMENTS.name}: remove it")
    refused = [v for v in verdicts if v.problem]
    print(f"{len(verdicts)} distributions, {len(refused)} refused, {len(stale)} stale overrides")
    return 1 if refused or stale else 0


if __name__ == "__main__":
    sys.exit(main())

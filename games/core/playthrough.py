"""Playthroughs: a match step by step, with every seat's observation after every event, as diffable text.

A playthrough is what `python -m games play ... --playthrough` prints (format in docs/engine.md,
"Playthroughs"). It is written from the match record through the one replay loop (`iter_steps`), so it shows
exactly what each seat was shown. Each seat's first observation is printed whole; after each event, what
changed in it since that seat's previous observation, as a list of edits (`changes`); `apply_changes` rebuilds
the observation from them. An observation that gains something it should not hold (another seat's hidden card)
changes the text at the step where it appears.

    header   playthrough GAME vVERSION, N players, seed S
             options {...}
             seat K: BOT vVERSION                       one line per seat
    step     step I start | step I chance OUTCOME | step I move {"SEAT": ACTION, ...}
             legal K: [ACTION, ...]                     each seat deciding next, in seat order
             seen K: {...} | seen K: [EDIT, ...] | seen K: same
    end      end REASON: places [...], scores [...]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.core.encoding import canonical_json
from games.core.replay import iter_steps

# An edit: ["=", PATH, VALUE] sets (or adds) the value at PATH, ["-", PATH] removes a dict key,
# ["+", PATH, [VALUE, ...]] appends values to the list at PATH. PATH is a list of dict keys and list indexes.
Edit = list[Any]


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON: `1`, `1.0` and `true` differ, as their encodings do."""
    if type(old) is not type(new):
        return False
    if isinstance(old, dict):
        return old.keys() == new.keys() and all(_same(value, new[key]) for key, value in old.items())
    if isinstance(old, list):
        return len(old) == len(new) and all(map(_same, old, new))
    return bool(old == new)


def changes(old: Any, new: Any, path: list[Any] | None = None) -> list[Edit]:
    """The edits that turn `old` into `new` (JSON values); none when they are equal, type for type."""
    path = path or []
    if _same(old, new):
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        edits: list[Edit] = []
        for key in sorted(old.keys() | new.keys()):
            if key not in new:
                edits.append(["-", [*path, key]])
            elif key not in old:
                edits.append(["=", [*path, key], new[key]])
            else:
                edits.extend(changes(old[key], new[key], [*path, key]))
        return edits
    if isinstance(old, list) and isinstance(new, list):
        if len(new) > len(old) and all(_same(a, b) for a, b in zip(old, new, strict=False)):
            return [["+", path, new[len(old) :]]]
        if len(new) == len(old):
            edits = []
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                edits.extend(changes(a, b, [*path, index]))
            return edits
    return [["=", path, new]]


def apply_changes(value: Any, edits: list[Edit]) -> Any:
    """`value` (left unchanged) with `edits` applied: `apply_changes(old, changes(old, new)) == new`."""
    result = _copy(value)
    for edit in edits:
        kind, path = edit[0], edit[1]
        if not path:
            result = _copy(edit[2])
            continue
        parent = result
        for step in path[:-1]:
            parent = parent[step]
        if kind == "=":
            parent[path[-1]] = _copy(edit[2])
        elif kind == "-":
            del parent[path[-1]]
        elif kind == "+":
            parent[path[-1]].extend(_copy(edit[2]))
        else:
            raise ValueError(f"unknown edit {edit!r}")
    return result


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def playthrough_lines(record: dict[str, Any]) -> Iterator[str]:
    """The playthrough of `record`, a line at a time (ReplayError for a record that does not replay)."""
    yield (
        f"playthrough {record['game']} v{record['version']}, {len(record['seats'])} players, "
        f"seed {record['seed']}"
    )
    yield f"options {canonical_json(record['options'])}"
    for seat, entry in enumerate(record["seats"]):
        version = entry.get("version")
        yield f"seat {seat}: {entry['bot']}{'' if version is None else f' v{version}'}"
    previous: list[Any] = []
    for step in iter_steps(record):
        event = step.event
        if event is None:
            yield f"step {step.index} start"
        else:
            kind = "chance" if event[0] == "c" else "move"
            yield f"step {step.index} {kind} {canonical_json(event[1])}"
        state = step.state
        if not state.is_terminal() and not state.is_chance():
            for seat in state.deciders():
                yield f"  legal {seat}: {canonical_json(state.legal_actions(seat))}"
        observations = step.observations()
        for seat, observation in enumerate(observations):
            if not previous:
                shown = canonical_json(observation)
            else:
                edits = changes(previous[seat], observation)
                shown = canonical_json(edits) if edits else "same"
            yield f"  seen {seat}: {shown}"
        previous = observations
    outcome = record["outcome"]
    yield (
        f"end {record['end']['reason']}: places {canonical_json(outcome['places'])}, "
        f"scores {canonical_json(outcome['scores'])}"
    )


def playthrough(record: dict[str, Any]) -> str:
    """The whole playthrough of `record`, ending with a newline."""
    return "".join(f"{line}\n" for line in playthrough_lines(record))

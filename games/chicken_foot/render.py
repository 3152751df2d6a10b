"""Text pictures of a Chicken Foot table for the command line.

The layout is drawn as a tree from the spinner: each arm or toe is one line that follows its chain of bones,
each bone written with the number it joins first (`9-5 5-3` reads as a chain), doubles in brackets; a
chickie's toes are indented under it. Example (double six, mid-round):

    Round 1 of 7 · spinner 6-6 led by seat 0 · yard 14 · seat 0 to draw
        [6-6] spinner
          6-5 5-4 4-1
          6-4
          6-3 3-5 [5-5] chickie, needs 2 more
            5-1
          6-2 2-5
      open ends: 1 on 4-1, 4 on 6-4, 5 on 5-2, 1 on 5-1
      hands: seat 0: 2 bones, seat 1: 1 bone
      totals: seat 0 0, seat 1 0

After a round (`milestone`), the header says who went out or that the round was blocked, and each seat's
points and remaining bones follow the layout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.chicken_foot.rules import ChickenFootState


def milestone(state: ChickenFootState) -> str | None:
    """Passes made without a decision during the last event, and the table when a round has just ended (the
    CLI prints it after each event)."""
    from games.chicken_foot.rules import DEAL, DRAW_EVENT, OVER, PASS_EVENT

    lines = []
    latest = state.history[state.mark :]
    for index, (kind, seat, _, _, numbers) in enumerate(latest):
        drew = index > 0 and latest[index - 1][0] == DRAW_EVENT
        if kind == PASS_EVENT and not drew:
            needed = ", ".join(str(n) for n in numbers)
            lines.append(f"  seat {seat} passes: no bone with {needed}, and the yard is empty")
    if state.phase in (DEAL, OVER) and state.rounds:
        lines.append(render_state(state))
    return "\n".join(lines) if lines else None


def render_state(state: ChickenFootState) -> str:
    from games.chicken_foot.rules import DEAL, LEAD, OVER, TURN

    t = state.t
    lines = []
    if state.phase in (DEAL, OVER) and state.rounds and state.rounds[-1]["hands"] is not None:
        lines.append(_round_header(state, finished=True))
    elif state.phase in (DEAL, OVER) and state.rounds:
        summary = state.rounds[-1]
        lines.append(
            f"Round {summary['round']} of {state.rounds_total}: nobody held {summary['lead']}, skipped"
        )
    elif state.phase == DEAL:
        lines.append(f"Round 1 of {state.rounds_total}: to be dealt")
    else:
        lines.append(_round_header(state, finished=False))
    if state.layout:
        lines.extend(_layout_lines(state))
        if state.open_ends:
            ends = ", ".join(f"{number} on {t.names[onto]}" for onto, number in state.open_ends)
            lines.append(f"  open ends: {ends}")
    if state.phase in (LEAD, TURN):
        sizes = ", ".join(
            f"seat {seat}: {count} bone{'' if count == 1 else 's'}" for seat, count in enumerate(state.counts)
        )
        lines.append(f"  hands: {sizes}")
    if state.phase in (DEAL, OVER) and state.rounds and state.rounds[-1]["hands"] is not None:
        summary = state.rounds[-1]
        for seat, hand in enumerate(summary["hands"]):
            shown = " ".join(hand) if hand else "(out)"
            lines.append(f"  seat {seat}: {summary['points'][seat]:>3} points  {shown}")
    lines.append("  totals: " + ", ".join(f"seat {seat} {score}" for seat, score in enumerate(state.scores)))
    if state.phase == OVER:
        places = state.outcome().places
        lines.append(
            "  final places: " + ", ".join(f"seat {seat} #{place}" for seat, place in enumerate(places))
        )
    return "\n".join(lines)


def _round_header(state: ChickenFootState, finished: bool) -> str:
    from games.chicken_foot.rules import LEAD

    t = state.t
    number = len(state.rounds) if finished else len(state.rounds) + 1
    head = f"Round {number} of {state.rounds_total}"
    if state.lead >= 0:
        head += f" · spinner {t.names[state.lead]} led by seat {state.opener}"
    if finished:
        summary = state.rounds[-1]
        if summary["went_out"] is not None:
            return head + f" · seat {summary['went_out']} went out"
        return head + " · blocked: nobody went out"
    head += f" · yard {len(state.yard)}"
    if state.phase == LEAD:
        return head + f" · seat {state.turn} draws for the lead"
    return head + f" · seat {state.turn} to {'play' if state.legal else 'draw'}"


def _layout_lines(state: ChickenFootState) -> list[str]:
    t = state.t
    children: dict[int, list[tuple[int, int]]] = {}
    for bone, onto, _, joins in state.layout[1:]:
        children.setdefault(onto, []).append((bone, joins))
    spinner = state.layout[0][0]
    out = [f"    [{t.names[spinner]}] spinner" + _needs(state, spinner)]

    def chain(bone: int, joins: int, indent: int) -> None:
        parts = []
        while True:
            if t.is_double[bone]:
                parts.append(f"[{t.names[bone]}] chickie" + _needs(state, bone))
                out.append(" " * indent + " ".join(parts))
                for toe, toe_joins in children.get(bone, []):
                    chain(toe, toe_joins, indent + 2)
                return
            free = t.pips[bone] - joins
            parts.append(f"{joins}-{free}")
            following = children.get(bone)
            if not following:
                out.append(" " * indent + " ".join(parts))
                return
            bone, joins = following[0]

    for arm, joins in children.get(spinner, []):
        chain(arm, joins, 6)
    return out


def _needs(state: ChickenFootState, bone: int) -> str:
    if state.c_left and state.c_bone == bone:
        return f", needs {state.c_left} more"
    return ""

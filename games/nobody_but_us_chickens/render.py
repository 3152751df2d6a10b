"""Text for the command line's account of a Nobody but Us Chickens match (the table itself is
`NobodyButUsChickensState.render`)."""

from __future__ import annotations

from games.nobody_but_us_chickens.rules import CARD_NAMES, TAKE, NobodyButUsChickensState, cards_to_names


def milestone(state: NobodyButUsChickensState) -> str | None:
    """What the last decision set off: the hours it revealed or finished, and the scores at dawn (the CLI
    prints it after each event)."""
    lines = []
    for night, hour, revealed, takes in state.log[state.narrate_from :]:
        cards = ", ".join(f"{seat} {CARD_NAMES[card]}" for seat, card in enumerate(revealed))
        taken = "; ".join(f"seat {seat} takes {CARD_NAMES[chicken]}" for seat, chicken in takes)
        lines.append(
            f"    night {night + 1} hour {hour + 1}: revealed {cards}" + (f"; {taken}" if taken else "")
        )
    if state.phase == TAKE:
        lines.append(
            f"    seat {state.taker()} chooses from the coop: {' '.join(cards_to_names(state.coop))}"
        )
    elif state.hour == 0 and state.night_scores and len(state.night_scores) == state.night:
        night_scores = ", ".join(f"{seat} {points:+d}" for seat, points in enumerate(state.night_scores[-1]))
        totals = ", ".join(f"{seat} {total}" for seat, total in enumerate(state.totals))
        lines.append(f"    dawn: night points {night_scores}; totals {totals}")
    return "\n".join(lines) or None

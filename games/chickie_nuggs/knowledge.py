"""What each Chickie Nuggs seat knows of the other hands (`hand_knowledge` in its observation), which the
sampler deals to fit.

The rules only write a journal (`ChickieNuggsState.journal`, newest entry first): what each event taught the
seats, as `LEARN_*` entries. Observations bring the knowledge table up to date from it (`catch_up`), so a game
or a rollout that asks for no observation never spends a thing on it. The table, `tags[o][p]`, holds what seat
`o` knows of seat `p`'s hand: {mask of the kinds a card could be: number of such cards}; None for o == p.
The entries are sound (the truth always fits them) but not always complete (`remove_tag`).
"""

from __future__ import annotations

from games.chickie_nuggs.rules import (
    HAND_MASK,
    HAND_SIZE,
    LEARN_DRAW,
    LEARN_FACE_DOWN,
    LEARN_LOSE,
    LEARN_RESTRICT,
    LEARN_TAKE,
    LEARN_TRANSFER,
    NUGGET_MASK,
    OPPONENTS,
    ChickieNuggsState,
)


def add_tag(tags: dict[int, int], mask: int) -> None:
    tags[mask] = tags.get(mask, 0) + 1


def remove_tag(tags: dict[int, int], allowed: int) -> int:
    """A card known only to be of a kind in `allowed` left this hand: forget one entry soundly.

    Returns the mask the departed card is known by. Entries that cannot be that card stay as they are. If a
    single-kind entry matches a single-kind departure, it is the one removed (any other candidate could hold
    that kind as well). If the candidates differ, nobody can tell which one left, so the remaining candidates
    widen to their union.
    """
    if len(tags) == 1:
        for mask, count in tags.items():
            if count == 1:
                del tags[mask]
            else:
                tags[mask] = count - 1
            return mask & allowed
    if allowed in tags and allowed & (allowed - 1) == 0:
        count = tags[allowed]
        if count == 1:
            del tags[allowed]
        else:
            tags[allowed] = count - 1
        return allowed
    candidates = [mask for mask in tags if mask & allowed]
    if len(candidates) == 1:
        mask = candidates[0]
        count = tags[mask]
        if count == 1:
            del tags[mask]
        else:
            tags[mask] = count - 1
        return mask & allowed
    union = 0
    total = 0
    for mask in candidates:
        union |= mask
        total += tags.pop(mask)
    if total > 1:
        tags[union] = tags.get(union, 0) + total - 1
    return union & allowed


def restrict_tags(tags: dict[int, int], keep: int) -> None:
    """Every card of this hand is known to be of a kind in `keep`."""
    narrowed: dict[int, int] = {}
    for mask, count in tags.items():
        narrowed[mask & keep] = narrowed.get(mask & keep, 0) + count
    tags.clear()
    tags.update(narrowed)


def own_tags(state: ChickieNuggsState) -> list[list[dict[int, int] | None]]:
    """The knowledge table, copied first if a clone still shares it; call before changing it."""
    if state.tags_shared:
        state.tags = [[None if tags is None else tags.copy() for tags in row] for row in state.tags]
        state.tags_shared = False
    return state.tags


def catch_up(state: ChickieNuggsState) -> list[list[dict[int, int] | None]]:
    """The knowledge table (`state.tags`) brought up to date with the journal, oldest entry first.

    Each entry is what one event taught the seats, applied exactly as it would have been at the event:
    nothing but this reads or writes `tags` in between (the rules never look at what seats know)."""
    node = state.journal
    if node is None:
        return state.tags
    entries = []
    while node is not None:
        entry, node = node
        entries.append(entry)
    state.journal = None
    tags = own_tags(state)
    n = state.num_players
    for entry in reversed(entries):
        what = entry[0]
        if what == LEARN_LOSE:  # a card of a known kind left `seat`'s hand face up
            _, seat, bit = entry
            for o in OPPONENTS[n][seat]:
                seen = tags[o][seat]
                if len(seen) == 1:  # the common case, inlined: one kind of entry, which must hold this card
                    for mask, count in seen.items():
                        if count == 1:
                            del seen[mask]
                        else:
                            seen[mask] = count - 1
                        break
                else:
                    remove_tag(seen, bit)
        elif what == LEARN_DRAW:  # `seat` drew a card of `kind`; the seats in `seers` knew it was on top
            _, seat, kind, seers = entry
            for o in OPPONENTS[n][seat]:
                seen = tags[o][seat]
                mask = 1 << kind if seers >> o & 1 else HAND_MASK
                seen[mask] = seen.get(mask, 0) + 1
        elif what == LEARN_FACE_DOWN:  # `seat` placed a nugget of `kind` face down: what each seat knows
            _, seat, kind, masks = entry
            for o in range(n):
                masks[o] = 1 << kind if o == seat else remove_tag(tags[o][seat], NUGGET_MASK)
        elif what == LEARN_TRANSFER:
            _, giver, taker, bit, seen_as = entry
            for o in range(n):
                if o == giver:
                    add_tag(tags[o][taker], bit)
                elif o == taker:
                    remove_tag(tags[o][giver], bit)
                else:
                    add_tag(tags[o][taker], remove_tag(tags[o][giver], seen_as))
        elif what == LEARN_RESTRICT:  # `observer` (every other seat, if -1) knows `seat` holds only `keep`
            _, observer, seat, keep = entry
            for o in range(n) if observer < 0 else (observer,):
                if o != seat:
                    restrict_tags(tags[o][seat], keep)
        elif what == LEARN_TAKE:  # `chooser` took a tray nugget of `kind` (`masks` None when face up)
            _, chooser, kind, masks = entry
            for o in range(n):
                if o != chooser:
                    add_tag(tags[o][chooser], 1 << kind if masks is None else masks[o])
        else:  # LEARN_DEAL: every seat holds a full hand of cards it alone knows
            for o in range(n):
                for p in range(n):
                    if o != p:
                        tags[o][p] = {HAND_MASK: HAND_SIZE}
    return tags

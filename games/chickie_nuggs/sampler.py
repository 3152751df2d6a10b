"""The Chickie Nuggs sampler: complete states consistent with one seat's observation, from the observation alone.

Every card the seat cannot see (other hands, face-down nuggets of other trays, the pile below the top cards the
seat saw through Check the Freezer) is dealt from the cards unaccounted for, so that every `hand_knowledge`
entry ("a card that could be one of these kinds") and every face-down nugget's possible values are respected.
Slots are filled one at a time, the most constrained first, each with a kind drawn in proportion to the copies
left, after checking (Hall's condition, or a small max-flow when many kinds of constraint meet) that the slots
still open can all be filled. Flying Nuggets not yet seen are always in the pile.

The other seats of a sampled state know their own hands and nothing more about the others' hands than their
sizes: their knowledge is not the seat's to see, and what they might have learned is weaker than the truth.
"""

from __future__ import annotations

import random

from games.chickie_nuggs.rules import (
    ALL_MASK,
    CARD_BY_NAME,
    CARD_NAMES,
    DEAL,
    DECK_COUNTS,
    FLYING,
    HAND_MASK,
    KINDS,
    NUGGET_MASK,
    PHASE_BY_NAME,
    SPEC,
    ChickieNuggsState,
    dict_to_counts,
    names_mask,
)
from games.core.errors import GameError
from games.core.state import Observation

HALL_LIMIT = 12  # distinct constraints beyond which the max-flow check replaces Hall's subsets


class InconsistentObservation(GameError):
    """The observation cannot come from any Chickie Nuggs position."""


_KINDS_OF_MASK: dict[int, tuple[int, ...]] = {}


def kinds_of(mask: int) -> tuple[int, ...]:
    """The kinds a knowledge mask allows, ascending (remembered: a game meets few distinct masks)."""
    kinds = _KINDS_OF_MASK.get(mask)
    if kinds is None:
        kinds = _KINDS_OF_MASK[mask] = tuple(k for k in range(KINDS) if mask >> k & 1)
    return kinds


def _supply_of(mask: int, supply: list[int]) -> int:
    return sum(map(supply.__getitem__, kinds_of(mask)))


def randbelow(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n > 0, the same number from the same generator, with the calls inlined."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, cards: list) -> None:
    """`rng.shuffle(cards)`: the same order from the same generator, with the calls inlined."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


_VALIDATED: dict[tuple, dict] = {}


def validated_options(options: dict, num_players: int) -> dict:
    """`SPEC.validate_options(options, num_players)`, remembered for the option values seen before."""
    try:
        key = (num_players, *((name, type(value), value) for name, value in options.items()))
        known = _VALIDATED.get(key)
    except TypeError:  # a value that cannot be a key: validate it (and refuse it) as usual
        return SPEC.validate_options(options, num_players)
    if known is None:
        known = _VALIDATED[key] = SPEC.validate_options(options, num_players)
    return dict(known)


def flow_feasible(groups: list[tuple[int, int]], supply: list[int]) -> bool:
    """Whether each group's count of slots can be filled from `supply` with kinds its mask allows."""
    masks = [mask for mask, _count in groups]
    alloc = [[0] * KINDS for _ in groups]
    left = supply[:]
    for start, (_mask, count) in enumerate(groups):
        for _ in range(count):
            reached_kind: dict[int, int] = {}
            reached_group: dict[int, int | None] = {start: None}
            queue = [start]
            found = False
            while queue and not found:
                group = queue.pop(0)
                for kind in range(KINDS):
                    if not masks[group] >> kind & 1 or kind in reached_kind:
                        continue
                    reached_kind[kind] = group
                    if left[kind] > 0:
                        left[kind] -= 1
                        while True:
                            holder = reached_kind[kind]
                            alloc[holder][kind] += 1
                            given_up = reached_group[holder]
                            if given_up is None:
                                break
                            alloc[holder][given_up] -= 1
                            kind = given_up
                        found = True
                        break
                    for other in range(len(groups)):
                        if alloc[other][kind] > 0 and other not in reached_group:
                            reached_group[other] = kind
                            queue.append(other)
            if not found:
                return False
    return True


def feasible(demand: dict[int, int], supply: list[int]) -> bool:
    """Whether slots (`demand`: mask -> number of slots) can all be filled from `supply` (copies per kind)."""
    left = supply[:]
    groups = []
    for mask, count in demand.items():
        if not count:
            continue
        if mask & (mask - 1) == 0:
            kind = mask.bit_length() - 1
            left[kind] -= count
            if left[kind] < 0:
                return False
        else:
            groups.append((mask, count))
    if not groups:
        return True
    if len(groups) > HALL_LIMIT:
        return flow_feasible(groups, left)
    size = 1 << len(groups)
    unions = [0] * size
    needs = [0] * size
    supply_cache: dict[int, int] = {}
    for subset in range(1, size):
        lowest = subset & -subset
        index = lowest.bit_length() - 1
        rest = subset ^ lowest
        union = unions[rest] | groups[index][0]
        unions[subset] = union
        need = needs[rest] + groups[index][1]
        needs[subset] = need
        available = supply_cache.get(union)
        if available is None:
            available = supply_cache[union] = _supply_of(union, left)
        if need > available:
            return False
    return True


def assign(slot_masks: list[int], supply: list[int], rng: random.Random) -> list[int]:
    """A kind for every slot within its mask, using up `supply` exactly (slots with ALL_MASK take what is left).

    Raises InconsistentObservation when no assignment exists.
    """
    supply = supply[:]
    if sum(supply) != len(slot_masks):
        raise InconsistentObservation(
            f"{len(slot_masks)} unseen places for {sum(supply)} unseen cards: the observation does not add up"
        )
    demand: dict[int, int] = {}
    for mask in slot_masks:
        demand[mask] = demand.get(mask, 0) + 1
    if not feasible(demand, supply):
        raise InconsistentObservation("no deal of the unseen cards fits what the observation shows")
    kinds: list[int] = [-1] * len(slot_masks)
    widths = [mask.bit_count() for mask in slot_masks]
    order = sorted(range(len(slot_masks)), key=widths.__getitem__)
    any_held_card: list[int] = []  # slots of a hand card known to be nothing in particular
    open_slots: list[int] = []  # pile slots: any card at all
    for index in order:
        mask = slot_masks[index]
        if mask == HAND_MASK:
            any_held_card.append(index)
            continue
        if mask == ALL_MASK:
            open_slots.append(index)
            continue
        demand[mask] -= 1
        candidates = [k for k in kinds_of(mask) if supply[k]]
        while True:
            total = sum(map(supply.__getitem__, candidates))
            pick = randbelow(rng, total)
            for kind in candidates:
                pick -= supply[kind]
                if pick < 0:
                    break
            supply[kind] -= 1
            if feasible(demand, supply):
                break
            supply[kind] += 1
            candidates.remove(kind)
        kinds[index] = kind
    # Only "any held card" and "any card" slots are left, and the checks above leave enough cards other than
    # Flying Nuggets for the former: a uniform draw of them from those cards, then the rest into the pile.
    held = [k for k in range(KINDS) if k != FLYING for _ in range(supply[k])]
    shuffle(rng, held)
    for index, kind in zip(any_held_card, held, strict=False):
        kinds[index] = kind
    rest = held[len(any_held_card) :] + [FLYING] * supply[FLYING]
    shuffle(rng, rest)
    for index, kind in zip(open_slots, rest, strict=True):
        kinds[index] = kind
    return kinds


def sample_state(observation: Observation, rng: random.Random) -> ChickieNuggsState:
    """A complete state consistent with `observation` (see the module docstring)."""
    seat = observation["seat"]
    n = observation["num_players"]
    options = validated_options(observation["options"], n)
    state = ChickieNuggsState(n, options, None)
    # The observation's log as it stands: the state copies each entry when it makes an observation, so a
    # sampled state never hands out the caller's dicts (a caller does not change an observation it sampled).
    logged = tuple(observation["log"])
    state.log = ((None, -1, logged, (), None), None) if logged else None
    state.phase = PHASE_BY_NAME[observation["phase"]]
    state.turn = observation["turn"]
    state.plays = observation["plays_made"]
    state.skip_next = observation["skip_next"]
    state.attacker = observation["attacker"]
    state.target = observation["target"]
    state.draws_left = observation["draws_left"]
    state.choosers = list(observation["choosers"])
    if state.phase == DEAL:
        return state  # nothing is dealt yet: the pile is the whole deck without the Flying Nuggets

    unseen = list(DECK_COUNTS)

    def account(kind: int, count: int = 1) -> None:
        unseen[kind] -= count
        if unseen[kind] < 0:
            raise InconsistentObservation(f"more {CARD_NAMES[kind]} cards in view than the deck holds")

    own = dict_to_counts(observation["hand"])
    for kind, count in enumerate(own):
        if count:
            account(kind, count)
    for kind, count in enumerate(dict_to_counts(observation["discard"])):
        if count:
            account(kind, count)
    slot_masks: list[int] = []
    slot_places: list[tuple[str, int]] = []
    face_down_masks: list[tuple[int, int]] = []  # (owner, mask seen by this seat), in tray order
    for owner, tray in enumerate(observation["trays"]):
        for nugget in tray["nuggets"]:
            if isinstance(nugget, int):
                account(nugget - 1)
                continue
            mask = 0
            for value in nugget["face_down"]:
                mask |= 1 << (value - 1)
            face_down_masks.append((owner, mask))
            if owner == seat:
                account(mask.bit_length() - 1)
            else:
                slot_masks.append(mask)
                slot_places.append(("tray", owner))
        for name in tray["sauces"]:
            account(CARD_BY_NAME[name])
    top = [CARD_BY_NAME[name] for name in observation["pile_top"]]
    for kind in top:
        account(kind)
    hand_tags: list[dict[int, int] | None] = []
    for other, entries in enumerate(observation["hand_knowledge"]):
        if other == seat:
            hand_tags.append(None)
            continue
        tags: dict[int, int] = {}
        for entry in entries:
            mask = names_mask(entry["could_be"])
            tags[mask] = entry["count"]
            slot_masks.extend([mask] * entry["count"])
            slot_places.extend([("hand", other)] * entry["count"])
        hand_tags.append(tags)
    hidden_pile = observation["pile_size"] - len(top)
    slot_masks.extend([ALL_MASK] * hidden_pile)  # the pile's unseen cards, after every slot of `slot_places`

    kinds = assign(slot_masks, unseen, rng)

    hands = [[0] * KINDS for _ in range(n)]
    hands[seat] = own
    face_down_kinds: dict[int, list[int]] = {owner: [] for owner in range(n)}
    for (where, owner), kind in zip(slot_places, kinds, strict=False):
        if where == "hand":
            hands[owner][kind] += 1
        else:
            face_down_kinds[owner].append(kind)
    pile = kinds[len(slot_places) :]
    pile.extend(reversed(top))
    state.hands = hands
    state.hand_sizes = [sum(hand) for hand in hands]
    if state.hand_sizes != observation["hand_sizes"]:
        raise InconsistentObservation("hand sizes do not match what is known of the hands")
    state.pile = pile
    state.discard = dict_to_counts(observation["discard"])
    seen_face_down = iter(face_down_masks)
    for owner, tray in enumerate(observation["trays"]):
        entries = []
        for nugget in tray["nuggets"]:
            if isinstance(nugget, int):
                entries.append((nugget - 1, None))
                continue
            _owner, seen_mask = next(seen_face_down)
            kind = seen_mask.bit_length() - 1 if owner == seat else face_down_kinds[owner].pop(0)
            masks = tuple(
                seen_mask if o == seat else (1 << kind if o == owner else NUGGET_MASK) for o in range(n)
            )
            entries.append((kind, masks))
        state.tray_nuggets[owner] = entries
        state.tray_sauces[owner] = [CARD_BY_NAME[name] for name in tray["sauces"]]
    state.peek = [len(top) if o == seat else 0 for o in range(n)]
    state.tags = [
        [
            None
            if o == p
            else (
                dict(hand_tags[p])
                if o == seat
                else ({HAND_MASK: state.hand_sizes[p]} if state.hand_sizes[p] else {})
            )
            for p in range(n)
        ]
        for o in range(n)
    ]
    return state

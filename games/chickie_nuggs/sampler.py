"""The Chickie Nuggs sampler: complete states consistent with one seat's observation, from the observation
alone.

Every card the seat cannot see (other hands, face-down nuggets of other trays, the pile below the top cards
the seat saw through Check the Freezer) is dealt from the cards unaccounted for, so that every
`hand_knowledge` entry ("a card that could be one of these kinds") and every face-down nugget's possible
values are respected. Slots are filled one at a time, the most constrained first, each with a kind drawn in
proportion to the copies left, after checking (Hall's condition, or a small max-flow when many kinds of
constraint meet) that the slots still open can all be filled. Flying Nuggets not yet seen are always in the
pile.

The other seats of a sampled state know their own hands and nothing more about the others' hands than their
sizes: their knowledge is not the seat's to see, and what they might have learned is weaker than the truth.
"""

from __future__ import annotations

import random
from typing import Any, cast

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
    ChickieNuggsState,
    dict_to_counts,
    names_mask,
)
from games.chickie_nuggs.spec import SPEC
from games.core.draws import randbelow, shuffle
from games.core.errors import GameError
from games.core.sampling import RecentPlans
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


_VALIDATED: dict[tuple[Any, ...], dict[str, Any]] = {}


def validated_options(options: dict[str, Any], num_players: int) -> dict[str, Any]:
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


class _Deal:
    """Dealing the unseen cards into slots, each within its mask, using up the supply exactly (slots with
    ALL_MASK take what is left): everything that does not depend on the draws is worked out once, in
    `__init__`, and `draw` deals.

    Raises InconsistentObservation when no assignment exists.
    """

    __slots__ = ("size", "supply", "demand", "constrained", "any_held_card", "open_slots", "held", "known")

    def __init__(self, slot_masks: list[int], supply: list[int]):
        if sum(supply) != len(slot_masks):
            raise InconsistentObservation(
                f"{len(slot_masks)} unseen places for {sum(supply)} unseen cards: the observation does not "
                "add up"
            )
        demand: dict[int, int] = {}
        for mask in slot_masks:
            demand[mask] = demand.get(mask, 0) + 1
        if not feasible(demand, supply):
            raise InconsistentObservation("no deal of the unseen cards fits what the observation shows")
        self.size = len(slot_masks)
        self.supply = supply[:]
        self.demand = demand
        widths = [mask.bit_count() for mask in slot_masks]
        order = sorted(range(len(slot_masks)), key=widths.__getitem__)
        # Slots with a narrower mask than "any held card", most constrained first: (slot, mask), drawn one by
        # one.
        self.constrained: list[tuple[int, int]] = []
        self.any_held_card: list[int] = []  # slots of a hand card known to be nothing in particular
        self.open_slots: list[int] = []  # pile slots: any card at all
        for index in order:
            mask = slot_masks[index]
            if mask == HAND_MASK:
                self.any_held_card.append(index)
            elif mask == ALL_MASK:
                self.open_slots.append(index)
            else:
                self.constrained.append((index, mask))
        # With no constrained slot, the cards left for the others are always the same.
        self.held = None if self.constrained else self._held(self.supply)
        self.known: dict[tuple[Any, ...], bool] = {}  # feasibility by (step, supply): see `draw`

    @staticmethod
    def _held(supply: list[int]) -> list[int]:
        return [k for k in range(KINDS) if k != FLYING for _ in range(supply[k])]

    def draw(self, rng: random.Random) -> list[int]:
        """A kind for every slot (the same draws from `rng` whatever was worked out beforehand)."""
        kinds: list[int] = [-1] * self.size
        if self.held is None:
            supply = self.supply[:]
            demand = dict(self.demand)
            known = self.known
            for step, (index, mask) in enumerate(self.constrained):
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
                    # Whether the slots left can still be filled: the demand at a step is the same in every
                    # deal, so the answer is remembered by step and supply.
                    key = (step, *supply)
                    fits = known.get(key)
                    if fits is None:
                        fits = known[key] = feasible(demand, supply)
                    if fits:
                        break
                    supply[kind] += 1
                    candidates.remove(kind)
                kinds[index] = kind
            held = self._held(supply)
        else:
            supply = self.supply
            held = self.held[:]
        # Only "any held card" and "any card" slots are left, and the checks above leave enough cards other
        # than Flying Nuggets for the former: a uniform draw of them from those cards, then the rest into the
        # pile.
        shuffle(rng, held)
        any_held_card = self.any_held_card
        for index, kind in zip(any_held_card, held, strict=False):
            kinds[index] = kind
        rest = held[len(any_held_card) :] + [FLYING] * supply[FLYING]
        shuffle(rng, rest)
        for index, kind in zip(self.open_slots, rest, strict=True):
            kinds[index] = kind
        return kinds


def sample_state(observation: Observation, rng: random.Random) -> ChickieNuggsState:
    """A complete state consistent with `observation` (see the module docstring): what follows from the
    observation alone is worked out once per observation (`_Plan`, kept by `games.core.sampling`)."""
    return _PLANS.plan_for(observation).sample(rng)


class _Plan:
    """One observation's sampling worked out: a template state holding all the observation fixes, and the deal
    of the cards it hides."""

    __slots__ = ("template", "deal", "dealt", "places", "hand_slots", "tray_slots", "top")

    def __init__(self, observation: Observation):
        seat = observation["seat"]
        n = observation["num_players"]
        options = validated_options(observation["options"], n)
        state = self.template = ChickieNuggsState(n, options, None)
        # The observation's log as it stands: the state copies each entry when it makes an observation, so a
        # sampled state never hands out the caller's dicts (a caller does not change an observation it
        # sampled).
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
        self.dealt = (
            state.phase != DEAL
        )  # before the deal the pile is the whole deck without the Flying Nuggets
        if not self.dealt:
            return
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
        # Per slot of another tray's face-down nugget, in tray order: (owner, place in the tray, its masks per
        # kind).
        self.tray_slots: list[tuple[int, int, list[tuple[int, ...]]]] = []
        self.hand_slots: list[int] = []  # per slot of another hand, after the trays' slots: its owner
        for owner, tray in enumerate(observation["trays"]):
            entries: list[Any] = []  # (kind, masks) nuggets, and None for a slot dealt per sample
            for nugget in tray["nuggets"]:
                if isinstance(nugget, int):
                    account(nugget - 1)
                    entries.append((nugget - 1, None))
                    continue
                mask = 0
                for value in nugget["face_down"]:
                    mask |= 1 << (value - 1)
                masks_of = [
                    tuple(mask if o == seat else (1 << kind if o == owner else NUGGET_MASK) for o in range(n))
                    for kind in range(KINDS)
                ]
                if owner == seat:
                    kind = mask.bit_length() - 1
                    account(kind)
                    entries.append((kind, masks_of[kind]))
                else:
                    slot_masks.append(mask)
                    self.tray_slots.append((owner, len(entries), masks_of))
                    entries.append(None)  # dealt per sample
            state.tray_nuggets[owner] = entries
            for name in tray["sauces"]:
                account(CARD_BY_NAME[name])
            state.tray_sauces[owner] = [CARD_BY_NAME[name] for name in tray["sauces"]]
        top = [CARD_BY_NAME[name] for name in observation["pile_top"]]
        for kind in top:
            account(kind)
        self.top = top[::-1]
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
                self.hand_slots.extend([other] * entry["count"])
            hand_tags.append(tags)
        self.places = len(slot_masks)
        hidden_pile = observation["pile_size"] - len(top)
        slot_masks.extend(
            [ALL_MASK] * hidden_pile
        )  # the pile's unseen cards, after every slot of a tray or hand
        self.deal = _Deal(slot_masks, unseen)
        state.pile = []  # dealt per sample

        state.hands[seat] = own
        state.hand_sizes = [sum(own) if o == seat else self.hand_slots.count(o) for o in range(n)]
        if state.hand_sizes != observation["hand_sizes"]:
            raise InconsistentObservation("hand sizes do not match what is known of the hands")
        state.discard = dict_to_counts(observation["discard"])
        state.peek = [len(top) if o == seat else 0 for o in range(n)]
        state.tags = [
            [
                None
                if o == p
                else (
                    dict(cast("dict[int, int]", hand_tags[p]))  # every other seat's hand has its tags
                    if o == seat
                    else ({HAND_MASK: state.hand_sizes[p]} if state.hand_sizes[p] else {})
                )
                for p in range(n)
            ]
            for o in range(n)
        ]

    def sample(self, rng: random.Random) -> ChickieNuggsState:
        """A state dealt from the plan: a copy of the template with the hidden cards drawn."""
        state = self.template.clone()  # the clones share the knowledge table until one writes to it
        if not self.dealt:
            return state
        kinds = self.deal.draw(rng)
        trays = state.tray_nuggets
        for (owner, place, masks_of), kind in zip(self.tray_slots, kinds, strict=False):
            trays[owner][place] = (kind, masks_of[kind])
        hands = state.hands
        for owner, kind in zip(self.hand_slots, kinds[len(self.tray_slots) :], strict=False):
            hands[owner][kind] += 1
        pile = kinds[self.places :]
        pile.extend(self.top)
        state.pile = pile
        return state


_PLANS: RecentPlans[_Plan] = RecentPlans(_Plan)

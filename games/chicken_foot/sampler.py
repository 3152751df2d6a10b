"""The sampler: a complete Chicken Foot state consistent with one seat's observation, built from it alone.

What a seat cannot see is where the other bones are: in which other hand, or in the yard. Each bone in another
player's hand arrived at a known moment (the deal, or one of that player's draws, which are public). What the
history shows constrains those bones:

- at a draw, the player held no bone showing any of the draw's `numbers` (that is why they drew); at a pass,
  the same of the hand after the draw. So a bone that arrived before such an event cannot show those numbers;
- a bone played right after its player drew is the drawn bone; any other bone a player played was in their
  hand from some earlier arrival, and could not show the numbers of that player's events in between;
- finding the lead: with `seed_highest_held` and no drawing for it, nobody was dealt a double not yet led
  that is higher than the lead; when players drew for it, nobody held a double that could lead before the
  draw that found it (and, while they are still drawing, nobody holds one now);
- what is due now: a player about to draw holds nothing playable; a player to play holds something playable
  (after a draw, the drawn bone is what fits).

Every arrival is a slot owned by one player (plus one slot per yard bone), and every bone not seen by this
seat (and every bone another player played, which must come from one of that player's slots) is placed in one
slot. This is a bipartite matching, solved with randomised augmenting paths: it always finds an assignment
when one exists (the true position is one), so the sample honours every inference above. The spread over
consistent positions is random but not exactly uniform.

Speed. Everything that follows from the observation alone (the slots, what each may hold, the lists the
matching shuffles) is worked out once and kept for the next call with an equal observation (a search deals
hundreds of states from one observation); each call then only shuffles and matches. The shuffles are
`random.shuffle`'s own algorithm drawing the same numbers from the generator, so a given generator state gives
the same sample as before this was cached.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.chicken_foot.rules import (
    DEAL,
    DRAW_EVENT,
    LEAD,
    LEAD_DRAW_EVENT,
    LEAD_EVENT,
    OVER,
    PASS_EVENT,
    PLAY_EVENT,
    SEED_HIGHEST_HELD,
    TURN,
    ChickenFootState,
    copy_round_summary,
)
from games.core.sampling import RecentPlans

PHASES = {"deal": DEAL, "lead_draw": LEAD, "play": TURN, "draw": TURN, None: OVER}
LATER_THAN_ALL = 1 << 30  # the time of "now" constraints, after every history event
DEAL_TIME = -2  # dealt bones arrive before everything
AFTER_DEAL = -1  # the time of what the lead (found without drawing) tells about the deal
RECENT = 4  # plans kept for the observations sampled last


def sample_state(observation: dict[str, Any], rng: random.Random) -> ChickenFootState:
    """See the module docstring. Raises ValueError if the observation is not one a state could give."""
    return _PLANS.plan_for(observation).sample(rng)


class _Slot:
    """One arrival of a bone: in a player's hand (at a deal or a draw) or in the yard."""

    __slots__ = ("seat", "time", "entry", "allowed", "held_now")

    def __init__(self, seat: int, time: int, entry: int):
        self.seat = seat
        self.time = time
        self.entry = entry  # index of the draw in the history, or -1
        self.allowed = 0  # mask of unseen bones this slot may hold now
        self.held_now = False  # the slot's bone must still be in the hand (not one played since)


class _Try:
    """One attempt at the matching (a choice of the slot that must hold a playable bone), ready to shuffle.

    Slots are numbered: the players' slots in seat order, then the yard's. `eligible[i]` lists the slots the
    i-th played bone may have arrived in, `candidates[s]` the bones slot s may hold, each in the order the
    matching shuffles them; `order` is the players' slots by fewest candidates first."""

    __slots__ = ("eligible", "candidates", "order")

    def __init__(self, eligible: list[list[int]], candidates: list[list[int]], order: list[int]):
        self.eligible = eligible
        self.candidates = candidates
        self.order = order


class _Plan:
    """What one observation fixes: the state without the unseen bones, and the matching's inputs."""

    def __init__(self, observation: dict[str, Any]):
        num_players = observation["num_players"]
        state = ChickenFootState(num_players, observation["options"])
        t = state.t
        id_of = t.id_of
        me = observation["seat"]
        state.phase = PHASES[observation["awaiting"]]
        state.turn = observation["turn"] if observation["turn"] is not None else -1
        state.drew = observation["drew_this_turn"]
        state.scores = list(observation["scores"])
        for name in observation["led_doubles"]:
            bone = id_of[name]
            state.led |= 1 << t.hi[bone]
            state.led_order.append(bone)
        state.lead = id_of[observation["lead_double"]] if observation["lead_double"] is not None else -1
        state.opener = observation["opener"] if observation["opener"] is not None else -1
        state.layout = [
            (id_of[e["bone"]], id_of[e["onto"]] if e["onto"] is not None else -1, e["seat"], e["joins"])
            for e in observation["layout"]
        ]
        state.open_ends = [(id_of[e["onto"]], e["number"]) for e in observation["open_ends"]]
        constraint = observation["constraint"]
        if constraint is not None:
            state.c_bone, state.c_num, state.c_left = (
                id_of[constraint["bone"]],
                constraint["number"],
                constraint["needs"],
            )
        state.passes = observation["passes_in_a_row"]
        state.rounds = [copy_round_summary(summary) for summary in observation["rounds"]]
        state.counts = list(observation["hand_sizes"])
        for name in observation["hand"]:
            state.hands[me] |= 1 << id_of[name]
        history: list[list[Any]] = []
        for entry in observation["history"]:
            kind, seat = entry["event"], entry["seat"]
            numbers = tuple(entry["numbers"]) if "numbers" in entry else None
            bone = id_of[entry["bone"]] if "bone" in entry else -1
            onto = id_of[entry["onto"]] if kind == PLAY_EVENT else -1
            history.append([kind, seat, bone, onto, numbers])
        self.hidden = state.phase in (LEAD, TURN)
        if self.hidden:
            self._prepare(state, me, history, observation["awaiting"], observation["yard_size"])
        state.history = [tuple(entry) for entry in history]
        self.state = state
        self.legal = None
        if state.phase == TURN and (not self.hidden or state.turn == me):
            self.legal = state._plays_fitting(state.hands[state.turn])
        state.legal = self.legal or []

    def _prepare(
        self, state: ChickenFootState, me: int, history: list[list[Any]], awaiting: str, yard_size: int
    ) -> None:
        t = state.t
        num_players = state.num_players
        seen = state.hands[me]
        for bone, *_ in state.layout:
            seen |= 1 << bone
        unseen = t.all_mask & ~seen
        others = [seat for seat in range(num_players) if seat != me]
        events: dict[int, list[tuple[int, int]]] = {seat: [] for seat in others}  # (time, forbidden mask)
        played: dict[int, list[tuple[int, int]]] = {seat: [] for seat in others}  # (bone, time)
        slots: dict[int, list[_Slot]] = {seat: [] for seat in others}
        consumed = set()
        last_lead_draw = -1
        lead_entry = -1
        for index, (kind, seat, bone, _, numbers) in enumerate(history):
            if kind == LEAD_DRAW_EVENT:
                last_lead_draw = index
            elif kind == LEAD_EVENT:
                lead_entry = index
            if seat == me:
                continue
            if kind in (DRAW_EVENT, LEAD_DRAW_EVENT):
                if numbers is not None:
                    events[seat].append((2 * index, t.numbers_mask(numbers)))
                following = history[index + 1] if index + 1 < len(history) else None
                if (
                    following is not None
                    and following[1] == seat
                    and following[0] in (PLAY_EVENT, LEAD_EVENT)
                ):
                    consumed.add(index + 1)
                    history[index][2] = following[2]
                else:
                    slots[seat].append(_Slot(seat, 2 * index + 1, index))
            elif kind == PASS_EVENT:
                events[seat].append((2 * index, t.numbers_mask(numbers)))
            elif index not in consumed:
                played[seat].append((bone, 2 * index))

        # The dealt bones: what each player holds now or played, less what they drew (a hand-built position
        # may not start from a full deal, so this is counted rather than read from the hand-size table).
        for seat in others:
            dealt = state.counts[seat] + len(played[seat]) - len(slots[seat])
            if dealt < 0:
                raise ValueError(f"seat {seat}'s hand size does not match the history")
            slots[seat][:0] = [_Slot(seat, DEAL_TIME, -1) for _ in range(dealt)]

        # What finding the lead tells.
        rounds_before = len(state.rounds)
        if state.lead_policy == SEED_HIGHEST_HELD:
            led_before = state.led & ~(1 << t.hi[state.lead]) if lead_entry >= 0 else state.led
            candidates = [n for n in range(t.top + 1) if not led_before >> n & 1]
        else:
            candidates = [t.top - rounds_before]
        candidate_mask = 0
        for number in candidates:
            candidate_mask |= 1 << t.double_of[number]
        lead_rule: tuple[int, int] | None = None
        if state.phase == LEAD:
            lead_rule = (LATER_THAN_ALL, candidate_mask)
        elif last_lead_draw >= 0:
            lead_rule = (2 * last_lead_draw, candidate_mask)
        elif state.lead_policy == SEED_HIGHEST_HELD and state.lead >= 0:
            higher = 0
            for number in candidates:
                if number > t.hi[state.lead]:
                    higher |= 1 << t.double_of[number]
            lead_rule = (AFTER_DEAL, higher)
        if lead_rule is not None:
            for seat in others:
                events[seat].append(lead_rule)

        # What is due now.
        required_slot: _Slot | None = None
        required_mask = 0
        at_least_one: tuple[int, int] | None = None  # (seat, playable mask)
        if state.phase == TURN and state.turn != me:
            playable = t.numbers_mask(state._numbers())
            seat = state.turn
            if state.drew:
                required_slot = slots[seat][-1]
                required_slot.held_now = True
                required_mask = playable
            elif awaiting == "draw":
                events[seat].append((LATER_THAN_ALL, playable))
            else:
                at_least_one = (seat, playable)

        pool = t.bones_of(unseen)
        if len(pool) != sum(state.counts[seat] for seat in others) + yard_size:
            raise ValueError("the bones out of sight do not add up to the hands and the yard")

        for seat in others:
            for slot in slots[seat]:
                forbidden = 0
                for time, mask in events[seat]:
                    if time > slot.time:
                        forbidden |= mask
                slot.allowed = unseen & ~forbidden
            if required_slot is not None and required_slot.seat == seat:
                required_slot.allowed &= required_mask

        player_slots = [slot for seat in others for slot in slots[seat]]
        self.unseen = unseen
        self.pool = pool
        self.yard_size = yard_size
        self.slot_seat = [slot.seat for slot in player_slots]
        self.slot_entry = [slot.entry for slot in player_slots]
        self.played_bones = [bone for seat in others for bone, _ in played[seat]]
        self.tries: list[_Try] = []
        tries: list[_Slot | None] = [None]
        if at_least_one is not None:
            seat, playable = at_least_one
            by_time: dict[int, _Slot] = {}
            for slot in slots[seat]:
                by_time.setdefault(slot.time, slot)
            tries = [
                by_time[time] for time in sorted(by_time, reverse=True) if by_time[time].allowed & playable
            ]
        for must_fit in tries:
            saved = must_fit.allowed if must_fit is not None else 0
            if must_fit is not None:
                must_fit.allowed &= (
                    playable  # a slot to fit is only tried with at_least_one: (seat, playable)
                )
                must_fit.held_now = True
            self.tries.append(self._try(player_slots, slots, played, events))
            if must_fit is not None:
                must_fit.allowed = saved
                must_fit.held_now = False

    def _try(
        self,
        player_slots: list[_Slot],
        slots: dict[int, list[_Slot]],
        played: dict[int, list[tuple[int, int]]],
        events: dict[int, list[tuple[int, int]]],
    ) -> _Try:
        number = {id(slot): index for index, slot in enumerate(player_slots)}
        eligible_of: list[list[int]] = []
        for seat, bones in played.items():
            for bone, time in bones:
                eligible = []
                for slot in slots[seat]:
                    if slot.time >= time or slot.held_now:
                        continue
                    forbidden = 0
                    for event_time, mask in events[seat]:
                        if slot.time < event_time < time:
                            forbidden |= mask
                    if not forbidden >> bone & 1:
                        eligible.append(number[id(slot)])
                eligible_of.append(eligible)
        candidates = []
        for index, slot in enumerate(player_slots):
            listed = [bone for bone in self.pool if slot.allowed >> bone & 1]
            listed.extend(
                bone
                for bone, eligible in zip(self.played_bones, eligible_of, strict=True)
                if index in eligible
            )
            candidates.append(listed)
        order = sorted(range(len(player_slots)), key=lambda index: len(candidates[index]))
        return _Try(eligible_of, candidates, order)

    def sample(self, rng: random.Random) -> ChickenFootState:
        state = self.state.clone()
        if not self.hidden:
            return state
        shuffle = _shuffler(rng)
        for attempt in self.tries:
            placed = self._match(attempt, shuffle)
            if placed is not None:
                break
        else:
            raise ValueError("no placement of the unseen bones fits this observation")
        slot_bone, yard = placed
        unseen = self.unseen
        hands = state.hands
        history = state.history
        for seat, entry, bone in zip(self.slot_seat, self.slot_entry, slot_bone, strict=True):
            if unseen >> bone & 1:
                hands[seat] |= 1 << bone
            if entry >= 0:
                kind, who, _, onto, numbers = history[entry]
                history[entry] = (kind, who, bone, onto, numbers)
        state.yard = yard
        if self.legal is not None:
            state.legal = self.legal
        elif state.phase == TURN:
            state.legal = state._plays_fitting(hands[state.turn])
        return state

    def _match(
        self, attempt: _Try, shuffle: Callable[[list[Any]], None]
    ) -> tuple[list[int], list[int]] | None:
        """Place every unseen bone and every played bone in a slot: (the bone of each player slot, the yard),
        or None if impossible. The same shuffles in the same order as always, then augmenting paths."""
        owner = []  # the slots each played bone may have come from, shuffled
        for eligible in attempt.eligible:
            eligible = eligible[:]
            shuffle(eligible)
            owner.append(eligible)
        candidates = []
        for listed in attempt.candidates:
            listed = listed[:]
            shuffle(listed)
            candidates.append(listed)
        yard_candidates = self.pool[:]
        shuffle(yard_candidates)
        played_order = list(range(len(self.played_bones)))
        shuffle(played_order)

        played_bones = self.played_bones
        slot_bone = [-1] * len(candidates)
        slot_of: dict[int, int] = {}  # bone -> the player slot holding it (bones in the yard are not listed)
        in_yard: set[int] = set()
        owner_of = dict(zip(played_bones, owner, strict=True))

        def move_played(bone: int, visited: set[int]) -> bool:
            for slot in owner_of[bone]:
                if slot in visited:
                    continue
                visited.add(slot)
                if slot_bone[slot] < 0 or move_played(slot_bone[slot], visited):
                    slot_bone[slot] = bone
                    slot_of[bone] = slot
                    return True
            return False

        def fill(slot: int, visited: set[int]) -> bool:
            listed = candidates[slot]
            for bone in listed:
                if bone not in slot_of:
                    slot_bone[slot] = bone
                    slot_of[bone] = slot
                    return True
            for bone in listed:
                if bone in visited:
                    continue
                visited.add(bone)
                if fill(slot_of[bone], visited):
                    slot_bone[slot] = bone
                    slot_of[bone] = slot
                    return True
            return False

        for index in played_order:
            if not move_played(played_bones[index], set()):
                return None
        for slot in attempt.order:
            if slot_bone[slot] < 0 and not fill(slot, set()):
                return None
        # The yard's slots all share one shuffled list: each takes the first bone left. (A bone in the yard is
        # never moved again, and no player slot is left to move, so this is the matching's own choice.)
        position = 0
        for _ in range(self.yard_size):
            while position < len(yard_candidates) and yard_candidates[position] in slot_of:
                position += 1
            if position == len(yard_candidates):
                return None
            in_yard.add(yard_candidates[position])
            position += 1
        return slot_bone, sorted(in_yard)


def _shuffler(rng: random.Random) -> Callable[[list[Any]], None]:
    """`rng.shuffle`, or the same algorithm drawing the same numbers without its per-draw calls."""
    if type(rng) is not random.Random or not _EXACT:
        return rng.shuffle
    getrandbits = rng.getrandbits

    def shuffle(x: list[Any]) -> None:
        size = len(x)
        steps = STEPS[size] if size < len(STEPS) else _steps(size)
        for (
            i,
            n,
            k,
        ) in steps:  # position i swaps with a uniform draw below n = i + 1, of k = n.bit_length() bits
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]

    return shuffle


def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


STEPS = [
    _steps(size) for size in range(128)
]  # longer lists (none in the sets played) are worked out per call


def _check_exact() -> bool:
    """Whether the fast shuffle draws exactly what `random.shuffle` draws (it does on CPython 3.8 to 3.13)."""
    a, b = random.Random(12345), random.Random(12345)
    x, y = list(range(600)), list(range(600))
    a.shuffle(x)
    getrandbits = b.getrandbits
    for i in range(len(y) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        y[i], y[j] = y[j], y[i]
    return x == y and a.random() == b.random()


_EXACT = _check_exact()


_PLANS: RecentPlans[_Plan] = RecentPlans(_Plan, RECENT)  # the plans of the observations sampled last

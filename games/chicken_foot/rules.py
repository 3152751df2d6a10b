"""Chicken Foot, as implemented (the published rule text, read with the league's rulings on its open points).

The set and the deal. A double-six (28 bones, 2-4 players), double-nine (55 bones, 2-7) or double-twelve
(91 bones, 2-7) set (option `set`, default double nine). Hand sizes follow the rule text's table: double six
8/7/5 for 2/3/4 players; double nine 9, 9, 9, 7, 7, 7 for 2..7; double twelve 15, 12, 12, 9, 9, 9 for 2..7.
The bones not dealt are the chicken yard. Seats play to the left: seat i, then i + 1.

Rounds. One round per double of the set (7, 10 or 13), each with a fresh shuffle and deal. Who leads
(option `lead_policy`):
- `seed_highest_held` (default): the highest double not led in an earlier round that any player holds leads;
  its holder opens. If nobody holds one, players draw from the yard in turn (seat 0 first in the first round,
  later the seat left of the previous round's opener) until someone draws a double not yet led, and that
  player opens with it. Every double leads exactly once.
- `draw_until_required`: round k's double is fixed (the highest first, then one lower each round); if nobody
  holds it, players draw in turn as above until it appears, and whoever draws it opens.
- `skip_unheld`: round k's double is fixed as above; if nobody holds it the round is skipped (no plays, no
  points), except the double blank's round, which draws for it as `draw_until_required` does.
Draws made to find the lead double stay in the drawer's hand.

Play. The opener plays the lead double (the spinner) as their turn. The spinner takes `spinner_arms` bones (4,
or 6 with the hub variant), each showing its number, before any other play. A double played on an exposed end
is always a chickie: exactly 3 bones showing its number must be played on it before play goes anywhere else
(only one such constraint can be open at a time, since nothing else can be played meanwhile). Once full, a
spinner or chickie takes no more bones; play goes on at the free ends of the bones around it.
A turn: play one bone on a legal end (compulsory whenever possible); if none fits, draw one bone from the yard
and play it if it fits (it may fit several ends: the player chooses), else pass; with an empty yard, pass.

Round end and scoring. A round ends when a player plays their last bone (even a double whose chickie is then
never filled), or when play is blocked (option `round_end`):
- `all_passed` (default): every player has passed in a row (a full cycle with no bone played, each having
  drawn if the yard had bones);
- `all_passed_yard_empty`: every player has passed in a row with the yard empty after each pass (so the round
  goes on while anyone can still draw; a pass right after drawing the yard's last bone counts);
- `yard_empty`: the round ends at the end of the turn in which a player draws the yard's last bone (after
  they play it or pass); a full cycle of passes also ends it (a yard emptied while finding the lead double
  does not end the round).
The player who went out scores 0; every other player scores the pips left in hand, the double blank counting
`double_blank_value` (0, 25 or 50; default 50). After the last round the lowest total wins; equal totals share
a place. At any point before the end (the engine's turn cap), places follow the totals of the rounds
completed.

Choices made here where neither the rule text nor the rulings say:
- Plays are the only decisions. Drawing is compulsory when nothing fits, so a draw is a chance event (which
  bone comes out), and a pass is no decision either: the engine records it and moves on. The opener's spinner
  play is forced and made by the engine too (it is written in the history). A single legal play is still a
  decision (the seat plays it), so every bone a player puts down is an event of the record.
- "Chickie" and "UNO" calls are courtesy and not modelled.
- Between rounds all bones are gathered for the next shuffle: hands and yard are empty, the hands left at the
  end of the round are shown to everyone in the round summary, and the finished layout stays on the table
  until the next deal.

Actions are texts `"bone@onto"`: the bone played and the bone it is played on, each written high-low
(`"9-5@9-9"`: the 9-5 on the 9-9). Every placed bone has at most one free end, and a spinner or chickie takes
its bones side by side, so the bone played on names the end. Legal lists follow the open ends in order (only
the spinner or chickie while one is open), then the bones in ascending order.

Chance outcomes: the deal is one event, a list of hands (one per seat, each a list of bone names in ascending
order); the yard is the rest and has no order. Each draw (for the lead or in a turn) is one event: the name of
the bone drawn, any bone of the yard. Keeping each draw a separate pick from the yard's multiset means no
state ever holds a hidden yard order, a tampered draw names a bone that is not in the yard, and the sampler
only redistributes bones.

Observation of seat s (all JSON; also the structure a web replay draws):
- `seat`, `num_players`, `options`;
- `round` (1-based number of the round in play or about to be dealt), `rounds_total`, `rounds_played`;
- `awaiting`: what happens next: "deal" (a shuffle and deal is due), "lead_draw" (seat `turn` draws to find
  the lead double), "play" (seat `turn` chooses a play), "draw" (seat `turn` cannot play and draws), or None
  when the game is over. `turn` is that seat (None for "deal" and at the end); `drew_this_turn` is true when
  the seat to play has just drawn (it may play only the drawn bone);
- `hand`: the seat's own bones (names, ascending); `hand_sizes` of every seat; `yard_size`;
- `scores`: totals of the rounds completed; `led_doubles`: the doubles led so far, in order;
- `lead_double` and `opener`: this round's spinner and who played it (between rounds: the finished round's;
  `opener` keeps the last opener when a round is skipped);
- `layout`: every bone on the table in the order played, `{"bone", "onto", "seat", "joins"}`: the bone it was
  played on (None for the spinner), who played it, and the number where it touches that bone (the spinner's
  own number for the spinner). A bone's free number is the other number of the bone (a non-double);
  doubles take bones side by side (the spinner `spinner_arms`, a chickie 3). A page draws the layout as a
  tree from the spinner out;
- `open_ends`: `[{"onto", "number"}]`, the free ends of non-double bones, in the order legal plays follow;
- `constraint`: None, or `{"kind": "spinner"|"chickie", "bone", "number", "needs"}`: the double that must be
  filled first and how many bones it still needs; while it is open, only it can be played on;
- `passes_in_a_row`: passes since the last bone was played (with `all_passed_yard_empty`, only the passes made
  with the yard empty count);
- `history`: this round's events in order: `{"event": "lead_draw", "seat"}`, `{"event": "lead", "seat",
  "bone"}`, `{"event": "play", "seat", "bone", "onto"}`, `{"event": "draw", "seat", "numbers"}` and
  `{"event": "pass", "seat", "numbers"}`, where `numbers` are the numbers a bone needed to be playable at that
  moment (so the seat held none of them; for a draw, before the draw). A seat sees the bone of its own draws
  (`"bone"` in its draw and lead_draw entries) and no one else's;
- `rounds`: a summary per round completed: `{"round", "lead", "skipped", "opener", "went_out", "hands",
  "points", "totals"}` (`hands`: the bones each seat held at the end, shown to all; None for a skipped round).
The CLI shows `render()` after each round through `render.milestone` (which also names the passes made
without a decision during the last event): a round has just ended (or was skipped) exactly when `awaiting` is
"deal" or None and `rounds_played` > 0.

Build a position for a test or an analysis with `ChickenFootState.position(...)`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.chicken_foot.spec import HAND_SIZES, LEAD_POLICIES, ROUND_END_RULES, SPEC
from games.chicken_foot.tables import SetTables, tables_for
from games.core.state import Game, Observation, Outcome, State, places_from_keys

# Phases.
DEAL, LEAD, TURN, OVER = 0, 1, 2, 3
# Lead policies and round-end rules, as small ints for the hot path.
SEED_HIGHEST_HELD, DRAW_UNTIL_REQUIRED, SKIP_UNHELD = range(3)
ALL_PASSED, ALL_PASSED_YARD_EMPTY, YARD_EMPTY = range(3)
DOUBLE_BLANK = 0  # bone id of 0-0

# History entries are tuples (kind, seat, bone, onto, numbers); bone/onto are -1 where they do not apply.
LEAD_DRAW_EVENT, LEAD_EVENT, PLAY_EVENT, DRAW_EVENT, PASS_EVENT = "lead_draw", "lead", "play", "draw", "pass"


class ChickenFootState(State):
    """One position of a Chicken Foot game. See the module docstring for the rules and the observation."""

    __slots__ = (
        "num_players",
        "options",
        "rng",
        "t",
        "hand_size",
        "arms",
        "round_end",
        "lead_policy",
        "double_blank_value",
        "rounds_total",
        "phase",
        "turn",
        "hands",
        "counts",
        "yard",
        "scores",
        "led",
        "led_order",
        "lead",
        "opener",
        "open_ends",
        "c_bone",
        "c_num",
        "c_left",
        "layout",
        "history",
        "rounds",
        "passes",
        "drew",
        "legal",
        "mark",
        "points",
    )

    def __init__(self, num_players: int, options: Mapping[str, Any], rng: random.Random | None = None):
        self.num_players = num_players
        self.options = dict(options)
        self.rng = rng
        self.t: SetTables = tables_for(options["set"])
        self.hand_size = HAND_SIZES[options["set"]][num_players]
        self.arms = options["spinner_arms"]
        self.round_end = ROUND_END_RULES.index(options["round_end"])
        self.lead_policy = LEAD_POLICIES.index(options["lead_policy"])
        self.double_blank_value = options["double_blank_value"]
        self.points = self.t.play_points(self.double_blank_value)  # action text -> what its bone counts
        self.rounds_total = self.t.top + 1
        self.phase = DEAL
        self.turn = -1
        self.hands = [0] * num_players  # bit masks of bone ids
        self.counts = [0] * num_players
        self.yard: list[int] = []
        self.scores = [0] * num_players
        self.led = 0  # bit n set: the double n-n has led a round
        self.led_order: list[int] = []
        self.lead = -1
        self.opener = -1
        self.open_ends: list[tuple[int, int]] = []  # (bone with the free end, its free number)
        self.c_bone = -1  # the spinner or chickie that must be filled first, when c_left > 0
        self.c_num = -1
        self.c_left = 0
        self.layout: list[tuple[int, int, int, int]] = []  # (bone, onto, seat, joins)
        self.history: list[tuple[Any, ...]] = []
        self.rounds: list[dict[str, Any]] = []
        self.passes = 0
        self.drew = False
        self.legal: list[str] = []  # the legal plays of the seat to play; empty when it must draw
        self.mark = 0  # length of the history before the last event (for words about that event)

    # ----------------------------------------------------------------------------------- building positions

    @classmethod
    def position(
        cls,
        num_players: int,
        options: Mapping[str, Any] | None = None,
        *,
        hands: Sequence[Iterable[str]],
        yard: Iterable[str] | None = None,
        lead: str | None = None,
        opener: int = 0,
        plays: Sequence[tuple[int, str, str]] = (),
        turn: int | None = None,
        round_number: int = 1,
        led: Iterable[str] = (),
        scores: Sequence[int] | None = None,
        previous_opener: int | None = None,
    ) -> ChickenFootState:
        """A hand-built position (for tests and analysis).

        `hands` are the bones each seat holds now and `yard` the yard (None: every bone not in a hand or on
        the table). Earlier rounds are summed up by `round_number` (1-based), `led` (the doubles led before
        this round, in order), `scores` (their totals) and `previous_opener` (who opened the last round); the
        round summaries themselves are left blank. Without `lead` the position is the moment right after the
        deal: the lead is found by the ruled policy (which may mean drawing). With `lead`, seat `opener` has
        led it, then `plays` — (seat, bone, onto) triples — were made in order (the engine checks each against
        the layout, not against hands), and `turn` (default: left of the last player) is to move: to play, to
        draw, or to pass, which the engine does at once as in play. Every bone of the set must be in exactly
        one place.
        """
        options = SPEC.validate_options(options, num_players)
        state = cls(num_players, options)
        t = state.t
        if len(hands) != num_players:
            raise ValueError(f"{num_players} hands needed, got {len(hands)}")
        if scores is not None:
            state.scores = list(scores)
        if previous_opener is not None:
            state.opener = previous_opener
        for name in led:
            bone = _bone_id(t, name)
            state.led |= 1 << t.hi[bone]
            state.led_order.append(bone)
        for index in range(round_number - 1):
            state.rounds.append(
                {
                    "round": index + 1,
                    "lead": None,
                    "skipped": None,
                    "opener": None,
                    "went_out": None,
                    "hands": None,
                    "points": None,
                    "totals": None,
                }
            )
        placed = 0
        for seat, hand in enumerate(hands):
            for name in hand:
                bone = _bone_id(t, name)
                if placed >> bone & 1:
                    raise ValueError(f"bone {name} is in two places")
                placed |= 1 << bone
                state.hands[seat] |= 1 << bone
            state.counts[seat] = state.hands[seat].bit_count()
        table = ([lead] if lead else []) + [bone for _, bone, _ in plays]
        for name in table:
            bone = _bone_id(t, name)
            if placed >> bone & 1:
                raise ValueError(f"bone {name} is in two places")
            placed |= 1 << bone
        if yard is None:
            state.yard = t.bones_of(t.all_mask & ~placed)
            placed = t.all_mask
        else:
            for name in yard:
                bone = _bone_id(t, name)
                if placed >> bone & 1:
                    raise ValueError(f"bone {name} is in two places")
                placed |= 1 << bone
                state.yard.append(bone)
        if placed != t.all_mask:
            raise ValueError(
                "bones missing: " + ", ".join(t.names[b] for b in t.bones_of(t.all_mask & ~placed))
            )
        if lead is None:
            state._open_round()
            return state
        bone = _bone_id(t, lead)
        if not t.is_double[bone]:
            raise ValueError(f"the lead {lead} is not a double")
        state.hands[opener] |= 1 << bone
        state.counts[opener] += 1
        state._lead(opener, bone)
        last = opener
        for seat, name, onto in plays:
            bone, target = _bone_id(t, name), _bone_id(t, onto)
            if t.action_name[bone][target] not in state._plays_fitting(1 << bone):
                raise ValueError(f"{name} cannot be played on {onto} in this layout")
            state.hands[seat] |= 1 << bone
            state.counts[seat] += 1
            state.turn = seat
            state._play(seat, bone, target)
            last = seat
        state._next_turn((last + 1) % num_players if turn is None else turn)
        return state

    # ------------------------------------------------------------------------------------------ the protocol

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance(self) -> bool:
        if self.phase == TURN:
            return not self.legal
        return self.phase != OVER

    def deciders(self) -> tuple[int, ...]:
        if self.phase == TURN and self.legal:
            return (self.turn,)
        return ()

    def legal_actions(self, seat: int) -> list[Any]:
        if seat != self.turn or self.phase != TURN:
            return []
        return self.legal[:]

    def sample_chance(self, rng: random.Random) -> Any:
        t = self.t
        if self.phase == DEAL:
            size = self.hand_size
            dealt = rng.sample(range(t.count), size * self.num_players)
            names = t.names
            return [
                [names[b] for b in sorted(dealt[i * size : (i + 1) * size])] for i in range(self.num_players)
            ]
        yard = self.yard
        if type(rng) is not random.Random:
            return t.names[yard[rng.randrange(len(yard))]]
        # rng.randrange(n) without its argument checks: the same draws (Random._randbelow_with_getrandbits).
        n = len(yard)
        k = n.bit_length()
        r = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        return t.names[yard[r]]

    def chance_is_possible(self, outcome: Any) -> bool:
        id_of = self.t.id_of
        if self.phase == DEAL:
            if type(outcome) is not list or len(outcome) != self.num_players:
                return False
            seen = 0
            for hand in outcome:
                if type(hand) is not list or len(hand) != self.hand_size:
                    return False
                previous = -1
                for name in hand:
                    bone = id_of.get(name) if type(name) is str else None
                    if bone is None or bone <= previous or seen >> bone & 1:
                        return False
                    seen |= 1 << bone
                    previous = bone
            return True
        if type(outcome) is not str:
            return False
        bone = id_of.get(outcome)
        return bone is not None and bone in self.yard

    def _apply_chance(self, outcome: Any) -> None:
        self.mark = len(self.history)
        if self.phase == DEAL:
            self._deal(outcome)
            return
        bone = self.t.id_of[outcome]
        self.yard.remove(bone)
        seat = self.turn
        self.hands[seat] |= 1 << bone
        self.counts[seat] += 1
        if self.phase == LEAD:
            self.history.append((LEAD_DRAW_EVENT, seat, bone, -1, None))
            if self._is_lead_candidate(bone):
                self._lead(seat, bone)
                self._next_turn((seat + 1) % self.num_players)
            else:
                self.turn = (seat + 1) % self.num_players
            return
        numbers = self._numbers()
        self.history.append((DRAW_EVENT, seat, bone, -1, numbers))
        self.drew = True
        legal = self._plays_fitting(1 << bone)
        if legal:
            self.legal = legal
            return
        self.history.append((PASS_EVENT, seat, -1, -1, numbers))
        if (self.round_end == YARD_EMPTY and not self.yard) or self._pass_ends_round():
            self._end_round(-1)
        else:
            self._next_turn((seat + 1) % self.num_players)

    def _apply(self, actions: Mapping[int, Any]) -> None:
        self.mark = len(self.history)
        seat = self.turn
        bone, onto = self.t.action_pair[actions[seat]]
        self._play(seat, bone, onto)
        if not self.counts[seat]:
            self._end_round(seat)
        elif self.round_end == YARD_EMPTY and self.drew and not self.yard:
            self._end_round(-1)
        else:
            self._next_turn((seat + 1) % self.num_players)

    def outcome(self) -> Outcome:
        return Outcome(
            places=places_from_keys(self.scores, higher_is_better=False), scores=tuple(self.scores)
        )

    # -------------------------------------------------------------------------------------------- the rules

    def _deal(self, hands: list[list[str]]) -> None:
        id_of = self.t.id_of
        dealt = 0
        for seat, names in enumerate(hands):
            mask = 0
            for name in names:
                mask |= 1 << id_of[name]
            self.hands[seat] = mask
            self.counts[seat] = len(names)
            dealt |= mask
        self.yard = [bone for bone in range(self.t.count) if not dealt >> bone & 1]
        self.layout = []
        self.open_ends = []
        self.c_left = 0
        self.c_bone = self.c_num = -1
        self.history = []
        self.mark = 0
        self.lead = -1
        self._open_round()

    def _round_double(self) -> int:
        """The double a fixed-order policy leads this round (the highest in the first round, then down)."""
        return self.t.double_of[self.t.top - len(self.rounds)]

    def _open_round(self) -> None:
        """Right after a deal: the holder of the ruled lead double opens, or players draw for it, or
        (skip_unheld) the round is skipped."""
        t = self.t
        self.passes = 0
        self.drew = False
        self.legal = []
        if self.lead_policy == SEED_HIGHEST_HELD:
            wanted = [t.double_of[n] for n in range(t.top, -1, -1) if not self.led >> n & 1]
        else:
            wanted = [self._round_double()]
        for double in wanted:
            for seat in range(self.num_players):
                if self.hands[seat] >> double & 1:
                    self._lead(seat, double)
                    self._next_turn((seat + 1) % self.num_players)
                    return
        if self.lead_policy == SKIP_UNHELD and wanted[0] != DOUBLE_BLANK:
            self._skip_round(wanted[0])
            return
        self.phase = LEAD
        self.turn = 0 if self.opener < 0 or not self.rounds else (self.opener + 1) % self.num_players

    def _is_lead_candidate(self, bone: int) -> bool:
        t = self.t
        if self.lead_policy == SEED_HIGHEST_HELD:
            return t.is_double[bone] and not self.led >> t.hi[bone] & 1
        return bone == self._round_double()

    def _lead(self, seat: int, double: int) -> None:
        number = self.t.hi[double]
        self.hands[seat] ^= 1 << double
        self.counts[seat] -= 1
        self.layout = [(double, -1, seat, number)]
        self.open_ends = []
        self.c_bone, self.c_num, self.c_left = double, number, self.arms
        self.led |= 1 << number
        self.led_order.append(double)
        self.lead = double
        self.opener = seat
        self.history.append((LEAD_EVENT, seat, double, -1, None))
        self.phase = TURN
        self.passes = 0

    def _skip_round(self, double: int) -> None:
        self.rounds.append(
            {
                "round": len(self.rounds) + 1,
                "lead": self.t.names[double],
                "skipped": True,
                "opener": None,
                "went_out": None,
                "hands": None,
                "points": [0] * self.num_players,
                "totals": list(self.scores),
            }
        )
        self._gather()

    def _gather(self) -> None:
        """Between rounds every bone goes back for the next shuffle (the layout stays on show)."""
        self.hands = [0] * self.num_players
        self.counts = [0] * self.num_players
        self.yard = []
        self.legal = []
        self.drew = False
        self.turn = -1
        self.phase = DEAL if len(self.rounds) < self.rounds_total else OVER

    def _numbers(self) -> tuple[int, ...]:
        """The numbers a bone must show to be playable now."""
        if self.c_left:
            return (self.c_num,)
        return tuple(sorted({number for _, number in self.open_ends}))

    def _plays_fitting(self, hand: int) -> list[str]:
        """Every play ("bone@onto") of the bones in mask `hand`, in the legal-list order."""
        number_mask = self.t.number_mask
        onto_row = self.t.onto_row
        out = []
        if self.c_left:
            fits = hand & number_mask[self.c_num]
            row = onto_row[self.c_bone]
            while fits:
                low = fits & -fits
                out.append(row[low.bit_length() - 1])
                fits ^= low
            return out
        for onto, number in self.open_ends:
            fits = hand & number_mask[number]
            if fits:
                row = onto_row[onto]
                while fits:
                    low = fits & -fits
                    out.append(row[low.bit_length() - 1])
                    fits ^= low
        return out

    def _next_turn(self, seat: int) -> None:
        """Give the turn to `seat`; a seat that can neither play nor draw passes at once, and so on round."""
        while True:
            self.turn = seat
            self.drew = False
            legal = self._plays_fitting(self.hands[seat])
            self.legal = legal
            if legal or self.yard:
                return
            self.history.append((PASS_EVENT, seat, -1, -1, self._numbers()))
            if self._pass_ends_round():
                self._end_round(-1)
                return
            seat = (seat + 1) % self.num_players

    def _pass_ends_round(self) -> bool:
        if self.round_end == ALL_PASSED_YARD_EMPTY and self.yard:
            self.passes = 0
            return False
        self.passes += 1
        return self.passes >= self.num_players

    def _play(self, seat: int, bone: int, onto: int) -> None:
        t = self.t
        if self.c_left:
            number = self.c_num
            self.c_left -= 1
            self.open_ends.append((bone, t.pips[bone] - number))
        else:
            ends = self.open_ends
            index = 0
            for index, (target, number) in enumerate(ends):  # noqa: B007 - the loop finds the end played on
                if target == onto:
                    break
            number = ends[index][1]
            if t.is_double[bone]:
                del ends[index]
                self.c_bone, self.c_num, self.c_left = bone, number, 3
            else:
                ends[index] = (bone, t.pips[bone] - number)
        self.layout.append((bone, onto, seat, number))
        self.hands[seat] ^= 1 << bone
        self.counts[seat] -= 1
        self.history.append((PLAY_EVENT, seat, bone, onto, None))
        self.passes = 0

    def hand_points(self, seat: int) -> int:
        """What the bones in `seat`'s hand count: their pips, the double blank counting its ruled value."""
        t = self.t
        hand = self.hands[seat]
        points = sum(map(t.pips.__getitem__, t.bones_of(hand)))
        if hand & 1:
            points += self.double_blank_value
        return points

    def _end_round(self, went_out: int) -> None:
        t = self.t
        points = [self.hand_points(seat) for seat in range(self.num_players)]
        for seat, value in enumerate(points):
            self.scores[seat] += value
        self.rounds.append(
            {
                "round": len(self.rounds) + 1,
                "lead": t.names[self.lead],
                "skipped": False,
                "opener": self.opener,
                "went_out": went_out if went_out >= 0 else None,
                "hands": [[t.names[b] for b in t.bones_of(hand)] for hand in self.hands],
                "points": points,
                "totals": list(self.scores),
            }
        )
        self._gather()

    # ------------------------------------------------------------------------------------- what seats see

    def awaiting(self) -> str | None:
        phase = self.phase
        if phase == TURN:
            return "play" if self.legal else "draw"
        return ("deal", "lead_draw", None, None)[phase]

    def constraint(self) -> dict[str, Any] | None:
        if not self.c_left:
            return None
        return {
            "kind": "spinner" if self.c_bone == self.lead else "chickie",
            "bone": self.t.names[self.c_bone],
            "number": self.c_num,
            "needs": self.c_left,
        }

    def observation(self, seat: int) -> Observation:
        names = self.t.names
        history = []
        for kind, who, bone, onto, numbers in self.history:
            if kind == PLAY_EVENT:
                history.append({"event": kind, "seat": who, "bone": names[bone], "onto": names[onto]})
            elif kind == LEAD_EVENT:
                history.append({"event": kind, "seat": who, "bone": names[bone]})
            else:
                entry: dict[str, Any] = {"event": kind, "seat": who}
                if numbers is not None:
                    entry["numbers"] = list(numbers)
                if who == seat and kind != PASS_EVENT:
                    entry["bone"] = names[bone]
                history.append(entry)
        playing = self.phase in (LEAD, TURN)
        return {
            "seat": seat,
            "num_players": self.num_players,
            "options": dict(self.options),
            "round": min(len(self.rounds) + 1, self.rounds_total),
            "rounds_total": self.rounds_total,
            "rounds_played": len(self.rounds),
            "awaiting": self.awaiting(),
            "turn": self.turn if playing else None,
            "drew_this_turn": self.drew,
            "hand": [names[b] for b in self.t.bones_of(self.hands[seat])],
            "hand_sizes": list(self.counts),
            "yard_size": len(self.yard),
            "scores": list(self.scores),
            "led_doubles": [names[b] for b in self.led_order],
            "lead_double": names[self.lead] if self.lead >= 0 else None,
            "opener": self.opener if self.opener >= 0 else None,
            "layout": [
                {"bone": names[bone], "onto": names[onto] if onto >= 0 else None, "seat": who, "joins": joins}
                for bone, onto, who, joins in self.layout
            ],
            "open_ends": [{"onto": names[onto], "number": number} for onto, number in self.open_ends],
            "constraint": self.constraint(),
            "passes_in_a_row": self.passes,
            "history": history,
            "rounds": [copy_round_summary(summary) for summary in self.rounds],
        }

    def clone(self) -> ChickenFootState:
        other = ChickenFootState.__new__(ChickenFootState)
        other.num_players = self.num_players
        other.options = self.options
        other.rng = None
        other.t = self.t
        other.hand_size = self.hand_size
        other.arms = self.arms
        other.round_end = self.round_end
        other.lead_policy = self.lead_policy
        other.double_blank_value = self.double_blank_value
        other.points = self.points
        other.rounds_total = self.rounds_total
        other.phase = self.phase
        other.turn = self.turn
        other.hands = self.hands[:]
        other.counts = self.counts[:]
        other.yard = self.yard[:]
        other.scores = self.scores[:]
        other.led = self.led
        other.led_order = self.led_order[:]
        other.lead = self.lead
        other.opener = self.opener
        other.open_ends = self.open_ends[:]
        other.c_bone = self.c_bone
        other.c_num = self.c_num
        other.c_left = self.c_left
        other.layout = self.layout[:]
        other.history = self.history[:]
        other.rounds = self.rounds[:]  # summaries are never changed once written
        other.passes = self.passes
        other.drew = self.drew
        other.legal = self.legal  # replaced, never changed in place
        other.mark = self.mark
        return other

    # ---------------------------------------------------------------------------------------- words, pictures

    def describe_chance(self, outcome: Any) -> str:
        """Words for the chance outcome just applied (the CLI's account calls it after each event)."""
        names = self.t.names
        latest = self.history[self.mark :]
        if isinstance(outcome, list):
            text = f"shuffle and deal {len(outcome[0]) if outcome else 0} bones each"
            if latest and latest[0][0] == LEAD_EVENT:
                return text + f"; seat {latest[0][1]} leads with {names[latest[0][2]]}"
            if self.phase == LEAD:
                return text + f"; no double can lead: seat {self.turn} draws first"
            if self.rounds and self.rounds[-1]["skipped"]:
                return text + f"; nobody holds {self.rounds[-1]['lead']}: the round is skipped"
            return text
        for index, (kind, seat, bone, _, _) in enumerate(latest):
            if kind in (DRAW_EVENT, LEAD_DRAW_EVENT) and names[bone] == outcome:
                text = f"seat {seat} draws {outcome}"
                following = latest[index + 1][0] if index + 1 < len(latest) else None
                if following == LEAD_EVENT:
                    return text + " and leads with it"
                if following == PASS_EVENT:
                    return text + " and passes"
                return text
        return f"seat {self.turn} draws {outcome}"

    def describe_action(self, seat: int, action: Any) -> str:
        t = self.t
        if not isinstance(action, str):
            return f"{action!r} (not a play)"
        bone, _, onto = action.partition("@")
        onto_id = t.id_of.get(onto)
        if onto_id is not None and t.is_double[onto_id]:
            kind = "spinner" if onto_id == self.lead else "chickie"
            return f"plays {bone} on the {kind} {onto}"
        bone_id = t.id_of.get(bone)
        if bone_id is not None and t.is_double[bone_id]:
            return f"plays {bone} on {onto}: chickie {t.hi[bone_id]}s!"
        return f"plays {bone} on {onto}"

    def render(self) -> str:
        """The table as text: the round, the layout as a tree from the spinner, hands, and the scores."""
        from games.chicken_foot.render import render_state

        return render_state(self)


def _bone_id(t: SetTables, name: str) -> int:
    bone = t.id_of.get(name) if isinstance(name, str) else None
    if bone is None:
        raise ValueError(f"{name!r} is not a bone of this set (bones are written high-low, like '9-5')")
    return bone


def copy_round_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """A copy of a round summary that shares no list with it."""
    out = dict(summary)
    if summary["hands"] is not None:
        out["hands"] = [list(hand) for hand in summary["hands"]]
    if summary["points"] is not None:
        out["points"] = list(summary["points"])
    if summary["totals"] is not None:
        out["totals"] = list(summary["totals"])
    return out


class ChickenFootGame(Game):
    """The Chicken Foot game: states, and the sampler of states consistent with one seat's observation."""

    spec = SPEC
    max_events = 50_000

    def new_state(self, num_players: int, options: Mapping[str, Any], rng: random.Random) -> ChickenFootState:
        return ChickenFootState(num_players, options, rng)

    def sample_state(self, observation: Observation, rng: random.Random) -> ChickenFootState:
        from games.chicken_foot.sampler import sample_state

        return sample_state(observation, rng)


GAME = ChickenFootGame()
ChickenFootState.game = GAME

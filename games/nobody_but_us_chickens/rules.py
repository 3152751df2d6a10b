"""Nobody but Us Chickens: the rules as implemented, the state and the game.

Rules as implemented (the published rule text, read with the league's rulings on its open points)
-------------------------------------------------------------------------------------------------
* 3 to 6 players (2 with `allow_two_players`). Every player holds the same set of nine cards: three Healthy
  Chickens (+1 each), a Plump Chicken (+2), a Prize Chicken (+4), a Sickly Chicken (-1), a Fox, a Rat and a
  Guard Dog. `short_summer_nights` removes the Rat and one Healthy Chicken: seven cards.
* The game lasts one night per player; a night lasts as many hours as a hand has cards (9, or 7).
  Seat 0 is the first Fox King; the Top Dog sits to the Fox King's right, seat FK-1 (the last seat at first).
  Clockwise is to the left, seat i to i+1.
* Each hour every player picks one card from their hand at the same time (one simultaneous decision of all
  seats); the cards are revealed together. The Chickens played join the coop, face up, before anything acts.
* Resolution of the hour, by the cards revealed:
  - No Fox, Rat or Dog: nothing happens.
  - Dogs and no predator: nothing happens (the Dogs go to their owners' piles).
  - Foxes and/or Rats and no Dog: in clockwise order from the Fox King each Fox takes one Chicken, then each
    Rat takes one (same order), then the Foxes go on taking one each in turn, in the same order, until the
    coop is empty. A lone Fox therefore takes the whole coop; Rats alone take one Chicken each and leave
    the rest in the coop.
  - One or more Dogs with any predator: the predators get nothing; starting with the Top Dog and going
    counter-clockwise (seat i to i-1) the Dogs take one Chicken each in turn until the coop is empty.
    With `lone_dog_powerless` (the rule text read literally, "more than one Guard Dog") a single Dog does
    nothing and the predators act as if it were absent; two or more Dogs rout the predators as above.
  - Predators (or Dogs) facing an empty coop get nothing.
* Every take is the taker's choice of a Chicken in the coop, named by its kind: Chickens of one kind differ
  only in colour, which only says whom the card goes back to at dawn and never changes a score.
* Dawn: Chickens left in the coop score for no one. Each player scores the Chickens they claimed that night
  (negative nights allowed); with `healthy_coop` a player who claimed at least one Chicken and no Sickly
  Chicken that night scores 1 more. Every card goes back to its owner. The Fox King marker moves one seat
  left; the old Fox King becomes Top Dog.
* After the last night, places go by total score, highest first; equal totals share a place.

Choices where neither the rule text nor the rulings say anything (each documented here; none changes who
gets which Chicken, so none is a variant):
* Forced moves are applied at once, not asked for. The last card of each night is played automatically
  (every hand holds one card), and a take is a decision only when it is a real choice: it is applied at
  once when the coop holds Chickens of one kind only, or when the one taker left will take everything
  (a lone Fox, or the last Fox or Dog still taking in turn). A pick with one legal kind before the last hour
  (e.g. a hand of Healthy Chickens only) is still a decision.
* There is no chance in this game: every hand starts as the same full set and seat 0 starts.

Actions: a pick is the card's name ("healthy", "plump", "prize", "sickly", "fox", "rat", "dog"); a take is
"take_" and the Chicken's name ("take_prize"), so that every action reads unambiguously in a record.

Observation (card lists are card names, sorted in the order above, repeats included): seat, num_players,
options; phase ("pick", "take" or "over"), night and nights, hour and hours (0-based night and hour),
fox_king, top_dog; hand (this seat's) and hands (every seat's, public: the set minus the cards played
tonight); coop; revealed (the cards of the hour being resolved by seat, None during a pick); taker,
takers_once and takers_repeating (who takes next: each seat of takers_once once, in order, then
takers_repeating in turn); claimed (each seat's Chickens tonight); night_scores (points of each finished night
by seat); totals; and log, one entry per hour played: {"night", "hour", "revealed": cards by seat, "takes":
[[seat, chicken], ...]}.

Hidden information. A pick is simultaneous: the runner collects every seat's card and applies them together,
so no state ever holds a pick that another seat has made and not yet revealed. Everything else is public:
every card played and every take is seen by the table, so each seat's remaining hand follows from the
public history. An observation therefore holds the whole position plus the public log, and the sampler
rebuilds the one state the observation describes (its generator has nothing to draw).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from games.core.errors import IllegalAction, OptionError
from games.core.sampling import RecentPlans
from games.core.state import SEAT_KEYS, Action, Game, Observation, Outcome, State
from games.nobody_but_us_chickens.spec import SPEC

HEALTHY, PLUMP, PRIZE, SICKLY, FOX, RAT, DOG = range(7)
CARD_NAMES = ("healthy", "plump", "prize", "sickly", "fox", "rat", "dog")
CARD_TITLES = (
    "Healthy Chicken",
    "Plump Chicken",
    "Prize Chicken",
    "Sickly Chicken",
    "Fox",
    "Rat",
    "Guard Dog",
)
CARD_INDEX = {name: index for index, name in enumerate(CARD_NAMES)}
TAKE_ACTIONS = ("take_healthy", "take_plump", "take_prize", "take_sickly")
TAKE_INDEX = {name: index for index, name in enumerate(TAKE_ACTIONS)}
CHICKENS = (HEALTHY, PLUMP, PRIZE, SICKLY)
FULL_SET = (3, 1, 1, 1, 1, 1, 1)
SHORT_SET = (2, 1, 1, 1, 1, 0, 1)

PICK, TAKE, OVER = "pick", "take", "over"

# Inside a state a hand is one int, its count of each kind a base-4 digit (kind 0 lowest): playing a card
# subtracts CARD_UNIT[card]. What a hand code means is looked up in tables filled as codes turn up.
CARD_UNIT = tuple(4**kind for kind in range(7))


def hand_code(counts: Sequence[int]) -> int:
    """The int of a hand given as counts by kind."""
    return sum(count * CARD_UNIT[kind] for kind, count in enumerate(counts))


def hand_counts(code: int) -> list[int]:
    """The counts by kind of a hand code."""
    return [code >> (2 * kind) & 3 for kind in range(7)]


class _HandTable(dict[int, list[str]]):
    """code -> the legal picks of that hand (card names in kind order)."""

    def __missing__(self, code: int) -> list[str]:
        value = self[code] = [
            name for name, count in zip(CARD_NAMES, hand_counts(code), strict=True) if count
        ]
        return value


class _HandNames(dict[int, list[str]]):
    """code -> the hand as sorted card names, repeats included."""

    def __missing__(self, code: int) -> list[str]:
        value = self[code] = cards_to_names(hand_counts(code))
        return value


class _HandKinds(dict[int, tuple[int, ...]]):
    """code -> the kinds of the legal picks of that hand (as PICKS_OF, by kind index)."""

    def __missing__(self, code: int) -> tuple[int, ...]:
        value = self[code] = tuple(kind for kind, count in enumerate(hand_counts(code)) if count)
        return value


PICKS_OF = _HandTable()
KINDS_OF = _HandKinds()
NAMES_OF = _HandNames()
LAST_CARD = {CARD_UNIT[kind]: kind for kind in range(7)}  # a hand of one card -> its kind
# The legal takes by which kinds the coop holds (bit k: some Chicken of kind k).
TAKES_OF = tuple([TAKE_ACTIONS[k] for k in range(4) if present >> k & 1] for present in range(16))


def cards_to_names(counts: Sequence[int]) -> list[str]:
    """Card counts by kind (index order of CARD_NAMES) as a sorted list of card names, repeats included."""
    names: list[str] = []
    for kind, count in enumerate(counts):
        names.extend([CARD_NAMES[kind]] * count)
    return names


def names_to_counts(names: Sequence[str], size: int) -> list[int]:
    """A list of card names as counts by kind over the first `size` kinds; raise OptionError on a bad name."""
    counts = [0] * size
    for name in names:
        kind = CARD_INDEX.get(name)
        if kind is None or kind >= size:
            raise OptionError(f"unknown card {name!r} here (expected one of {', '.join(CARD_NAMES[:size])})")
        counts[kind] += 1
    return counts


MAX_RESOLUTIONS = 20_000  # per table: the common hours (a 6-player game could show a few hundred thousand)


class _Setup:
    """What every state of one player count and variant shares (read-only, but for the `resolutions` table,
    filled as (cards revealed, Fox King) pairs turn up; see `NobodyButUsChickensState._resolution`)."""

    def __init__(self, num_players: int, options: Mapping[str, Any]):
        self.full_hand = SHORT_SET if options["short_summer_nights"] else FULL_SET
        self.full_code = hand_code(self.full_hand)
        self.lone_dog_powerless = bool(options["lone_dog_powerless"])
        self.healthy_coop = bool(options["healthy_coop"])
        self.resolutions: dict[
            tuple[tuple[int, ...], int], tuple[tuple[int, ...], list[int], list[int] | None]
        ] = {}
        self.hours = sum(self.full_hand)
        self.nights = num_players
        self.all_seats = tuple(range(num_players))
        # Seats in order of play for each Fox King: clockwise from it, and counter-clockwise from its Top Dog.
        self.clockwise = tuple(
            tuple((king + step) % num_players for step in self.all_seats) for king in self.all_seats
        )
        self.counter_clockwise = tuple(
            tuple((king - 1 - step) % num_players for step in self.all_seats) for king in self.all_seats
        )


_SETUPS: dict[tuple[Any, ...], _Setup] = {}


def _setup_for(num_players: int, options: Mapping[str, Any]) -> _Setup:
    key = (
        num_players,
        bool(options["short_summer_nights"]),
        bool(options["lone_dog_powerless"]),
        bool(options["healthy_coop"]),
    )
    setup = _SETUPS.get(key)
    if setup is None:
        setup = _SETUPS[key] = _Setup(num_players, options)
    return setup


def chicken_points(claimed: Sequence[int]) -> int:
    """Points of claimed Chickens given as counts by kind."""
    return claimed[HEALTHY] + 2 * claimed[PLUMP] + 4 * claimed[PRIZE] - claimed[SICKLY]


class NobodyButUsChickensState(State):
    """A position of Nobody but Us Chickens.

    Internally cards are kind indices (HEALTHY .. DOG); the coop is counts by kind, tonight's claims one flat
    list (seat s's count of kind k at 4 * s + k), and
    each hand one int of base-4 counts by kind (`hand_code`).
    `phase` is "pick" (every seat picks a card), "take" (the seat `taker()` chooses a Chicken) or "over".
    Takers still to come: `takers_once` take one Chicken each in order (Foxes' first trip, then Rats), then
    `takers_repeating` take one each in turn until the coop is empty (Foxes, or Dogs). The public log holds,
    per hour, (night, hour, cards revealed by seat, takes as (seat, chicken) pairs).
    Build hand-made positions with `NobodyButUsChickensState.position`.
    """

    game: ClassVar[NobodyButUsChickensGame]
    __slots__ = (
        "num_players",
        "options",
        "rng",
        "setup",
        "hours",
        "all_seats",
        "resolutions",
        "night",
        "hour",
        "fox_king",
        "phase",
        "hands",
        "coop",
        "claimed",
        "night_scores",
        "totals",
        "revealed",
        "takers_once",
        "takers_repeating",
        "log",
        "narrate_from",
    )

    def __init__(self, num_players: int, options: Mapping[str, Any], rng: random.Random | None):
        self.num_players = num_players
        self.options = dict(options)
        self.rng = rng
        self.setup = setup = _setup_for(num_players, options)
        self.hours = setup.hours
        self.all_seats = setup.all_seats
        self.resolutions = setup.resolutions
        self.night = 0
        self.hour = 0
        self.fox_king = 0
        self.phase = PICK
        self.hands = [self.full_code] * num_players  # hand codes (see CARD_UNIT)
        self.coop = [0, 0, 0, 0]
        self.claimed = [0] * (4 * num_players)  # seat s's claims of kind k at 4 * s + k
        self.night_scores: list[tuple[int, ...]] = []
        self.totals = [0] * num_players
        self.revealed: tuple[int, ...] | None = None
        self.takers_once: list[int] = []
        self.takers_repeating: list[int] = []
        self.log: list[tuple[int, int, tuple[int, ...], tuple[tuple[int, int], ...]]] = []
        self.narrate_from = 0  # the first log entry the last decision touched (for the CLI's account only)

    # ----------------------------------------------------------------- hand-built positions
    @classmethod
    def position(
        cls,
        num_players: int,
        options: Mapping[str, Any] | None = None,
        *,
        night: int = 0,
        hour: int = 0,
        hands: Sequence[Sequence[str]] | None = None,
        coop: Sequence[str] = (),
        claimed: Sequence[Sequence[str]] | None = None,
        night_scores: Sequence[Sequence[int]] | None = None,
    ) -> NobodyButUsChickensState:
        """A hand-built position at the start of hour `hour` of night `night` (both 0-based), for tests.

        `hands` (card names per seat; default: the full hand, valid at hour 0 only) must each hold
        one card per hour left; `coop` lists the Chickens in the coop, `claimed` those each seat claimed
        tonight, `night_scores` each earlier night's points by seat (default 0; the totals are their sums).
        The Fox King is seat `night` mod players.
        At the last hour the forced cards are played at once, as in a real game.
        """
        validated = SPEC.validate_options(options, num_players)
        state = cls(num_players, validated, None)
        if not 0 <= night < state.nights or not 0 <= hour < state.hours:
            raise OptionError(f"night {night} or hour {hour} is outside the game")
        state.night = night
        state.hour = hour
        state.fox_king = night % num_players
        if hands is not None:
            if len(hands) != num_players:
                raise OptionError(f"expected {num_players} hands, got {len(hands)}")
            counts = [names_to_counts(hand, 7) for hand in hands]
        else:
            counts = [list(state.full_hand) for _ in range(num_players)]
        for seat, hand in enumerate(counts):
            if sum(hand) != state.hours - hour or any(
                have > full for have, full in zip(hand, state.full_hand, strict=True)
            ):
                raise OptionError(f"seat {seat}'s hand {cards_to_names(hand)} cannot be held at hour {hour}")
        state.hands = [hand_code(hand) for hand in counts]
        state.coop = names_to_counts(coop, 4)
        if claimed is not None:
            state.claimed = [count for pile in claimed for count in names_to_counts(pile, 4)]
        if night_scores is None:
            night_scores = [(0,) * num_players for _ in range(night)]
        if len(night_scores) != night or any(len(scores) != num_players for scores in night_scores):
            raise OptionError(f"expected the scores of {night} earlier nights for {num_players} seats")
        state.night_scores = [tuple(scores) for scores in night_scores]
        state.totals = [sum(scores[seat] for scores in night_scores) for seat in state.all_seats]
        if hour == state.hours - 1:
            state._play_forced_cards()
        return state

    # ----------------------------------------------------------------- protocol
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance(self) -> bool:
        return False

    def deciders(self) -> tuple[int, ...]:
        if self.phase == PICK:
            return self.all_seats
        if self.phase == TAKE:
            return (self.taker(),)
        return ()

    def taker(self) -> int:
        """The seat to take the next Chicken (during the take phase)."""
        return self.takers_once[0] if self.takers_once else self.takers_repeating[0]

    # What every state of one player count and variant shares (see _Setup).
    full_hand = property(lambda self: self.setup.full_hand)
    full_code = property(lambda self: self.setup.full_code)
    nights = property(lambda self: self.setup.nights)
    clockwise = property(lambda self: self.setup.clockwise)
    counter_clockwise = property(lambda self: self.setup.counter_clockwise)
    lone_dog_powerless = property(lambda self: self.setup.lone_dog_powerless)
    healthy_coop = property(lambda self: self.setup.healthy_coop)

    @property
    def top_dog(self) -> int:
        return (self.fox_king - 1) % self.num_players

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == PICK and seat in self.all_seats:
            return PICKS_OF[self.hands[seat]][:]
        if phase == TAKE and seat == self.taker():
            coop = self.coop
            return TAKES_OF[(coop[0] > 0) | (coop[1] > 0) << 1 | (coop[2] > 0) << 2 | (coop[3] > 0) << 3][:]
        raise IllegalAction(f"seat {seat} is not to decide now")

    def _apply(self, actions: Mapping[int, Action]) -> None:
        if self.phase == PICK:
            self.narrate_from = len(self.log)
            self._reveal(tuple(map(CARD_INDEX.__getitem__, map(actions.__getitem__, self.all_seats))))
        else:
            self.narrate_from = len(self.log) - 1
            self._take(TAKE_INDEX[actions[self.taker()]])
            self._run_takes()

    def run(
        self,
        rng: random.Random,
        events: list[list[Any]],
        cap: int,
        decide: Callable[[int, list[Any]], Action],
    ) -> None:
        """`State.run` without its generic calls: no chance events, every seat deciding at a pick (in seat
        order), the taker alone at a take."""
        append = events.append
        legal_actions = self.legal_actions
        room = cap - len(events)
        while room > 0:
            phase = self.phase
            if phase == PICK:
                actions = {}
                for seat in self.all_seats:
                    actions[seat] = decide(seat, legal_actions(seat))
                append(["m", {SEAT_KEYS[seat]: action for seat, action in actions.items()}])
            elif phase == TAKE:
                seat = self.taker()
                action = decide(seat, legal_actions(seat))
                append(["m", {SEAT_KEYS[seat]: action}])
                actions = {seat: action}
            else:
                return
            self._apply(actions)
            room -= 1

    def sample_chance(self, rng: random.Random) -> Any:
        raise IllegalAction("Nobody but Us Chickens has no chance events")

    def chance_is_possible(self, outcome: Any) -> bool:
        return False

    def _apply_chance(self, outcome: Any) -> None:
        raise IllegalAction("Nobody but Us Chickens has no chance events")

    def scores(self) -> list[int]:
        """Totals of finished nights plus the Chickens claimed so far tonight (no bonus before dawn)."""
        if self.phase == OVER:
            return list(self.totals)
        c = self.claimed
        return [
            total + c[4 * seat] + 2 * c[4 * seat + 1] + 4 * c[4 * seat + 2] - c[4 * seat + 3]
            for seat, total in enumerate(self.totals)
        ]

    def outcome(self) -> Outcome:
        scores = self.scores()
        # places_from_keys(scores), highest first: one more than the number of higher scores.
        ordered = sorted(scores, reverse=True)
        places = tuple([ordered.index(score) + 1 for score in scores])
        return Outcome(places=places, scores=tuple([float(score) for score in scores]))

    # ----------------------------------------------------------------- the hour
    def _reveal(self, cards: Sequence[int]) -> None:
        """Every seat plays `cards[seat]`; Chickens join the coop, then the hour resolves."""
        revealed = tuple(cards)
        key = (revealed, self.fox_king)
        resolution = self.resolutions.get(key)
        if resolution is None:
            resolution = self._resolution(revealed)
            if len(self.resolutions) < MAX_RESOLUTIONS:
                self.resolutions[key] = resolution
        chickens, takers_once, takers_repeating = resolution
        hands = self.hands
        unit = CARD_UNIT
        for seat, card in enumerate(revealed):
            hands[seat] -= unit[card]
        coop = self.coop
        for kind in chickens:
            coop[kind] += 1
        self.revealed = revealed
        self.log.append((self.night, self.hour, revealed, ()))
        if takers_repeating is None:
            self._end_hour()
            return
        self.takers_once = takers_once[:]
        self.takers_repeating = takers_repeating[:]
        self._run_takes()

    def _resolution(self, cards: tuple[int, ...]) -> tuple[tuple[int, ...], list[int], list[int] | None]:
        """What cards revealed with this Fox King do: the Chickens that join the coop, and the takers (each of
        the first list once, then the second in turn), or None for the second when no predator came."""
        chickens = tuple(card for card in cards if card < FOX)
        dogs = cards.count(DOG)
        if FOX not in cards and RAT not in cards:
            return chickens, [], None
        if dogs and not (dogs == 1 and self.lone_dog_powerless):
            # Counter-clockwise from the Top Dog (seat FK-1).
            return (
                chickens,
                [],
                [seat for seat in self.counter_clockwise[self.fox_king] if cards[seat] == DOG],
            )
        clockwise = self.clockwise[self.fox_king]
        foxes = [seat for seat in clockwise if cards[seat] == FOX]
        return chickens, foxes + [seat for seat in clockwise if cards[seat] == RAT], foxes

    def _take(self, chicken: int) -> None:
        """The current taker claims one `chicken` from the coop."""
        if self.takers_once:
            seat = self.takers_once.pop(0)
        else:
            repeating = self.takers_repeating
            seat = repeating.pop(0)
            repeating.append(seat)
        self.coop[chicken] -= 1
        self.claimed[4 * seat + chicken] += 1
        night, hour, revealed, takes = self.log[-1]
        self.log[-1] = (night, hour, revealed, takes + ((seat, chicken),))

    def _sweep(self, seat: int) -> None:
        """The one taker left takes every Chicken in the coop, one at a time, in kind order."""
        coop, claimed = self.coop, self.claimed
        swept: tuple[tuple[int, int], ...] = ()
        for kind in CHICKENS:
            if coop[kind]:
                swept += ((seat, kind),) * coop[kind]
                claimed[4 * seat + kind] += coop[kind]
                coop[kind] = 0
        night, hour, revealed, takes = self.log[-1]
        self.log[-1] = (night, hour, revealed, takes + swept)

    def _run_takes(self) -> None:
        """Apply every forced take; stop at a real choice (phase "take") or end the hour."""
        coop = self.coop
        once, repeating = self.takers_once, self.takers_repeating  # changed in place by _take
        while once or repeating:
            kinds = (coop[0] > 0) + (coop[1] > 0) + (coop[2] > 0) + (coop[3] > 0)
            if not kinds:
                break
            if len(repeating) == 1 and once.count(repeating[0]) == len(once):
                self._sweep(repeating[0])
                break
            if kinds > 1:
                self.phase = TAKE
                return
            self._take(0 if coop[0] else 1 if coop[1] else 2 if coop[2] else 3)
        self.takers_once = []
        self.takers_repeating = []
        self._end_hour()

    def _end_hour(self) -> None:
        self.revealed = None
        hour = self.hour = self.hour + 1
        hours = self.hours
        if hour == hours:
            self._dawn()
            if self.phase == OVER:
                return
            hour = 0
        self.phase = PICK
        if hour == hours - 1:
            self._play_forced_cards()

    def _play_forced_cards(self) -> None:
        """The last hour of a night: every hand holds one card, which is played without a decision."""
        self._reveal(tuple(map(LAST_CARD.__getitem__, self.hands)))

    def _dawn(self) -> None:
        """Score the night, give every card back, pass the markers left; the game ends after the last
        night."""
        healthy_coop = self.healthy_coop
        night_scores = []
        claimed = self.claimed
        for seat in self.all_seats:
            pile = claimed[4 * seat : 4 * seat + 4]
            points = chicken_points(pile)
            if healthy_coop and not pile[SICKLY] and (pile[HEALTHY] or pile[PLUMP] or pile[PRIZE]):
                points += 1
            night_scores.append(points)
            self.totals[seat] += points
        self.night_scores.append(tuple(night_scores))
        self.night += 1
        self.hour = 0
        self.coop = [0, 0, 0, 0]
        self.claimed = [0] * (4 * self.num_players)
        self.hands = [self.full_code] * self.num_players
        self.fox_king = (self.fox_king + 1) % self.num_players
        if self.night == self.nights:
            self.phase = OVER

    # ----------------------------------------------------------------- views
    def observation(self, seat: int) -> Observation:
        return {
            "seat": seat,
            "num_players": self.num_players,
            "options": dict(self.options),
            "phase": self.phase,
            "night": self.night,
            "nights": self.nights,
            "hour": self.hour,
            "hours": self.hours,
            "fox_king": self.fox_king,
            "top_dog": self.top_dog,
            "hand": NAMES_OF[self.hands[seat]][:],
            "hands": [NAMES_OF[hand][:] for hand in self.hands],
            "coop": cards_to_names(self.coop),
            "revealed": None if self.revealed is None else [CARD_NAMES[card] for card in self.revealed],
            "taker": self.taker() if self.phase == TAKE else None,
            "takers_once": list(self.takers_once),
            "takers_repeating": list(self.takers_repeating),
            "claimed": [cards_to_names(self.claimed[4 * seat : 4 * seat + 4]) for seat in self.all_seats],
            "night_scores": [list(scores) for scores in self.night_scores],
            "totals": list(self.totals),
            "log": [
                {
                    "night": night,
                    "hour": hour,
                    "revealed": [CARD_NAMES[card] for card in revealed],
                    "takes": [[taker, CARD_NAMES[chicken]] for taker, chicken in takes],
                }
                for night, hour, revealed, takes in self.log
            ],
        }

    def clone(self) -> NobodyButUsChickensState:
        other = NobodyButUsChickensState.__new__(NobodyButUsChickensState)
        other.num_players = self.num_players
        other.options = self.options
        other.rng = None
        other.setup = self.setup
        other.hours = self.hours
        other.all_seats = self.all_seats
        other.resolutions = self.resolutions
        other.night = self.night
        other.hour = self.hour
        other.fox_king = self.fox_king
        other.phase = self.phase
        other.hands = self.hands[:]
        other.coop = self.coop[:]
        other.claimed = self.claimed[:]
        other.night_scores = self.night_scores[:]
        other.totals = self.totals[:]
        other.revealed = self.revealed
        other.takers_once = self.takers_once[:]
        other.takers_repeating = self.takers_repeating[:]
        other.log = self.log[:]
        other.narrate_from = self.narrate_from
        return other

    def render(self) -> str:
        if self.phase == OVER:
            head = f"Game over after {self.nights} nights"
        else:
            head = (
                f"Night {self.night + 1}/{self.nights}, hour {self.hour + 1}/{self.hours}; "
                f"Fox King seat {self.fox_king}, Top Dog seat {self.top_dog}"
            )
        if self.phase == OVER:
            return "\n".join(
                [head]
                + [
                    f"seat {seat}: total {self.totals[seat]} (nights "
                    f"{', '.join(f'{s[seat]:+d}' for s in self.night_scores)})"
                    for seat in self.all_seats
                ]
            )
        lines = [head, "Coop: " + (" ".join(cards_to_names(self.coop)) or "empty")]
        for seat in self.all_seats:
            played = f"; played {CARD_NAMES[self.revealed[seat]]}" if self.revealed is not None else ""
            lines.append(
                f"seat {seat}: total {self.totals[seat]}; hand {' '.join(NAMES_OF[self.hands[seat]]) or '-'}"
                "; claimed tonight "
                f"{' '.join(cards_to_names(self.claimed[4 * seat : 4 * seat + 4])) or '-'}{played}"
            )
        if self.phase == TAKE:
            lines.append(f"seat {self.taker()} chooses a Chicken to take")
        return "\n".join(lines)

    def describe_action(self, seat: int, action: Action) -> str:
        if action in TAKE_INDEX:
            return f"takes a {CARD_TITLES[TAKE_INDEX[action]]} from the coop"
        if action in CARD_INDEX:
            return f"sends the {CARD_TITLES[CARD_INDEX[action]]} into the coop"
        return str(action)


class NobodyButUsChickensGame(Game):
    """The game object: starts states and rebuilds a state from an observation (there is nothing to draw)."""

    spec = SPEC

    def new_state(
        self, num_players: int, options: Mapping[str, Any], rng: random.Random
    ) -> NobodyButUsChickensState:
        return NobodyButUsChickensState(num_players, options, rng)

    def sample_state(self, observation: Observation, rng: random.Random) -> NobodyButUsChickensState:
        """The state the observation describes: every card in it is public, so nothing is drawn.

        A search asks for it once per iteration from one observation: the state rebuilt from an observation is
        kept and cloned for the next call with the same one (`games.core.sampling`)."""
        return _STATES.plan_for(observation).clone()

    @staticmethod
    def _rebuild(observation: Observation) -> NobodyButUsChickensState:
        state = NobodyButUsChickensState(observation["num_players"], observation["options"], None)
        state.phase = observation["phase"]
        state.night = observation["night"]
        state.hour = observation["hour"]
        state.fox_king = observation["fox_king"]
        state.hands = [hand_code(names_to_counts(hand, 7)) for hand in observation["hands"]]
        state.coop = names_to_counts(observation["coop"], 4)
        revealed = observation["revealed"]
        state.revealed = None if revealed is None else tuple(CARD_INDEX[card] for card in revealed)
        state.takers_once = list(observation["takers_once"])
        state.takers_repeating = list(observation["takers_repeating"])
        state.claimed = [count for pile in observation["claimed"] for count in names_to_counts(pile, 4)]
        state.night_scores = [tuple(scores) for scores in observation["night_scores"]]
        state.totals = list(observation["totals"])
        state.log = [
            (
                entry["night"],
                entry["hour"],
                tuple(CARD_INDEX[card] for card in entry["revealed"]),
                tuple((taker, CARD_INDEX[chicken]) for taker, chicken in entry["takes"]),
            )
            for entry in observation["log"]
        ]
        state.narrate_from = len(state.log)
        return state


_STATES: RecentPlans[NobodyButUsChickensState] = RecentPlans(NobodyButUsChickensGame._rebuild)

GAME = NobodyButUsChickensGame()
NobodyButUsChickensState.game = GAME

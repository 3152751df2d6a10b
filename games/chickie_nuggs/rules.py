"""Chickie Nuggs: the rules as implemented (the published rule text, read with the league's rulings).

The deck (76 cards; the section totals of the rule text decide):
  nuggets 30: 12 Ordinary (1 point), 8 Quality (2), 6 Premium (3), 4 Extra (4);
  sauces 18: 6 Buffalo (Gimme Nuggs), 3 Ranch (Check the Freezer), 3 Sweet & Sour (Steal), 3 BBQ (Skip),
    3 Honey Mustard (Discard); a sauce is worth 1 point on a tray (variant `sauce_values`: one option per
    sauce);
  actions 28: 6 Flying Nuggets, 8 Burnt Nugget, 7 Incognuggo, 5 Dropped Nugget, 2 Five-Second Rule.

Setup: the Flying Nuggets are held out; the other 70 cards are shuffled (a chance event) and 8 are dealt to
each of 2-4 players; the Flying Nuggets go back into the rest, which is shuffled (a second chance event) into
the draw pile. Seat 0 goes first; play goes left (seat + 1). A player's left neighbour is seat + 1, the
right seat - 1.

A turn: up to two plays of non-nugget cards, then one placement on the tray, then the draw.
- Plays (each counts toward the two): a sauce for its action, Burnt Nugget, Incognuggo. A card with no legal
  target cannot be played; targets are judged from public view only:
  Buffalo / Gimme Nuggs on any opponent (whose hand may hold no nugget: then no effect);
  Ranch / Check the Freezer: the player privately sees the top 4 cards (fewer if the pile is shorter),
    then keeps the order or shuffles the whole pile (a chance event); a pile of one card is simply kept;
  Sweet & Sour / Steal on an opponent holding a card: a random card of that hand (a chance event) joins the
    player's hand;
  BBQ / Skip: the turn ends at once (no placement, no draw) and the next player's whole turn is skipped (in a
    2-player game the same player goes again);
  Honey Mustard / Discard: one nugget of the player's own tray goes to the discard pile;
  Burnt Nugget: one nugget of an opponent's tray goes to the discard pile (a face-down one is chosen blind).
- Incognuggo places a nugget face down as this turn's placement (choice: playing Incognuggo and placing the
  face-down nugget are one action, "incognuggo:<nugget>"; it counts as one of the two plays and so needs a
  play left). Whether played first or last, the cards reachable are the same, and this way a state never holds
  "an Incognuggo waiting for its nugget", which would tell the others that the hand holds a nugget.
- Placement: one nugget (6 nugget slots) or one sauce (2 sauce slots) on the tray. It is compulsory while the
  player holds a nugget and has a free nugget slot (placing a sauce meets it); otherwise the player may pass.
  Placing (or passing) ends the plays.
- The draw: one card; a player whose hand holds two or fewer cards after the placement chooses to draw one or
  two (only offered while the pile holds two or more).
- Flying Nuggets is never held: drawn, it is played at once and uses up that draw. The drawer's left
  neighbour, then the right one, each take one nugget of the drawer's tray into their hand (in a 2-player game
  the lone opponent takes two); with too few nuggets the later chooser gets nothing. Taking is compulsory
  (choice: it never hurts the taker); a face-down nugget is taken blind. A chooser with one distinct option
  takes it without being asked.
- Gimme Nuggs: the target is always asked whether to answer with Dropped Nugget (even without one: the only
  legal answer is then to decline, and the question looks the same to everyone else). Dropped Nugget cancels
  the Gimme; the attacker is then always asked whether to answer with Five-Second Rule, which cancels the
  Dropped Nugget: the target gives their highest nugget to the attacker. No further counters. If the Gimme
  stands, the attacker takes one of the target's nuggets at random (a chance event whose outcome is "none"
  when the target has no nugget: no effect). Answers do not count toward the two plays.
- Played cards, burnt and discarded nuggets, and resolved Flying Nuggets go face up to the discard pile; a
  face-down nugget is revealed when it goes there (choice: the discard pile is face up).
- The end: right after the draw that empties the pile (a Flying Nuggets drawn last is resolved first). The
  trays are turned up (observations then show every face-down value). Places: most tray points (face-down
  nuggets count); then most cards on the tray; then most points of cards in hand (nuggets and sauces at their
  tray values); then a shared place. `scores` are the tray points.

Hidden information. A seat sees its own hand, all trays (face-down nuggets as "a nugget", their values only to
their owner and to whoever takes one), the discard pile, hand sizes and pile size, and the top cards of the
pile it saw through Check the Freezer until they are drawn or the pile is shuffled. What it learns about other
hands is kept per seat: for every other hand, entries "this many cards, each one of these kinds"
(`hand_knowledge` in the observation, kept by `games.chickie_nuggs.knowledge` from the rules' journal). They
come from the draws it saw coming off the known top, the cards it gave and took (Steal, Gimme, Five-Second
Rule, Flying Nuggets, its own face-down nuggets taken), and public events: a card played or placed from a
hand, a face-up nugget taken, a Gimme with no effect (no nugget in that hand), a pass of the placement with a
free nugget slot (no nugget either, placing being compulsory otherwise). The entries are sound (the truth
always fits them) but not always complete: when a card leaves a hand unseen (a Steal or a Gimme between two
others), the seat cannot tell which entry left, and the candidates merge into one wider entry. The sampler
(`games.chickie_nuggs.sampler`) deals every card the seat cannot see so that every entry, every face-down
nugget and the known top of the pile fit.

Observation keys: seat, num_players, options; phase (deal, shuffle_in, turn, draw_choice, gimme_answer,
five_second_answer, gimme_pick, steal_pick, freezer_choice, freezer_shuffle, flying_take, over), turn,
plays_made, skip_next, attacker and target (of the latest Gimme or Steal, -1 before any), draws_left, choosers
(Flying Nuggets choosers still to take), to_act; hand (name -> count), hand_sizes; trays (per seat: "nuggets"
as values, a face-down one as {"face_down": [values it could have]}, "sauces" by name), tray_points (as far as
this seat can see); discard (name -> count), pile_size, pile_top (known top cards, top first); hand_knowledge
(per seat, null for one's own); log (the events as this seat saw them, oldest first).

Actions (strings; `ACTION_PARTS` parses them): "gimme:<seat>", "freezer", "steal:<seat>", "skip",
"discard:<slot>", "burn:<seat>:<slot>", "incognuggo:<nugget>", "place:<card>", "pass", "draw:1", "draw:2",
"dropped_nugget", "five_second_rule", "decline", "keep", "shuffle", "take:<slot>". A slot indexes a tray's
nugget list (0 = placed first); cards are named as in `CARD_NAMES` (nugget1 ... five_second_rule).
Chance outcomes: a permutation (list of pile indices, new order bottom to top) for each shuffle, and a card
name (or "none") for the random picks of Gimme Nuggs and Steal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat, starmap
from operator import mul
from typing import Any

from games.chickie_nuggs.spec import SAUCE_OPTIONS, SPEC
from games.core.state import SEAT_KEYS, Action, Game, Observation, Outcome, State, places_from_keys

# Card kinds, in the order of `CARD_NAMES`.
(
    NUGGET1,
    NUGGET2,
    NUGGET3,
    NUGGET4,
    BUFFALO,
    RANCH,
    SWEET_SOUR,
    BBQ,
    HONEY_MUSTARD,
    FLYING,
    BURNT,
    INCOGNUGGO,
    DROPPED,
    FIVE_SECOND,
) = range(14)
CARD_NAMES = (
    "nugget1",
    "nugget2",
    "nugget3",
    "nugget4",
    "buffalo",
    "ranch",
    "sweet_sour",
    "bbq",
    "honey_mustard",
    "flying_nuggets",
    "burnt_nugget",
    "incognuggo",
    "dropped_nugget",
    "five_second_rule",
)
CARD_TITLES = (
    "Ordinary Nugget (1)",
    "Quality Nugget (2)",
    "Premium Nugget (3)",
    "Extra Nuggets (4)",
    "Buffalo / Gimme Nuggs",
    "Ranch / Check the Freezer",
    "Sweet & Sour / Steal",
    "BBQ / Skip",
    "Honey Mustard / Discard",
    "Flying Nuggets",
    "Burnt Nugget",
    "Incognuggo",
    "Dropped Nugget",
    "Five-Second Rule",
)
KINDS = len(CARD_NAMES)
CARD_BY_NAME = {name: kind for kind, name in enumerate(CARD_NAMES)}
DECK_COUNTS = (12, 8, 6, 4, 6, 3, 3, 3, 3, 6, 8, 7, 5, 2)
NUGGET_KINDS = (NUGGET1, NUGGET2, NUGGET3, NUGGET4)
SAUCE_KINDS = (BUFFALO, RANCH, SWEET_SOUR, BBQ, HONEY_MUSTARD)
NUGGET_SLOTS = 6
SAUCE_SLOTS = 2
HAND_SIZE = 8
PEEK_DEPTH = 4
MAX_PLAYS = 2

# Knowledge masks: bit k set = "this card could be of kind k".
ALL_MASK = (1 << KINDS) - 1
HAND_MASK = ALL_MASK & ~(1 << FLYING)  # a held card is never Flying Nuggets
NUGGET_MASK = (1 << NUGGET1) | (1 << NUGGET2) | (1 << NUGGET3) | (1 << NUGGET4)
# NOT_ABOVE[k]: kinds a hand may still hold after giving a nugget of kind k as its highest.
NOT_ABOVE = tuple(HAND_MASK & ~(NUGGET_MASK & ~((2 << k) - 1)) for k in NUGGET_KINDS)

# Phases.
DEAL, SHUFFLE_IN, TURN, DRAW_CHOICE, GIMME_ANSWER, FIVE_ANSWER, GIMME_PICK, STEAL_PICK = range(8)
RANCH_CHOICE, RANCH_SHUFFLE, FLYING_TAKE, OVER = range(8, 12)
PHASE_NAMES = (
    "deal",
    "shuffle_in",
    "turn",
    "draw_choice",
    "gimme_answer",
    "five_second_answer",
    "gimme_pick",
    "steal_pick",
    "freezer_choice",
    "freezer_shuffle",
    "flying_take",
    "over",
)
PHASE_BY_NAME = {name: phase for phase, name in enumerate(PHASE_NAMES)}
CHANCE_PHASES = frozenset((DEAL, SHUFFLE_IN, GIMME_PICK, STEAL_PICK, RANCH_SHUFFLE))

# What an event taught the seats about the hands, as kept in a state's journal until an observation needs it.
LEARN_DEAL, LEARN_LOSE, LEARN_DRAW, LEARN_FACE_DOWN, LEARN_TRANSFER, LEARN_RESTRICT, LEARN_TAKE = range(7)

# Actions are strings ("verb" or "verb:argument[:argument]"); ACTION_PARTS parses every possible one.
FREEZER = "freezer"
SKIP = "skip"
PASS = "pass"
DRAW_ONE = "draw:1"
DRAW_TWO = "draw:2"
ANSWER_DROPPED = "dropped_nugget"
ANSWER_FIVE_SECOND = "five_second_rule"
DECLINE = "decline"
KEEP = "keep"
SHUFFLE = "shuffle"
PLACE = [f"place:{name}" for name in CARD_NAMES]
INCOGNUGGO_PLACE = [f"incognuggo:{name}" for name in CARD_NAMES]
PLACE_NUGGET1, PLACE_NUGGET2, PLACE_NUGGET3, PLACE_NUGGET4 = PLACE[:4]
PLACE_BUFFALO, PLACE_RANCH, PLACE_SWEET_SOUR, PLACE_BBQ, PLACE_HONEY_MUSTARD = PLACE[4:9]
INCOGNUGGO_NUGGET1, INCOGNUGGO_NUGGET2, INCOGNUGGO_NUGGET3, INCOGNUGGO_NUGGET4 = INCOGNUGGO_PLACE[:4]
GIMME_AT = [f"gimme:{seat}" for seat in range(4)]
STEAL_AT = [f"steal:{seat}" for seat in range(4)]
DISCARD_SLOT = [f"discard:{slot}" for slot in range(NUGGET_SLOTS)]
TAKE_SLOT = [f"take:{slot}" for slot in range(NUGGET_SLOTS)]
BURN_AT = [[f"burn:{seat}:{slot}" for slot in range(NUGGET_SLOTS)] for seat in range(4)]


def _parts(action: str) -> tuple[Any, ...]:
    verb, *arguments = action.split(":")
    return (verb, *(argument if argument in CARD_BY_NAME else int(argument) for argument in arguments))


ACTION_PARTS: dict[str, tuple[Any, ...]] = {
    action: _parts(action)
    for action in (
        FREEZER,
        SKIP,
        PASS,
        DRAW_ONE,
        DRAW_TWO,
        ANSWER_DROPPED,
        ANSWER_FIVE_SECOND,
        DECLINE,
        KEEP,
        SHUFFLE,
        *PLACE,
        *INCOGNUGGO_PLACE,
        *GIMME_AT,
        *STEAL_AT,
        *DISCARD_SLOT,
        *TAKE_SLOT,
        *(a for row in BURN_AT for a in row),
    )
}
NONE_PICKED = "none"
# The pile before the deal: every card but Flying Nuggets, in card order.
DEAL_PILE = [kind for kind in range(KINDS) if kind != FLYING for _ in range(DECK_COUNTS[kind])]
# Shared, never mutated event details: {"card": name} per kind, and the viewers tuple of one seat.
CARD_EVENT = tuple({"card": name} for name in CARD_NAMES)
ONLY_SEAT = tuple((seat,) for seat in range(4))
# OPPONENTS[n][seat]: the other seats from the left neighbour on; GIMME_TARGETS the matching Gimme actions.
OPPONENTS = [[tuple((seat + i) % n for i in range(1, n)) for seat in range(n)] for n in range(5)]
GIMME_TARGETS = [[[GIMME_AT[t] for t in OPPONENTS[n][seat]] for seat in range(n)] for n in range(5)]


def mask_names(mask: int) -> list[str]:
    """The card names a knowledge mask allows, in card order."""
    return [CARD_NAMES[k] for k in range(KINDS) if mask >> k & 1]


def names_mask(names: Sequence[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << CARD_BY_NAME[name]
    return mask


def counts_to_dict(counts: Sequence[int]) -> dict[str, int]:
    return {CARD_NAMES[k]: c for k, c in enumerate(counts) if c}


def dict_to_counts(cards: Mapping[str, int]) -> list[int]:
    counts = [0] * KINDS
    for name, count in cards.items():
        counts[CARD_BY_NAME[name]] += count
    return counts


def copy_event(event: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh copy of one logged event ("top", the cards seen in the freezer, is the only list in one)."""
    copied = dict(event)
    if "top" in copied:
        copied["top"] = list(copied["top"])
    return copied


def _slot_options(entries: Sequence[tuple[Any, ...]], seat_actions: list[Any]) -> list[Any]:
    """One action per distinguishable tray nugget: face-up ones by value (first slot), face-down ones each."""
    seen = 0
    out = []
    for slot, (kind, masks) in enumerate(entries):
        if masks is None:
            if seen >> kind & 1:
                continue
            seen |= 1 << kind
        out.append(seat_actions[slot])
    return out


class ChickieNuggsState(State):
    """One position of Chickie Nuggs. Build test positions with `ChickieNuggsState.position`."""

    __slots__ = (
        "num_players",
        "options",
        "rng",
        "points",
        "hands",
        "hand_sizes",
        "pile",
        "discard",
        "tray_nuggets",
        "tray_sauces",
        "phase",
        "turn",
        "plays",
        "skip_next",
        "attacker",
        "target",
        "draws_left",
        "choosers",
        "peek",
        "tags",
        "tags_shared",
        "journal",
        "log",
        "_legal",
    )

    def __init__(self, num_players: int, options: Mapping[str, Any], rng: random.Random | None):
        self.num_players = num_players
        self.options = dict(options)
        self.rng = rng
        points = [0] * KINDS
        for kind in NUGGET_KINDS:
            points[kind] = kind - NUGGET1 + 1
        for sauce, option_name, _display in SAUCE_OPTIONS:
            points[CARD_BY_NAME[sauce]] = self.options[option_name]
        self.points: tuple[int, ...] = tuple(points)
        self.hands = [[0] * KINDS for _ in range(num_players)]
        self.hand_sizes = [0] * num_players
        self.pile = DEAL_PILE[:]
        self.discard = [0] * KINDS
        # A tray nugget is (kind, masks): masks None when face up; for a face-down one, per seat the kinds
        # that seat knows it could be (its owner's mask names the kind).
        self.tray_nuggets: list[list[tuple[Any, ...]]] = [[] for _ in range(num_players)]
        self.tray_sauces: list[list[int]] = [[] for _ in range(num_players)]
        self.phase = DEAL
        self.turn = 0
        self.plays = 0
        self.skip_next = False
        self.attacker = -1
        self.target = -1
        self.draws_left = 0
        self.choosers: list[int] = []
        self.peek = [0] * num_players
        # tags[o][p]: what seat o knows about seat p's hand, {mask: number of cards}; None for o == p.
        self.tags: list[list[dict[int, int] | None]] = [
            [None if o == p else {} for p in range(num_players)] for o in range(num_players)
        ]
        # Clones share `tags` until one of them writes (copy on write): see `_own_tags`.
        self.tags_shared = False
        # What the seats learned since `tags` was last brought up to date, newest first, as a linked list
        # (entry, previous) that clones share: see `_knowledge`. Only observations read the knowledge, so a
        # game or a rollout that asks for none never spends a thing on it.
        self.journal: tuple[Any, ...] | None = None
        # The event log as a linked list (entry, previous) so that clones share it: see `_log`.
        self.log: tuple[Any, ...] | None = None
        self._legal: list[Any] | None = None

    # ----- building positions -------------------------------------------------------------------------------

    @classmethod
    def position(
        cls,
        hands: Sequence[Mapping[str, int]],
        pile: Sequence[str],
        trays: Sequence[Sequence[int | str]] | None = None,
        sauces: Sequence[Sequence[str]] | None = None,
        discard: Mapping[str, int] | None = None,
        turn: int = 0,
        plays: int = 0,
        options: Mapping[str, Any] | None = None,
        rest_of_deck: bool = False,
    ) -> ChickieNuggsState:
        """A hand-built position at the start of `turn`'s turn (or after `plays` plays), for tests.

        `hands` gives each seat's cards by name and count; `pile` lists the draw pile from the TOP down; a
        tray lists nugget values 1-4, or "down3" for a face-down 3; `sauces` each tray's sauce names. Seats
        know nothing about each other's hands beyond their sizes. Cards not named anywhere are simply out of
        the game (the deck need not be complete in a test position), unless `rest_of_deck` puts them at the
        bottom of the pile in card order, completing the 76-card deck as the sampler expects.
        """
        num_players = len(hands)
        state = cls(num_players, SPEC.validate_options(options, num_players), None)
        for seat, cards in enumerate(hands):
            state.hands[seat] = dict_to_counts(cards)
            state.hand_sizes[seat] = sum(state.hands[seat])
        state.pile = [CARD_BY_NAME[name] for name in reversed(pile)]
        if rest_of_deck:
            named = [0] * KINDS
            for counts in state.hands:
                for kind in range(KINDS):
                    named[kind] += counts[kind]
            for name in [*pile, *(n for names in sauces or () for n in names)]:
                named[CARD_BY_NAME[name]] += 1
            for tray in trays or ():
                for value in tray:
                    named[int(str(value).removeprefix("down")) - 1] += 1
            for name, count in (discard or {}).items():
                named[CARD_BY_NAME[name]] += count
            rest = [kind for kind in range(KINDS) for _ in range(DECK_COUNTS[kind] - named[kind])]
            state.pile[:0] = rest
        for seat, tray in enumerate(trays or ()):
            for value in tray:
                if isinstance(value, str):
                    kind = int(value.removeprefix("down")) - 1
                    masks = tuple(1 << kind if o == seat else NUGGET_MASK for o in range(num_players))
                    state.tray_nuggets[seat].append((kind, masks))
                else:
                    state.tray_nuggets[seat].append((value - 1, None))
        for seat, names in enumerate(sauces or ()):
            state.tray_sauces[seat] = [CARD_BY_NAME[name] for name in names]
        state.discard = dict_to_counts(discard or {})
        for o in range(num_players):
            for p in range(num_players):
                if o != p and state.hand_sizes[p]:
                    state.tags[o][p] = {HAND_MASK: state.hand_sizes[p]}
        state.phase = TURN
        state.turn = turn
        state.plays = plays
        return state

    # ----- protocol -----------------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

    def deciders(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (TURN, DRAW_CHOICE, RANCH_CHOICE, FIVE_ANSWER):
            return (self.turn,)
        if phase == GIMME_ANSWER:
            return (self.target,)
        if phase == FLYING_TAKE:
            return (self.choosers[0],)
        return ()

    def legal_actions(self, seat: int) -> list[Action]:
        legal = self._legal
        if legal is not None:
            return legal
        phase = self.phase
        if phase == TURN:
            legal = self._turn_actions()
        elif phase == DRAW_CHOICE:
            legal = [DRAW_ONE, DRAW_TWO]
        elif phase == GIMME_ANSWER:
            legal = [ANSWER_DROPPED, DECLINE] if self.hands[self.target][DROPPED] else [DECLINE]
        elif phase == FIVE_ANSWER:
            legal = [ANSWER_FIVE_SECOND, DECLINE] if self.hands[self.turn][FIVE_SECOND] else [DECLINE]
        elif phase == RANCH_CHOICE:
            legal = [KEEP, SHUFFLE]
        elif phase == FLYING_TAKE:
            legal = _slot_options(self.tray_nuggets[self.turn], TAKE_SLOT)
        else:
            legal = []
        self._legal = legal
        return legal

    def _turn_actions(self) -> list[Any]:
        seat = self.turn
        # The hand's counts by kind, in `CARD_NAMES` order, unpacked at once.
        (
            nugget1,
            nugget2,
            nugget3,
            nugget4,
            buffalo,
            ranch,
            sweet_sour,
            bbq,
            honey_mustard,
            _flying,
            burnt,
            incognuggo,
            _dropped,
            _five_second,
        ) = self.hands[seat]
        tray = self.tray_nuggets[seat]
        nuggets_free = len(tray) < NUGGET_SLOTS
        holds_nugget = nugget1 or nugget2 or nugget3 or nugget4
        actions: list[Any] = []
        append = actions.append
        if self.plays < MAX_PLAYS:
            if buffalo:
                actions.extend(GIMME_TARGETS[self.num_players][seat])
            if ranch:
                append(FREEZER)
            if sweet_sour:
                sizes = self.hand_sizes
                for t in OPPONENTS[self.num_players][seat]:
                    if sizes[t]:
                        append(STEAL_AT[t])
            if bbq:
                append(SKIP)
            if honey_mustard and tray:
                actions.extend(_slot_options(tray, DISCARD_SLOT))
            if burnt:
                trays = self.tray_nuggets
                for t in OPPONENTS[self.num_players][seat]:
                    if trays[t]:  # `actions.extend(_slot_options(trays[t], BURN_AT[t]))`, inlined
                        burn_at = BURN_AT[t]
                        seen = 0
                        for slot, (kind, masks) in enumerate(trays[t]):
                            if masks is None:
                                if seen >> kind & 1:
                                    continue
                                seen |= 1 << kind
                            append(burn_at[slot])
            if incognuggo and holds_nugget and nuggets_free:
                if nugget1:
                    append(INCOGNUGGO_NUGGET1)
                if nugget2:
                    append(INCOGNUGGO_NUGGET2)
                if nugget3:
                    append(INCOGNUGGO_NUGGET3)
                if nugget4:
                    append(INCOGNUGGO_NUGGET4)
        if nuggets_free and holds_nugget:
            if nugget1:
                append(PLACE_NUGGET1)
            if nugget2:
                append(PLACE_NUGGET2)
            if nugget3:
                append(PLACE_NUGGET3)
            if nugget4:
                append(PLACE_NUGGET4)
        else:
            append(PASS)
        if len(self.tray_sauces[seat]) < SAUCE_SLOTS and (
            buffalo or ranch or sweet_sour or bbq or honey_mustard
        ):
            if buffalo:
                append(PLACE_BUFFALO)
            if ranch:
                append(PLACE_RANCH)
            if sweet_sour:
                append(PLACE_SWEET_SOUR)
            if bbq:
                append(PLACE_BBQ)
            if honey_mustard:
                append(PLACE_HONEY_MUSTARD)
        return actions

    def playout(self, rng: random.Random, max_events: int = 0) -> int:
        """`State.playout` in one loop: the same draws from `rng`, the same state at the end (one decider at a
        time)."""
        if max_events:
            return super().playout(rng, max_events)
        draw = rng.random
        turn_actions, apply_turn_action = self._turn_actions, self._apply_turn_action
        steps = 0
        while True:
            phase = self.phase
            if phase == TURN:  # the commonest event: `legal_actions` and `_apply` of a turn's action, inlined
                legal = turn_actions()
                self._legal = None
                apply_turn_action(
                    ACTION_PARTS[legal[0] if len(legal) == 1 else legal[int(draw() * len(legal))]]
                )
            elif phase == OVER:
                return steps
            elif phase in CHANCE_PHASES:
                self._apply_chance(self.sample_chance(rng))
            else:
                (seat,) = self.deciders()
                legal = self.legal_actions(seat)
                action = legal[0] if len(legal) == 1 else legal[int(draw() * len(legal))]
                self._apply({seat: action})
            steps += 1

    def run(
        self,
        rng: random.Random,
        events: list[list[Any]],
        cap: int,
        decide: Callable[[int, list[Any]], Action],
    ) -> None:
        """`State.run` in one loop: a turn's legal actions and its action as `_apply` takes it, the other
        decisions through `legal_actions` and `_apply`, chance through `sample_chance` and `_apply_chance`.
        The state is up to date whenever `decide` is called (a bot may read it)."""
        append = events.append
        room = cap - len(events)
        turn_actions, apply_turn_action = self._turn_actions, self._apply_turn_action
        while room > 0:
            phase = self.phase
            if phase == TURN:  # the commonest event
                seat = self.turn
                legal = self._legal  # what `legal_actions(seat)` returns
                if legal is None:
                    legal = self._legal = turn_actions()
                action = decide(seat, legal)
                append(["m", {SEAT_KEYS[seat]: action}])
                self._legal = None
                apply_turn_action(ACTION_PARTS[action])
            elif phase in CHANCE_PHASES:
                outcome = self.sample_chance(rng)
                self._apply_chance(outcome)
                append(["c", outcome])
            elif phase == OVER:
                return
            else:
                (seat,) = self.deciders()
                action = decide(seat, self.legal_actions(seat))
                append(["m", {SEAT_KEYS[seat]: action}])
                self._apply({seat: action})
            room -= 1

    def _apply(self, actions: Mapping[int, Action]) -> None:
        self._legal = None
        phase = self.phase
        if phase == TURN:
            self._apply_turn_action(ACTION_PARTS[actions[self.turn]])
        elif phase == DRAW_CHOICE:
            self.draws_left = ACTION_PARTS[actions[self.turn]][1]
            self._log("draw_choice", self.turn, {"cards": self.draws_left})
            self._draw_step()
        elif phase == GIMME_ANSWER:
            if actions[self.target] == ANSWER_DROPPED:
                self._play_card(self.target, DROPPED, None)
                self.phase = FIVE_ANSWER
            else:
                self._log("declined", self.target, None)
                self.phase = GIMME_PICK
        elif phase == FIVE_ANSWER:
            if actions[self.turn] == ANSWER_FIVE_SECOND:
                self._play_card(self.turn, FIVE_SECOND, None)
                self._give_highest()
            else:
                self._log("declined", self.turn, None)
            self.phase = TURN
        elif phase == RANCH_CHOICE:
            if actions[self.turn] == SHUFFLE:
                self._log("shuffle_pile", self.turn, None)
                self.phase = RANCH_SHUFFLE
            else:
                self._log("keep_pile", self.turn, None)
                self.phase = TURN
        elif phase == FLYING_TAKE:
            chooser = self.choosers.pop(0)
            self._take(chooser, ACTION_PARTS[actions[chooser]][1])
            if not self._flying_decision_due():
                self._draw_step()

    def _apply_turn_action(self, action: tuple[Any, ...]) -> None:
        seat = self.turn
        verb = action[0]
        if verb == "place":
            kind = CARD_BY_NAME[action[1]]
            self.hands[seat][kind] -= 1  # `_lose_public`, inlined on the commonest action
            self.hand_sizes[seat] -= 1
            self.journal = ((LEARN_LOSE, seat, 1 << kind), self.journal)
            if kind < BUFFALO:
                self.tray_nuggets[seat].append((kind, None))
            else:
                self.tray_sauces[seat].append(kind)
            self.log = (("place", seat, CARD_EVENT[kind], (), None), self.log)
            self._begin_draw()
        elif verb == "pass":
            self._log("no_placement", seat, None)
            if len(self.tray_nuggets[seat]) < NUGGET_SLOTS:
                self._public_no_nuggets(seat)  # placing is compulsory with a nugget and a free slot
            self._begin_draw()
        elif verb == "incognuggo":
            self.plays += 1
            self._play_card(seat, INCOGNUGGO, None)
            self._place_face_down(seat, CARD_BY_NAME[action[1]])
            self._begin_draw()
        elif verb == "gimme":
            self.plays += 1
            self.attacker = seat
            self.target = action[1]
            self._play_card(seat, BUFFALO, {"target": action[1]})
            self.phase = GIMME_ANSWER
        elif verb == "steal":
            self.plays += 1
            self.attacker = seat
            self.target = action[1]
            self._play_card(seat, SWEET_SOUR, {"target": action[1]})
            self.phase = STEAL_PICK
        elif verb == "freezer":
            self.plays += 1
            self._play_card(seat, RANCH, None)
            seen = min(PEEK_DEPTH, len(self.pile))
            self.peek[seat] = seen
            top = [CARD_NAMES[k] for k in reversed(self.pile[-seen:])]
            self._log("freezer_seen", seat, {"cards": seen}, (seat,), {"top": top})
            self.phase = RANCH_CHOICE if len(self.pile) >= 2 else TURN
        elif verb == "skip":
            self.plays += 1
            self._play_card(seat, BBQ, None)
            self.skip_next = True
            self._end_turn()
        elif verb == "discard":
            self.plays += 1
            self._play_card(seat, HONEY_MUSTARD, None)
            self._remove_from_tray(seat, action[1], "discarded")
        else:  # burn
            self.plays += 1
            self._play_card(seat, BURNT, {"target": action[1]})
            self._remove_from_tray(action[1], action[2], "burnt")

    # ----- chance -------------------------------------------------------------------------------------------

    def sample_chance(self, rng: random.Random) -> Any:
        phase = self.phase
        if phase in (GIMME_PICK, STEAL_PICK):
            hand = self.hands[self.target]
            kinds = NUGGET_KINDS if phase == GIMME_PICK else range(KINDS)
            total = sum(hand[k] for k in kinds)
            if not total:
                return NONE_PICKED
            pick = rng.randrange(total)
            for k in kinds:
                pick -= hand[k]
                if pick < 0:
                    return CARD_NAMES[k]
        # A uniform permutation: the indices sorted by independent uniform keys (cheaper than rng.shuffle).
        size = len(self.pile)
        keys = list(starmap(rng.random, repeat((), size)))  # `[rng.random() for _ in self.pile]`, looped in C
        return sorted(range(size), key=keys.__getitem__)

    def chance_is_possible(self, outcome: Any) -> bool:
        phase = self.phase
        if phase in (GIMME_PICK, STEAL_PICK):
            hand = self.hands[self.target]
            kinds = NUGGET_KINDS if phase == GIMME_PICK else range(KINDS)
            if outcome == NONE_PICKED:
                return not any(hand[k] for k in kinds)
            kind = CARD_BY_NAME.get(outcome) if isinstance(outcome, str) else None
            return kind is not None and kind in kinds and hand[kind] > 0
        if phase in CHANCE_PHASES:
            size = len(self.pile)
            return (
                isinstance(outcome, list)
                and len(outcome) == size
                and all(type(i) is int for i in outcome)
                and sorted(outcome) == list(range(size))
            )
        return False

    def _apply_chance(self, outcome: Any) -> None:
        self._legal = None
        phase = self.phase
        if phase in (GIMME_PICK, STEAL_PICK):
            attacker, target = self.attacker, self.target
            if outcome == NONE_PICKED:
                self._log("gimme_no_nugget", target, None)
                self._public_no_nuggets(target)
            else:
                kind = CARD_BY_NAME[outcome]
                gimme = phase == GIMME_PICK
                self._transfer(target, attacker, kind, NUGGET_MASK if gimme else HAND_MASK)
                self._log(
                    "gimme_took" if gimme else "stole",
                    attacker,
                    {"from": target},
                    (attacker, target),
                    {"card": outcome},
                )
            self.phase = TURN
            return
        self.pile = list(map(self.pile.__getitem__, outcome))  # `[pile[i] for i in outcome]`
        self.peek = [0] * self.num_players
        if phase == DEAL:
            self._deal()
        elif phase == SHUFFLE_IN:
            self._log("pile_shuffled", -1, None)
            self._start_turn(0)
        else:
            self._log("pile_shuffled", self.turn, None)
            self.phase = TURN

    def _deal(self) -> None:
        n = self.num_players
        pile = self.pile
        for _ in range(HAND_SIZE):
            for seat in range(n):
                self.hands[seat][pile.pop()] += 1
        for seat in range(n):
            self.hand_sizes[seat] = HAND_SIZE
        self.journal = ((LEARN_DEAL,), self.journal)
        pile.extend([FLYING] * DECK_COUNTS[FLYING])
        self._log("dealt", -1, {"cards": HAND_SIZE})
        self.phase = SHUFFLE_IN

    # ----- rules helpers ------------------------------------------------------------------------------------

    def _log(
        self,
        event: str,
        seat: int,
        detail: dict[str, Any] | None,
        viewers: tuple[Any, ...] = (),
        secret: dict[str, Any] | None = None,
    ) -> None:
        """Append an event: public `detail`, plus `secret` shown only to `viewers`. Details are never
        mutated."""
        self.log = ((event, seat, detail, viewers, secret), self.log)

    def _knowledge(self) -> list[list[dict[int, int] | None]]:
        """The knowledge table (`tags`) brought up to date with the journal (`knowledge.catch_up`)."""
        from games.chickie_nuggs.knowledge import catch_up

        return catch_up(self)

    def _start_turn(self, seat: int) -> None:
        self.phase = TURN
        self.turn = seat
        self.plays = 0
        self._log("turn", seat, None)

    def _end_turn(self) -> None:
        following = self.turn + 1
        if following == self.num_players:
            following = 0
        if self.skip_next:
            self.skip_next = False
            self._log("skipped", following, None)
            following = (following + 1) % self.num_players
        self.phase = TURN  # `_start_turn(following)`, inlined
        self.turn = following
        self.plays = 0
        self.log = (("turn", following, None, (), None), self.log)

    def _lose_public(self, seat: int, kind: int) -> None:
        """`seat` shows a card of `kind` from its hand as it leaves (played, placed face up)."""
        self.hands[seat][kind] -= 1
        self.hand_sizes[seat] -= 1
        self.journal = ((LEARN_LOSE, seat, 1 << kind), self.journal)

    def _play_card(self, seat: int, kind: int, detail: dict[str, Any] | None) -> None:
        self._lose_public(seat, kind)
        self.discard[kind] += 1
        self._log("play", seat, {"card": CARD_NAMES[kind], **detail} if detail else CARD_EVENT[kind])

    def _place_face_down(self, seat: int, kind: int) -> None:
        self.hands[seat][kind] -= 1
        self.hand_sizes[seat] -= 1
        # Per seat, the kinds it knows the nugget could be: filled in when the journal is applied.
        masks = [0] * self.num_players
        self.journal = ((LEARN_FACE_DOWN, seat, kind, masks), self.journal)
        self.tray_nuggets[seat].append((kind, masks))
        self._log("place_face_down", seat, None, (seat,), {"card": CARD_NAMES[kind]})

    def _remove_from_tray(self, owner: int, slot: int, how: str) -> None:
        kind, _masks = self.tray_nuggets[owner].pop(slot)
        self.discard[kind] += 1
        self._log(how, owner, {"slot": slot, "card": CARD_NAMES[kind]})

    def _transfer(self, giver: int, taker: int, kind: int, seen_as: int) -> None:
        """A card of `kind` passes between hands; both see it, the others only that it is within `seen_as`."""
        self.hands[giver][kind] -= 1
        self.hand_sizes[giver] -= 1
        self.hands[taker][kind] += 1
        self.hand_sizes[taker] += 1
        self.journal = ((LEARN_TRANSFER, giver, taker, 1 << kind, seen_as), self.journal)

    def _public_no_nuggets(self, seat: int) -> None:
        self.journal = ((LEARN_RESTRICT, -1, seat, HAND_MASK & ~NUGGET_MASK), self.journal)

    def _give_highest(self) -> None:
        attacker, target = self.turn, self.target
        hand = self.hands[target]
        for kind in (NUGGET4, NUGGET3, NUGGET2, NUGGET1):
            if hand[kind]:
                self._transfer(target, attacker, kind, NUGGET_MASK)
                self.journal = ((LEARN_RESTRICT, attacker, target, NOT_ABOVE[kind]), self.journal)
                self._log(
                    "gave_highest", target, {"to": attacker}, (attacker, target), {"card": CARD_NAMES[kind]}
                )
                return
        self._log("gimme_no_nugget", target, None)
        self._public_no_nuggets(target)

    def _take(self, chooser: int, slot: int) -> None:
        """Flying Nuggets: `chooser` takes the drawer's tray nugget at `slot` into their hand."""
        drawer = self.turn
        kind, masks = self.tray_nuggets[drawer].pop(slot)
        self.hands[chooser][kind] += 1
        self.hand_sizes[chooser] += 1
        self.journal = ((LEARN_TAKE, chooser, kind, masks), self.journal)
        if masks is None:
            self._log("took", chooser, {"from": drawer, "slot": slot, "card": CARD_NAMES[kind]})
        else:
            self._log(
                "took", chooser, {"from": drawer, "slot": slot}, (chooser, drawer), {"card": CARD_NAMES[kind]}
            )

    def _flying_decision_due(self) -> bool:
        """Resolve Flying Nuggets takes that need no choice; True when a chooser must decide."""
        choosers = self.choosers
        tray = self.tray_nuggets[self.turn]
        while choosers:
            if not tray:
                choosers.clear()
                return False
            options = _slot_options(tray, TAKE_SLOT)
            if len(options) > 1:
                self.phase = FLYING_TAKE
                return True
            self._take(choosers.pop(0), ACTION_PARTS[options[0]][1])
        return False

    def _begin_draw(self) -> None:
        if self.hand_sizes[self.turn] <= 2 and len(self.pile) >= 2:
            self.phase = DRAW_CHOICE
            return
        pile = self.pile
        if pile[-1] != FLYING and len(pile) > 1 and not any(self.peek):
            # The commonest draw, `_draw_step` inlined: one card nobody saw coming, the pile not emptied.
            kind = pile.pop()
            seat = self.turn
            self.hands[seat][kind] += 1
            self.hand_sizes[seat] += 1
            self.journal = ((LEARN_DRAW, seat, kind, 0), self.journal)
            self.log = (("draw", seat, None, ONLY_SEAT[seat], CARD_EVENT[kind]), self.log)
            self.draws_left = 0
            self._end_turn()
            return
        self.draws_left = 1
        self._draw_step()

    def _draw_step(self) -> None:
        """Draw the remaining cards of this turn's draw, stopping for Flying Nuggets choices; then end the
        turn."""
        seat = self.turn
        n = self.num_players
        pile = self.pile
        peek = self.peek
        while self.draws_left:
            self.draws_left -= 1
            kind = pile.pop()
            seers = 0
            if any(peek):
                for o in range(n):
                    if peek[o]:
                        peek[o] -= 1
                        seers |= 1 << o
            if kind == FLYING:
                self.discard[FLYING] += 1
                self._log("flying_nuggets", seat, None)
                left, right = (seat + 1) % n, (seat - 1) % n
                self.choosers = [left, right]
                if self._flying_decision_due():
                    return
                continue
            self.hands[seat][kind] += 1
            self.hand_sizes[seat] += 1
            self.journal = ((LEARN_DRAW, seat, kind, seers), self.journal)
            self._log("draw", seat, None, ONLY_SEAT[seat], CARD_EVENT[kind])
        if not pile:
            self.phase = OVER
            self._log("game_over", -1, None)
            return
        self._end_turn()

    # ----- results ------------------------------------------------------------------------------------------

    def tray_points(self, seat: int) -> int:
        points = self.points
        total = 0
        for kind, _masks in self.tray_nuggets[seat]:
            total += points[kind]
        for kind in self.tray_sauces[seat]:
            total += points[kind]
        return total

    def ranking_keys(self) -> list[tuple[int, int, int]]:
        """Per seat: (tray points, cards on the tray, points of cards in hand), compared in that order."""
        points = self.points
        keys = []
        for nuggets, sauces, hand in zip(self.tray_nuggets, self.tray_sauces, self.hands, strict=True):
            tray = 0  # `tray_points(seat)`, inlined
            for kind, _masks in nuggets:
                tray += points[kind]
            for kind in sauces:
                tray += points[kind]
            keys.append((tray, len(nuggets) + len(sauces), sum(map(mul, points, hand))))
        return keys

    def outcome(self) -> Outcome:
        keys = self.ranking_keys()
        return Outcome(places_from_keys(keys), tuple(float(key[0]) for key in keys))

    # ----- observation and copies ---------------------------------------------------------------------------

    def log_entries(self, seat: int) -> list[dict[str, Any]]:
        """The event log as `seat` sees it, oldest first (fresh dicts and lists)."""
        entries: list[dict[str, Any]] = []
        node = self.log
        while node is not None:
            (event, actor, detail, viewers, secret), node = node
            if event is None:  # the log of the observation a sampled state came from, oldest first
                entries.extend(copy_event(copied) for copied in reversed(detail))
                continue
            view = {"event": event, "seat": actor}
            if detail:
                view.update(detail)
            if secret and seat in viewers:
                view.update(secret)
            if "top" in view:
                view["top"] = list(view["top"])
            entries.append(view)
        entries.reverse()
        return entries

    def observation(self, seat: int) -> Observation:
        n = self.num_players
        self._knowledge()  # brings the face-down nuggets' masks up to date too
        revealed = self.phase == OVER  # the trays are turned up for the scoring
        trays = []
        for owner in range(n):
            nuggets: list[Any] = []
            for kind, masks in self.tray_nuggets[owner]:
                if masks is None:
                    nuggets.append(kind + 1)
                elif revealed:
                    nuggets.append({"face_down": [kind + 1]})
                else:
                    nuggets.append({"face_down": [k + 1 for k in NUGGET_KINDS if masks[seat] >> k & 1]})
            trays.append({"nuggets": nuggets, "sauces": [CARD_NAMES[k] for k in self.tray_sauces[owner]]})
        known = self._knowledge()
        knowledge: list[Any] = []
        for other in range(n):
            tags = known[seat][other]
            if tags is None:
                knowledge.append(None)
            else:
                knowledge.append(
                    [{"could_be": mask_names(mask), "count": tags[mask]} for mask in sorted(tags)]
                )
        seen = self.peek[seat]
        return {
            "seat": seat,
            "num_players": n,
            "options": dict(self.options),
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn,
            "plays_made": self.plays,
            "skip_next": self.skip_next,
            "attacker": self.attacker,
            "target": self.target,
            "draws_left": self.draws_left,
            "choosers": list(self.choosers),
            "to_act": list(self.deciders()),
            "hand": counts_to_dict(self.hands[seat]),
            "hand_sizes": list(self.hand_sizes),
            "trays": trays,
            "tray_points": [self._visible_points(owner, seat) for owner in range(n)],
            "discard": counts_to_dict(self.discard),
            "pile_size": len(self.pile),
            "pile_top": [CARD_NAMES[k] for k in reversed(self.pile[len(self.pile) - seen :])] if seen else [],
            "hand_knowledge": knowledge,
            "log": self.log_entries(seat),
        }

    def _visible_points(self, owner: int, seat: int) -> int:
        """Tray points `seat` can see on `owner`'s tray (face-down nuggets count for their owner, and at the
        end)."""
        points = self.points
        total = sum(points[k] for k in self.tray_sauces[owner])
        everything = owner == seat or self.phase == OVER
        for kind, masks in self.tray_nuggets[owner]:
            if masks is None or everything:
                total += points[kind]
        return total

    def clone(self) -> ChickieNuggsState:
        new = ChickieNuggsState.__new__(ChickieNuggsState)
        new.num_players = self.num_players
        new.options = self.options
        new.rng = None
        new.points = self.points
        new.hands = list(map(list.copy, self.hands))
        new.hand_sizes = self.hand_sizes[:]
        new.pile = self.pile[:]
        new.discard = self.discard[:]
        new.tray_nuggets = list(map(list.copy, self.tray_nuggets))
        new.tray_sauces = list(map(list.copy, self.tray_sauces))
        new.phase = self.phase
        new.turn = self.turn
        new.plays = self.plays
        new.skip_next = self.skip_next
        new.attacker = self.attacker
        new.target = self.target
        new.draws_left = self.draws_left
        new.choosers = self.choosers[:]
        new.peek = self.peek[:]
        new.tags = self.tags
        new.tags_shared = self.tags_shared = True
        new.journal = self.journal
        new.log = self.log
        new._legal = self._legal
        return new

    # ----- words --------------------------------------------------------------------------------------------

    def render(self) -> str:
        lines = [
            f"pile {len(self.pile)}  discard {sum(self.discard)}  phase {PHASE_NAMES[self.phase]}  "
            f"turn: seat {self.turn} (plays {self.plays})"
        ]
        for seat in range(self.num_players):
            nuggets = " ".join(
                str(kind + 1) if masks is None else f"[{kind + 1}]" for kind, masks in self.tray_nuggets[seat]
            )
            sauces = " ".join(CARD_NAMES[k] for k in self.tray_sauces[seat])
            hand = ", ".join(f"{name} x{count}" for name, count in counts_to_dict(self.hands[seat]).items())
            lines.append(
                f"seat {seat}: tray {self.tray_points(seat)} pts | nuggets {nuggets or '-'} | sauces "
                f"{sauces or '-'} | hand ({self.hand_sizes[seat]}) {hand or '-'}"
            )
        return "\n".join(lines)

    def describe_action(self, seat: int, action: Action) -> str:
        parts = ACTION_PARTS.get(action) if isinstance(action, str) else None
        if parts is None:
            return repr(action)
        verb = parts[0]
        if verb == "place":
            return f"places {CARD_TITLES[CARD_BY_NAME[parts[1]]]} on the tray"
        if verb == "incognuggo":
            return "plays Incognuggo and places a nugget face down"
        if verb == "gimme":
            return f"plays Gimme Nuggs (Buffalo) on seat {parts[1]}"
        if verb == "steal":
            return f"plays Steal (Sweet & Sour) on seat {parts[1]}"
        if verb == "burn":
            return f"plays Burnt Nugget on nugget {parts[2]} of seat {parts[1]}'s tray"
        if verb == "discard":
            return f"discards nugget {parts[1]} of their own tray (Honey Mustard)"
        if verb == "take":
            return f"takes nugget {parts[1]} of the Flying Nuggets drawer's tray"
        if verb == "draw":
            return f"draws {parts[1]}"
        words = {
            "freezer": "checks the freezer (Ranch)",
            "skip": "plays Skip (BBQ)",
            "pass": "places nothing",
            "dropped_nugget": "answers with Dropped Nugget",
            "five_second_rule": "answers with Five-Second Rule",
            "decline": "does not answer",
            "keep": "keeps the pile's order",
            "shuffle": "shuffles the pile",
        }
        return words[verb]

    def describe_chance(self, outcome: Any) -> str:
        if isinstance(outcome, list):
            if len(outcome) == sum(DECK_COUNTS) - DECK_COUNTS[FLYING]:
                return "the deck without the Flying Nuggets is shuffled and dealt"
            return f"the pile of {len(outcome)} cards is shuffled"
        if outcome == NONE_PICKED:
            return f"seat {self.target} holds no nugget"
        return f"a random card of seat {self.target} is picked"


class ChickieNuggsGame(Game):
    """The Chickie Nuggs game: spec, new states, and the sampler of states consistent with an observation."""

    spec = SPEC
    max_events = 20_000

    def new_state(
        self, num_players: int, options: Mapping[str, Any], rng: random.Random
    ) -> ChickieNuggsState:
        return ChickieNuggsState(num_players, options, rng)

    def sample_state(self, observation: Observation, rng: random.Random) -> ChickieNuggsState:
        from games.chickie_nuggs.sampler import sample_state  # the sampler module imports this one

        return sample_state(observation, rng)


GAME = ChickieNuggsGame()
ChickieNuggsState.game = GAME

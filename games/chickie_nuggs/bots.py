"""Chickie Nuggs bots (the generic `random` bot is added by the registry).

`heuristic` plays from its observation only:
- placement: its best nugget while a nugget slot is free, unless a sauce worth as much can go on the tray
  instead (nothing burns or takes a sauce), else its least useful sauce; with the nugget slots full it trades
  its worst tray nugget for a better one in hand (Honey Mustard). It does not play Incognuggo: against blind
  choosers each face-down nugget is a target of its own, where face-up equal nuggets are one (measured: it
  loses wins);
- Burnt Nugget on the leader's best nugget (the leader: the opponent with the most tray points in view, a
  face-down nugget counted at the average value of the nuggets still unseen);
- Gimme Nuggs and Steal on the opponent most likely to hold nuggets, judged from its `hand_knowledge` and the
  nuggets still unseen; they are kept for the tray while they are its only sauce and a sauce slot is free;
- Dropped Nugget is held for defence and played only when a Gimme targets a hand that holds nuggets;
  Five-Second Rule always answers a Dropped Nugget;
- Skip when it has nothing to place; Check the Freezer only once the sauce slots are full, shuffling away a
  Flying Nuggets on top while its tray holds nuggets;
- draws two whenever it may; on Flying Nuggets takes the best nugget in view (a face-down one at the average).
"""

from __future__ import annotations

from typing import Any

from games.chickie_nuggs.rules import ACTION_PARTS, CARD_BY_NAME, DECK_COUNTS, NUGGET_KINDS
from games.core.bot import Bot
from games.core.state import Action, Observation

# Sauces in the order the heuristic would rather place than use: the weakest actions first.
PLACE_PREFERENCE = ("ranch", "honey_mustard", "bbq", "sweet_sour", "buffalo")
GIMME_THRESHOLD = 0.8  # expected nuggets in a hand worth a Gimme Nuggs or a Steal


def unseen_counts(observation: Observation) -> list[int]:
    """Copies of each kind the seat cannot place (in other hands, face down elsewhere or in the pile)."""
    unseen = list(DECK_COUNTS)
    for name, count in observation["hand"].items():
        unseen[CARD_BY_NAME[name]] -= count
    for name, count in observation["discard"].items():
        unseen[CARD_BY_NAME[name]] -= count
    for owner, tray in enumerate(observation["trays"]):
        for nugget in tray["nuggets"]:
            if isinstance(nugget, int):
                unseen[nugget - 1] -= 1
            elif owner == observation["seat"]:
                unseen[nugget["face_down"][0] - 1] -= 1
        for name in tray["sauces"]:
            unseen[CARD_BY_NAME[name]] -= 1
    return unseen


def face_down_value(unseen: list[int], values: list[int]) -> float:
    """The average value of a face-down nugget that could be any of `values`."""
    weight = sum(unseen[v - 1] for v in values)
    if not weight:
        return sum(values) / len(values)
    return sum(v * unseen[v - 1] for v in values) / weight


def expected_nuggets(observation: Observation, seat: int, unseen: list[int]) -> float:
    """How many nuggets `seat`'s hand holds on average, from what the observation knows of it."""
    total = 0.0
    for entry in observation["hand_knowledge"][seat] or ():
        kinds = [CARD_BY_NAME[name] for name in entry["could_be"]]
        weight = sum(max(unseen[k], 0) for k in kinds)
        nuggets = sum(max(unseen[k], 0) for k in kinds if k in NUGGET_KINDS)
        total += entry["count"] * (nuggets / weight if weight else 0.0)
    return total


class HeuristicBot(Bot):
    name = "heuristic"
    version = 1  # bump when its choices change (games.core.bot.Bot.version)
    summary = (
        "places its best nugget, burns the leader's best nugget, aims Gimme Nuggs and Steal at the hand most "
        "likely to hold nuggets and keeps Dropped Nugget for defence"
    )
    games = ("chickie_nuggs",)

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        assert observation is not None
        phase = observation["phase"]
        if len(legal_actions) == 1:
            return legal_actions[0]
        if phase == "draw_choice":
            return "draw:2"
        if phase == "gimme_answer":
            holds_nugget = any(name.startswith("nugget") for name in observation["hand"])
            return "dropped_nugget" if holds_nugget else "decline"
        if phase == "five_second_answer":
            return "five_second_rule"
        if phase == "freezer_choice":
            top = observation["pile_top"]
            mine = observation["trays"][self.seat]["nuggets"]
            return "shuffle" if top and top[0] == "flying_nuggets" and mine else "keep"
        if phase == "flying_take":
            unseen = unseen_counts(observation)
            tray = observation["trays"][observation["turn"]]["nuggets"]
            return max(legal_actions, key=lambda a: self._nugget_value(tray[ACTION_PARTS[a][1]], unseen))
        return self._turn(observation, legal_actions)

    @staticmethod
    def _nugget_value(nugget: Any, unseen: list[int]) -> float:
        return float(nugget) if isinstance(nugget, int) else face_down_value(unseen, nugget["face_down"])

    def _turn(self, observation: Observation, legal: list[Action]) -> Action:
        seat = self.seat
        unseen = unseen_counts(observation)
        by_verb: dict[str, list[tuple[Any, ...]]] = {}
        for action in legal:
            parts = ACTION_PARTS[action]
            by_verb.setdefault(parts[0], []).append(parts)
        hand = observation["hand"]
        my_tray = observation["trays"][seat]
        trays = observation["trays"]
        hand_nuggets = [k for k in NUGGET_KINDS if hand.get(f"nugget{k + 1}")]
        best_in_hand = max(hand_nuggets, default=-1) + 1
        sauce_slot_free = len(my_tray["sauces"]) < 2
        sauces_held = sum(hand.get(name, 0) for name in PLACE_PREFERENCE)

        if "burn" in by_verb:
            opponents = {action[1] for action in by_verb["burn"]}
            leader = max(
                opponents,
                key=lambda t: (
                    self._estimated_points(observation, t, unseen),
                    -((t - seat) % self.num_players),
                ),
            )
            candidates = [a for a in by_verb["burn"] if a[1] == leader]
            best = max(candidates, key=lambda a: self._nugget_value(trays[leader]["nuggets"][a[2]], unseen))
            return f"burn:{best[1]}:{best[2]}"

        if "discard" in by_verb and len(my_tray["nuggets"]) == 6:
            worst = min(
                by_verb["discard"], key=lambda a: self._nugget_value(my_tray["nuggets"][a[1]], unseen)
            )
            if self._nugget_value(my_tray["nuggets"][worst[1]], unseen) < best_in_hand:
                return f"discard:{worst[1]}"

        spare_sauce = not sauce_slot_free or sauces_held > 1 or bool(hand_nuggets)
        for verb in ("gimme", "steal"):
            if verb in by_verb and spare_sauce:
                target_action = max(
                    by_verb[verb],
                    key=lambda a: (
                        expected_nuggets(observation, a[1], unseen),
                        observation["hand_sizes"][a[1]],
                    ),
                )
                if expected_nuggets(observation, target_action[1], unseen) >= GIMME_THRESHOLD:
                    return f"{verb}:{target_action[1]}"

        placements = by_verb.get("place", [])
        nugget_places = [a for a in placements if a[1].startswith("nugget")]
        sauce_places = [a for a in placements if not a[1].startswith("nugget")]
        values = observation["options"]
        best_sauce = max(
            sauce_places,
            key=lambda a: (values[f"sauce_value_{a[1]}"], -PLACE_PREFERENCE.index(a[1])),
            default=None,
        )
        if nugget_places:
            best = max(nugget_places, key=lambda a: a[1])[1]
            # A sauce worth as much as the nugget is safer on the tray: nothing burns or takes a sauce.
            if best_sauce is not None and values[f"sauce_value_{best_sauce[1]}"] >= int(best[-1]):
                return f"place:{best_sauce[1]}"
            return f"place:{best}"
        if not placements and "skip" in by_verb:
            return "skip"
        if "freezer" in by_verb and not sauce_slot_free:
            return "freezer"
        if best_sauce is not None:
            return f"place:{best_sauce[1]}"
        return "pass" if "pass" in legal else legal[-1]

    @staticmethod
    def _estimated_points(observation: Observation, seat: int, unseen: list[int]) -> float:
        points = float(observation["tray_points"][seat])
        for nugget in observation["trays"][seat]["nuggets"]:
            if isinstance(nugget, dict) and seat != observation["seat"]:
                points += face_down_value(unseen, nugget["face_down"])
        return points

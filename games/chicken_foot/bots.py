"""Chicken Foot bots. Both read only their observation (see `games.chicken_foot.rules` for its fields).

- `greedy`: plays its heaviest bone (the double blank weighing its ruled value); a double only when its
  chickie can still be filled (at least three bones of its number are not on the table), otherwise last.
- `heuristic`: weighs each play by the points it sheds, what it leaves itself to play next, and how easily the
  opponents can answer the ends it opens: it tracks which numbers each opponent is known to lack (a pass or a
  draw shows the numbers they held none of, until they next draw a bone they keep) and how many bones of each
  number are still unseen. It opens a chickie the table cannot fill when blocking the round scores better for
  it than for the others, and fills a chickie it can keep to itself.
"""

from __future__ import annotations

from games.chicken_foot.tables import SetTables, tables_for
from games.core.bot import Bot
from games.core.state import Action, Observation


class _Table:
    """What a bot reads from one observation, decoded once."""

    def __init__(self, observation: Observation):
        self.t: SetTables = tables_for(observation["options"]["set"])
        t = self.t
        self.blank_value = observation["options"]["double_blank_value"]
        self.hand = [t.id_of[name] for name in observation["hand"]]
        self.on_table = 0
        for entry in observation["layout"]:
            self.on_table |= 1 << t.id_of[entry["bone"]]
        mine = 0
        for bone in self.hand:
            mine |= 1 << bone
        self.mine = mine
        self.unseen = t.all_mask & ~mine & ~self.on_table
        constraint = observation["constraint"]
        self.constraint_number = constraint["number"] if constraint is not None else None
        self.ends = [(t.id_of[end["onto"]], end["number"]) for end in observation["open_ends"]]

    def points(self, bone: int) -> int:
        return self.t.pips[bone] + (self.blank_value if bone == 0 else 0)

    def count_with(self, mask: int, number: int) -> int:
        return (mask & self.t.number_mask[number]).bit_count()


def _decode(t: SetTables, legal: list[Action]) -> list[tuple[int, int]]:
    return [t.action_pair[action] for action in legal]


class GreedyBot(Bot):
    name = "greedy"
    version = 1  # bump when its choices change (games.core.bot.Bot.version)
    summary = "plays its heaviest bone; a double only when its chickie can still be filled"
    games = ("chicken_foot",)

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        if observation is None:
            raise ValueError("the greedy bot needs its observation")
        table = _Table(observation)
        t = table.t
        best_key = None
        best = legal_actions[0]
        for action, (bone, _) in zip(legal_actions, _decode(t, legal_actions), strict=True):
            fillable = True
            if t.is_double[bone] and table.constraint_number is None:
                number = t.hi[bone]
                fillable = table.count_with(t.all_mask & ~table.on_table & ~(1 << bone), number) >= 3
            key = (fillable, table.points(bone))
            if best_key is None or key > best_key:
                best_key, best = key, action
        return best


# Weights of the heuristic's terms (tuned against `greedy` over seeded 4-seat series of double-nine games).
SHED_WEIGHT = 2.5  # per point of the bone played
OPEN_END_WEIGHT = 10.0  # per opponent expected to answer a free end the play opens
TOE_END_WEIGHT = 4.0  # the same for the free end of a bone played on a spinner or chickie
FOLLOW_UP_BONUS = 1.0  # the bone opens a number we still hold
KEEP_PLAYABLE_WEIGHT = 1.0  # per bone (up to 3) we could still play afterwards
CHICKIE_FILL_WEIGHT = 3.0  # per bone (up to 3) of its number we keep after opening a chickie
BLOCK_WEIGHT = 0.5  # per point we expect to score less than the best opponent when a chickie blocks the round


class HeuristicBot(Bot):
    name = "heuristic"
    version = 1  # bump when its choices change (games.core.bot.Bot.version)
    summary = (
        "sheds points while keeping ends the opponents are known or likely to lack, and plays chickies to "
        "block"
    )
    games = ("chicken_foot",)

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation is None:
            raise ValueError("the heuristic bot needs its observation")
        table = _Table(observation)
        t = table.t
        seat = observation["seat"]
        num_players = observation["num_players"]
        lacking = _known_lacking(observation)
        opponents = [s for s in range(num_players) if s != seat]
        hand_sizes = observation["hand_sizes"]
        unseen_total = table.unseen.bit_count() or 1
        unseen_points = sum(table.points(b) for b in t.bones_of(table.unseen))
        mean_unseen = unseen_points / unseen_total
        my_points = sum(table.points(b) for b in table.hand)
        next_seat = (seat + 1) % num_players

        def answer_chance(number: int) -> float:
            """Expected number of opponents able to play on an end of `number`, weighted to the next seat."""
            share = table.count_with(table.unseen, number) / unseen_total
            total = 0.0
            for opponent in opponents:
                if number in lacking[opponent]:
                    continue
                holds = 1.0 - (1.0 - share) ** hand_sizes[opponent]
                total += holds * (1.5 if opponent == next_seat else 1.0)
            return total

        best_score = None
        best = legal_actions[0]
        for action, (bone, onto) in zip(legal_actions, _decode(t, legal_actions), strict=True):
            rest = table.mine & ~(1 << bone)
            if not rest:
                return action
            score = SHED_WEIGHT * table.points(bone)
            if table.constraint_number is not None:
                number = table.constraint_number
                exposed = t.pips[bone] - number
                still_needed = observation["constraint"]["needs"] - 1
                ends = [n for _, n in table.ends] + [exposed]
                score -= TOE_END_WEIGHT * answer_chance(exposed)
                if still_needed:
                    ends = [number]
            elif t.is_double[bone]:
                number = t.hi[bone]
                ends = [n for o, n in table.ends if o != onto]
                others_hold = table.count_with(table.unseen, number)
                mine_after = table.count_with(rest, number)
                if others_hold + mine_after < 3:
                    # Nobody can fill it: the round blocks after a cycle of passes and everyone scores their
                    # hand.
                    their_points = min(mean_unseen * hand_sizes[o] for o in opponents)
                    score += BLOCK_WEIGHT * (their_points - (my_points - table.points(bone)))
                    ends = [number]
                else:
                    # A chickie we can fill ourselves while the opponents must pass or draw.
                    score += CHICKIE_FILL_WEIGHT * min(mine_after, 3) - TOE_END_WEIGHT * answer_chance(number)
                    ends = [number]
            else:
                number = next(n for o, n in table.ends if o == onto)
                exposed = t.pips[bone] - number
                ends = [n for o, n in table.ends if o != onto] + [exposed]
                score -= OPEN_END_WEIGHT * answer_chance(exposed)
                if table.count_with(rest, exposed):
                    score += FOLLOW_UP_BONUS
            # Keep something to play next time round.
            playable_after = sum(
                1 for b in t.bones_of(rest) if any(t.number_mask[n] >> b & 1 for n in set(ends))
            )
            score += KEEP_PLAYABLE_WEIGHT * min(playable_after, 3)
            if best_score is None or score > best_score:
                best_score, best = score, action
        return best


def _known_lacking(observation: Observation) -> dict[int, set[int]]:
    """Per seat, the numbers it is known to hold none of, from this round's passes and draws."""
    lacking: dict[int, set[int]] = {seat: set() for seat in range(observation["num_players"])}
    history = observation["history"]
    for index, entry in enumerate(history):
        kind = entry["event"]
        seat = entry["seat"]
        if kind == "pass":
            drew = index > 0 and history[index - 1]["event"] == "draw" and history[index - 1]["seat"] == seat
            numbers = set(entry["numbers"])
            lacking[seat] = numbers if drew else lacking[seat] | numbers
        elif kind == "draw":
            following = history[index + 1] if index + 1 < len(history) else None
            if following is not None and following["event"] == "play":
                lacking[seat] |= set(entry["numbers"])
        elif kind == "lead_draw":
            lacking[seat] = set()
    return lacking


BOTS = (GreedyBot, HeuristicBot)

__all__ = ["BOTS", "GreedyBot", "HeuristicBot"]

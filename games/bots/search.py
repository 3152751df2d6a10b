"""Information-set Monte Carlo tree search for any game of the registry.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): every iteration deals a complete state from the
bot's own observation with the game's sampler (`game.sample_state`), so the search never reads hidden state,
then walks one tree of decision sequences shared by all those determinizations:

* A node where one seat decides selects by UCB1 with availability counts (an action is only eligible when it
  is legal in the current determinization), from the point of view of the seat deciding there.
* A node where several seats decide at once (a simultaneous step) keeps separate statistics per seat and
  selects each seat's action by regret matching with exploration (Lanctot et al., 2013), so every seat plays a
  mixed strategy; the bot's own choice at such a root is drawn from its average strategy, so it cannot be
  read.
* Small chance outcomes (a chip drawn from a bag) are branches of the tree, so that what follows a draw is
  searched knowing the draw; large ones (a shuffle, a deal) are not branched on (open loop): each iteration
  samples them afresh and the node averages over them.
* A rollout plays the position on with the `rollout` policy (the game evaluator's `playout_action`, uniform
  random unless the game knows a better cheap rule, or a heuristic bot of the game) up to `rollout_depth`
  events (0: no limit) or, with `rollout_to_break`, to the game's next natural break (the evaluator's
  `at_break`, e.g. the end of a Chicken Foot round), and the evaluator's outcome there is scored for every
  seat at once: a share of a win (1/k for k seats sharing first place), a part for the place and, where one
  score decides places, a part for the score margin.

What the search knows of a game beyond its rules is its evaluator (`games.core.evaluator.Evaluator`, the
`EVALUATOR` of the game's `search` module, `registry.evaluator`), as OpenSpiel hands its MCTS bot an
evaluator: the state itself holds the rules only.

The budget is a number of iterations, deterministic for a seed so that league matches replay; `time_limit`
caps the thinking time for interactive use (and then the choice depends on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from dataclasses import replace
from operator import itemgetter
from typing import Any

from games.core.bot import Bot
from games.core.errors import OptionError
from games.core.evaluator import Evaluator
from games.core.record import canonical_json
from games.core.spec import Option
from games.core.state import Action, Game, Observation, Outcome, State, is_legal_action

# An entry of a node's statistics: [visits, reward sum, availability, cumulative regret, strategy sum].
Entry = list[float]
# What a regret-matching selection needs for its update: the entries offered, the pick's probability, the
# pick.
Regret = tuple[list[Entry], float, int]

_REGRET = itemgetter(3)  # an entry's cumulative regret
_PLAIN = (str, int)  # the types of actions that are their own keys (`action_key`)
_STRINGS = {str}
PLACE_WEIGHT = 0.25  # part of the reward from the place; the rest is the share of the win
MAX_CHANCE_KEY = 40  # chance outcomes whose encoding is longer (shuffles, deals) are not branched on

# The tuned defaults per game (docs/studies/tune_search.md): `registry` offers each game the search bot
# of `SearchBot.for_game`, whose parameters default to these; an explicit parameter still overrides them, and
# a game not listed plays the generic defaults of `SearchBot.params`.
TUNED: dict[str, dict[str, Any]] = {
    "nacho_pile": {
        "iterations": 300,
        "rollout": "heuristic",
        "rollout_depth": 8,
        "opponents": "rollout",
        "prior": "heuristic",
    },
    "nobody_but_us_chickens": {"iterations": 800, "sharpen": 3.0},
    "chicken_foot": {"iterations": 1400, "determinizations": 40, "rollout_depth": 20, "prior": "heuristic"},
    "chickie_nuggs": {"iterations": 600, "determinizations": 20},
}


def _frozen(value: Any) -> Any:
    if type(value) is list:
        return tuple(_frozen(v) for v in value)
    if type(value) is dict:
        return ("{}",) + tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if type(value) is bool:  # JSON tells true from 1; Python's equality does not
        return ("bool", value)
    return value


def action_key(action: Action) -> Any:
    """A hashable key for an action, equal for equal JSON values (a list becomes a tuple, a dict a tuple of
    its sorted items after a marker), cheaper than canonical JSON."""
    return action if type(action) in (str, int) else _frozen(action)


class Node:
    """Statistics of one decision point of the tree, from the deciding seats' points of view."""

    __slots__ = ("children", "stats", "offered")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        # per deciding seat: action key -> [visits, reward sum, availability, regret, strategy sum]
        self.stats: dict[int, dict[Any, list[float]]] = {}
        # At a simultaneous step: (seat, *legal actions) -> their entries in the seat's table, in that order,
        # for legal lists of strings only (a str equals nothing but a str, so an equal tuple is the same JSON
        # list).
        self.offered: dict[tuple[Any, ...], list[Entry]] | None = None


class SearchBot(Bot):
    name = "search"
    version = 7  # bump when its choices change (games.core.bot.Bot.version)
    # What each version changed: 2 tuned defaults per game and the prior; 3 Chickie Nuggs' tuned search
    # runs 600 iterations; 4 rollouts stopping short of the end are scored by the engine's `evaluation_mix`
    # where it has one; 5 the mix's outcomes count their score margins (`score_weight`); 6 Nobody but Us
    # Chickens' tuned search runs 800 iterations; 7 Chicken Foot's tuned search runs 1,400 iterations.
    # Strength: docs/bots.md.
    summary = "information-set Monte Carlo tree search over the game's sampler"
    params = (
        Option("iterations", "int", 300, "search iterations per decision", min=1, max=1_000_000),
        Option(
            "determinizations",
            "int",
            0,
            "distinct states dealt from the observation, used in turn (0: a new one every iteration)",
            min=0,
            max=1_000_000,
        ),
        Option("c", "float", 0.7, "exploration constant of UCB1", min=0.0, max=10.0),
        Option(
            "rollout",
            "str",
            "playout",
            "rollout policy: playout (the game's fast playout rule, uniform random unless it has a better"
            " one), or the name of a bot of the game",
        ),
        Option(
            "rollout_depth",
            "int",
            0,
            "events per rollout before scoring the position (0: to the end)",
            min=0,
            max=100_000,
        ),
        Option(
            "rollout_to_break",
            "bool",
            True,
            "end a rollout at the game's next natural break (e.g. the end of a round) and score it there",
        ),
        Option(
            "score_weight",
            "float",
            0.2,
            "part of the reward from the score margin, in games where one score decides places and in the "
            "outcomes"
            " of an evaluation mix",
            min=0.0,
            max=0.75,
        ),
        Option(
            "exploration",
            "float",
            0.1,
            "share of uniform play in regret matching at simultaneous steps",
            min=0.0,
            max=1.0,
        ),
        Option(
            "simultaneous", "choice", "regret", "selection at simultaneous steps", choices=("regret", "ucb")
        ),
        Option(
            "chance_nodes", "bool", True, "branch the tree on small chance outcomes (a draw), not on shuffles"
        ),
        Option(
            "opponents",
            "choice",
            "tree",
            "opponents' moves in the tree: searched (tree) or by the rollout policy",
            choices=("tree", "rollout"),
        ),
        Option(
            "sharpen",
            "float",
            1.0,
            "the choice at a simultaneous step is drawn with probability proportional to the average strategy"
            " raised to this power: 1 plays the mix as found, more leans to its strongest parts",
            min=0.0,
            max=20.0,
        ),
        Option(
            "prior",
            "str",
            "none",
            "a bot of the game whose choice at the root gets a progressive bias (prior_weight / (visits + 1))"
            " and is tried first, or none",
        ),
        Option(
            "prior_weight",
            "float",
            1.0,
            "weight of the prior's progressive bias, in reward units",
            min=0.0,
            max=100.0,
        ),
        Option(
            "time_limit",
            "float",
            0.0,
            "seconds per decision at most (0: no limit; makes play machine-dependent)",
            min=0.0,
            max=600.0,
        ),
    )

    @classmethod
    def for_game(cls, game_id: str) -> type[SearchBot]:
        """The search bot the registry offers for `game_id`: the same bot (name, version, behaviour) with the
        game's tuned defaults (`TUNED`) as its parameters' defaults."""
        tuned = TUNED.get(game_id)
        if not tuned:
            return cls
        return _tuned_class(cls, game_id, tuple(sorted(tuned.items())))

    @classmethod
    def not_remakeable(cls, params: Mapping[str, Any]) -> str | None:
        """A time-limited search stops when the clock says so: its choices depend on the machine's speed and
        load, so they cannot be re-made. On an iteration budget alone (`time_limit` 0, the default) every
        choice is a function of the seed and is re-made."""
        if params.get("time_limit"):
            return (
                f"time-limited search ({params['time_limit']:g} s a decision): its choices depend on wall "
                "time"
            )
        return None

    def __init__(
        self,
        game: Game,
        seat: int,
        num_players: int,
        options: Mapping[str, Any],
        params: Mapping[str, Any] | None,
        rng: random.Random,
    ) -> None:
        super().__init__(game, seat, num_players, options, params, rng)
        from games import registry

        self.evaluator: Evaluator[Any] = registry.evaluator(game.spec.id)
        rollout = self.config["rollout"]
        self.rollout_bots: list[Bot] | None = None
        if rollout != "playout":
            bots = registry.bots_for(game.spec.id)
            if rollout not in bots or rollout == self.name:
                allowed = ", ".join(n for n in bots if n != self.name)
                raise OptionError(
                    f"parameter rollout: {rollout!r} is not a bot of {game.spec.id} (allowed: {allowed})"
                )
            self.rollout_bots = [
                bots[rollout](game, s, num_players, options, None, rng) for s in range(num_players)
            ]
        prior = self.config["prior"]
        self._prior_key: Any = None
        self.prior_bot: Bot | None = None
        if prior != "none":
            bots = registry.bots_for(game.spec.id)
            if prior not in bots or prior == self.name:
                allowed = ", ".join(n for n in bots if n != self.name)
                raise OptionError(
                    f"parameter prior: {prior!r} is not a bot of {game.spec.id} (allowed: {allowed})"
                )
            self.prior_bot = bots[prior](game, seat, num_players, options, None, rng)

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation is None:
            raise ValueError("the search bot needs its observation")
        self._prior_key = None
        if self.prior_bot is not None and self.config["prior_weight"] > 0:
            self._prior_key = action_key(self.prior_bot.act(observation, legal_actions))
        root = self.search(observation)
        table = root.stats.get(self.seat, {})
        legal_keys = {action_key(a): a for a in legal_actions}
        if self._simultaneous_root:
            column = 4 if self.config["simultaneous"] == "regret" else 0
            power = self.config["sharpen"]
            weights = [table[k][column] ** power if k in table else 0.0 for k in legal_keys]
            total = sum(weights)
            if total <= 0:
                return legal_actions[self.rng.randrange(len(legal_actions))]
            pick = self.rng.random() * total
            for key, weight in zip(legal_keys, weights, strict=True):
                pick -= weight
                if pick < 0:
                    return legal_keys[key]
            return legal_actions[-1]
        best = max(legal_keys, key=lambda k: (table[k][0], table[k][1]) if k in table else (-1, 0.0))
        return legal_keys[best]

    def search(self, observation: Observation) -> Node:
        """Run the iterations from this observation; return the root."""
        rng = self.rng
        game = self.game
        root = Node()
        config = self.config
        limit = config["time_limit"]
        deadline = time.perf_counter() + limit if limit else None
        self._simultaneous_root = False
        iterations = config["iterations"]
        reuse = config["determinizations"]
        # The parameters the tree walk reads, looked up once a search rather than once an event.
        self._c = config["c"]
        self._gamma = config["exploration"]
        self._prior_weight = config["prior_weight"]
        self._ucb_everywhere = config["simultaneous"] == "ucb"
        dealt: list[State] = []
        sample_state = game.sample_state
        iterate = self._iterate
        half = iterations // 2
        for iteration in range(iterations):
            # The average strategy leaves out the first half, while regrets are still mostly noise.
            self._averaging = iteration >= half
            if not reuse:
                state = sample_state(observation, rng)
            elif len(dealt) < reuse:
                state = sample_state(observation, rng)
                dealt.append(state.clone())
            else:
                state = dealt[iteration % reuse].clone()
            if iteration == 0:
                self._simultaneous_root = len(state.deciders()) > 1
            iterate(root, state)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return root

    def _iterate(self, root: Node, state: State) -> None:
        rng = self.rng
        config = self.config
        c = self._c
        branch_chance = config["chance_nodes"]
        model_opponents = config["opponents"] == "rollout"
        ucb_everywhere = self._ucb_everywhere
        me = self.seat
        select_ucb, select_regret = self._select_ucb, self._select_regret
        is_terminal, is_chance, deciders_of = state.is_terminal, state.is_chance, state.deciders
        legal_actions, apply, apply_chance = state.legal_actions, state._apply, state._apply_chance
        # What the backup updates, in the order it updates it: (entry, seat, regret or None) per searched
        # seat.
        updates: list[tuple[Entry, int, Regret | None]] = []
        node = root
        expanded = False
        while not is_terminal():
            if is_chance():
                outcome = state.sample_chance(rng)
                apply_chance(outcome)
                if not branch_chance:
                    continue
                kind = type(outcome)
                if kind is list and len(outcome) >= MAX_CHANCE_KEY // 2:
                    continue  # its canonical JSON (at least 2n + 1 characters) is longer than MAX_CHANCE_KEY
                key = outcome if kind is str or kind is int else canonical_json(outcome)
                if type(key) is str and len(key) > MAX_CHANCE_KEY:
                    continue  # a shuffle or a deal: too many outcomes to branch on
                children = node.children
                child = children.get(("chance", key))
                if child is None:
                    if expanded:
                        break
                    child = children[("chance", key)] = Node()
                    expanded = True
                node = child
                continue
            deciders = deciders_of()
            single = len(deciders) == 1
            if single:
                seat = deciders[0]
                legal = legal_actions(seat)
                if model_opponents and seat != me:
                    # The opponent plays the rollout policy here too; the tree only follows what it did.
                    action = self._rollout_action(state, seat, legal)
                else:
                    stats = node.stats
                    table = stats.get(seat)
                    if table is None:
                        table = stats[seat] = {}
                    prior = self._prior_key if node is root and seat == me else None
                    index, entry = select_ucb(table, legal, c, prior)
                    action = legal[index]
                    updates.append((entry, seat, None))
                apply({seat: action})
                joint = action if type(action) in (str, int) else _frozen(action)
            else:
                chosen: dict[int, Action] = {}
                keys = []
                for seat in deciders:
                    legal = legal_actions(seat)
                    if model_opponents and seat != me:
                        action = chosen[seat] = self._rollout_action(state, seat, legal)
                    elif ucb_everywhere:
                        stats = node.stats
                        table = stats.get(seat)
                        if table is None:
                            table = stats[seat] = {}
                        prior = self._prior_key if node is root and seat == me else None
                        index, entry = select_ucb(table, legal, c, prior)
                        updates.append((entry, seat, None))
                        action = chosen[seat] = legal[index]
                    else:
                        index, regret = select_regret(node, seat, legal)
                        updates.append((regret[0][index], seat, regret))
                        action = chosen[seat] = legal[index]
                    kind = type(action)
                    keys.append(action if kind is str or kind is int else _frozen(action))
                apply(chosen)
                joint = tuple(keys)
            children = node.children
            child = children.get(joint)
            if child is None:
                if expanded:
                    break
                child = children[joint] = Node()
                expanded = True
            node = child
        rewards = self._rollout(state)
        for entry, seat, regret_update in updates:
            reward = rewards[seat]
            entry[0] += 1
            entry[1] += reward
            if regret_update is not None:
                # Regret matching+ with an importance-sampled estimate of every action's reward: cumulative
                # regrets never go below zero, so a bad early run is soon forgotten.
                entries, probability, _pick = regret_update
                before = entry[3]  # `entry` is the chosen action's
                for other in entries:
                    if other[3] > reward:  # as `other[3] - reward > 0.0`, for floats
                        other[3] -= reward
                    else:
                        other[3] = 0.0
                value = before + reward / probability - reward
                entry[3] = value if value > 0.0 else 0.0

    def _select_ucb(
        self, table: dict[Any, list[float]], legal: list[Action], c: float, prior: Any = None
    ) -> tuple[int, Entry]:
        """The index of the action UCB1 picks among `legal` (an untried one first, at random), and its
        entry."""
        untried = []
        entries: list[Entry] = []
        append = entries.append
        get = table.get
        prior_index = -1
        for index, action in enumerate(legal):
            key = action if type(action) in (str, int) else _frozen(action)
            entry = get(key)
            if entry is None:
                entry = table[key] = [0, 0.0, 0, 0.0, 0.0]
            entry[2] += 1
            if entry[0] == 0:
                untried.append(index)
            if prior is not None and key == prior:
                prior_index = index
            append(entry)
        if untried:
            if prior_index >= 0 and entries[prior_index][0] == 0:
                return prior_index, entries[prior_index]
            index = untried[self.rng.randrange(len(untried))]
            return index, entries[index]
        best_index, best_value = 0, -math.inf
        log, sqrt = math.log, math.sqrt
        for index, entry in enumerate(entries):
            visits = entry[0]
            value = entry[1] / visits + c * sqrt(log(entry[2]) / visits)
            if value > best_value:
                best_index, best_value = index, value
        if prior_index >= 0:
            entry = entries[prior_index]
            visits = entry[0]
            value = entry[1] / visits + c * sqrt(log(entry[2]) / visits) + self._prior_weight / (visits + 1)
            if value > best_value:
                best_index = prior_index
        return best_index, entries[best_index]

    def _select_regret(self, node: Node, seat: int, legal: list[Action]) -> tuple[int, Regret]:
        """The index of the action regret matching picks among `legal` for `seat` at `node`, and what its
        update needs."""
        gamma = self._gamma
        offered = node.offered
        if offered is None:
            offered = node.offered = {}
        signature = (seat, *legal)
        try:
            entries = offered.get(signature)
        except TypeError:  # an action that is a list or a dict
            entries = None
        if entries is None:
            table = node.stats.get(seat)
            if table is None:
                table = node.stats[seat] = {}
            setdefault = table.setdefault
            entries = [
                setdefault(action if type(action) in _PLAIN else _frozen(action), [0, 0.0, 0, 0.0, 0.0])
                for action in legal
            ]
            if set(map(type, legal)) == _STRINGS:
                offered[signature] = entries
        count = len(entries)
        # Cumulative regrets are never negative (regret matching+ keeps them at 0 or above).
        total = sum(map(_REGRET, entries))
        if total > 0:
            kept, floor = 1 - gamma, gamma / count
        else:  # uniform: 0.0 * regret / 1.0 + 1 / count is exactly 1 / count, without a test per action
            kept, floor, total = 0.0, 1 / count, 1.0
        averaging = self._averaging
        pick = self.rng.random()
        chosen = -1
        # One pass: each action's probability, the average strategy's sums and the pick (the first action
        # whose cumulative probability passes it).
        for index, entry in enumerate(entries):
            probability = kept * entry[3] / total + floor
            if averaging:
                entry[4] += probability
            if chosen < 0:
                pick -= probability
                if pick < 0:
                    chosen, picked = index, probability
                    if not averaging:
                        break
        if chosen < 0:
            chosen, picked = count - 1, probability
        return chosen, (entries, picked, chosen)

    def _rollout_action(self, state: State, seat: int, legal: list[Action]) -> Action:
        bots = self.rollout_bots
        if len(legal) == 1:
            return legal[0]
        if bots is None:
            return self.evaluator.playout_action(state, seat, legal, self.rng)
        action = bots[seat].act_in_state(state, seat, legal)
        return action if is_legal_action(action, legal) else legal[0]

    def _rollout(self, state: State) -> list[float]:
        rng = self.rng
        depth = self.config["rollout_depth"]
        to_break = self.config["rollout_to_break"]
        evaluator = self.evaluator
        if self.rollout_bots is None:
            # Exactly the loop below with the game's playout rule (Evaluator.playout's contract, checked by
            # tests/games/test_conformance.py), in the game's own faster loop where it has one.
            evaluator.playout(state, rng, depth, to_break)
            return self._evaluate(state)
        at_break = evaluator.at_break
        steps = 0
        while not state.is_terminal() and (depth == 0 or steps < depth):
            if to_break and steps and at_break(state):
                break
            if state.is_chance():
                state._apply_chance(state.sample_chance(rng))
            else:
                actions = {}
                for seat in state.deciders():
                    actions[seat] = self._rollout_action(state, seat, state.legal_actions(seat))
                state._apply(actions)
            steps += 1
        return self._evaluate(state)

    def _evaluate(self, state: State) -> list[float]:
        """Each seat's reward where a rollout stops: the evaluator's `evaluation`, or the mean over its
        `evaluation_mix` (whose scores are always more-is-better counts, so their margins count even in a game
        like Nacho Pile, where no one score decides places and the final outcome's margins do not)."""
        score_weight = self.config["score_weight"]
        evaluator = self.evaluator
        mix = evaluator.evaluation_mix(state)
        if mix is None:
            return rewards_of(
                evaluator.evaluation(state), self.num_players, self.game.spec.score_order, score_weight
            )
        total = [0.0] * self.num_players
        for weight, outcome in mix:
            for seat, reward in enumerate(rewards_of(outcome, self.num_players, "high", score_weight)):
                total[seat] += weight * reward
        return total


_TUNED_CLASSES: dict[tuple[type[SearchBot], str], type[SearchBot]] = {}


def _tuned_class(base: type[SearchBot], game_id: str, tuned: tuple[tuple[str, Any], ...]) -> type[SearchBot]:
    """`base` with `tuned`'s values as its parameters' defaults (made once per game)."""
    made = _TUNED_CLASSES.get((base, game_id))
    if made is None:
        values = dict(tuned)
        unknown = set(values) - {p.name for p in base.params}
        if unknown:
            raise RuntimeError(
                f"tuned search defaults for {game_id} name unknown parameters: {sorted(unknown)}"
            )
        params = tuple(
            replace(p, default=p.validate(values[p.name])) if p.name in values else p for p in base.params
        )
        body = {
            "params": params,
            "version": base.version,
            "__module__": base.__module__,
            "tuned_for": game_id,
        }
        made = _TUNED_CLASSES[(base, game_id)] = type(base.__name__, (base,), body)
    return made


def rewards_of(
    outcome: Outcome, num_players: int, score_order: str | None, score_weight: float
) -> list[float]:
    """Each seat's reward in [0, 1]: its share of the win, a part for its place and, where one score decides
    places, a part (`score_weight`) for its score margin over the others' mean, scaled by the spread."""
    places = outcome.places
    winners = places.count(1)
    span = max(1, num_players - 1)
    if score_order is None:
        score_weight = 0.0
    win_weight = 1 - PLACE_WEIGHT - score_weight
    rewards = [
        win_weight * (1 / winners if p == 1 else 0.0) + PLACE_WEIGHT * (num_players - p) / span
        for p in places
    ]
    if score_weight:
        scores = outcome.scores
        sign = 1 if score_order == "high" else -1
        spread = max(scores) - min(scores) + 1
        total = sum(scores)
        for seat, score in enumerate(scores):
            others = (total - score) / span
            rewards[seat] += score_weight * (1 + sign * (score - others) / spread) / 2
    return rewards

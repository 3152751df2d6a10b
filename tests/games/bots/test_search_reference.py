"""The search bot's choices do not move when its loop gets faster.

`ReferenceSearch` is the search loop as it was before its speed work (every event through the
generic state calls, rollouts event by event through `_rollout_action`): the search bot must reach exactly
the same root statistics, the same choice and the same generator state from the same seed, on positions from
random games of every game and with parameters that take every path (rollout to the end, to a depth, past
breaks, reused determinizations, simultaneous steps by regret or UCB, chance nodes off, rollout bots).
"""

import math
import random
import time
from typing import Any

import pytest

from games import registry
from games.bots.search import (
    MAX_CHANCE_KEY,
    Node,
    Regret,
    SearchBot,
    _frozen,
    action_key,
    canonical_json,
)
from games.core.state import Action, Observation, State, is_legal_action

PARAMS = (
    {"iterations": 40, "determinizations": 0, "rollout": "playout", "rollout_depth": 0, "opponents": "tree"},
    {"iterations": 30, "rollout_depth": 7},
    {"iterations": 30, "rollout_to_break": False, "determinizations": 4},
    {"iterations": 25, "chance_nodes": False, "simultaneous": "ucb", "c": 1.3},
    {
        "iterations": 12,
        "rollout": "heuristic",
        "rollout_depth": 10,
        "opponents": "rollout",
        "prior": "heuristic",
    },
)


class ReferenceSearch(SearchBot):
    """The search loop of 3fa2cac, copied: what the search bot's choices must stay equal to."""

    def search(self, observation: Observation) -> Node:
        """Run the iterations from this observation; return the root."""
        rng = self.rng
        game = self.game
        root = Node()
        limit = self.config["time_limit"]
        deadline = time.perf_counter() + limit if limit else None
        self._simultaneous_root = False
        iterations = self.config["iterations"]
        reuse = self.config["determinizations"]
        dealt: list[State] = []
        for iteration in range(iterations):
            # The average strategy leaves out the first half, while regrets are still mostly noise.
            self._averaging = iteration >= iterations // 2
            if not reuse:
                state = game.sample_state(observation, rng)
            elif len(dealt) < reuse:
                state = game.sample_state(observation, rng)
                dealt.append(state.clone())
            else:
                state = dealt[iteration % reuse].clone()
            if iteration == 0:
                self._simultaneous_root = len(state.deciders()) > 1
            self._iterate(root, state)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return root

    def _iterate(self, root: Node, state: State) -> None:
        rng = self.rng
        c = self.config["c"]
        branch_chance = self.config["chance_nodes"]
        model_opponents = self.config["opponents"] == "rollout"
        path: list[tuple[Node, dict[int, Any], dict[int, Regret]]] = []
        node = root
        expanded = False
        while not state.is_terminal():
            if state.is_chance():
                outcome = state.sample_chance(rng)
                state._apply_chance(outcome)
                if not branch_chance:
                    continue
                key = outcome if type(outcome) in (str, int) else canonical_json(outcome)
                if type(key) is str and len(key) > MAX_CHANCE_KEY:
                    continue  # a shuffle or a deal: too many outcomes to branch on
                child = node.children.get(("chance", key))
                if child is None:
                    if expanded:
                        break
                    child = node.children[("chance", key)] = Node()
                    expanded = True
                node = child
                continue
            deciders = state.deciders()
            chosen: dict[int, Action] = {}
            keys: dict[int, Any] = {}
            regrets: dict[int, Regret] = {}
            for seat in deciders:
                legal = state.legal_actions(seat)
                if model_opponents and seat != self.seat:
                    # The opponent plays the rollout policy here too; the tree only follows what it did.
                    chosen[seat] = self._rollout_action(state, seat, legal)
                    keys[seat] = action_key(chosen[seat])
                    continue
                table = node.stats.setdefault(seat, {})
                if len(deciders) == 1 or self.config["simultaneous"] == "ucb":
                    prior = self._prior_key if node is root and seat == self.seat else None
                    index = self._select_ucb(table, legal, c, prior)
                else:
                    index, regrets[seat] = self._select_regret(table, legal)
                chosen[seat] = legal[index]
                keys[seat] = action_key(legal[index])
            path.append((node, keys, regrets))
            state._apply(chosen)
            joint = keys[deciders[0]] if len(deciders) == 1 else tuple(keys[s] for s in deciders)
            child = node.children.get(joint)
            if child is None:
                if expanded:
                    break
                child = node.children[joint] = Node()
                expanded = True
            node = child
        rewards = self._rollout(state)
        for node, keys, regrets in path:
            for seat, key in keys.items():
                if model_opponents and seat != self.seat:
                    continue
                entry = node.stats[seat][key]
                entry[0] += 1
                entry[1] += rewards[seat]
                if seat in regrets:
                    self._update_regret(regrets[seat], rewards[seat])

    def _select_ucb(
        self, table: dict[Any, list[float]], legal: list[Action], c: float, prior: Any = None
    ) -> int:
        untried = []
        entries = []
        prior_index = -1
        for index, action in enumerate(legal):
            key = action if type(action) in (str, int) else _frozen(action)
            entry = table.get(key)
            if entry is None:
                entry = table[key] = [0, 0.0, 0, 0.0, 0.0]
            entry[2] += 1
            if entry[0] == 0:
                untried.append(index)
            if key == prior:
                prior_index = index
            entries.append(entry)
        if untried:
            if prior_index >= 0 and entries[prior_index][0] == 0:
                return prior_index
            return untried[self.rng.randrange(len(untried))]
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
            weight = self.config["prior_weight"]
            value = entry[1] / visits + c * sqrt(log(entry[2]) / visits) + weight / (visits + 1)
            if value > best_value:
                best_index = prior_index
        return best_index

    def _select_regret(self, table: dict[Any, list[float]], legal: list[Action]) -> tuple[int, Regret]:
        gamma = self.config["exploration"]
        entries = []
        for action in legal:
            key = action_key(action)
            entry = table.get(key)
            if entry is None:
                entry = table[key] = [0, 0.0, 0, 0.0, 0.0]
            entries.append(entry)
        count = len(entries)
        positive = [max(entry[3], 0.0) for entry in entries]
        total = sum(positive)
        if total > 0:
            sigma = [(1 - gamma) * p / total + gamma / count for p in positive]
        else:
            sigma = [1 / count] * count
        if self._averaging:
            for entry, probability in zip(entries, sigma, strict=True):
                entry[4] += probability
        pick = self.rng.random()
        chosen = count - 1
        for index, probability in enumerate(sigma):
            pick -= probability
            if pick < 0:
                chosen = index
                break
        return chosen, (entries, sigma, chosen)

    @staticmethod
    def _update_regret(regret: Regret, reward: float) -> None:
        """Regret matching+ with an importance-sampled estimate of every action's reward."""
        entries, sigma, chosen = regret
        estimate = reward / sigma[chosen]
        for index, entry in enumerate(entries):
            # Regret matching+: cumulative regrets never go below zero, so a bad early run is soon forgotten.
            entry[3] = max(0.0, entry[3] + (estimate if index == chosen else 0.0) - reward)

    def _rollout_action(self, state: State, seat: int, legal: list[Action]) -> Action:
        bots = self.rollout_bots
        if len(legal) == 1:
            return legal[0]
        if bots is None:
            return state.playout_action(seat, legal, self.rng)
        action = bots[seat].act(state.observation(seat), legal)
        return action if is_legal_action(action, legal) else legal[0]

    def _rollout(self, state: State) -> list[float]:
        rng = self.rng
        depth = self.config["rollout_depth"]
        steps = 0
        to_break = self.config["rollout_to_break"]
        while not state.is_terminal() and (depth == 0 or steps < depth):
            if to_break and steps and state.at_break():
                break
            if state.is_chance():
                state._apply_chance(state.sample_chance(rng))
            else:
                actions = {}
                for seat in state.deciders():
                    actions[seat] = self._rollout_action(state, seat, state.legal_actions(seat))
                state._apply(actions)
            steps += 1
        # Scoring where a rollout stops is the engine's estimate, not the loop's: since search version 4 it
        # may be a mix of outcomes (Nacho Pile's last chip), read by the bot's own `_evaluate`.
        return self._evaluate(state)


def positions(game, num_players, seed, count):
    """(seat, observation, legal) at decisions with a choice, spread over random games."""
    found = []
    game_seed = seed
    while len(found) < count:
        rng = random.Random(game_seed)
        state = game.start(num_players, None, game_seed)
        step = 0
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.deciders()[0]
            legal = state.legal_actions(seat)
            if step % 9 == game_seed % 9 and len(legal) > 1:
                found.append((seat, state.observation(seat), legal))
            step += 1
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
        game_seed += 1
    return found[:count]


def stats_of(root):
    return {
        seat: sorted((repr(key), entry) for key, entry in table.items()) for seat, table in root.stats.items()
    }


@pytest.mark.parametrize("params", PARAMS, ids=range(len(PARAMS)))
def test_the_search_chooses_as_the_reference_loop_does(game, params):
    bots = registry.bots_for(game.spec.id)
    if params.get("rollout", "playout") not in bots and params.get("rollout", "playout") != "playout":
        params = {k: v for k, v in params.items() if k not in ("rollout", "prior")}
    low, high = game.spec.players_allowed(game.spec.validate_options({}))
    for num_players in sorted({low, min(4, high), high}):
        options = game.spec.validate_options({}, num_players)
        for index, (seat, observation, legal) in enumerate(positions(game, num_players, 17 + num_players, 4)):
            fast_rng, reference_rng = random.Random(index), random.Random(index)
            fast = SearchBot(game, seat, num_players, options, params, fast_rng)
            reference = ReferenceSearch(game, seat, num_players, options, params, reference_rng)
            assert fast.act(observation, legal) == reference.act(observation, legal)
            assert fast_rng.getstate() == reference_rng.getstate()
            assert stats_of(fast.search(observation)) == stats_of(reference.search(observation))
            assert fast_rng.getstate() == reference_rng.getstate()

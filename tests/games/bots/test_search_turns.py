"""Search options that know whose turn it is (`state.current`), tried on Nacho Pile (issue 19's strength work):
the next_turn horizon, common later draws for the root's actions (pair_futures, root_pairs), and the bot's own
moves below the root by the rollout policy (own_moves=rollout)."""

import random

from games.bots.search import SearchBot
from games.nacho_pile import GAME, NachoPileState

NACHO = {"rollout": "heuristic", "opponents": "rollout", "rollout_depth": 8}


def make_bot(seat=0, seed=1, **params):
    return SearchBot(GAME, seat, 4, GAME.spec.validate_options(None, 4), {**NACHO, **params}, random.Random(seed))


def mid_game(drawn=(2, 5)):
    """Seat 0 to draw or stop on turn 8, with piles in front of seats 1 and 2 and most chips still in the bag."""
    return NachoPileState.position(
        4, current=0, turn=8, drawn=list(drawn), fronts={1: {5: 2}, 2: {3: 1}}, plates={3: {1: 2}}
    )


def test_the_next_turn_horizon_scores_an_iteration_when_the_seats_turn_comes_back():
    state = mid_game()
    state.apply({0: "stop"})
    assert state.current == 1 and state.turn == 9
    bot = make_bot(horizon="next_turn", rollout_depth=0)
    played = state.clone()
    rewards = bot._rollout(played, left=True)
    # Seats 1, 2 and 3 each played a turn; seat 0's turn has begun (its front claimed) and nothing more.
    assert (played.current, played.turn, played.is_chance(), played.drawn) == (0, 12, True, [])
    assert rewards == bot._evaluate(played)
    # Already at the seat's turn after it had passed on: scored where it stands.
    assert bot._rollout(played.clone(), left=True) == rewards
    # With a depth as well, whichever comes first ends it: one event.
    capped = state.clone()
    make_bot(horizon="next_turn", rollout_depth=1)._rollout(capped, left=True)
    assert capped.turn == 9 and len(capped.drawn) + (capped.turn - 9) <= 1


class Recording(SearchBot):
    """Records, per iteration, the root action forced by pair_futures and the state of the later stream."""

    def _iterate(self, root, state):
        self.seen.append((self._pair_index, self._rest_rng.getstate()))
        super()._iterate(root, state)

    def _paired_rollout(self, state, own_rng, rest_rng):
        self.seen.append((own_rng.getstate(), rest_rng.getstate()))
        return super()._paired_rollout(state, own_rng, rest_rng)


def recording_bot(**params):
    bot = Recording(GAME, 0, 4, GAME.spec.validate_options(None, 4), {**NACHO, **params}, random.Random(3))
    bot.seen = []
    return bot


def test_pair_futures_tries_the_roots_actions_in_turn_on_common_later_draws():
    state = mid_game()
    bot = recording_bot(iterations=10, pair_futures=True)
    bot._prior_key = None
    root = bot.search(state.observation(0))
    assert {key: entry[0] for key, entry in root.stats[0].items()} == {"draw": 5, "stop": 5}
    assert [index for index, _ in bot.seen] == [0, 1] * 5
    streams = [rest for _, rest in bot.seen]
    assert all(streams[2 * k] == streams[2 * k + 1] for k in range(5))
    assert len({streams[2 * k] for k in range(5)}) == 5
    # The choice is the best mean reward.
    table = root.stats[0]
    means = {key: entry[1] / entry[0] for key, entry in table.items()}
    bot = recording_bot(iterations=10, pair_futures=True)
    assert bot.act(state.observation(0), ["draw", "stop"]) == max(means, key=means.get)
    # Off by default: no forced actions, no later stream.
    plain = make_bot(iterations=10)
    plain._prior_key = None
    plain.search(state.observation(0))
    assert plain._pair_count == 0 and plain._rest_rng is None


def test_root_pairs_plays_every_root_action_on_the_same_deal_and_streams():
    state = mid_game()
    bot = recording_bot(iterations=6, root_pairs=True)
    choice = bot.act(state.observation(0), ["draw", "stop"])
    assert choice in ("draw", "stop")
    # 6 iterations over 2 actions: 3 rounds, each playing both actions from the same two streams.
    assert len(bot.seen) == 6
    assert all(bot.seen[2 * k] == bot.seen[2 * k + 1] for k in range(3))
    assert len({bot.seen[2 * k] for k in range(3)}) == 3


def test_own_moves_by_the_rollout_policy_leave_the_tree_no_statistics_of_the_bots_own_below_the_root():
    state = mid_game(drawn=(1,))
    for own_moves, below in (("rollout", 0), ("tree", None)):
        bot = make_bot(iterations=60, own_moves=own_moves)
        bot._prior_key = None
        root = bot.search(state.observation(0))
        assert sum(entry[0] for entry in root.stats[0].values()) == 60
        counted = 0
        stack = list(root.children.values())
        while stack:
            node = stack.pop()
            counted += sum(entry[0] for entry in node.stats.get(0, {}).values())
            stack.extend(node.children.values())
        if below is not None:
            assert counted == below
        else:
            assert counted > 0


def test_in_a_game_that_names_no_current_seat_the_next_turn_horizon_plays_as_the_depth_does():
    from games.chicken_foot import GAME as CHICKEN_FOOT

    state = CHICKEN_FOOT.start(3, None, 5)
    rng = random.Random(5)
    while state.is_chance():
        state.apply_chance(state.sample_chance(rng))
    seat = state.deciders()[0]
    assert not hasattr(state, "current")
    choices = []
    for horizon in ("depth", "next_turn"):
        params = {"iterations": 20, "rollout_depth": 6, "horizon": horizon}
        bot = SearchBot(CHICKEN_FOOT, seat, 3, state.options, params, random.Random(9))
        choices.append((bot.act(state.observation(seat), state.legal_actions(seat)), bot.rng.random()))
    assert choices[0] == choices[1]

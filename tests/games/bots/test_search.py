import copy
import random

import pytest

from games.bots.search import SearchBot, rewards_of
from games.core.errors import OptionError
from games.core.runner import play_match
from games.core.state import Outcome


def decision_points(game, num_players, seed, every):
    """(state, seat) pairs at every `every`-th decision of random games, one game after another."""
    for game_seed in range(seed, seed + 50):
        yield from _decision_points(game, num_players, game_seed, every)


def _decision_points(game, num_players, seed, every):
    rng = random.Random(seed)
    state = game.start(num_players, None, seed)
    count = seed
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        deciders = state.deciders()
        if count % every == 0:
            yield state, deciders[0]
        count += 1
        state.apply({s: rng.choice(state.legal_actions(s)) for s in deciders})


def make_bot(game, state, seat, seed, **params):
    params = {"iterations": 30, **params}
    return SearchBot(game, seat, state.num_players, state.options, params, random.Random(seed))


def test_rewards_share_wins_and_credit_places_and_score_margins():
    places_only = rewards_of(Outcome((1, 2, 3, 4), (9, 5, 3, 0)), 4, None, 0.2)
    assert places_only == [1.0, 0.25 * 2 / 3, 0.25 / 3, 0.0]
    assert rewards_of(Outcome((1, 1, 3), (5, 5, 2)), 3, None, 0.0) == [0.375 + 0.25, 0.375 + 0.25, 0.0]
    # Highest score wins: 9 against the others' mean of 3 is a margin of 6 over a spread of 10.
    high = rewards_of(Outcome((1, 2, 3, 4), (9, 5, 3, 1)), 4, "high", 0.2)
    assert high[0] == pytest.approx(0.55 + 0.25 + 0.2 * (1 + 6 / 9) / 2)
    assert high[3] == pytest.approx(0.2 * (1 + (1 - 17 / 3) / 9) / 2)
    # Lowest score wins (Chicken Foot): the lowest total earns the margin.
    low = rewards_of(Outcome((1, 2), (10, 30)), 2, "low", 0.2)
    assert low == pytest.approx([0.55 + 0.25 + 0.2 * (1 + 20 / 21) / 2, 0.2 * (1 - 20 / 21) / 2])


def test_same_seed_same_choice_and_choices_depend_only_on_the_observation(game):
    """Two states that look the same from the bot's seat (one the truth, one the sampler's redeal) get the
    same choice for the same seed: the bot can only reach the observation."""
    low, _ = game.spec.players_allowed(game.spec.validate_options({}))
    num_players = max(low, min(4, game.spec.max_players))
    checked = 0
    for state, seat in decision_points(game, num_players, seed=3, every=13):
        observation = state.observation(seat)
        twin = game.sample_state(copy.deepcopy(observation), random.Random(checked))
        assert twin.observation(seat) == observation
        legal = state.legal_actions(seat)
        assert twin.legal_actions(seat) == legal
        first = make_bot(game, state, seat, 11).act(state.observation(seat), legal)
        second = make_bot(game, twin, seat, 11).act(twin.observation(seat), twin.legal_actions(seat))
        assert first == second
        assert first in legal
        checked += 1
        if checked == 6:
            break
    assert checked >= 3


def test_plays_a_legal_action_in_every_position_of_many_games(game):
    """Whole matches with the search bot in every seat: the runner forfeits
    a seat on any illegal action or error."""
    low, high = game.spec.players_allowed(game.spec.validate_options({}))
    for seed in range(4):
        num_players = low + seed % (high - low + 1)
        bots = [("search", {"iterations": 8})] * num_players
        record = play_match(game.spec.id, num_players, bots, seed)
        assert record["end"]["forfeits"] == []


def test_bad_parameters_are_clear_errors(game):
    with pytest.raises(OptionError, match="rollout: 'nobody' is not a bot of"):
        SearchBot(game, 0, 2, {}, {"rollout": "nobody"}, random.Random(1))
    with pytest.raises(OptionError, match="iterations: 0 is below the minimum 1"):
        SearchBot(game, 0, 2, {}, {"iterations": 0}, random.Random(1))


def test_chooses_a_legal_action_at_positions_from_hundreds_of_random_games(game):
    """Positions spread over 200 random games of every game: the search bot's choice is always legal."""
    low, high = game.spec.players_allowed(game.spec.validate_options({}))
    asked = 0
    for seed in range(200):
        num_players = low + seed % (high - low + 1)
        rng = random.Random(seed)
        state = game.start(num_players, None, seed)
        step = 0
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            deciders = state.deciders()
            if step % 37 == seed % 37:
                seat = deciders[0]
                legal = state.legal_actions(seat)
                bot = make_bot(game, state, seat, seed, iterations=3, determinizations=1, rollout_depth=30)
                assert bot.act(state.observation(seat), legal) in legal
                asked += 1
            step += 1
            state.apply({s: rng.choice(state.legal_actions(s)) for s in deciders})
    assert asked >= 20


def test_each_game_offers_the_search_bot_with_its_tuned_defaults():
    from games import registry
    from games.bots.search import TUNED

    for game_id, tuned in TUNED.items():
        cls = registry.bot_class("search", game_id)
        assert issubclass(cls, SearchBot) and cls.name == "search" and cls.version == SearchBot.version
        defaults = cls.validate_params({})
        assert {k: defaults[k] for k in tuned} == tuned
        described = {p["name"]: p["default"] for p in cls.describe()["params"]}
        assert {k: described[k] for k in tuned} == tuned
        # An explicit parameter still overrides the tuned default; the rest stay tuned.
        assert cls.validate_params({"iterations": 7}) == {**defaults, "iterations": 7}
    assert SearchBot.validate_params({})["iterations"] == 300  # the generic fallback


def test_the_prior_is_tried_first_and_must_be_a_bot_of_the_game(game):
    from games import registry

    with pytest.raises(OptionError, match="prior: 'nobody' is not a bot of"):
        SearchBot(game, 0, 2, {}, {"prior": "nobody"}, random.Random(1))
    if "heuristic" not in registry.bots_for(game.spec.id):
        return
    low, _ = game.spec.players_allowed(game.spec.validate_options({}))
    num_players = max(low, min(4, game.spec.max_players))
    for state, seat in decision_points(game, num_players, seed=5, every=11):
        legal = state.legal_actions(seat)
        if len(legal) > 1 and len(state.deciders()) == 1:
            break
    bot = make_bot(game, state, seat, 3, iterations=1, prior="heuristic")
    heuristic = registry.bot_class("heuristic", game.spec.id)(
        game, seat, num_players, state.options, None, random.Random(3)
    )
    assert bot.act(state.observation(seat), legal) == heuristic.act(state.observation(seat), legal)


def test_registering_a_game_again_with_more_bots_keeps_its_tuned_search():
    # tests/league/bots/faulty_bots.py registers Nacho Pile again with test-only bots: the search bot it is
    # offered must still be that game's tuned one (a plain SearchBot there made the goldens play differently)
    from games import registry

    game = registry.get_game("nacho_pile")
    before = registry.bots_for("nacho_pile")
    try:
        registry.register(
            game, tuple(bot for name, bot in before.items() if name not in ("random", "search"))
        )
        assert registry.bot_class("search", "nacho_pile").validate_params({})["rollout"] == "heuristic"
        assert registry.bots_for("nacho_pile") == before
    finally:
        registry._load()[1]["nacho_pile"] = before


def test_a_position_short_of_the_end_is_scored_by_the_mix_with_its_margins():
    # The position of Nacho Pile's rules test of the mix: the last chip is a 3 (a quarter),
    # a 5 (a half) or the Wild.
    from games.nacho_pile import GAME
    from tests.games.nacho_pile import short_of_the_end

    state = short_of_the_end()
    rewards = make_bot(GAME, state, 2, 1)._evaluate(state)
    # Each entry of the mix scores places (0.55 + 0.25 for first, 0.125 for second) and the margin of the
    # deciding count over the others' mean, scaled by the spread + 1, with weight 0.2, even though Nacho
    # Pile's final outcome has no single score for margins.
    last_3 = [0.8 + 0.2 * (1 + 3 / 4) / 2, 0.125 + 0.2 * (1 - 1.5 / 4) / 2, 0.2 * (1 - 1.5 / 4) / 2]
    a_5 = [0.125 + 0.2 * (1 - 1.5 / 4) / 2, 0.8 + 0.2 * (1 + 3 / 4) / 2, 0.2 * (1 - 1.5 / 4) / 2]
    wild = [0.125 + 0.2 * (1 + 1 / 5) / 2, 0.8 + 0.2 * (1 + 2.5 / 5) / 2, 0.2 * (1 - 3.5 / 5) / 2]
    expected = [0.25 * a + 0.5 * b + 0.25 * c for a, b, c in zip(last_3, a_5, wild, strict=True)]
    assert rewards == pytest.approx(expected)
    # Without the margin part the mix scores places alone.
    assert make_bot(GAME, state, 2, 1, score_weight=0.0)._evaluate(state) == pytest.approx(
        [0.25 * 1.0 + 0.5 * 0.125 + 0.25 * 0.125, 0.25 * 0.125 + 0.5 * 1.0 + 0.25 * 1.0, 0.0]
    )


def test_each_game_s_search_module_hands_the_search_bot_its_evaluator_and_a_game_without_one_the_generic(toy):
    from games import registry
    from games.core.evaluator import Evaluator
    from games.nacho_pile import GAME
    from tests.games.nacho_pile import short_of_the_end

    assert {game_id: type(registry.evaluator(game_id)).__name__ for game_id in registry.game_ids()} == {
        "nacho_pile": "NachoPileEvaluator",
        "nobody_but_us_chickens": "NobodyButUsChickensEvaluator",
        "chicken_foot": "ChickenFootEvaluator",
        "chickie_nuggs": "ChickieNuggsEvaluator",
        toy.spec.id: "Evaluator",
    }
    state = short_of_the_end()
    assert make_bot(GAME, state, 2, 1).evaluator is registry.evaluator("nacho_pile")
    # The generic evaluator scores Nacho Pile's position by its outcome alone: chips in total, no mix.
    assert Evaluator().evaluation_mix(state) is None
    assert Evaluator().evaluation(state) == state.outcome()

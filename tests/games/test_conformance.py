"""Generic conformance tests of the engine contract, run over every registered game (and the core's toy game).

They hold for any game that follows docs/engine.md: determinism, replay, tampering, hidden information,
illegal actions, clones and the sampler.
"""

import copy
import json
import random

import pytest

from games import registry
from games.core.errors import IllegalAction, ReplayError
from games.core.record import canonical_json
from games.core.replay import iter_steps, replay
from games.core.runner import play_match

ILLEGAL = "__not_an_action__"
# Games whose positions hold nothing hidden between events (every decision is public or simultaneous, so
# another seat's choice never sits in a state): their samplers rebuild the true state exactly.
NOTHING_HIDDEN_BETWEEN_EVENTS = {"nacho_pile", "nobody_but_us_chickens"}


def player_counts(game):
    low, high = game.spec.players_allowed(game.spec.validate_options({}))
    return list(range(low, high + 1))


def variant_options(game):
    """The default options, then each choice or flag of each option changed on its own."""
    yield {}
    for option in game.spec.options:
        if option.kind == "bool":
            yield {option.name: not option.default}
        for choice in option.choices:
            if choice != option.default:
                yield {option.name: choice}


def _rejects(game, options, num_players):
    try:
        game.spec.validate_options(options, num_players)
    except ValueError:
        return True  # that variant does not seat this many players
    return False


def random_positions(game, num_players, seed, options=None, limit=None):
    """Walk one random game, yielding every non-terminal state (the same object, advanced in place)."""
    rng = random.Random(seed)
    state = game.start(num_players, options, seed)
    steps = 0
    while not state.is_terminal() and (limit is None or steps < limit):
        yield state
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
        steps += 1


def spread_positions(game, num_players, seed, count, every):
    """About `count` positions, every `every`-th one of random games, over as many games as it takes."""
    seen = 0
    game_seed = seed
    offset = 0
    while seen < count:
        offset += 1
        for i, state in enumerate(random_positions(game, num_players, game_seed)):
            if (i + offset) % every == 0:
                yield state
                seen += 1
                if seen >= count:
                    return
        game_seed += 1000


def snapshot(state):
    out = {
        "terminal": state.is_terminal(),
        "chance": state.is_chance(),
        "deciders": state.deciders(),
        "observations": [state.observation(s) for s in range(state.num_players)],
    }
    out["legal"] = {s: state.legal_actions(s) for s in out["deciders"]}
    return canonical_json(out)


def test_same_seed_gives_byte_identical_records(game):
    for num_players in player_counts(game):
        bots = ["random"] * num_players
        first = canonical_json(play_match(game.spec.id, num_players, bots, seed=1234 + num_players))
        second = canonical_json(play_match(game.spec.id, num_players, bots, seed=1234 + num_players))
        assert first == second
        assert first != canonical_json(play_match(game.spec.id, num_players, bots, seed=99 + num_players))


def test_hundreds_of_random_games_replay_for_every_player_count_and_variant(game):
    settings = [
        (options, n)
        for options in variant_options(game)
        for n in player_counts(game)
        if not _rejects(game, options, n)
    ]
    seeds_per_setting = max(6, -(-240 // len(settings)))
    played = 0
    for options, num_players in settings:
        for seed in range(seeds_per_setting):
            record = play_match(game.spec.id, num_players, ["random"] * num_players, seed, options)
            assert record["end"]["reason"] == "normal", record["end"]
            state = replay(json.loads(canonical_json(record)))
            assert state.outcome().to_json() == record["outcome"]
            places = record["outcome"]["places"]
            assert sorted(places)[0] == 1 and all(1 <= p <= num_players for p in places)
            played += 1
    assert played >= 200


@pytest.fixture
def record(game):
    num_players = player_counts(game)[len(player_counts(game)) // 2]
    return play_match(game.spec.id, num_players, ["random"] * num_players, seed=77)


def tampered(record, change):
    bad = copy.deepcopy(record)
    change(bad)
    return bad


def test_replay_rejects_a_changed_outcome(record):
    def change(r):
        r["outcome"]["places"] = [p + 1 for p in r["outcome"]["places"]]

    with pytest.raises(ReplayError, match="recorded outcome"):
        replay(tampered(record, change))


def test_replay_rejects_a_decision_changed_to_an_illegal_one(record):
    index = max(i for i, (kind, _) in enumerate(record["events"]) if kind == "m") // 2
    index = next(i for i in range(index, len(record["events"])) if record["events"][i][0] == "m")
    seat = next(iter(record["events"][index][1]))

    with pytest.raises(ReplayError) as info:
        replay(tampered(record, lambda r: r["events"][index][1].__setitem__(seat, ILLEGAL)))
    assert info.value.event == index


def test_replay_rejects_an_impossible_chance_outcome(record):
    chances = [i for i, (kind, _) in enumerate(record["events"]) if kind == "c"]
    if not chances:
        assert not any(kind == "c" for kind, _ in record["events"])
        return
    for index in (chances[0], chances[len(chances) // 2], chances[-1]):
        for impossible in (ILLEGAL, None, [ILLEGAL]):
            with pytest.raises(ReplayError) as info:
                replay(tampered(record, lambda r, i=index, v=impossible: r["events"][i].__setitem__(1, v)))
            assert info.value.event == index


def test_replay_rejects_removed_and_added_events(record):
    with pytest.raises(ReplayError, match="before the game is over"):
        replay(tampered(record, lambda r: r["events"].pop()))
    with pytest.raises(ReplayError, match="one too many"):
        replay(tampered(record, lambda r: r["events"].append(r["events"][-1])))
    middle = len(record["events"]) // 2
    with pytest.raises(ReplayError):
        replay(tampered(record, lambda r: r["events"].pop(middle)))


def test_replay_refuses_another_version(record):
    with pytest.raises(ReplayError, match="will not misread it"):
        replay(tampered(record, lambda r: r.__setitem__("version", r["version"] + 1)))


def test_illegal_actions_raise_and_leave_the_state_unchanged(game):
    num_players = player_counts(game)[-1]
    checked = 0
    for state in spread_positions(game, num_players, seed=5, count=40, every=7):
        if state.is_chance():
            continue
        before = snapshot(state)
        deciders = state.deciders()
        for seat in deciders:
            actions = {s: state.legal_actions(s)[0] for s in deciders}
            actions[seat] = ILLEGAL
            with pytest.raises(IllegalAction):
                state.apply(actions)
            assert snapshot(state) == before
        absent = next((s for s in range(num_players) if s not in deciders), None)
        if absent is not None:
            with pytest.raises(IllegalAction):
                state.apply({absent: state.legal_actions(deciders[0])[0]})
            assert snapshot(state) == before
        with pytest.raises(IllegalAction):
            state.apply_chance(ILLEGAL)
        assert snapshot(state) == before
        checked += 1
    assert checked >= 3


def test_actions_and_observations_are_plain_json(game):
    num_players = player_counts(game)[0]
    for state in random_positions(game, num_players, seed=8):
        for seat in range(num_players):
            observation = state.observation(seat)
            assert json.loads(canonical_json(observation)) == observation
            assert observation["seat"] == seat and observation["num_players"] == num_players
        for seat in state.deciders():
            legal = state.legal_actions(seat)
            assert legal
            assert json.loads(canonical_json(legal)) == legal
            assert len({canonical_json(a) for a in legal}) == len(legal)


def test_the_replay_view_is_plain_data_at_every_step(game):
    view = registry.table_view(game.spec.id)
    if game.spec.id == "toy_high_hand":
        assert view is None  # the toy game has no view module: the replay page shows its text picture
        return
    num_players = player_counts(game)[-1]
    record = play_match(game.spec.id, num_players, ["random"] * num_players, seed=6)
    tables = [view(step.state) for step in iter_steps(record)]

    assert len(tables) == len(record["events"]) + 1
    assert all(json.loads(canonical_json(table)) == table for table in tables)
    assert all(len(table["seats"]) == num_players for table in tables)


def test_clones_are_independent(game):
    num_players = player_counts(game)[-1]
    rng = random.Random(3)
    for state in spread_positions(game, num_players, seed=13, count=30, every=5):
        before = snapshot(state)
        clone = state.clone()
        assert snapshot(clone) == before
        for _ in range(20):
            if clone.is_terminal():
                break
            if clone.is_chance():
                clone.apply_chance(clone.sample_chance(rng))
            else:
                clone.apply({s: rng.choice(clone.legal_actions(s)) for s in clone.deciders()})
        assert snapshot(state) == before


def test_sampled_states_agree_with_the_observation_and_play_to_the_end(game):
    rng = random.Random(17)
    differed = agreed = 0
    for num_players in player_counts(game)[:3]:
        for state in spread_positions(game, num_players, seed=num_players, count=12, every=9):
            for seat in range(num_players):
                observation = state.observation(seat)
                sample = game.sample_state(copy.deepcopy(observation), rng)
                assert sample.observation(seat) == observation
                assert sample.is_chance() == state.is_chance() and sample.deciders() == state.deciders()
                agreed += 1
                if any(
                    sample.observation(o) != state.observation(o) for o in range(num_players) if o != seat
                ):
                    differed += 1
                for _ in range(10_000):
                    if sample.is_terminal():
                        break
                    if sample.is_chance():
                        sample.apply_chance(sample.sample_chance(rng))
                    else:
                        sample.apply({s: rng.choice(sample.legal_actions(s)) for s in sample.deciders()})
                assert sample.is_terminal()
    assert agreed >= 20
    if game.spec.id not in NOTHING_HIDDEN_BETWEEN_EVENTS:
        # Hidden information really is redrawn: some samples differ from the truth in what others see.
        assert differed > 0
    else:
        # Nothing is hidden between events: the sampler rebuilds the true state.
        assert differed == 0


def test_observations_do_not_depend_on_what_the_seat_cannot_see(game):
    """Two states the sampler makes from one observation look the same from that seat,
    yet differ for others."""
    rng = random.Random(29)
    num_players = player_counts(game)[-1]
    for state in spread_positions(game, num_players, seed=31, count=15, every=11):
        observation = state.observation(0)
        first = game.sample_state(copy.deepcopy(observation), rng)
        second = game.sample_state(copy.deepcopy(observation), rng)
        assert first.observation(0) == second.observation(0) == observation


def test_an_engine_s_playout_draws_the_same_numbers_and_reaches_the_same_state_as_the_generic_one(game):
    """`State.playout` plays on uniformly at random; an engine's faster loop must match it exactly."""
    from games.core.state import State

    num_players = player_counts(game)[-1]
    compared = 0
    for state in spread_positions(game, num_players, seed=41, count=12, every=13):
        for max_events in (0, 7, 1):
            fast, generic = state.clone(), state.clone()
            fast_rng, generic_rng = random.Random(compared), random.Random(compared)
            steps = fast.playout(fast_rng, max_events)
            assert steps == State.playout(generic, generic_rng, max_events)
            assert snapshot(fast) == snapshot(generic)
            assert fast_rng.getstate() == generic_rng.getstate()
            compared += 1
    assert compared >= 24


def test_a_game_s_rollout_draws_the_same_numbers_and_reaches_the_same_state_as_the_generic_loop(game):
    """`Evaluator.playout` is what a search bot's rollout does, with the game's own playout rule and breaks;
    a game's faster loop must match the generic loop over its `playout_action` and `at_break` exactly."""
    from games.core.evaluator import Evaluator

    evaluator = registry.evaluator(game.spec.id)
    num_players = player_counts(game)[-1]
    compared = 0
    for state in spread_positions(game, num_players, seed=41, count=12, every=13):
        for max_events, to_break in ((0, True), (0, False), (7, True), (1, False)):
            fast, generic = state.clone(), state.clone()
            fast_rng, generic_rng = random.Random(compared), random.Random(compared)
            steps = evaluator.playout(fast, fast_rng, max_events, to_break)
            assert steps == Evaluator.playout(evaluator, generic, generic_rng, max_events, to_break)
            assert snapshot(fast) == snapshot(generic)
            assert fast_rng.getstate() == generic_rng.getstate()
            compared += 1
    assert compared >= 24


def test_an_engine_s_run_plays_what_the_generic_one_plays(game):
    """`State.run` is the runner's whole match; an engine's override must ask `decide` the same questions with
    the state up to date (the deciding seat's observation as the generic loop has it then), draw the same
    numbers, append the same events and reach the same state, to the end and to a cap."""
    from games.core.state import State

    def decider(state, asked, seed):
        pick = random.Random(seed)

        def decide(seat, legal):
            asked.append((seat, list(legal), canonical_json(state.observation(seat))))
            return pick.choice(legal)

        return decide

    compared = 0
    for num_players in player_counts(game):
        for seed, cap in ((0, 100_000), (1, 100_000), (2, 5), (3, 40), (4, 41)):
            fast, generic = game.start(num_players, None, seed), game.start(num_players, None, seed)
            fast_rng, generic_rng = random.Random(seed), random.Random(seed)
            fast_events, generic_events, fast_asked, generic_asked = [], [], [], []
            fast.run(fast_rng, fast_events, cap, decider(fast, fast_asked, seed))
            State.run(generic, generic_rng, generic_events, cap, decider(generic, generic_asked, seed))
            assert fast_events == generic_events
            assert fast_asked == generic_asked
            assert len(fast_events) <= cap and (fast.is_terminal() or len(fast_events) == cap)
            assert snapshot(fast) == snapshot(generic)
            assert fast_rng.getstate() == generic_rng.getstate()
            compared += 1
    assert compared >= 10


def test_a_match_reported_event_by_event_records_what_a_match_without_reports_records(game):
    """With `on_event` the runner plays through the generic `State.advance`, one event at a time; without it,
    through the engine's own `advance`: the records must be the same, and each event reported once, in order,
    with the state just after it."""
    for num_players in player_counts(game):
        for seed in range(2):
            reported = []

            def on_event(state, event, reported=reported):
                reported.append((event, state.is_terminal()))

            quiet = play_match(game.spec.id, num_players, ["random"] * num_players, seed)
            loud = play_match(game.spec.id, num_players, ["random"] * num_players, seed, on_event=on_event)
            assert canonical_json(quiet) == canonical_json(loud)
            assert [event for event, _ in reported] == quiet["events"]
            assert [terminal for _, terminal in reported] == [False] * (len(reported) - 1) + [True]


def test_the_runner_s_inline_random_pick_records_what_the_random_bot_s_own_act_records(game):
    """The runner draws an untimed random seat's pick itself (`RandomBot.act`, inlined); a seat played by the
    same bot through its own `act` (a `SeatPlayer` whose bot the runner does not recognize) must record the
    same events, so the shortcut changes no record."""
    from games.core.bot import RandomBot
    from games.core.runner import SeatPlayer

    class OwnAct(RandomBot):
        pass

    def own(game, seat, num_players, options, rng):
        return OwnAct(game, seat, num_players, options, None, rng)

    for num_players in player_counts(game):
        for seed in range(3):
            inline = play_match(game.spec.id, num_players, ["random"] * num_players, seed)
            through_act = play_match(
                game.spec.id, num_players, [SeatPlayer("random", make=own)] * num_players, seed
            )
            assert inline["events"] == through_act["events"]
            assert any(kind == "m" for kind, _ in inline["events"])  # the random bot decided something

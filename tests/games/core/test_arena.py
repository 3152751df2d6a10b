from games.core.arena import play_series
from games.core.stats import wilson_interval


def results(series):
    return {
        name: (
            line.seat_games,
            round(line.wins, 9),
            line.place_total,
            line.score_total,
            line.decisions,
            line.forfeits,
        )
        for name, line in series.lines.items()
    }


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(0, 10)
    assert (round(low, 4), round(high, 4)) == (0.0, 0.2775)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_series_rotate_seats_evenly_and_count_shared_wins_fractionally(toy):
    series = play_series("toy_high_hand", ["keep_high", "random", "random"], 3, games=30, seed=4)
    assert series.lines["keep_high"].seat_games == 30
    assert series.lines["random"].seat_games == 60
    total_wins = sum(line.wins for line in series.lines.values())
    assert round(total_wins, 9) == 30  # one win shared out per game


def test_same_seed_same_table_with_one_or_two_processes(toy):
    one = play_series("toy_high_hand", ["keep_high", "random"], 2, games=24, seed=8)
    again = play_series("toy_high_hand", ["keep_high", "random"], 2, games=24, seed=8)
    two = play_series("toy_high_hand", ["keep_high", "random"], 2, games=24, seed=8, jobs=2)
    assert results(one) == results(again) == results(two)
    assert results(one) != results(play_series("toy_high_hand", ["keep_high", "random"], 2, games=24, seed=9))


def test_the_sensible_toy_bot_beats_random(toy):
    series = play_series("toy_high_hand", ["keep_high", "random", "random", "random"], 4, games=200, seed=1)
    assert series.lines["keep_high"].wins_low > 0.25

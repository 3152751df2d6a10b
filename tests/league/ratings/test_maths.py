"""The rating maths against openskill itself, without a database."""

from openskill.models import BradleyTerryFull, PlackettLuce

from league.ratings import maths

MODEL = maths.DEFAULT_MODEL


def fresh(n: int) -> list[maths.Skill]:
    return [MODEL.initial() for _ in range(n)]


def test_two_tied_winners_rank_above_the_third_and_fourth():
    """Four new players finish 1, 1, 2, 3: the winners stay level and above the third,
    who is above the last."""
    first, second, third, fourth = maths.rate(MODEL, fresh(4), [1, 1, 2, 3])

    assert first == second
    assert first.conservative > third.conservative > fourth.conservative
    assert first.mu > third.mu > fourth.mu
    assert [(s.mu, s.sigma) for s in (first, third, fourth)] == [
        (30.270778986280995, 7.501567773555074),
        (22.364610506859503, 7.501567773555074),
        (17.093831520578505, 7.501567773555074),
    ]


def test_plackett_luce_gets_the_tie_case_wrong_which_is_why_it_is_not_used():
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(4)]
    first, _, third, _ = (team[0] for team in model.rate(teams, ranks=[1, 1, 2, 3]))

    assert third.ordinal() >= first.ordinal()


def test_a_sequence_of_matches_equals_openskill_step_by_step():
    """Three matches with ties and different table sizes,
    chained through `maths.rate` and through openskill."""
    sequence = [
        ([0, 1, 2, 3], [1, 1, 2, 3]),
        ([2, 0, 4], [1, 2, 3]),
        ([3, 4, 1, 0, 2], [2, 1, 2, 4, 5]),
    ]
    ours = dict(enumerate(fresh(5)))
    model = BradleyTerryFull()
    theirs = {i: model.rating() for i in range(5)}
    for seats, places in sequence:
        for seat, skill in zip(seats, maths.rate(MODEL, [ours[s] for s in seats], places), strict=True):
            ours[seat] = skill
        rated = model.rate([[theirs[s]] for s in seats], ranks=places)
        for seat, team in zip(seats, rated, strict=True):
            theirs[seat] = team[0]

    assert {i: (s.mu, s.sigma) for i, s in ours.items()} == {i: (r.mu, r.sigma) for i, r in theirs.items()}
    assert round(ours[4].mu, 6) == round(theirs[4].mu, 6) != 25.0


def test_the_default_model_is_stored_with_its_parameters():
    assert MODEL.name == "BradleyTerryFull"
    assert MODEL.params == {"mu": 25.0, "sigma": 25 / 3, "beta": 25 / 6, "kappa": 0.0001, "tau": 25 / 300}
    assert MODEL.initial() == maths.Skill(25.0, 25 / 3)


def test_the_conservative_rating_is_mu_minus_three_sigma_everywhere():
    skill = maths.Skill(mu=30.0, sigma=2.5)
    assert (maths.conservative(30.0, 2.5), maths.uncertainty(2.5), skill.conservative) == (22.5, 7.5, 22.5)

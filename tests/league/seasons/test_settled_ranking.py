"""A season ranked by settled ratings: the organizer's choice queues the season's whole-history fit for the
workers (never a page request), a worker's slice of the kind "ratings" stores it, the table follows the
ratings with points beside them, and a refit stores the same numbers."""

from decimal import Decimal as D

import pytest
from django.test import Client

from league.bots.services.work import FairShare, work_shared
from league.core.errors import Conflict, Forbidden, UserError
from league.ratings import whole_history as whr
from league.ratings.models import RefitDue
from league.ratings.refits import refit_next
from league.ratings.tasks import settled_nightly
from league.seasons import points, selectors, services
from league.seasons.models import Season, SeasonFit, SeasonRating
from league.seasons.settled import season_refit, season_tables
from tests.factories import UserFactory
from tests.league.seasons.test_seasons import weekly

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club, clara):
    """Points: 10 6 3 1. Week 1: Ada, Bea, Cal, Dov; week 2: Dov, Cal, Bea, Ada (the reverse); week 3 as
    week 1. Points: Ada 10+1+10 = 21, Bea 6+3+6 = 15, Cal 3+6+3 = 12, Dov 1+10+1 = 12."""
    season = services.season_create(club=club, by=clara, name="Autumn", place_points="10 6 3 1")
    for name, places in [
        ("Week 1", {"Ada": 1, "Bea": 2, "Cal": 3, "Dov": 4}),
        ("Week 2", {"Ada": 4, "Bea": 3, "Cal": 2, "Dov": 1}),
        ("Week 3", {"Ada": 1, "Bea": 2, "Cal": 3, "Dov": 4}),
    ]:
        services.season_event_add(season=season, by=clara, tournament=weekly(club, clara, name, places))
    return season


def test_rank_by_rating_orders_by_rating_shares_equal_ones_and_decides_qualification_on_that_order():
    rows = [
        points.Row(player, rank, D(total), (), (), attended, False)
        for player, rank, total, attended in [
            (1, 1, "30", 3),
            (2, 2, "20", 1),
            (3, 3, "10", 3),
            (4, 4, "5", 3),
        ]
    ]
    rules = points.Rules(minimum_events=2, qualify_top=2)
    ranked = points.rank_by_rating(rows, {1: 0.5, 2: 1.5, 3: 0.5}, rules)
    assert [(row.player, row.rank, row.total, row.qualifies) for row in ranked] == [
        (2, 1, D("20"), False),  # the best rating, but one event attended: not eligible
        (1, 2, D("30"), True),
        (3, 2, D("10"), True),  # level with player 1: shares rank 2
        (4, 4, D("5"), False),  # no rating: after every rated player
    ]


def test_choosing_settled_ratings_queues_the_fit_and_a_workers_slice_ranks_the_table(season, clara):
    assert not RefitDue.objects.exists()  # a points season queues nothing
    services.season_rank_by_set(season=season, by=clara, rank_by="settled")
    assert list(RefitDue.objects.values_list("kind", "target_id")) == [("season", season.pk)]
    # until the fit is stored the table is in points order, and the page says the fit is queued
    lines = selectors.season_table(season).lines
    assert [(line.name, line.rating) for line in lines] == [
        ("Ada", None),
        ("Bea", None),
        ("Cal", None),
        ("Dov", None),
    ]
    page = Client().get(season.get_absolute_url()).content.decode()
    assert "the first fit is queued for the workers" in page
    # a worker's slice: the only open work is the fit
    done = work_shared(worker="w1", fair=FairShare(), max_slices=3)
    assert done == {"ratings": 1}
    assert not RefitDue.objects.exists()
    fit = SeasonFit.objects.get(season=season)
    assert (fit.matches, fit.iterations) == (3, whr.ITERATIONS)
    lines = selectors.season_table(season).lines
    fitted = whr.fit(season_tables(season))
    expected = sorted(fitted, key=lambda player: -fitted[player][-1].rating)
    assert [line.player_id for line in lines] == expected
    names = [line.name for line in lines]
    # Ada won twice and was last once; Dov the reverse; Bea was ahead of Cal twice out of three
    assert names == ["Ada", "Bea", "Cal", "Dov"]
    assert [line.total for line in lines] == [D("21.00"), D("15.00"), D("12.00"), D("12.00")]
    ada = lines[0]
    assert ada.rating == round(fitted[ada.player_id][-1].rating * whr.ELO + 1500, 1)
    assert ada.sd == round(fitted[ada.player_id][-1].sd * whr.ELO, 1)
    page = Client().get(season.get_absolute_url()).content.decode()
    assert "Settled rating" in page and "Ranked by settled ratings, fitted" in page
    assert f"{ada.rating:.0f}" in page
    projector = Client().get(f"/seasons/{season.slug}/projector/").content.decode()
    assert f'<td class="num">{ada.rating:.0f}</td><td class="num">21.00</td>' in projector
    csv = Client().get(f"/seasons/{season.slug}/csv/").content.decode("utf-8-sig").splitlines()
    assert csv[0] == "rank,player,settled rating,total,events attended,qualifies,counted,dropped"
    assert csv[1].startswith(f"1,Ada,{ada.rating},21.00,3,no,")
    api = Client().get(f"/api/seasons/{season.pk}/").json()
    assert api["rank_by"] == "settled"
    assert [(line["name"], line["rating"]) for line in api["table"]] == [
        (line.name, line.rating) for line in lines
    ]


def test_a_refit_stores_the_same_numbers(season, clara):
    services.season_rank_by_set(season=season, by=clara, rank_by="settled")
    season_refit(season.pk)
    first = list(
        SeasonRating.objects.filter(season=season)
        .order_by("player_id")
        .values_list("player_id", "rating", "sd", "day")
    )
    season_refit(season.pk)
    again = list(
        SeasonRating.objects.filter(season=season)
        .order_by("player_id")
        .values_list("player_id", "rating", "sd", "day")
    )
    assert first == again
    fitted = whr.fit(season_tables(season))
    assert [(p, r, s) for p, r, s, _ in first] == [
        (player, fitted[player][-1].rating, fitted[player][-1].sd) for player in sorted(fitted)
    ]


def test_the_nightly_task_queues_unfrozen_settled_seasons(season, clara):
    services.season_rank_by_set(season=season, by=clara, rank_by="settled")
    RefitDue.objects.all().delete()
    settled_nightly()
    assert ("season", season.pk) in set(RefitDue.objects.values_list("kind", "target_id"))
    assert refit_next() >= 1
    services.season_freeze(season=season, by=clara)
    RefitDue.objects.all().delete()
    settled_nightly()
    assert ("season", season.pk) not in set(RefitDue.objects.values_list("kind", "target_id"))


def test_only_the_clubs_organizers_choose_and_bad_choices_are_refused(season, clara):
    stranger = UserFactory(username="stranger")
    with pytest.raises(Forbidden):
        services.season_rank_by_set(season=season, by=stranger, rank_by="settled")
    with pytest.raises(UserError) as refused:
        services.season_rank_by_set(season=season, by=clara, rank_by="elo")
    assert refused.value.message == "rank the table by points or by settled ratings"
    assert Season.objects.get(pk=season.pk).rank_by == "points"
    client = Client()
    client.force_login(stranger)
    response = client.post(season.get_absolute_url(), {"action": "rank_by", "rank_by": "settled"})
    assert response.status_code == 403
    client.force_login(clara)
    response = client.post(season.get_absolute_url(), {"action": "rank_by", "rank_by": "elo"})
    assert response.status_code == 400
    assert "rank the table by points or by settled ratings" in response.content.decode()
    response = client.post(season.get_absolute_url(), {"action": "rank_by", "rank_by": "settled"})
    assert response.status_code == 302
    assert Season.objects.get(pk=season.pk).rank_by == "settled"
    services.season_freeze(season=season, by=clara)
    with pytest.raises(Conflict):
        services.season_rank_by_set(season=season, by=clara, rank_by="points")


def test_fits_take_one_share_in_five_beside_challenges():
    fair = FairShare(clock=lambda: 0.0)
    assert fair.pick(["challenge", "ratings"]) == "challenge"  # level: challenges first
    fair.charge("challenge", 4.0)
    assert fair.pick(["challenge", "ratings"]) == "ratings"  # 4 s of challenges per 1 s of fits
    fair.charge("ratings", 1.0)
    assert fair.pick(["challenge", "ratings"]) == "challenge"

"""The ladder and challenge pages: what each visitor sees, and forms that refuse bad input with a message."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league.bots.models import Challenge, LadderEvent
from league.bots.services.challenges import challenge_create
from league.bots.services.definitions import bot_register, bot_revise
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_start, league_tick
from league.bots.services.work import work_play
from tests.league.bots.conftest import make_bots

pytestmark = pytest.mark.django_db


def page(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def authored(staff, member):
    bots = make_bots(staff)
    mine = bot_register(name="Mine", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    mine.created_by = member
    mine.save(update_fields=["created_by"])
    return mine, bots


def test_the_ladder_page_ranks_current_entries_and_lists_retired_versions_apart(staff, member, authored):
    mine, bots = authored
    ladder = ladder_create(
        name="Spring ladder",
        game_id="nacho_pile",
        table_size=3,
        sittings_per_round=2,
        newcomer_matches=2,
        pace="scheduled",
        by=staff,
    )
    for bot in bots[:4]:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    league_start(league_id=ladder.pk)
    work_play(league_id=ladder.pk, worker="test")
    bot_revise(bot=bots[1], by=staff, params={"caution": 2.0})  # Careful v2 replaces Careful
    league_tick(league_id=ladder.pk)
    work_play(league_id=ladder.pk, worker="test")

    html = page().get(f"/bots/ladders/{ladder.pk}/").content.decode()
    current, retired = html.split('id="ladder-standings"')[1].split('id="ladder-retired"')
    assert "Careful v2" in current and "><bdi>Careful</bdi></a>" not in current
    assert "><bdi>Careful</bdi></a>" in retired and "left at match 3: replaced by Careful v2" in retired
    assert current.count('<tr><td class="num">') == 4
    assert "Spring ladder" in page().get("/bots/ladders/").content.decode()
    assert page().get(f"/bots/{ladder.pk}/")["Location"] == f"/bots/ladders/{ladder.pk}/"

    # The member enters their own bot from the page; another's bot, or garbage, is refused with a message.
    response = page(member).post(f"/bots/ladders/{ladder.pk}/enter/", {"bot": mine.pk}, follow=True)
    assert "Mine enters the ladder at match 5." in response.content.decode()
    response = page(member).post(f"/bots/ladders/{ladder.pk}/enter/", {"bot": bots[4].pk}, follow=True)
    assert "only the owner of Reckless (or staff) may enter or withdraw it" in response.content.decode()
    response = page(member).post(f"/bots/ladders/{ladder.pk}/enter/", {"bot": "1e9"}, follow=True)
    assert "choose one of your bots" in response.content.decode()
    assert (
        page()
        .post(f"/bots/ladders/{ladder.pk}/enter/", {"bot": mine.pk})["Location"]
        .startswith("/accounts/login/")
    )
    assert LadderEvent.objects.filter(league=ladder, bot=mine).count() == 1


def test_the_challenge_form_queues_a_challenge_and_its_page_shows_the_results(member, authored):
    mine, bots = authored
    form = page(member).get("/bots/challenges/new/").content.decode()
    assert f'<option value="{mine.pk}" selected data-game="nacho_pile">Mine · Nacho Pile</option>' in form
    assert (
        f'value="{bots[0].pk}"' not in form.split('name="opponents"')[0]
    )  # not the member's to challenge with
    response = page(member).post(
        "/bots/challenges/new/",
        {"bot": mine.pk, "opponents": [bots[0].pk, bots[3].pk], "matches": 20, "seed": 4},
    )
    challenge = Challenge.objects.get(challenger=member)
    assert response["Location"] == f"/bots/challenges/{challenge.pk}/"
    assert work_play(worker="test") == 20

    html = page(member).get(f"/bots/challenges/{challenge.pk}/").content.decode()
    assert "20</span> of 20 matches played" in html
    results = html.split('id="challenge-results"')[1].split("</table>")[0]
    assert [name in results for name in ("Mine", "Random", "Daring")] == [True, True, True]
    assert html.count("/replay/") == 20
    assert f"#{challenge.pk}" in page(member).get("/bots/challenges/").content.decode()


def test_challenge_pages_are_private_and_the_form_refuses_bad_input(member, staff, authored):
    mine, bots = authored
    challenge = challenge_create(bot_id=mine.pk, opponent_ids=[bots[0].pk], matches=2, seed=1, by=member)
    other = get_user_model().objects.create_user("other", password="pw-other-1")
    url = f"/bots/challenges/{challenge.pk}/"
    assert page(other).get(url).status_code == 403
    assert page().get(url)["Location"] == f"/accounts/login/?next={url}"
    assert page(staff).get(url).status_code == 200
    assert page().get("/bots/challenges/new/")["Location"] == "/accounts/login/?next=/bots/challenges/new/"

    def errors(**changes):
        body = {"bot": mine.pk, "opponents": [bots[0].pk], "matches": 5, **changes}
        response = page(member).post("/bots/challenges/new/", body)
        assert response.status_code == 200
        return response.content.decode()

    assert "Ensure this value is less than or equal to 100." in errors(matches=10**9)
    assert "Ensure this value is greater than or equal to 1." in errors(matches=0)
    assert "Enter a whole number." in errors(matches="ten")
    assert "Select a valid choice." in errors(bot=bots[1].pk)  # another's bot is not in the member's list
    hen = make_bots(staff, (("Hen", "random", {}),), game_id="chicken_foot")[0]
    assert "these bots play another game than Mine: Hen" in errors(opponents=[hen.pk])
    assert Challenge.objects.count() == 1

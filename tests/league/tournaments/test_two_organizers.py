"""Two organizers on one table: the second to save hears in people's words who saved what and when, once
(names between Unicode isolates, so a right-to-left name keeps the sentence in order), sees the stored
result beside their own entry, and saves theirs as a correction with a reason."""

import re

import pytest

from league.matches.models import Match
from league.tournaments import services
from tests.factories import UserFactory


@pytest.fixture
def running(make_tournament, organizer):
    tournament, _ = make_tournament(4, rated=False)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament


def test_the_second_organizer_sees_who_saved_what_beside_their_entry(client, running, organizer):
    ana = UserFactory(username="ana", first_name="Ana", last_name="Silva")
    services.role_add(tournament=running, by=organizer, username="ana", role="organizer")
    url = f"/tournaments/{running.slug}/rounds/1/tables/1/result/"
    client.force_login(organizer)
    form_open = client.get(url)  # the second organizer opens the form first ...
    assert 'name="expected_version" value="0"' in form_open.content.decode()
    table = running.round_set.get(number=1).tables.get(number=1)
    names = [seat.player.name for seat in table.match.seats.order_by("seat")]
    services.table_result(
        table=table, by=ana, expected_version=0, places=[2, 1, 3, 4], scores=[30, 41, 12, 5]
    )  # ... Ana saves
    mine = {"expected_version": 0, "place_0": 1, "place_1": 2, "place_2": 3, "place_3": 4}
    stale = client.post(url, mine)
    assert stale.status_code == 409
    page = stale.content.decode()
    ana_name, *seated = (f"\u2068{name}\u2069" for name in ["Ana Silva", *names])
    message = (
        f"{ana_name} saved this result a moment ago: 1st {seated[1]} (41), 2nd {seated[0]} (30), "
        f"3rd {seated[2]} (12), 4th {seated[3]} (5). Theirs is shown beside yours below; to replace it with "
        "yours, say why and save again."
    )
    assert page.count(message) == 1
    assert "expected_version 1" not in page and "version 1, not 0" not in page
    saved_column = re.findall(r'<td class="saved">([^<]*)</td>', page)
    assert saved_column == ["place 2, score 30", "place 1, score 41", "place 3, score 12", "place 4, score 5"]
    assert 'name="place_0" value="1"' in page, "what they typed is kept"
    assert 'name="expected_version" value="1"' in page
    assert Match.objects.get(pk=table.match_id).result_version == 1
    corrected = client.post(url, {**mine, "expected_version": 1, "reason": "Ana swapped the first two"})
    assert corrected.status_code == 302
    assert Match.objects.get(pk=table.match_id).result_version == 2


def test_an_unsaved_form_shows_no_saved_column(client, running, organizer):
    client.force_login(organizer)
    page = client.get(f"/tournaments/{running.slug}/rounds/1/tables/1/result/").content.decode()
    assert "Saved meanwhile" not in page

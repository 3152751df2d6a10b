"""Two organizers submit the first result of one match at the same moment, on PostgreSQL."""

import threading

import pytest
from django.db import connection

from league.core.errors import VersionConflict
from league.results.models import ResultVersion
from league.results.services import result_submit
from tests.factories import MatchFactory, PlayerFactory, StaffFactory


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_first_results_give_one_version_and_one_conflict():
    match = MatchFactory(players=PlayerFactory.create_batch(4))
    organizers = [StaffFactory(), StaffFactory()]
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def enter(index: int, places: list[int]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = result_submit(
                match_id=match.pk, expected_version=0, places=places, entered_by=organizers[index]
            )
        except VersionConflict as conflict:
            outcomes[index] = conflict
        finally:
            connection.close()

    threads = [
        threading.Thread(target=enter, args=(0, [1, 2, 3, 4])),
        threading.Thread(target=enter, args=(1, [4, 3, 2, 1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    wins = [o for o in outcomes if isinstance(o, ResultVersion)]
    conflicts = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert (len(wins), len(conflicts)) == (1, 1)
    assert conflicts[0].current_version == 1
    stored = list(ResultVersion.objects.filter(match=match).values_list("version", "places"))
    assert stored == [(1, wins[0].places)]

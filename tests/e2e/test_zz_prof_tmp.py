import cProfile, pstats, time, pytest
from django.test import Client
from bench.pages import Site
import random

@pytest.mark.django_db
def test_prof(settings):
    settings.DEBUG = False
    site = Site(random.Random(1))
    site.add_players(30)
    site.add_matches(3000)
    site.add_league(rounds=40)
    site.add_tournament(8, "single_elimination"); site.add_tournament(12)
    pages = site.pages()
    c = Client()
    for name in ("player", "league"):
        urls = pages[name]
        for u in urls: c.get(u)
        t = time.perf_counter()
        for u in urls: c.get(u)
        print(name, (time.perf_counter() - t) * 1000)
        pr = cProfile.Profile(); pr.enable()
        for u in urls: c.get(u)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(15)

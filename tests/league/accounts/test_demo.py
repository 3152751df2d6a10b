"""`manage.py demo_data` makes a player's account a visitor can log in with: `demo`, who plays as Chiara."""

from django.core.management import call_command
from django.test import Client

from league.players.models import Player


def test_demo_data_prints_a_player_login_that_works_and_plays_as_ada(db, capsys, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    call_command("demo_data")
    password = (tmp_path / "demo-password.txt").read_text().strip()
    assert (
        f"Player login (plays as Chiara): user 'demo', password '{password}' at /accounts/login/"
        in capsys.readouterr().out
    )
    assert Player.objects.get(name="Chiara").user.username == "demo"
    client = Client()
    assert client.post("/accounts/login/", {"username": "demo", "password": password}).status_code == 302
    page = client.get("/me/").content.decode()
    assert (
        'You play as <a href="/players/chiara/"><bdi>Chiara</bdi></a>.' in page
        and "<h2>My ratings</h2>" in page
    )

    call_command("demo_data")
    assert f"password '{password}'" in capsys.readouterr().out
    assert Player.objects.filter(user__username="demo").count() == 1

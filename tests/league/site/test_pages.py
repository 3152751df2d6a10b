"""The home page, as a visitor sees it."""


def test_home_shows_games_top_players_and_recent_matches(client, league):
    page = client.get("/").content.decode()
    assert "Nacho Pile" in page and "Chicken Foot" in page and "Chickie Nuggs" in page
    assert 'href="/players/ann/">Ann</a> <span class="muted">' in page
    assert f'href="/matches/{league[2].pk}/">#{league[2].pk}</a>' in page

"""The pages under the `bots` namespace (/bots/): bot leagues, bots, ladders, challenges and version tests."""

from django.urls import path

from league.web.bots import bots, docs, ladders, leagues, play, version_tests, versions

app_name = "bots"

urlpatterns = [
    path("", leagues.league_list, name="leagues"),
    path("ladders/", ladders.ladder_list, name="ladders"),
    path("ladders/<int:pk>/", ladders.ladder_detail, name="ladder"),
    path("ladders/<int:pk>/<str:action>/", ladders.ladder_entry, name="ladder-entry"),
    path("ladders/<int:pk>/versions/<str:action>/", versions.ladder_version, name="ladder-version"),
    path("challenges/", ladders.challenge_list, name="challenges"),
    path("challenges/new/", ladders.challenge_new, name="challenge-new"),
    path("challenges/<int:pk>/", ladders.challenge_detail, name="challenge"),
    path("version-tests/new/", version_tests.version_test_new, name="version-test-new"),
    path("version-tests/<int:pk>/", version_tests.version_test_detail, name="version_test"),
    path("new/", leagues.league_new, name="league-new"),
    path("<int:pk>/", leagues.league_detail, name="league"),
    path("<int:pk>/live/", leagues.league_live, name="league-live"),
    path("<int:pk>/<str:action>/", leagues.league_control, name="league-control"),
    path("docs/", docs.docs_start, name="docs"),
    path("docs/protocol/", docs.docs_protocol, name="docs-protocol"),
    path("docs/limits/", docs.docs_limits, name="docs-limits"),
    path("docs/local/", docs.docs_local, name="docs-local"),
    path("docs/games/<slug:game_id>/", docs.docs_game, name="docs-game"),
    path("docs/kits/<slug:game_id>/<slug:language>.zip", docs.docs_kit, name="docs-kit"),
    path("docs/engines.zip", docs.docs_engines, name="docs-engines"),
    path("bots/", bots.bot_list, name="bots"),
    path("bots/upload/", bots.bot_upload, name="upload"),
    path("bots/mine/", bots.my_bots, name="mine"),
    path("bots/<int:pk>/", bots.bot_detail, name="bot"),
    path("bots/<int:pk>/logs/", bots.bot_logs, name="bot-logs"),
    path("bots/<int:pk>/play/", play.bot_play, name="bot-play"),
    path("matches/<int:pk>/replay/", bots.match_replay, name="replay"),
]

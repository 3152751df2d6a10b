"""Tournament pages, under the `tournaments` namespace: thin views that parse input, call one service or
selector (a page's data from `league.tournaments.pages`), and render.

Everyone reads published tournaments; drafts and every control are for the tournament's organizers (and
site staff); a scorekeeper reaches result entry only; a signed-in player joins, leaves and checks in their
own player (`entries.entry_action`). A visitor who is not logged in is sent to the login page; a logged-in
user who may not do something gets 403. A service's `UserError` is shown on the page it came from with its
status (400 bad input, 404 a missing object, 409 wrong state), the same rules and messages as the API.
"""

from django.urls import path
from django.views.generic import RedirectView

from league.web.tournaments import (
    desk,
    detail,
    entries,
    exports,
    judging,
    keypad,
    log,
    private_links,
    room,
    rounds,
    seating,
    settings,
    tables,
)

app_name = "tournaments"

urlpatterns = [
    path("", detail.tournament_index, name="list"),
    path("new/", detail.tournament_new, name="new"),
    # The one log-in page is accounts'; this address (linked from earlier pages) forwards there with its
    # ?next=.
    path(
        "login/",
        RedirectView.as_view(pattern_name="accounts:login", query_string=True, permanent=True),
        name="login",
    ),
    path("<name_slug:slug>/", detail.tournament_page, name="detail"),
    path("<name_slug:slug>/projector/", room.projector, name="projector"),
    path("<name_slug:slug>/embed/", room.embed, name="embed"),
    path("<name_slug:slug>/log/", log.tournament_log, name="log"),
    path("<name_slug:slug>/standings.csv", exports.standings_csv, name="standings-csv"),
    path("<name_slug:slug>/results.csv", exports.results_csv, name="results-csv"),
    path("<name_slug:slug>/players/<name_slug:player_slug>/", exports.player_path, name="path"),
    path("<name_slug:slug>/rounds/<int:number>/", rounds.round_page, name="round"),
    path("<name_slug:slug>/rounds/<int:number>/find/", rounds.find_my_table, name="find"),
    path(
        "<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/result/",
        tables.table_result,
        name="result",
    ),
    path(
        "<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/close/",
        tables.table_close,
        name="close",
    ),
    path(
        "<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/close/undo/",
        tables.table_close_undo,
        name="close-undo",
    ),
    path(
        "<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/judge/",
        judging.table_call,
        name="call-judge",
    ),
    path("<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/", tables.table_page, name="table"),
    path(
        "<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/<str:action>/",
        tables.table_report_action,
        name="report",
    ),
    path("<name_slug:slug>/rounds/<int:number>/print/", room.round_print, name="print"),
    path("<name_slug:slug>/rounds/<int:number>/slips/", room.round_slips, name="slips"),
    path("<name_slug:slug>/rounds/<int:number>/keypad/", keypad.keypad_page, name="keypad"),
    path("<name_slug:slug>/rounds/<int:number>/timer/", room.round_timer, name="timer"),
    path("<name_slug:slug>/rounds/<int:number>/<str:action>/", rounds.round_action, name="round-action"),
    path("<name_slug:slug>/entry/<str:action>/", entries.entry_action, name="entry"),
    path("<name_slug:slug>/byes/<str:action>/", entries.bye_action, name="byes"),
    path("<name_slug:slug>/settings/", settings.settings_page, name="settings"),
    path("<name_slug:slug>/settings/save/", settings.settings_save, name="settings-save"),
    path("<name_slug:slug>/check-in/", desk.check_in_page, name="check-in"),
    path("<name_slug:slug>/start/", desk.start_page, name="start"),
    path("<name_slug:slug>/organizers/", desk.roles_page, name="organizers"),
    path("<name_slug:slug>/organizers/remove/", desk.role_remove, name="organizers-remove"),
    path("<name_slug:slug>/organizers/names/", desk.names_set, name="organizers-names"),
    path("<name_slug:slug>/private-links/", private_links.links_page, name="private-links"),
    path("<name_slug:slug>/judges/", judging.judge_page, name="judges"),
    path("<name_slug:slug>/judges/<str:action>/", judging.judge_action, name="judge-action"),
    path("<name_slug:slug>/seating/", seating.seating_page, name="seating"),
    path("<name_slug:slug>/seating/<str:action>/", seating.seating_save, name="seating-save"),
    path("<name_slug:slug>/<str:action>/", detail.tournament_action, name="action"),
]

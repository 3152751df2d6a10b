from django.urls import path
from django.views.generic import RedirectView

from league.tournaments import log, room, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_index, name="list"),
    path("new/", views.tournament_new, name="new"),
    # The one log-in page is accounts'; this address (linked from earlier pages) forwards there with its ?next=.
    path(
        "login/",
        RedirectView.as_view(pattern_name="accounts:login", query_string=True, permanent=True),
        name="login",
    ),
    path("<slug:slug>/", views.tournament_page, name="detail"),
    path("<slug:slug>/projector/", room.projector, name="projector"),
    path("<slug:slug>/embed/", room.embed, name="embed"),
    path("<slug:slug>/log/", log.tournament_log, name="log"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="standings-csv"),
    path("<slug:slug>/results.csv", views.results_csv, name="results-csv"),
    path("<slug:slug>/players/<slug:player_slug>/", views.player_path, name="path"),
    path("<slug:slug>/rounds/<int:number>/", views.round_page, name="round"),
    path("<slug:slug>/rounds/<int:number>/find/", views.find_my_table, name="find"),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/result/", views.table_result, name="result"
    ),
    path("<slug:slug>/rounds/<int:number>/tables/<int:table_number>/close/", views.table_close, name="close"),
    path("<slug:slug>/rounds/<int:number>/print/", room.round_print, name="print"),
    path("<slug:slug>/rounds/<int:number>/slips/", room.round_slips, name="slips"),
    path("<slug:slug>/rounds/<int:number>/timer/", room.round_timer, name="timer"),
    path("<slug:slug>/rounds/<int:number>/<str:action>/", views.round_action, name="round-action"),
    path("<slug:slug>/entry/<str:action>/", views.entry_action, name="entry"),
    path("<slug:slug>/byes/<str:action>/", views.bye_action, name="byes"),
    path("<slug:slug>/settings/", views.settings_page, name="settings"),
    path("<slug:slug>/settings/<str:part>/", views.settings_save, name="settings-save"),
    path("<slug:slug>/check-in/", views.check_in_page, name="check-in"),
    path("<slug:slug>/start/", views.start_page, name="start"),
    path("<slug:slug>/organizers/", views.roles_page, name="organizers"),
    path("<slug:slug>/organizers/remove/", views.role_remove, name="organizers-remove"),
    path("<slug:slug>/<str:action>/", views.tournament_action, name="action"),
]

from django.urls import path
from django.views.generic import RedirectView

from league.tournaments import log, private_links, room, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_index, name="list"),
    path("new/", views.tournament_new, name="new"),
    # The one log-in page is accounts'; this address (linked from earlier pages) forwards there with its
    # ?next=.
    path(
        "login/",
        RedirectView.as_view(pattern_name="accounts:login", query_string=True, permanent=True),
        name="login",
    ),
    path("<name_slug:slug>/", views.tournament_page, name="detail"),
    path("<name_slug:slug>/projector/", room.projector, name="projector"),
    path("<name_slug:slug>/embed/", room.embed, name="embed"),
    path("<name_slug:slug>/log/", log.tournament_log, name="log"),
    path("<name_slug:slug>/standings.csv", views.standings_csv, name="standings-csv"),
    path("<name_slug:slug>/results.csv", views.results_csv, name="results-csv"),
    path("<name_slug:slug>/players/<name_slug:player_slug>/", views.player_path, name="path"),
    path("<name_slug:slug>/rounds/<int:number>/", views.round_page, name="round"),
    path("<name_slug:slug>/rounds/<int:number>/find/", views.find_my_table, name="find"),
    path(
        "<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/result/",
        views.table_result,
        name="result",
    ),
    path(
        "<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/close/",
        views.table_close,
        name="close",
    ),
    path("<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/", views.table_page, name="table"),
    path(
        "<name_slug:slug>/rounds/<int:number>/tables/<int:table_number>/<str:action>/",
        views.table_report_action,
        name="report",
    ),
    path("<name_slug:slug>/rounds/<int:number>/print/", room.round_print, name="print"),
    path("<name_slug:slug>/rounds/<int:number>/slips/", room.round_slips, name="slips"),
    path("<name_slug:slug>/rounds/<int:number>/timer/", room.round_timer, name="timer"),
    path("<name_slug:slug>/rounds/<int:number>/<str:action>/", views.round_action, name="round-action"),
    path("<name_slug:slug>/entry/<str:action>/", views.entry_action, name="entry"),
    path("<name_slug:slug>/byes/<str:action>/", views.bye_action, name="byes"),
    path("<name_slug:slug>/settings/", views.settings_page, name="settings"),
    path("<name_slug:slug>/settings/<str:part>/", views.settings_save, name="settings-save"),
    path("<name_slug:slug>/check-in/", views.check_in_page, name="check-in"),
    path("<name_slug:slug>/start/", views.start_page, name="start"),
    path("<name_slug:slug>/organizers/", views.roles_page, name="organizers"),
    path("<name_slug:slug>/organizers/remove/", views.role_remove, name="organizers-remove"),
    path("<name_slug:slug>/private-links/", private_links.links_page, name="private-links"),
    path("<name_slug:slug>/<str:action>/", views.tournament_action, name="action"),
]

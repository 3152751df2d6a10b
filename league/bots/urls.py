from django.urls import path

from league.bots import views

app_name = "bots"

urlpatterns = [
    path("", views.league_list, name="leagues"),
    path("ladders/", views.ladder_list, name="ladders"),
    path("ladders/<int:pk>/", views.ladder_detail, name="ladder"),
    path("ladders/<int:pk>/<str:action>/", views.ladder_entry, name="ladder-entry"),
    path("challenges/", views.challenge_list, name="challenges"),
    path("challenges/new/", views.challenge_new, name="challenge-new"),
    path("challenges/<int:pk>/", views.challenge_detail, name="challenge"),
    path("new/", views.league_new, name="league-new"),
    path("<int:pk>/", views.league_detail, name="league"),
    path("<int:pk>/live/", views.league_live, name="league-live"),
    path("<int:pk>/<str:action>/", views.league_control, name="league-control"),
    path("bots/", views.bot_list, name="bots"),
    path("bots/upload/", views.bot_upload, name="upload"),
    path("bots/mine/", views.my_bots, name="mine"),
    path("bots/<int:pk>/", views.bot_detail, name="bot"),
    path("bots/<int:pk>/logs/", views.bot_logs, name="bot-logs"),
    path("matches/<int:pk>/replay/", views.match_replay, name="replay"),
]

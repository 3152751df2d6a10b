"""The player pages, under the `players` namespace: the list is `league.players`' page, a player's page
shows ratings and results (`league.ratings.views`); their URL module lives in the higher of the two apps."""

from django.urls import path

from league.players import views as player_views
from league.ratings import views

app_name = "players"
urlpatterns = [
    path("", player_views.player_index, name="list"),
    path("<name_slug:slug>/", views.player_detail, name="detail"),
]

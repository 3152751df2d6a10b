from django.urls import path

from league.players import views

app_name = "players"
urlpatterns = [
    path("", views.player_index, name="list"),
    path("<slug:slug>/", views.player_detail, name="detail"),
]

"""The player pages, under the `players` namespace: the list of players, and a player's page (their ratings
with their history, and their matches: `league.ratings.pages.player_page`)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from league.players.models import Player
from league.players.selectors import player_list, with_seat_counts
from league.ratings import pages
from league.seasons.selectors import seasons_of_player

PLAYERS_PER_PAGE = 50


def player_index(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "").strip()[:80]
    page = Paginator(player_list(search=search, kind=Player.Kind.PERSON), PLAYERS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    page.object_list = with_seat_counts(page.object_list)
    return render(request, "players/list.html", {"page": page, "search": search})


def player_detail(request: HttpRequest, slug: str) -> HttpResponse:
    page = pages.player_page(slug, request.user, page=request.GET.get("page"))
    return render(
        request, "players/detail.html", dict(vars(page)) | {"seasons": seasons_of_player(page.player)}
    )


app_name = "players"
urlpatterns = [
    path("", player_index, name="list"),
    path("<name_slug:slug>/", player_detail, name="detail"),
]

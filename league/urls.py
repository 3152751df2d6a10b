"""URL map: pages, the admin, the REST API with its schema and docs, and the health check.

A URL that matches nothing, or a bug, answers with the site's error pages (templates/404.html, 403.html and a
500.html that needs no context), except under /api/: the API's error body there (league.api.errors; with DEBUG
off, as Django uses these handlers only then). /favicon.ico, which browsers ask for on their own, redirects to
the SVG icon that base.html links (league.web.site.favicon). The API docs are Swagger UI from the files of
drf-spectacular-sidecar, its start-up script fetched from the docs' own address (`?script`) and the page's
template without a style element (templates/api/swagger_ui.html): the Content-Security-Policy of every page
holds for it too, with data: images added (Swagger UI's stylesheet draws its icons with them).
"""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from league.web import site as site_views
from league.web.tournaments import private_links

handler404 = "league.api.errors.not_found"
handler500 = "league.api.errors.server_error"

urlpatterns = [
    path("", site_views.home, name="home"),
    path("health/", site_views.health_page, name="health"),
    path("favicon.ico", site_views.favicon),
    path("", include("league.web.accounts")),
    path("", include("league.web.notifications")),
    path("players/", include("league.web.players")),
    path("matches/", include("league.web.matches")),
    path("games/", include("league.web.ratings")),
    path("bots/", include("league.web.bots")),
    path("tournaments/", include("league.web.tournaments")),
    path("", include("league.web.seasons")),
    # A registration's private link: short, for typing from a slip (league.web.tournaments.private_links).
    path("p/<str:token>/", private_links.link_page, name="private-link"),
    path("p/<str:token>/attach/", private_links.link_attach, name="private-link-attach"),
    path("p/<str:token>/event/", private_links.link_event, name="private-link-event"),
    path("admin/", admin.site.urls),
    path("api/", include("league.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        csp_update({"img-src": "data:"})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/swagger_ui.html")
        ),
        name="api-docs",
    ),
]

"""REST endpoints for tournaments: thin adapters over `league.tournaments` services and selectors.

The same rules and errors as the pages: anyone reads published tournaments (drafts and draft rounds only
their organizers); writes need a login (token or session), and the services answer 403 to users who may not
(organizer writes; result entry for organizers and scorekeepers; a player's own entry for the signed-in
user's own player only), 404 to a missing object, 409 to a request that does not fit its state (e.g.
generating a round before the last is complete) and 400 to bad input, each with the API's error body
(`league/api/errors.py`). Times are ISO 8601 in the event's zone (`time_zone`), with its offset.
"""

from league.api.tournaments.rounds import RoundViewSet
from league.api.tournaments.tables import TableViewSet
from league.api.tournaments.tournaments import TournamentViewSet

__all__ = ["RoundViewSet", "TableViewSet", "TournamentViewSet"]

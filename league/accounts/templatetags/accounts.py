"""`{% claim_link_control player %}`: the "Create claim link" button on a player's page, rendered only for
those who may issue one (site staff, an organizer of a tournament the player is in) and only for an
unclaimed person-player. The player page belongs to a lower app, which cannot call accounts' selectors; the
tag lets its template ask without that import."""

from django import template
from django.conf import settings

from league.accounts.selectors import can_issue_claim_link
from league.players.models import Player

register = template.Library()


@register.inclusion_tag("accounts/_claim_control.html", takes_context=True)
def claim_link_control(context, player: Player) -> dict:
    request = context.get("request")
    user = getattr(request, "user", None)
    shown = (
        player.kind == Player.Kind.PERSON and player.user_id is None and can_issue_claim_link(user, player)
    )
    return {
        "show": shown,
        "player": player,
        "days": settings.CLAIM_LINK_DAYS,
        "csrf_token": context.get("csrf_token"),
    }

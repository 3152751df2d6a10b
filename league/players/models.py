"""Players: the people and bots who take seats at matches."""

from django.conf import settings
from django.db import models
from django.urls import reverse


class Player(models.Model):
    """Someone (or some bot) who takes a seat at a match.

    A bot player is linked to its bot definition by the bot-league app, which adds that relation; people may
    be linked to a user account so that they can log in. People's names are unique regardless of case, by
    `name_key` (computed in Python: the databases' lower() functions fold case differently). Bots stand
    outside the people's name space: a bot's identity is its definition's (author, game, name, version), so
    two authors' bots may share a name (their players' names then say whose: "<name> by <author>"), and a
    bot's name never blocks a person's. Slugs, used in URLs, are unique over all players.
    """

    class Kind(models.TextChoices):
        PERSON = "person", "Person"
        BOT = "bot", "Bot"

    name = models.CharField(max_length=80)
    name_key = models.CharField(
        max_length=240,
        editable=False,
        db_index=True,
        help_text=(
            "The name case-folded (league.core.names.name_key): people's names are unique ignoring case, in "
            "any script."
        ),
    )
    search_key = models.TextField(
        default="",
        blank=True,
        editable=False,
        help_text=(
            "What searches look into: the name folded (league.core.names.search_key: no accents, case or "
            "punctuation) and the folded user name of the account, after a '|'."
        ),
    )
    slug = models.SlugField(
        max_length=90, unique=True, allow_unicode=True, help_text="Derived from the name; used in page URLs."
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PERSON)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text="The account this person logs in with, if any.",
    )
    active = models.BooleanField(
        default=True, help_text="Inactive players keep their history but take no new seats."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # Not a column: the seats taken, set on the players of a page by `selectors.with_seat_counts`.
    seat_count: int

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["name"], condition=models.Q(kind="person"), name="person_name_unique"
            ),
            models.UniqueConstraint(
                fields=["name_key"], condition=models.Q(kind="person"), name="person_name_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("players:detail", kwargs={"slug": self.slug})

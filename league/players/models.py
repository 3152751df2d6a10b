"""Players: the people and bots who take seats at matches."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class Player(models.Model):
    """Someone (or some bot) who takes a seat at a match.

    A bot player is linked to its bot definition by the bot-league app, which adds that relation; people may
    be linked to a user account so that they can log in. Names are unique regardless of case.
    """

    class Kind(models.TextChoices):
        PERSON = "person", "Person"
        BOT = "bot", "Bot"

    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=90, unique=True, help_text="Derived from the name; used in page URLs.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PERSON)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text="The account this person logs in with, if any.",
    )
    active = models.BooleanField(default=True, help_text="Inactive players keep their history but take no new seats.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(Lower("name"), name="player_name_unique_ignoring_case")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("players:detail", kwargs={"slug": self.slug})

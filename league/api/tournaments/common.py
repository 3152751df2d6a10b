"""What every tournament endpoint's schema says."""

from league.api.errors import ERROR

# A tournament's writes answer 409 when its state refuses them (e.g. a round before the last is complete);
# the errors every write answers are added by league.api.schema.
STATE_CONFLICT = {409: ERROR}

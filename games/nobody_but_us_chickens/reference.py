"""Nobody but Us Chickens' reference for bot authors: every key of the observation and every form of action
(`games.core.reference`; the site's docs show it with real messages from the engine)."""

from games.core.reference import Entry, Reference

REFERENCE = Reference(
    summary=(
        'Cards are named `"healthy"` (+1), `"plump"` (+2), `"prize"` (+4), `"sickly"` (-1), `"fox"`, '
        '`"rat"` and `"dog"`; card lists are sorted in that order, repeats included. Every card played and '
        "every take is seen by the table, so the observation holds the whole position and the public log: "
        "only the card each seat picks in the current hour is secret until all are revealed together. "
        "Nights and hours are 0-based; lists by seat are indexed by seat number, 0 first."
    ),
    observation=(
        Entry("seat", "Your seat, 0-based."),
        Entry("num_players", "How many seats the table has (3 to 6; 2 with `allow_two_players`)."),
        Entry("options", "The match's variant options, by name (see the options above)."),
        Entry(
            "phase",
            '`"pick"`: every seat picks a card at once; `"take"`: the seat `taker` picks a Chicken from the '
            'coop; `"over"` at the end.',
        ),
        Entry("night", "The night in play, 0-based."),
        Entry("nights", "How many nights the match lasts (one per player)."),
        Entry("hour", "The hour in play within the night, 0-based."),
        Entry(
            "hours", "How many hours a night lasts (as many as a hand's cards: 9, or 7 with short nights)."
        ),
        Entry(
            "fox_king",
            "The seat that is Fox King this night (Foxes and Rats take in turn from it, clockwise).",
        ),
        Entry("top_dog", "The seat that is Top Dog this night (Dogs take from it, counter-clockwise)."),
        Entry("hand", "Your cards left tonight."),
        Entry("hands", "Every seat's cards left tonight (public: the full set less the cards played)."),
        Entry("coop", "The Chickens in the coop now."),
        Entry("revealed", "The cards of the hour being resolved, by seat; null during a pick."),
        Entry("taker", "The seat that takes next (during a take), else null."),
        Entry(
            "takers_once",
            "Seats still to take once each, in order, before `takers_repeating` (who takes after the current "
            "taker).",
        ),
        Entry("takers_repeating", "Seats that then go on taking in turn until the coop is empty."),
        Entry("claimed", "Per seat, the Chickens that seat has claimed tonight."),
        Entry("night_scores", "Per finished night, the points each seat scored that night."),
        Entry("totals", "Each seat's total score so far."),
        Entry(
            "log",
            'One entry per hour played, oldest first: `{"night", "hour", "revealed": the cards by seat, '
            '"takes": [[seat, chicken], ...]}`.',
        ),
    ),
    actions=(
        Entry(
            '"healthy", "plump", "prize", "sickly", "fox", "rat", "dog"',
            "Phase `pick`: the card you play this hour (every seat picks at once; no seat sees another's "
            "pick before all are revealed).",
        ),
        Entry(
            '"take_healthy", "take_plump", "take_prize", "take_sickly"',
            "Phase `take`: the Chicken you take from the coop, by its kind.",
        ),
    ),
    decisions=(
        "Each hour every seat is asked for its card at once (a simultaneous step: your program is asked "
        "before any pick is applied). The last card of a night is played by the engine, and a take is asked "
        "only when it is a real choice (a coop of one kind, or a taker who will take everything, is applied "
        "at once)."
    ),
)

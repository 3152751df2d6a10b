"""Chicken Foot's reference for bot authors: every key of the observation and every form of action
(`games.core.reference`; the site's docs show it with real messages from the engine)."""

from games.core.reference import Entry, Reference

REFERENCE = Reference(
    summary=(
        'A bone is named by its two numbers, high first: `"9-5"`, `"8-8"`. You see your own hand, how many '
        "bones every other hand and the yard hold, the whole layout and the round's history; you never see "
        "another seat's bones nor the bones others drew. Lists by seat are indexed by seat number, 0 first. "
        "The lowest total wins."
    ),
    observation=(
        Entry("seat", "Your seat, 0-based."),
        Entry("num_players", "How many seats the table has."),
        Entry("options", "The match's variant options, by name (see the options above)."),
        Entry("round", "The round in play or about to be dealt, 1-based."),
        Entry("rounds_total", "How many rounds the match has (one per double of the set)."),
        Entry("rounds_played", "How many rounds are finished."),
        Entry(
            "awaiting",
            'What happens next: `"play"` (seat `turn` chooses a play: your decisions), `"draw"` (seat `turn` '
            'cannot play and draws), `"lead_draw"` (seat `turn` draws to find the lead double), `"deal"`, or '
            "null when the match is over.",
        ),
        Entry("turn", "The seat to act (null for a deal and at the end)."),
        Entry(
            "drew_this_turn", "True when the seat to play has just drawn: it may play only the bone drawn."
        ),
        Entry("hand", "Your bones, ascending."),
        Entry("hand_sizes", "How many bones each seat holds."),
        Entry("yard_size", "How many bones are left in the chicken yard."),
        Entry("scores", "Each seat's total of the rounds completed (pips left in hand; lowest wins)."),
        Entry("led_doubles", "The doubles led so far, in order."),
        Entry("lead_double", "This round's spinner (between rounds, the finished round's)."),
        Entry("opener", "The seat that played the spinner."),
        Entry(
            "layout",
            'Every bone on the table in the order played, `{"bone", "onto", "seat", "joins"}`: the bone it '
            "was played on (null for the spinner), who played it and the number where it touches that bone. "
            "A non-double's free number is its other number; doubles take bones side by side.",
        ),
        Entry(
            "open_ends",
            'The free ends of non-double bones, `[{"onto", "number"}]`: a bone showing `number` can be '
            "played onto the bone `onto`.",
        ),
        Entry(
            "constraint",
            'null, or `{"kind": "spinner" or "chickie", "bone", "number", "needs"}`: the double that must be '
            "filled first and how many bones it still needs; while it is open, only it can be played on.",
        ),
        Entry("passes_in_a_row", "Passes since the last bone was played."),
        Entry(
            "history",
            'This round\'s events in order: `{"event": "lead_draw", "seat"}`, `{"event": "lead", '
            '"seat", "bone"}`, `{"event": "play", "seat", "bone", "onto"}`, `{"event": "draw", "seat", '
            '"numbers"}` and `{"event": "pass", "seat", "numbers"}` (`numbers`: the numbers that seat could '
            'not match); your own draws also show their `"bone"`.',
        ),
        Entry(
            "rounds",
            'A summary per round completed: `{"round", "lead", "skipped", "opener", "went_out", "hands", '
            '"points", "totals"}` (`hands`: the bones each seat held at the end, shown to all).',
        ),
    ),
    actions=(
        Entry(
            '"bone@onto"',
            'A play: the bone you play and the bone you play it on, each high first (`"9-5@9-9"`: the 9-5 on '
            "the 9-9). Legal lists follow the open ends in order (only the spinner or chickie while one is "
            "open), then your bones ascending.",
        ),
    ),
    decisions=(
        "Plays are the only decisions. Drawing when nothing fits and passing are made by the engine, as is "
        "the opener's spinner; a single legal play is still asked."
    ),
)

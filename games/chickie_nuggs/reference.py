"""Chickie Nuggs' reference for bot authors: every key of the observation and every form of action
(`games.core.reference`; the site's docs show it with real messages from the engine)."""

from games.core.reference import Entry, Reference

REFERENCE = Reference(
    summary=(
        'Cards are named `"nugget1"` to `"nugget4"` (nuggets worth 1 to 4), `"buffalo"` (Gimme Nuggs), '
        '`"ranch"` (Check the Freezer), `"sweet_sour"` (Steal), `"bbq"` (Skip), `"honey_mustard"` '
        '(Discard), `"flying_nuggets"`, `"burnt_nugget"`, `"incognuggo"`, `"dropped_nugget"` and '
        '`"five_second_rule"`. You see your own hand, every tray (another\'s face-down nuggets only as the '
        "values they could have), the discard pile, hand and pile sizes, and the pile's top cards you "
        "looked at; what you learned about other hands is in `hand_knowledge`. A slot indexes a tray's "
        "nugget list, 0 = placed first. Lists by seat are indexed by seat number, 0 first."
    ),
    observation=(
        Entry("seat", "Your seat, 0-based."),
        Entry("num_players", "How many seats the table has (2 to 4)."),
        Entry("options", "The match's variant options, by name (see the options above)."),
        Entry(
            "phase",
            'What is being decided: `"turn"` (plays and the placement), `"draw_choice"` (draw one or two), '
            '`"gimme_answer"` (the target of a Gimme answers), `"five_second_answer"` (the attacker answers '
            'a Dropped Nugget), `"freezer_choice"` (keep or shuffle the pile), `"flying_take"` (take a '
            'nugget of a Flying Nuggets\' drawer), `"over"`; and between decisions `"deal"`, '
            '`"shuffle_in"`, `"gimme_pick"`, `"steal_pick"`, `"freezer_shuffle"`.',
        ),
        Entry("turn", "The seat whose turn it is."),
        Entry("plays_made", "Plays made this turn (at most two before the placement)."),
        Entry("skip_next", "True when a BBQ skips the next player's turn."),
        Entry("attacker", "The seat that played the latest Gimme or Steal, -1 before any."),
        Entry("target", "The target of the latest Gimme or Steal, -1 before any."),
        Entry("draws_left", "Cards still to draw this turn."),
        Entry("choosers", "The seats still to take a nugget for a Flying Nuggets, in order."),
        Entry("to_act", "The seats asked now (one seat)."),
        Entry("hand", 'Your hand, counted by card name (`{"nugget2": 1, ...}`).'),
        Entry("hand_sizes", "How many cards each seat holds."),
        Entry(
            "trays",
            'Per seat, `{"nuggets", "sauces"}`: the nuggets as their values, a face-down one as '
            '`{"face_down": [the values it could have]}` (its owner sees one value), and the sauces by name.',
        ),
        Entry(
            "tray_points",
            "Each tray's points as far as you can see (face-down nuggets count for their owner).",
        ),
        Entry("discard", "The discard pile (face up), counted by card name."),
        Entry("pile_size", "Cards left in the draw pile."),
        Entry("pile_top", "The top cards of the pile you know (from a Check the Freezer), top first."),
        Entry(
            "hand_knowledge",
            'Per seat, what you know of that hand: entries `{"could_be": [card names], "count"}` ("this many '
            'cards, each one of these kinds"), null for your own hand.',
        ),
        Entry(
            "log",
            'The events as you saw them, oldest first: `{"event", "seat", ...}` with what you may know of '
            'each (`"card"`, `"target"`, `"from"`, `"slot"`, ...); `seat` is -1 for the table\'s own '
            "events.",
        ),
    ),
    actions=(
        Entry('"gimme:<seat>"', "Play a Buffalo (Gimme Nuggs) on an opponent."),
        Entry('"freezer"', "Play a Ranch (Check the Freezer): see the pile's top cards."),
        Entry('"steal:<seat>"', "Play a Sweet & Sour (Steal) on an opponent holding a card."),
        Entry('"skip"', "Play a BBQ (Skip): your turn ends and the next player's is skipped."),
        Entry('"discard:<slot>"', "Play a Honey Mustard (Discard) on a nugget of your own tray."),
        Entry('"burn:<seat>:<slot>"', "Play a Burnt Nugget on a nugget of an opponent's tray."),
        Entry(
            '"incognuggo:<nugget>"', "Play an Incognuggo and place that nugget face down (your placement)."
        ),
        Entry('"place:<card>"', "Place a nugget or a sauce on your tray."),
        Entry('"pass"', "Place nothing (only when you hold no nugget or have no free nugget slot)."),
        Entry('"draw:1", "draw:2"', "Phase `draw_choice`: draw one card or two."),
        Entry('"dropped_nugget"', "Phase `gimme_answer`: cancel the Gimme with a Dropped Nugget."),
        Entry('"five_second_rule"', "Phase `five_second_answer`: cancel the Dropped Nugget."),
        Entry('"decline"', "Phase `gimme_answer` or `five_second_answer`: do not answer."),
        Entry('"keep", "shuffle"', "Phase `freezer_choice`: keep the pile's order or shuffle it."),
        Entry('"take:<slot>"', "Phase `flying_take`: take that nugget of the drawer's tray."),
    ),
    decisions=(
        "A turn asks for up to two plays, then the placement (or a pass), then, with two cards or fewer in "
        "hand, one or two draws. Answers to a Gimme, the Freezer's choice and Flying Nuggets' takes are "
        "asked of the seat concerned; a chooser with one option is not asked."
    ),
)

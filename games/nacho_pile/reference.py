"""Nacho Pile's reference for bot authors: every key of the observation and every form of action
(`games.core.reference`; the site's docs show it with real messages from the engine)."""

from games.core.reference import Entry, Reference

_COUNTS = (
    "`numbers` and `wilds`, seven counts each: `numbers[v-1]` is how many number chips of value v the pile "
    "of v holds, `wilds[v-1]` how many Wilds given the value v it holds (a Wild keeps its value and counts "
    "in that pile). The pile of v has `numbers[v-1] + wilds[v-1]` chips"
)

REFERENCE = Reference(
    summary=(
        "Nacho Pile hides nothing: every chip drawn is shown to the table, so the observation is the whole "
        "table, the same for every seat but for `seat`. Chips are written `1` to `7` (numbers, as JSON "
        'numbers), `"W"` (a Wild), `"steal"`, `"score"` and `"remove"` (the Specials); in counts by chip '
        '(`bag`, `out_of_game`) the keys are the texts `"1"` to `"7"`, `"W"`, `"steal"`, `"score"` and '
        '`"remove"`. Lists by seat are indexed by seat number, 0 first.'
    ),
    observation=(
        Entry("seat", "Your seat, 0-based."),
        Entry("num_players", "How many seats the table has (2 to 6)."),
        Entry("options", "The match's variant options, by name (see the options above)."),
        Entry("turn", "The number of the turn in play, 0 for the first of the match; it counts every turn."),
        Entry("current", "The seat whose turn it is (every decision is that seat's)."),
        Entry(
            "phase",
            '`"draw_or_stop"`: after a draw that did not bust, draw again or stop; `"wild"`: give this '
            'turn\'s Wild its value; `"special"`: resolve one of this turn\'s Specials; `"over"` at the end '
            '(`"draw"`, a chip about to be drawn, is never a decision).',
        ),
        Entry("drawn", "This turn's chips, in the order drawn (a number, `\"W\"` or a Special's name)."),
        Entry("wild_value", "The value 1-7 given to this turn's Wild, or null until it has one."),
        Entry(
            "pending_specials",
            'This turn\'s Specials not resolved yet, by name (`"steal"`, `"score"`, `"remove"`), in the '
            "order drawn.",
        ),
        Entry(
            "bag", "The chips left in the bag, counted by chip (the bag has no order: a draw is any of them)."
        ),
        Entry(
            "fronts",
            f"Per seat, the piles in front of that player (yours can still be taken, stolen or removed): "
            f"{_COUNTS}.",
        ),
        Entry(
            "plates",
            f"Per seat, the chips on that player's plate, which nothing can touch any more and which are "
            f"scored: {_COUNTS}; and `specials`, the Specials resolved by that player, counted by kind.",
        ),
        Entry(
            "out_of_game",
            "Chips a Remove sent out of the game during the last stop of the match (at other times a Remove "
            "sends them back into the bag), counted by chip.",
        ),
        Entry(
            "last_chip",
            "The chip set aside when one chip was left in the bag, which decides the scoring; null until "
            "then.",
        ),
    ),
    actions=(
        Entry('"draw"', "After a draw that did not bust (phase `draw_or_stop`): draw another chip."),
        Entry('"stop"', "Stop: your drawn chips go in front of you and you take the matching piles."),
        Entry(
            "1 to 7", "Phase `wild`: the value your Wild takes, a value not drawn this turn (a JSON number)."
        ),
        Entry(
            '["steal", seat, value]',
            "Phase `special`: resolve a Steal: the pile of `value` in front of the other player `seat` joins "
            "your pile of that value.",
        ),
        Entry(
            '["score", value]',
            "Phase `special`: resolve a Score: your pile of `value` (a value drawn this turn) goes onto "
            "your plate.",
        ),
        Entry(
            '["remove", seat, value]',
            "Phase `special`: resolve a Remove: the pile of `value` in front of `seat` (yours included) "
            "goes back into the bag.",
        ),
        Entry(
            '["decline", kind]',
            "Phase `special`, with the option `optional_specials` only: resolve the Special `kind` with no "
            "effect.",
        ),
    ),
    decisions=(
        "Every decision is the seat whose turn it is: draw or stop, the Wild's value, and each Special in "
        "the order you choose (one decision picks both which unresolved Special goes next and its target). "
        "A decision with one legal choice is still asked. A turn's first draw is compulsory and made by the "
        "engine."
    ),
)

"""Per-set lookup tables, built once per domino set and shared by every state (read-only).

Bones are numbered in the order 0-0, 1-0, 1-1, 2-0, 2-1, 2-2, ...: bone `hi-lo` (hi >= lo) has id
`hi * (hi + 1) // 2 + lo`, so sorting ids sorts bones by (high end, low end). A hand is a bit mask over these
ids; `number_mask[n]` holds every bone showing the number n, so "the bones of this hand that fit an end of
n" is one `&`.
"""

from __future__ import annotations

from functools import cache

from games.chicken_foot.spec import SET_TOP


class SetTables:
    """Everything the engine looks up about one domino set."""

    def __init__(self, top: int):
        self.top = top
        self.hi: list[int] = []
        self.lo: list[int] = []
        for hi in range(top + 1):
            for lo in range(hi + 1):
                self.hi.append(hi)
                self.lo.append(lo)
        self.count = len(self.hi)
        self.names = [f"{h}-{lo}" for h, lo in zip(self.hi, self.lo, strict=True)]
        self.id_of = {name: bone for bone, name in enumerate(self.names)}
        self.pips = [h + lo for h, lo in zip(self.hi, self.lo, strict=True)]
        self.is_double = [h == lo for h, lo in zip(self.hi, self.lo, strict=True)]
        self.double_of = [n * (n + 1) // 2 + n for n in range(top + 1)]
        self.number_mask = [0] * (top + 1)
        for bone in range(self.count):
            self.number_mask[self.hi[bone]] |= 1 << bone
            self.number_mask[self.lo[bone]] |= 1 << bone
        self.all_mask = (1 << self.count) - 1
        # Action texts "bone@onto" for every pair, and the pair of each text.
        self.action_name = [[f"{played}@{onto}" for onto in self.names] for played in self.names]
        self.action_pair = {
            text: (bone, onto) for bone, row in enumerate(self.action_name) for onto, text in enumerate(row)
        }
        # The same texts by the bone played on: `onto_row[onto][bone]`.
        self.onto_row = [
            [self.action_name[bone][onto] for bone in range(self.count)] for onto in range(self.count)
        ]
        self._play_points: dict[int, dict[str, int]] = {}

    def play_points(self, blank_value: int) -> dict[str, int]:
        """What the bone of each action text counts in a hand (the double blank counting `blank_value`)."""
        points = self._play_points.get(blank_value)
        if points is None:
            points = {
                text: self.pips[bone] + (blank_value if bone == 0 else 0)
                for text, (bone, _) in self.action_pair.items()
            }
            self._play_points[blank_value] = points
        return points

    def bones_of(self, mask: int) -> list[int]:
        """The bone ids in a mask, ascending."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def numbers_mask(self, numbers: list[int] | tuple[int, ...]) -> int:
        """Every bone showing at least one of `numbers`."""
        mask = 0
        for number in numbers:
            mask |= self.number_mask[number]
        return mask


@cache
def tables_for(set_name: str) -> SetTables:
    return SetTables(SET_TOP[set_name])

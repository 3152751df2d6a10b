"""The staff form for entering a result at the table: a place and a score per seat, and a reason."""

from django import forms


class ResultForm(forms.Form):
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    reason = forms.CharField(
        required=False,
        max_length=500,
        widget=forms.TextInput(attrs={"placeholder": "Why (required for a correction)"}),
    )

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.stored = None  # the result saved meanwhile (a ResultVersion), shown beside what was typed
        for seat in seats:
            self.fields[f"place_{seat.seat}"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=len(seats),
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "narrow"}),
            )
            self.fields[f"score_{seat.seat}"] = forms.IntegerField(
                required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "narrow"})
            )

    def rows(self):
        return [(seat, self[f"place_{seat.seat}"], self[f"score_{seat.seat}"]) for seat in self.seats]

    def entry_rows(self):
        """`rows` with the place and score saved meanwhile (None, None where nothing is shown)."""
        places = self.stored.places if self.stored is not None else []
        scores = (self.stored.scores if self.stored is not None else None) or []
        return [
            (
                seat,
                place,
                score,
                places[seat.seat] if seat.seat < len(places) else None,
                scores[seat.seat] if seat.seat < len(scores) else None,
            )
            for seat, place, score in self.rows()
        ]

    def clean(self):
        data = super().clean()
        places = [data.get(f"place_{seat.seat}") for seat in self.seats]
        scores = [data.get(f"score_{seat.seat}") for seat in self.seats]
        if any(p is not None for p in places) and any(p is None for p in places):
            raise forms.ValidationError(
                "enter a place for every seat, or none (to derive places from scores)"
            )
        if any(s is not None for s in scores) and any(s is None for s in scores):
            raise forms.ValidationError("enter a score for every seat, or none")
        data["places"] = places if places and places[0] is not None else None
        data["scores"] = scores if scores and scores[0] is not None else None
        return data

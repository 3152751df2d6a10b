"""The replay viewer: the drawing of a match step by step (`drawing.py`), its script and style
(`static/replay.js`, `static/replay.css`: the site serves them as `replay/...`), and the self-contained replay
file of the local runner, which inlines them (`page.py`)."""

"""Pecking Order's game engines: pure Python, no Django. See docs/engine.md."""

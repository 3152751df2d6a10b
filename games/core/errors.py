"""The errors the engines raise. Each is a user error with a clear message, never an invariant failure."""


class GameError(ValueError):
    """Base class of every error the engine package raises on bad input."""


class UnknownGame(GameError):
    """No game is registered under that id."""


class UnknownBot(GameError):
    """No bot is registered under that name."""


class OptionError(GameError):
    """A variant option or bot parameter is unknown or has a bad value, or the player count is out of
    range."""


class IllegalAction(GameError):
    """An action (or chance outcome) is not legal in the current state. The state is left unchanged."""


class ReplayError(GameError):
    """A match record does not replay. `event` is the index of the first bad event, or None."""

    def __init__(self, message: str, event: int | None = None):
        super().__init__(message if event is None else f"event {event}: {message}")
        self.event = event

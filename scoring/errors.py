"""Errors raised by the pure rules, each carrying a sentence a player understands."""


class RuleError(ValueError):
    """Base class: the input breaks a rule; the message says which and why."""


class IllegalMove(RuleError):
    """A move that the rules do not allow in the current state."""


class InvalidSetup(RuleError):
    """A table setup (players, variant) that the game cannot start with."""


class InvalidSheet(RuleError):
    """A score sheet that is malformed or describes an impossible position."""

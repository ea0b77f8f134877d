"""Typed errors. Every error a user can cause is a ``ConquestError`` with a one-line message."""

from __future__ import annotations


class ConquestError(ValueError):
    """Base class: bad input of any kind (action, option, file). Its message is one line for the user."""


class IllegalAction(ConquestError):
    """An action that is not legal in this state. The message names the action and the rule it breaks."""

    def __init__(self, action: str, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action '{action}': {reason}")


class NotationError(ConquestError):
    """Text that is not an action in the ruleset's notation."""


class OptionError(ConquestError):
    """An unknown option, a bad option value or a bad player count."""


class StateFormatError(ConquestError):
    """A state or record JSON document that does not validate; the message names the offending field."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        super().__init__(f"{field}: {problem}")


class UnknownRuleset(ConquestError):
    pass

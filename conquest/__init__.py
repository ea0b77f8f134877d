"""Conquest: an engine on which territory-conquest board games are played exactly by their rules."""

from conquest.core.errors import ConquestError, IllegalAction, NotationError, OptionError, StateFormatError
from conquest.core.game import CHANCE, Ruleset, State
from conquest.core.registry import get_ruleset, rulesets

__all__ = [
    "CHANCE", "Ruleset", "State", "ConquestError", "IllegalAction", "NotationError", "OptionError",
    "StateFormatError", "get_ruleset", "rulesets",
]
__version__ = "0.1.0"

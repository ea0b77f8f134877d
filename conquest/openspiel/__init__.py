"""The rulesets as OpenSpiel games (the ``openspiel`` extra; docs/openspiel.md).

    import conquest.openspiel, pyspiel
    game = pyspiel.load_game("conquest_nerath(players=4)")

Importing this package registers every ruleset as ``conquest_<id>`` (see ``conquest.openspiel.game``)."""

from conquest.openspiel.game import ConquestGame, ConquestState, register_all

GAMES = register_all()

__all__ = ["ConquestGame", "ConquestState", "GAMES", "register_all"]

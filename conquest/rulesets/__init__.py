"""One package per game. A package exposes ``RULESET``, an instance of ``conquest.core.game.Ruleset``."""

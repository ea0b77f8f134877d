"""The game contract shared by every ruleset and every consumer."""

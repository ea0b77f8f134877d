"""The words the page and the log use for realms, pieces and cards: a card's effect and when it can be played
(``card_effect``, ``card_text``), realm names and colours. Shared by the board (webboard) and the narration."""

from __future__ import annotations

from typing import Any

from conquest.rulesets.nerath.cards import event_cards, treasure_cards
from conquest.rulesets.nerath.data import tables

REALM_NAME = {"karkoth": "Karkoth", "vailin": "Vailin", "iron": "Iron Circle", "nerath": "Nerath"}
REALM_COLOR = {"karkoth": "#8e1b1b", "vailin": "#2e7d32", "iron": "#546e7a", "nerath": "#1f4fa3"}
PIECE_ICON = {"footsoldier": ("F", "circle"), "siege": ("S", "square"), "fighter": ("H", "diamond"),
              "wizard": ("W", "diamond"), "monster": ("M", "hexagon"), "storm": ("E", "triangle"),
              "dragon": ("D", "triangle"), "castle": ("C", "square"), "warship": ("B", "square")}
ABILITY = {"first_strike": "strikes first", "powerful_attack": "rolls 2 dice when attacking",
           "explore": "a Hero: may explore dungeons", "battle_at_sea": "may fight at sea aboard a Warship",
           "run_amok": "runs amok after winning", "place_pieces": "new pieces are placed here",
           "captured": "inactive when hit, captured with the space", "capsize": "rolls 2 dice in sea battles",
           "hover": "may end Reposition at sea", "durable": "takes two hits", "transport": "carries 2 land pieces"}
EFFECT = {"gain_gold": "gain {n} gold", "attack_bonus": "{p} hit on {hit}+", "move_bonus": "{p} +{n} Move",
          "income_bonus": "income +{n}", "place_pieces": "{n} free {p} in your capital",
          "remove_piece": "{n} enemy {p} in one space leave play", "reroll": "roll again",
          "cancel_hits": "ignore {n} hits", "tax": "the enemy collects {n} gold less"}
WHEN = {"move": "in your Move step", "fight": "in your Fight Battles step", "reinforce": "in your Reinforce step",
        "any": "in your turn", "battle": "before a battle of yours", "roll": "after your side rolls in a battle",
        "damage": "when your realm is about to take hits", "income": "at your income",
        "enemy_move": "when an enemy enters your space", "enemy_income": "at an enemy's income"}
def _effects(effects: Any) -> str:
    out = []
    hit_on = tables().hit_on if hasattr(tables(), "hit_on") else 6
    for verb, n, p in effects or []:
        piece = "all pieces" if p == "*" else tables().pieces[p].name + "s" if p in tables().pieces else str(p)
        out.append(EFFECT.get(verb, verb.replace("_", " ")).format(n=n, p=piece, hit=hit_on - int(n)))
    return "; ".join(out)


def card_effect(cid: str) -> str:
    """What a card does and when it can be played, in the game's words: "all pieces hit on 5+; before a battle
    of yours" (an Event card), "2 VP when played; for the rest of the game: Fighters hit on 5+; played in
    your turn" (a Treasure card)."""
    c = event_cards().get(cid)
    if c is not None:
        return (_effects(c.get("effects")) or "no effect") + "; " + (
            "played at once when drawn" if c.get("immediate") else WHEN.get(c["when"], c["when"]))
    t = treasure_cards().get(cid)
    if t is None:
        return ""
    parts = [f"{t['vp']} VP when played"]
    if t.get("power"):
        parts.append("once: " + _effects(t["power"]))
    if t.get("property"):
        parts.append("for the rest of the game: " + _effects(t["property"]))
    return "; ".join(parts) + "; played in your turn"


def card_text(cid: str) -> str:
    """A card's name and what it does: "Dark Rites: all pieces hit on 5+; before a battle of yours"."""
    c = event_cards().get(cid) or treasure_cards().get(cid)
    return f"{c['name']}: {card_effect(cid)}" if c else cid

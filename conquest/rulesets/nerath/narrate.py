"""The log of Conquest of Nerath told as sentences, from one seat's views only (``conquest.core.narration``).

Realms speak by their short names ("Karkoth attacks the Karkothi Throneholds with 3 Footsoldiers and a
Dragon"); a battle's entries share one group (``battle-ROUND-REALM-SPACE``) and carry the sides' pieces, so the
page can show them in one battle window. A side's roll is one chance outcome, the number of hits (the engine
never draws single faces): its dice are shown as the dice rolled, what each needed, and the hits.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from conquest.core.narration import changed_keys, counted, die, ends, line, listing, plural, score_row
from conquest.rulesets.nerath.cards import event_cards, treasure_cards
from conquest.rulesets.nerath.data import REALMS, tables

SHORT = {"karkoth": "Karkoth", "vailin": "Vailin", "iron": "the Iron Circle", "nerath": "Nerath"}
PHASES = {"move": "Move", "reposition": "Reposition", "reinforce": "Reinforce", "fight": "Battle",
          "deal": "set-up", "draw": "Draw"}


def realm_name(realm: str | None) -> str:
    if realm == "guardians":
        return "the Guardians"
    return SHORT.get(realm or "", realm or "someone")


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def space_name(sid: str) -> str:
    m = tables().board.map
    r = m.by_id.get(sid)
    return r.name if r is not None else sid


def piece_name(piece: str) -> str:
    p = tables().pieces.get(piece)
    return p.name if p is not None else piece.capitalize()


def card_name(cid: str) -> str:
    card = event_cards().get(cid) or treasure_cards().get(cid)
    return str(card["name"]) if card else cid


def army(pieces: Mapping[str, int]) -> str:
    return listing([counted(n, piece_name(p)) for p, n in pieces.items() if n])


def battle_key(view: Mapping[str, Any], space: str) -> str:
    return f"battle-{view.get('round')}-{view.get('realm')}-{space}"


def sides(view: Mapping[str, Any], space: str) -> dict[str, dict[str, int]]:
    """Each realm's pieces (and Warships) in a space, as the seat sees them."""
    out = {r: {k: n for k, n in p.items() if n} for r, p in (view.get("pieces", {}).get(space) or {}).items()}
    for ship in (view.get("ships") or {}).values():
        if ship.get("space") == space:
            side = out.setdefault(ship["owner"], {})
            side["warship"] = side.get("warship", 0) + 1
    return {r: p for r, p in out.items() if p}


def forces(sides_: Mapping[str, Mapping[str, int]]) -> dict[str, str]:
    """Each side as words, keyed by the realm's name: ``{"Karkoth": "3 Footsoldiers and a Dragon"}``."""
    return {cap(realm_name(r)): army(p) for r, p in sides_.items()}


def verb_for(subject: str, singular: str, plural_form: str) -> str:
    """``Karkoth rolls``, ``the Guardians roll``, ``Vailin and Nerath roll``."""
    many = subject.lower().startswith("the guardians") or " and " in subject
    return plural_form if many else singular


def acting_realm(view: Mapping[str, Any]) -> str:
    if view.get("phase") == "deal" and view.get("dealing"):
        return str(view["dealing"][0])
    rc = view.get("reaction")
    if rc and rc.get("realms"):  # a card window on another realm's move or income: the realm asked acts
        return str(rc["realms"][0])
    b = view.get("battle")
    if b and b.get("step") == "assign" and b.get("queue"):
        return str(b["queue"][0][0])
    if b and b.get("step") == "window" and b.get("window"):  # the realm whose card window is open
        return str(b["window"][0])
    if b and b.get("step") == "choose" and b.get("defenders"):  # the seat of both allies splits their hits
        return str(b["defenders"][0])
    return str(view.get("realm"))


def changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    out = set(changed_keys(before.get("pieces"), after.get("pieces")))
    out |= set(changed_keys(before.get("control"), after.get("control")))
    out |= set(changed_keys(before.get("guardians"), after.get("guardians")))
    ships_b, ships_a = before.get("ships") or {}, after.get("ships") or {}
    for k in set(ships_b) | set(ships_a):
        if ships_b.get(k) != ships_a.get(k):
            out |= {s["space"] for s in (ships_b.get(k), ships_a.get(k)) if s}
    return sorted(out)


def _rolls(battle: Mapping[str, Any], who: str, hits: int, key: str) -> list[dict[str, Any]]:
    """Each die of a side's roll, with a face and whether it hit. The engine draws only the number of hits (one
    chance outcome), so the faces are illustrative: drawn, with a generator seeded by the roll's place in the
    game (the same on every page and every refresh), consistently with that number: the dice that hit are
    chosen with weights their chances of hitting, a hit shows a face at or above what it needed, a miss one
    below (docs/rules/nerath.md, "Dice in the battle window")."""
    groups = [(int(f), int(need), int(c)) for f, need, c in battle.get("rolling") or []]
    dice_ = [(f, need) for f, need, c in groups for _ in range(c)]
    if not dice_:
        return [die(who, "dice", plural(hits, "hit"))]
    rng = random.Random(f"{key}|{hits}")
    p = [max(0, f - need + 1) / f for f, need in dice_]
    chosen: set[int] = set()
    for _ in range(min(hits, len(dice_))):
        left = [i for i in range(len(dice_)) if i not in chosen]
        weights = [p[i] for i in left]
        chosen.add(rng.choices(left, weights=weights)[0] if sum(weights) > 0 else left[0])
    out = []
    for i, (f, need) in enumerate(dice_):
        hit = i in chosen
        lo, hi = (min(need, f), f) if hit else (1, max(1, min(need - 1, f)))
        d = die(who, f"d{f}", "hit" if hit else "", value=rng.randint(lo, hi), need=f"{need}+")
        d["hit"] = hit
        out.append(d)
    return out


def _battle_end(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any] | None:
    """The result of a battle that this action ended (``None`` while it goes on)."""
    b = before.get("battle")
    if not b or (after.get("battle") and after["battle"].get("space") == b.get("space")):
        return None
    space = b["space"]
    att = b["attacker"]
    left = sides(after, space)
    owner_before = (before.get("control") or {}).get(space)
    owner_after = (after.get("control") or {}).get(space)
    if owner_after == att and owner_before != att:
        text = f"{cap(realm_name(att))} takes {space_name(space)}"
    elif att in left and len(left) == 1 and not (after.get("guardians") or {}).get(space):
        text = f"{cap(realm_name(att))} wins the battle for {space_name(space)}"
    elif att not in left:
        text = f"The attack on {space_name(space)} fails"
    else:
        text = f"The battle for {space_name(space)} ends"
    return {"space": space, "result": text, "left": left, "forces": forces(left)}


def breakdown(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each realm's Victory Points (and gold) at the end."""
    return [score_row(cap(realm_name(r)), [("VP", (view.get("vp") or {}).get(r, 0)),
                                           ("gold", (view.get("gold") or {}).get(r, 0))],
                      (view.get("vp") or {}).get(r, 0)) for r in REALMS]


def narrate(before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
            names: Sequence[str]) -> dict[str, Any]:
    out = _narrate(before, action, after, seat, names)
    if before.get("phase") == "deal":
        out["changed"] = []  # the set-up (Guardians placed face down) is no news
    realm = acting_realm(before) if before.get("to_move") != "chance" else \
        ((before.get("battle") or {}).get("attacker") or before.get("realm"))
    from conquest.rulesets.nerath.cardtext import REALM_COLOR
    if realm in REALM_COLOR:
        out["tint"] = REALM_COLOR[realm]  # the page outlines what changed in the colour of the realm that did it
    news = _news(before, action, out)
    if news:
        out["news"] = news
    if ends(before, after):
        out["final"] = breakdown(after)
        out["text"] += f". The game is over ({after.get('end_reason') or 'the last round'})"
        out["kind"] = "end"
    return out


def _narrate(before: dict[str, Any], action: Any, after: dict[str, Any], seat: int | None,
             names: Sequence[str]) -> dict[str, Any]:
    # Long because: one sentence per kind of action and battle step, in the game's words; the phrasebook reads best
    # in one place.
    ch = changed(before, after)
    mover = before.get("to_move")
    b = before.get("battle")
    group = battle_key(before, b["space"]) if b else None
    end = _battle_end(before, after)
    extra: dict[str, Any] = {"group": group, "changed": ch}
    if end is not None:
        extra["battle_end"] = end
    if action is None:
        return _hidden(before, after, extra)
    verb = action[0]
    realm = acting_realm(before)
    who = cap(realm_name(realm))
    if mover == "chance":
        return _chance(before, action, after, extra)
    if verb == "move":
        _v, frm, to, piece, n = action
        what = counted(n, piece_name(piece))
        if to in (after.get("battles") or []) and to not in (before.get("battles") or []):
            defenders = [realm_name(r) for r in sides(after, to) if r != realm]
            guard = " (held by Guardians)" if (after.get("guardians") or {}).get(to) else ""
            text = f"{who} attacks {space_name(to)} with {what} from {space_name(frm)}" + \
                (f": {listing(defenders)} defend" if defenders else "") + guard
            return line(text, "battle", **extra)
        return line(f"{who} moves {what} from {space_name(frm)} to {space_name(to)}", **extra)
    if verb == "sail":
        return line(f"{who}'s Warship {action[1]} sails to {space_name(action[2])}", **extra)
    if verb == "embark":
        return line(f"{cap(counted(1, piece_name(action[3])))} of {realm_name(realm)} boards Warship {action[2]} "
                    f"at {space_name(action[1])}", **extra)
    if verb == "debark":
        return line(f"{cap(counted(1, piece_name(action[3])))} of {realm_name(realm)} lands from Warship "
                    f"{action[1]} in {space_name(action[2])}", **extra)
    if verb == "battle":
        space = action[1]
        s = sides(before, space)
        att = army(s.get(realm, {}))
        foes = [f"{realm_name(r)} with {army(p)}" for r, p in s.items() if r != realm]
        gs = (before.get("guardians") or {}).get(space) or []
        if gs:
            foes.append(listing([("a facedown Guardian" if g.get("tile") == "facedown"
                                  else f"the {g['tile'].replace('-', ' ').title()}") for g in gs]))
        holder = (before.get("control") or {}).get(space)
        if space in (before.get("castles") or []) and holder and holder != realm:
            # a Castle is not a piece but defends its space: it rolls in the battle
            foes.append(f"{realm_name(holder)}'s Castle")
        if not foes:  # nobody defends: the space changes hands without dice
            return line(f"{who} marches into {space_name(space)} with {att or 'no pieces'}: no one defends it",
                        "move", **extra)
        text = f"Battle in {space_name(space)}: {who} with {att or 'no pieces'} against {listing(foes)}"
        extra["group"] = battle_key(before, space)
        return line(text, "battle", battle={"space": space, "name": space_name(space), "attacker": who,
                                            "sides": s, "forces": forces(s), "round": 1}, **extra)
    if verb == "hit":
        return line(f"{who} {_hit_text(action, who)}", "battle", **extra)
    if verb == "split":
        return line(split_text(action), "battle", **extra)
    if verb == "press":
        return line(f"{who} presses on in {space_name(b['space']) if b else 'the battle'}: another round",
                    "battle", **extra)
    if verb == "retreat":
        return line(f"{who} retreats from {space_name(b['space']) if b else 'the battle'}", "battle", **extra)
    if verb == "withdraw":
        return line(f"{who} withdraws {counted(action[3], piece_name(action[2]))} to {space_name(action[1])}",
                    "battle", **extra)
    if verb == "withdraw-ship":
        return line(f"{who}'s Warship {action[1]} withdraws to {space_name(action[2])}", "battle", **extra)
    if verb == "withdraw-aboard":
        return line(f"{who}'s {piece_name(action[2])} withdraws aboard Warship {action[1]}", "battle", **extra)
    if verb == "amok":
        return line(f"{who}'s Monster runs amok into {space_name(action[1])}", "battle", **extra)
    if verb == "stay":
        return line(f"{who}'s Monster stops running amok", **extra)
    if verb == "buy":
        piece, where = action[1], action[2:]
        cost = tables().pieces[piece].cost if piece in tables().pieces else None
        place = f"aboard Warship {where[1]}" if where and where[0] == "ship" else \
            f"in {space_name(where[0])}" if where else ""
        return line(f"{who} buys {counted(1, piece_name(piece))} {place}" + (f" ({cost} gold)" if cost else ""),
                    **extra)
    if verb == "play":
        card = event_cards().get(action[1]) or {}
        who = cap(realm_name(card.get("realm") or realm))  # an Event card is its realm's
        target = f", removing {counted(1, piece_name(action[3]))} in {space_name(action[2])}" \
            if len(action) >= 4 else ""
        from conquest.rulesets.nerath.cardtext import card_effect
        return line(f"{who} plays {card_name(action[1])} ({card_effect(action[1])}){target}", "card",
                    card=action[1], **extra)
    if verb == "pass":
        return line(f"{who} plays no card", "card", **extra)
    if verb == "done":
        phase = PHASES.get(str(before.get("phase")), str(before.get("phase")))
        return line(f"{who} ends the {phase} step", "turn", **extra)
    return line(f"{who}: {' '.join(map(str, action))}", **extra)


def _news(before: Mapping[str, Any], action: Any, entry: Mapping[str, Any]) -> str | None:
    """The line's headline for "since your turn" (a space taken, a Castle built, a card played, a Treasure won)."""
    end = entry.get("battle_end")
    if end and " takes " in end["result"]:
        return str(end["result"]).replace(" takes ", " took ")
    if action is None:
        return None
    text = str(entry.get("text", ""))
    if action[0] == "battle" and "no one defends" in text:
        return text.split(" marches into ")[0] + " took " + space_name(action[1])
    if action[0] == "buy" and action[1] == "castle":
        return text.replace(" buys a Castle ", " built a Castle ").split(" (")[0]
    if action[0] == "play":
        return text.replace(" plays ", " played ").split(" (")[0]
    if action[0] == "treasure":
        return text.replace(" wins ", " won ")
    return None


def split_text(action: tuple[Any, ...]) -> str:
    """``split vailin 2 nerath 1`` -> "Vailin takes 2 hits, Nerath 1"; a realm taking none comes last
    ("Nerath takes 3 hits, Vailin none")."""
    (a, na), (b, nb) = (realm_name(action[1]), action[2]), (realm_name(action[3]), action[4])
    if not na and nb:
        (a, na), (b, nb) = (b, nb), (a, na)
    return f"{cap(a)} takes {plural(na, 'hit')}, {b} {nb or 'none'}"


def _hit_text(action: tuple[Any, ...], who: str) -> str:
    if action[1] == "guardian":
        return f"{verb_for(who, 'takes', 'take')} a hit on Guardian {action[2]} (its d{action[3]} is lost)"
    if action[1] == "ship":
        return f"takes a hit on Warship {action[2]}"
    if action[1] == "wounded-dragon":
        return "takes a hit on its wounded Dragon"
    if action[1] == "castle":
        return "takes a hit on its Castle"
    if len(action) > 2:
        return f"takes a hit on {counted(1, piece_name(action[1]))} aboard Warship {action[2]}"
    return f"takes a hit on {counted(1, piece_name(action[1]))}"


def _chance(before: dict[str, Any], action: Any, after: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    verb = action[0]
    b = before.get("battle")
    if verb == "hits":
        n = action[1]
        if b:
            rolling_defenders = b.get("step") in ("roll_d", "fs_d")
            if rolling_defenders:
                realms = [r for r in b.get("defenders") or []]
                who = listing([realm_name(r) for r in realms]) if realms else (
                    "the Guardians" if b.get("guardian_tiles") else "the defence")
            else:
                who = realm_name(b.get("attacker"))
            dice = _rolls(b, cap(who), n, f"{extra.get('group')}|{b.get('round')}|{b.get('step')}")
            shown = listing([f"{c} d{f} needing {need}+" for f, need, c in b.get("rolling") or []])
            text = (f"{cap(who)} {verb_for(who, 'rolls', 'roll')} {plural(n, 'hit')}" + (f" ({shown})" if shown else "")
                    + f", round {b.get('round')}")
            return line(text, "dice", dice=dice, round=b.get("round"),
                        side="defender" if rolling_defenders else "attacker", hits=n, **extra)
        return line(f"The dice score {plural(n, 'hit')}", "dice", dice=[die("dice", "dice", plural(n, "hit"))],
                    hits=n, **extra)
    if verb == "extra":
        return line(f"The odd hit falls on {realm_name(action[1])}", "dice",
                    dice=[die("chance", "coin", realm_name(action[1]))], **extra)
    if verb == "draw":
        realm = acting_realm(before)
        return line(f"{cap(realm_name(realm))} draws an Event card: {card_name(action[1])}", "draw", **extra)
    if verb == "treasure":
        winner = (b or {}).get("attacker") or before.get("realm")
        return line(f"{cap(realm_name(winner))} wins a Treasure: {card_name(action[1])}", "draw", **extra)
    if verb == "guardian":
        return line(f"A Guardian is drawn: {action[1].replace('-', ' ').title()}", "setup", **extra)
    return line(f"Chance: {' '.join(map(str, action))}", "dice", **extra)


def _hidden(before: dict[str, Any], after: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """An entry the seat may not read: said from what its views show (a hand or a pile that grew)."""
    if before.get("to_move") == "chance":
        for realm in REALMS:
            if (after.get("event_hands") or {}).get(realm) != (before.get("event_hands") or {}).get(realm):
                return line(f"{cap(realm_name(realm))} draws an Event card", "draw", **extra)
            if (after.get("treasure_hands") or {}).get(realm) != (before.get("treasure_hands") or {}).get(realm):
                return line(f"{cap(realm_name(realm))} wins a Treasure card", "draw", **extra)
        spaces = [s for s in extra["changed"] if (after.get("guardians") or {}).get(s)]
        if spaces:
            return line(f"A facedown Guardian is placed in {listing([space_name(s) for s in spaces])}", "setup",
                        **extra)
        return line("A card or tile is drawn face down", "hidden", **extra)
    return line(f"{cap(realm_name(acting_realm(before)))} does something you cannot see", "hidden", **extra)

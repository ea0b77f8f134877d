"""The state as JSON: ``body_json`` writes it, ``from_body`` reads it back and checks every field.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

import conquest.rulesets.nerath.effects as fx
from conquest.core.errors import StateFormatError
from conquest.core.notation import is_digits
from conquest.core.schema import read_counters
from conquest.rulesets.nerath.base import cargo
from conquest.rulesets.nerath.battle import battle_dice, one_seat_allies
from conquest.rulesets.nerath.cards import treasure_cards
from conquest.rulesets.nerath.data import (
    COUNTED,
    DUNGEON,
    FLYING_TYPES,
    LAND,
    LAND_TYPES,
    N_TYPES,
    REALM_INDEX,
    REALMS,
    SEA,
    TYPE_INDEX,
    R,
    full_strength,
    guardian_tiles,
)
from conquest.rulesets.nerath.movement import start_move
from conquest.rulesets.nerath.reposition import start_reposition
from conquest.rulesets.nerath.schema import GOLD_MAX, MAX_REALM_PIECES, VP_MAX
from conquest.rulesets.nerath.state import (
    BOARD,
    C1,
    C2,
    CHANCE_STEPS,
    FLAG_NAMES,
    FLAGS,
    GUARDIANS,
    IDS,
    IX,
    KIND,
    LANDS,
    MOVES,
    O1,
    O2,
    OWNER,
    PER_SPACE,
    PHASES,
    SPACE,
    Battle,
    NerathData,
    Reaction,
    S,
)


def _ix(space: Any, field: str) -> int:
    if space not in IX:
        raise StateFormatError(field, f"unknown space '{space}'")
    return IX[space]


def _realm_ix(name: Any, field: str) -> int:
    if name not in REALM_INDEX:
        raise StateFormatError(field, f"unknown realm {name!r} (one of {', '.join(REALMS)})")
    return REALM_INDEX[name]


def keep_bounds(st: NerathData) -> None:
    """Gold and victory points stop at the bounds a document is read with (``GOLD_MAX``, ``VP_MAX``; docs/rules/
    nerath.md, "Bounds of a state document"): no game comes near, and one that went past them would write a
    document its own loader refuses."""
    for r in range(R):
        if st.gold[r] > GOLD_MAX:
            st.gold[r] = GOLD_MAX
        if st.vp[r] > VP_MAX:
            st.vp[r] = VP_MAX


def body_json(st: NerathData) -> dict[str, Any]:
    pieces: dict[str, dict[str, dict[str, int]]] = {}
    n = st.pieces
    for i in compress(range(len(n)), n):  # the few counts that are not 0, in (space, realm, type) order
        sr, t = divmod(i, N_TYPES)
        s, r = divmod(sr, R)
        pieces.setdefault(IDS[s], {}).setdefault(REALMS[r], {})[COUNTED[t]] = n[i]
    ships = {}
    for sid in sorted(st.ships):
        sh = st.ships[sid]
        ships[str(sid)] = {"owner": REALMS[sh[OWNER]], "space": IDS[sh[SPACE]], "moves": sh[MOVES],
                           "flags": [k for k, v in FLAG_NAMES.items() if sh[FLAGS] & v],
                           "cargo": [COUNTED[t] for t in cargo(sh)]}
        if sh[O1] >= 0 or sh[O2] >= 0:
            ships[str(sid)]["cargo_from"] = [IDS[o] if o >= 0 else None
                                             for c, o in ((sh[C1], sh[O1]), (sh[C2], sh[O2])) if c >= 0]
    movable: dict[str, dict[str, int]] = {}
    for key, c in sorted(st.movable.items()):
        s, t = divmod(key, N_TYPES)
        movable.setdefault(IDS[s], {})[COUNTED[t]] = c
    bt = None
    if st.battle is not None:
        b = st.battle
        bt = {"space": IDS[b.space], "kind": b.kind, "attacker": REALMS[b.attacker],
              "defenders": [REALMS[d] for d in b.defenders], "round": b.round, "step": b.step,
              "hits_on_attacker": b.hits_on_attacker, "hits_on_defenders": b.hits_on_defenders,
              "queue": [[REALMS[q[0]] if q[0] >= 0 else "guardians", q[1]] for q in b.queue],
              "hit_this_assignment": b.hit_this_assignment,
              "after": b.after, "castle_inactive": b.castle_inactive,
              "wounded_dragons": {REALMS[r]: b.wounded_dragons[r] for r in range(R) if b.wounded_dragons[r]},
              "split_hits": b.split_hits, "guardian_seat": b.guardian_seat,
              "guardian_tiles": b.guardian_tiles, "restock": b.restock,
              "window": [REALMS[r] for r in b.window], "window_kind": b.window_kind,
              "window_step": b.window_step, "rolled": b.rolled,
              "offered": [REALMS[r] for r in b.offered],
              # derived, for readers (ignored when a state is read): the dice of the side about to roll
              "rolling": [list(d) for d in battle_dice(
                  st, "a" if b.step.endswith("a") else "d", b.step.startswith("fs"))]
              if b.step in ("fs_a", "fs_d", "roll_a", "roll_d") else []}
    return {
        "round": st.round, "realm": REALMS[st.realm], "phase": st.phase,
        "gold": {REALMS[r]: st.gold[r] for r in range(R)},
        "vp": {REALMS[r]: st.vp[r] for r in range(R)},
        "control": {IDS[s]: REALMS[st.ctrl[s]] for s in LANDS},
        "control_at_turn_start": {IDS[s]: REALMS[st.ctrl_start[s]] for s in LANDS},
        "castles": [IDS[s] for s in LANDS if st.castle[s]],
        "pieces": pieces, "ships": ships, "next_ship": st.next_ship,
        "movable": movable, "battles": [IDS[s] for s in st.pending], "battle": bt,
        "reaction": None if st.reaction is None else {
            "kind": st.reaction.kind, "realms": [REALMS[r] for r in st.reaction.realms],
            "space": IDS[st.reaction.space] if st.reaction.space >= 0 else None,
            "mover": REALMS[st.reaction.mover]},
        "placed": {IDS[s]: c for s, c in sorted(st.placed.items())},
        "built": [IDS[s] for s in st.built],
        "event_decks": {REALMS[r]: st.decks[r] for r in range(R)},
        "event_hands": {REALMS[r]: st.hands[r] for r in range(R)},
        "event_discards": {REALMS[r]: st.discards[r] for r in range(R)},
        "treasure_deck": st.treasure_deck,
        "treasure_hands": {REALMS[r]: st.treasures[r] for r in range(R)},
        "treasures_played": {REALMS[r]: st.treasures_played[r] for r in range(R)},
        "effects": [[REALMS[e[0]]] + list(e[1:]) for e in st.effects],
        "guardians": {IDS[d]: [{"tile": g[0], "face_up": bool(g[1]), "dice": g[2:]} for g in gs]
                      for d, gs in sorted(st.guardians.items())},
        "guardian_pile": st.guardian_pile,
        "dealing_guardians": [IDS[d] for d in st.dealing_guardians],
        "dealing": [REALMS[r] for r in st.dealing],
        "stats": dict(st.stats),
        "winners": st.winners, "end_reason": st.end_reason,
    }


def _check_split(st: NerathData) -> None:
    """The allies' split (docs/rules/nerath.md, reading 12) agrees with the rest of the battle: hits wait in
    ``split_hits`` only in the steps ``split`` (the odd hit drawn, allies of two seats) and ``choose`` (the seat
    playing both allies splits them), for two defenders."""
    bt = st.battle
    assert bt is not None
    step, h, defs = bt.step, bt.split_hits, bt.defenders
    if step not in ("split", "choose"):
        if h:
            raise StateFormatError("battle/split_hits", f"hits wait for the allies' split only in the steps split "
                                                        f"and choose, not in step {step!r}")
        return
    if h <= 0 or len(defs) < 2 or defs[0] == defs[1]:
        raise StateFormatError("battle/split_hits", f"step {step!r} splits hits (split_hits > 0) between two "
                                                    f"allied defenders")
    one = one_seat_allies(st, defs[0], defs[1])
    if step == "choose" and not one:
        raise StateFormatError("battle/step", "step 'choose' is for a seat that plays both defending allies "
                                              "(option ally_split=choose); allies of two seats take half each "
                                              "(step 'split')")
    if step == "split" and one:
        raise StateFormatError("battle/step", "one seat plays both defending allies: it splits the hits itself "
                                              "(step 'choose'), no odd hit is drawn")


def from_body(cls: type[NerathData], data: dict[str, Any], players: int, options: dict[str, Any]) -> NerathData:
    # Long because: it reads and checks every field of the state's JSON document, one after the other; the state's
    # declaration (issue 29) derives this reader instead.
    st = cls(players, options)

    def need(key: str, typ: type) -> Any:
        if key not in data:
            raise StateFormatError(key, "missing")
        v = data[key]
        if not isinstance(v, typ) or isinstance(v, bool) and typ is not bool:
            raise StateFormatError(key, f"expected {typ.__name__}, got {type(v).__name__}")
        return v

    st.round = need("round", int)
    st.realm = _realm_ix(need("realm", str), "realm")
    st.phase = need("phase", str)
    if st.phase not in PHASES:
        raise StateFormatError("phase", f"must be one of {', '.join(PHASES)}")
    for key, target in (("gold", st.gold), ("vp", st.vp)):
        d = need(key, dict)
        for name, v in d.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise StateFormatError(f"{key}/{name}", "must be a whole number >= 0")
            target[_realm_ix(name, f"{key}/{name}")] = v
    for key in ("control", "control_at_turn_start"):
        d = need(key, dict)
        arr = st.ctrl if key == "control" else st.ctrl[:]
        for sp, name in d.items():
            s = _ix(sp, f"{key}/{sp}")
            if KIND[s] != LAND:
                raise StateFormatError(f"{key}/{sp}", "only land spaces are controlled")
            arr[s] = _realm_ix(name, f"{key}/{sp}")
        if key != "control":
            st.ctrl_start = arr
    st.castle = [0] * S
    for sp in need("castles", list):
        s = _ix(sp, "castles")
        if KIND[s] != LAND:
            raise StateFormatError("castles", f"{sp} is not a land space")
        st.castle[s] = 1
    st.pieces = [0] * (S * PER_SPACE)
    for sp, by_realm in need("pieces", dict).items():
        s = _ix(sp, f"pieces/{sp}")
        if not isinstance(by_realm, dict):
            raise StateFormatError(f"pieces/{sp}", "must map realms to pieces")
        for name, row in by_realm.items():
            r = _realm_ix(name, f"pieces/{sp}/{name}")
            if not isinstance(row, dict):
                raise StateFormatError(f"pieces/{sp}/{name}", "must map pieces to counts")
            for p, c in row.items():
                if p not in TYPE_INDEX:
                    raise StateFormatError(f"pieces/{sp}/{name}/{p}", "unknown piece (Castles are listed "
                                           "in 'castles', Warships in 'ships')")
                if not isinstance(c, int) or isinstance(c, bool) or c < 0:
                    raise StateFormatError(f"pieces/{sp}/{name}/{p}", "must be a whole number >= 0")
                t = TYPE_INDEX[p]
                if KIND[s] == SEA and t not in FLYING_TYPES and c:
                    raise StateFormatError(f"pieces/{sp}/{name}/{p}", "land pieces at sea ride Warships")
                st.pieces[(s * R + r) * N_TYPES + t] = c
    for r in range(R):
        total = sum(st.pieces[(s * R + r) * N_TYPES + t] for s in range(S) for t in range(N_TYPES))
        if total > MAX_REALM_PIECES:
            raise StateFormatError("pieces", f"{REALMS[r]} has {total} pieces on the board; a realm has at most "
                                             f"{MAX_REALM_PIECES} (docs/rules/nerath.md)")
    st.ships = {}
    for key, rec in need("ships", dict).items():
        f = f"ships/{key}"
        if not is_digits(str(key)) or not isinstance(rec, dict):
            raise StateFormatError(f, "ships are keyed by number and hold owner, space, moves, flags, cargo")
        s = _ix(rec.get("space"), f + "/space")
        if KIND[s] != SEA:
            raise StateFormatError(f + "/space", "a Warship must be in a sea space")
        cargo = rec.get("cargo", [])
        if not isinstance(cargo, list) or len(cargo) > 2 or any(
                c not in TYPE_INDEX or TYPE_INDEX[c] not in LAND_TYPES for c in cargo):
            raise StateFormatError(f + "/cargo", "up to 2 land pieces (not Castles)")
        flags = 0
        for fl in rec.get("flags", []):
            if fl not in FLAG_NAMES:
                raise StateFormatError(f + "/flags", f"unknown flag {fl!r} ({', '.join(FLAG_NAMES)})")
            flags |= FLAG_NAMES[fl]
        moves = rec.get("moves", 0)
        if not isinstance(moves, int) or moves < 0:
            raise StateFormatError(f + "/moves", "must be a whole number >= 0")
        cs = [TYPE_INDEX[c] for c in cargo] + [-1, -1]
        frm = rec.get("cargo_from", [])
        if not isinstance(frm, list) or len(frm) > len(cargo) or any(
                o is not None and (o not in IX or KIND[IX[o]] == SEA) for o in frm):
            raise StateFormatError(f + "/cargo_from", "one land space id (or null) per cargo piece, in order")
        os_ = [IX[o] if o is not None else -1 for o in frm] + [-1, -1]
        st.ships[int(key)] = [_realm_ix(rec.get("owner"), f + "/owner"), s, moves, flags, cs[0], cs[1],
                              os_[0], os_[1]]
    st.next_ship = max([need("next_ship", int)] + [k + 1 for k in st.ships])
    st.movable = {}
    if data.get("movable") == "all":
        # a convenience for scenarios: every piece of the realm to move may still move
        data = dict(data)
        data["movable"] = {}
        if st.phase == "move":
            start_move(st)
        elif st.phase == "reposition":
            start_reposition(st)
    for sp, row in need("movable", dict).items():
        s = _ix(sp, f"movable/{sp}")
        for p, c in row.items():
            if p not in TYPE_INDEX or not isinstance(c, int) or c < 0:
                raise StateFormatError(f"movable/{sp}/{p}", "must map a piece to a count")
            have = st.pieces[(s * R + st.realm) * N_TYPES + TYPE_INDEX[p]]
            if c > have:
                raise StateFormatError(f"movable/{sp}/{p}", f"{c} {p} of {REALMS[st.realm]} may still move from "
                                                            f"{sp}, which holds {have} (pieces)")
            if c:
                st.movable[s * N_TYPES + TYPE_INDEX[p]] = c
    st.pending = [_ix(sp, "battles") for sp in need("battles", list)]
    st.dealing = [_realm_ix(x, "dealing") for x in data.get("dealing", [])]
    st.placed = {_ix(sp, "placed"): int(c) for sp, c in data.get("placed", {}).items()}
    st.built = [_ix(sp, "built") for sp in data.get("built", [])]
    rc = data.get("reaction")
    if rc is not None:
        if not isinstance(rc, dict) or rc.get("kind") not in ("move", "income") or \
                not isinstance(rc.get("realms"), list) or not rc["realms"]:
            raise StateFormatError("reaction", "null, or {kind: move|income, realms: [...], space, mover}")
        st.reaction = Reaction(rc["kind"], [_realm_ix(x, "reaction/realms") for x in rc["realms"]],
                               _ix(rc["space"], "reaction/space") if rc.get("space") is not None else -1,
                               _realm_ix(rc.get("mover"), "reaction/mover"))
        if st.reaction.kind == "move" and st.reaction.space < 0:
            raise StateFormatError("reaction/space", "a movement window names the space entered")
    b = data.get("battle")
    if b is not None:
        if not isinstance(b, dict):
            raise StateFormatError("battle", "must be an object or null")
        try:
            hurt = [0] * R
            for name, c in b.get("wounded_dragons", {}).items():
                hurt[_realm_ix(name, "battle/wounded_dragons")] = int(c)
            st.battle = bt = Battle(
                _ix(b["space"], "battle/space"), b["kind"], _realm_ix(b["attacker"], "battle/attacker"),
                [_realm_ix(d, "battle/defenders") for d in b["defenders"]],
                round=int(b["round"]), step=b["step"], hits_on_attacker=int(b.get("hits_on_attacker", 0)),
                hits_on_defenders=int(b.get("hits_on_defenders", 0)),
                queue=[[GUARDIANS if q[0] == "guardians" else _realm_ix(q[0], "battle/queue"), int(q[1])]
                       for q in b.get("queue", [])],
                hit_this_assignment=int(b.get("hit_this_assignment", 0)), after=b.get("after", ""),
                castle_inactive=bool(b.get("castle_inactive", False)), wounded_dragons=hurt,
                split_hits=int(b.get("split_hits", 0)), guardian_seat=int(b.get("guardian_seat", -1)),
                guardian_tiles=list(b.get("guardian_tiles", [])), restock=int(b.get("restock", 0)),
                window=[_realm_ix(r, "battle/window") for r in b.get("window", [])],
                window_kind=str(b.get("window_kind", "")), window_step=str(b.get("window_step", "")),
                rolled=int(b.get("rolled", 0)),
                offered=[_realm_ix(r, "battle/offered") for r in b.get("offered", [])])
        except KeyError as e:
            raise StateFormatError(f"battle/{e.args[0]}", "missing") from None
        except (TypeError, ValueError) as e:  # a number or a name where the other belongs
            raise StateFormatError("battle", f"a field of the battle has the wrong type ({e})") from None
        if bt.kind not in ("land", "sea", "dungeon"):
            raise StateFormatError("battle/kind", "must be land, sea or dungeon")
        if bt.kind == "dungeon" and not 0 <= bt.guardian_seat < players:
            raise StateFormatError("battle/guardian_seat", "the seat rolling for the Guardians is needed")
        if bt.step not in CHANCE_STEPS + ("assign", "press", "withdraw", "amok", "landing", "window", "choose"):
            raise StateFormatError("battle/step", f"unknown step {bt.step!r}")
        _check_split(st)
    for key, attr in (("event_decks", "decks"), ("event_hands", "hands"), ("event_discards", "discards"),
                      ("treasure_hands", "treasures"), ("treasures_played", "treasures_played")):
        d = data.get(key, {})
        if not isinstance(d, dict):
            raise StateFormatError(key, "must map realms to lists of cards")
        arr = getattr(st, attr)
        for name, cards in d.items():
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise StateFormatError(f"{key}/{name}", "must be a list of card ids")
            arr[_realm_ix(name, f"{key}/{name}")] = list(cards)
    st.treasure_deck = sorted(data.get("treasure_deck", []))
    eff = data.get("effects", [])
    if not isinstance(eff, list) or not all(isinstance(e, list) for e in eff):
        raise StateFormatError("effects", "must be a list of effect records")
    st.effects = []
    for i, rec_e in enumerate(eff):
        if len(rec_e) not in (5, 6) or (len(rec_e) == 6 and rec_e[5] != fx.TREASURE):
            raise StateFormatError(f"effects/{i}", "an effect is [realm, verb, value, piece, until] (an Event "
                                   "card's) or [realm, verb, value, piece, until, treasure] (a Treasure's)")
        st.effects.append([_realm_ix(rec_e[0], f"effects/{i}")] + list(rec_e[1:]))
    g = data.get("guardians", {})
    st.guardians = {d: [] for d in BOARD.dungeons}
    known = guardian_tiles()
    for sp, tiles in g.items():
        s = _ix(sp, f"guardians/{sp}")
        if KIND[s] != DUNGEON:
            raise StateFormatError(f"guardians/{sp}", "Guardians stand on dungeon entrances")
        for i, t in enumerate(tiles):
            f = f"guardians/{sp}/{i}"
            if not isinstance(t, dict) or t.get("tile") not in known:
                raise StateFormatError(f, "a Guardian is {tile, face_up, dice} with a tile of "
                                          "guardians.yaml")
            dice = t.get("dice", full_strength(t["tile"]))
            if not isinstance(dice, list) or not dice or not all(isinstance(d, int) for d in dice):
                raise StateFormatError(f + "/dice", "the attack dice left, a non-empty list of faces")
            st.guardians[s].append([t["tile"], int(bool(t.get("face_up", False)))] + dice)
    pile = data.get("guardian_pile", st.guardian_pile)
    if not isinstance(pile, list) or any(p not in known for p in pile):
        raise StateFormatError("guardian_pile", "a list of tiles of guardians.yaml")
    st.guardian_pile = sorted(pile)
    st.dealing_guardians = [_ix(sp, "dealing_guardians") for sp in data.get("dealing_guardians", [])]
    deck = data.get("treasure_deck", [])
    if not isinstance(deck, list) or any(c not in treasure_cards() for c in deck):
        raise StateFormatError("treasure_deck", "a list of cards of treasures.yaml")
    st.stats.update(read_counters(data, tuple(st.stats)))
    w = data.get("winners")
    st.winners = list(w) if w is not None else None
    st.end_reason = str(data.get("end_reason", ""))
    if st.phase == "over" and st.winners is None:
        raise StateFormatError("winners", "a finished game names its winners")
    if st.phase == "draw" and not fx.draw_outcomes(st):
        start_move(st)
    if st.phase == "deal" and not (st.dealing or st.dealing_guardians):
        raise StateFormatError("dealing", "the set-up phase 'deal' needs realms or entrances still to deal")
    return st

"""The terminal game of ``conquest play``: a new or resumed game, the menu of legal actions a person picks from,
what the people at the terminal may read of the dice and the computer's moves, and the game's end."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import typer

from conquest.cli_common import _board, _seats, fail, out, variant_options
from conquest.core.errors import ConquestError
from conquest.core.game import Action, State
from conquest.core.notation import is_digits

MENU_WHOLE = 24
"""Up to this many legal actions are listed whole; more are shown grouped by their first word."""
PAGE = 20
"""Actions per page of a listed group ('more' shows the next page)."""


def _prompt(text: str) -> str | None:
    out.print(text, end="", markup=False)
    line = sys.stdin.readline()
    if line == "":
        return None
    return line.strip()


class _Menu:
    """The legal actions for a person: listed whole when few; otherwise grouped by the first word of their
    notation with counts, a group listed a page at a time. Numbers always index the whole legal list."""

    def __init__(self, rs: Any, state: Any, legal: list[Any]) -> None:
        self.rs, self.state, self.legal = rs, state, legal
        self.texts = [rs.format_action(a) for a in legal]
        self.groups: dict[str, list[int]] = {}
        for i, t in enumerate(self.texts):
            self.groups.setdefault(t.split()[0] if t.split() else t, []).append(i)
        self.pending: list[int] = []

    def line(self, i: int) -> str:
        text = self.texts[i]
        desc = self.rs.describe_action(self.state, self.legal[i])
        if not desc or desc == text:
            return f"  {i + 1:>3}. {text}"
        if text in desc:
            return f"  {i + 1:>3}. {desc}"
        return f"  {i + 1:>3}. {text:<24} {desc}"

    def show(self) -> None:
        if len(self.legal) <= MENU_WHOLE:
            for i in range(len(self.legal)):
                out.print(self.line(i), markup=False)
            return
        counts = ", ".join(f"{w} ({len(ix)})" for w, ix in self.groups.items())
        out.print(f"  {len(self.legal)} legal actions: {counts}", markup=False)
        out.print("  Type a word above to list those actions ('more' pages on), 'list' for all of them, or "
                  "type an action.", markup=False)

    def list_some(self, indices: list[int]) -> None:
        self.pending = list(indices)
        self.more()

    def more(self) -> None:
        if not self.pending:
            out.print("  nothing more to list", markup=False)
            return
        page, self.pending = self.pending[:PAGE], self.pending[PAGE:]
        for i in page:
            out.print(self.line(i), markup=False)
        if self.pending:
            out.print(f"  ... {len(self.pending)} more: type 'more'", markup=False)

    def group(self, word: str) -> list[int] | None:
        """The actions of a group typed alone, unless that word is itself the one action of its group."""
        ix = self.groups.get(word.lower())
        if ix is None or (len(ix) == 1 and self.texts[ix[0]] == word.lower()):
            return None
        return ix


def _seat_agents(seat_names: list[str]) -> dict[int, Any]:
    from conquest.agents import HUMAN, get_agent
    return {i: get_agent(s) for i, s in enumerate(seat_names) if s != HUMAN}


def _told(state: State, action: Action, people: list[int]) -> str:
    """An action of the dice or of the computer as the people at this terminal may read it: the notation, or
    "(hidden)" when it names what one of their seats cannot see (a card drawn into another hand, a face-down
    tile). The same rule as the web app's log."""
    from conquest.web.visibility import action_visibility, hidden_parts
    after = state.apply_unchecked(action)
    hidden_from, _ = action_visibility(state, action, after, hidden_parts(state), hidden_parts(after))
    if any(s in hidden_from for s in people):
        return "(hidden)"
    return state.ruleset.format_action(action)


class _Game:
    """A terminal game under way: its ruleset, record, position, seat names and seed (of the dice and the agents),
    and where its record is saved."""

    def __init__(self, rs: Any, record: Any, state: State, seed: int, save: Path | None) -> None:
        self.rs, self.record, self.state, self.seed, self.save = rs, record, state, seed, save
        self.names: list[str] = rs.seat_names(state.players, state.options)

    def write_record(self) -> None:
        res = self.state.result()
        self.record.result = list(res) if res is not None else None
        self.record.scores = list(self.state.scores())
        if self.save:
            try:
                self.record.save(self.save)
            except OSError as e:
                fail(f"cannot write {self.save}: {e.strerror}")

    def finish(self, note: str | None = None) -> None:
        if note:
            out.print(note, markup=False)
        self.write_record()
        if self.save:
            out.print(f"record saved to {self.save}" + ("" if self.state.to_move is None else
                                                        f" (continue with: conquest play --resume {self.save})"),
                      markup=False)


def _resumed_game(resume: Path, ruleset: str | None, seats: str | None, seed: int | None,
                  save: Path | None) -> _Game:
    """The game of the record ``resume``, replayed to its last step; saved back there unless ``save``."""
    import conquest.agents  # noqa: F401  (registers the built-in agents)
    from conquest.agents import AGENTS, HUMAN, seat_list
    from conquest.core.records import Record, replay as run_replay
    from conquest.core.registry import get_ruleset

    record = Record.load(resume)
    rs = get_ruleset(record.ruleset)
    if ruleset is not None and ruleset != rs.id:
        fail(f"{resume} is a {rs.id} game, not {ruleset}")
    try:
        state = run_replay(record, verify=False)
    except ConquestError as e:
        fail(f"{resume}: {e}")
    # the web app's records name people by their names: those seats are people here too
    seat_names = (_seats(seats) if seats else
                  [s if s in AGENTS else HUMAN for s in record.seats])
    record.seats = seat_list(seat_names, state.players, rs.min_players, rs.max_players)
    return _Game(rs, record, state, record.seed if seed is None else seed, save or resume)


def _new_game(ruleset: str, players: int | None, option: list[str], seed: int | None, start_state: Path | None,
              seats: str | None, save: Path | None, variant: Path | None = None) -> _Game:
    """A new game of ``ruleset`` (from the position ``start_state`` if given), with its empty record."""
    from conquest.agents import seat_list
    from conquest.core.jsondoc import read_json_file
    from conquest.core.records import Record
    from conquest.core.registry import get_ruleset

    rs = get_ruleset(ruleset)
    opts = variant_options(rs.id, variant, option)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    state = rs.new_game(players, opts, seed)
    start_doc = None
    if start_state is not None:
        start_doc = read_json_file(start_state, "state")
        state = rs.state_from_json(start_doc)
    seat_names = (_seats(seats) if seats else ["human"] + ["greedy"] * (state.players - 1))
    seat_names = seat_list(seat_names, state.players, rs.min_players, rs.max_players)
    record = Record(ruleset=rs.id, rules_version=rs.rules_version, players=state.players,
                    options=dict(state.options), seats=seat_names, seed=seed, start=start_doc)
    return _Game(rs, record, state, seed, save)


def _greet(game: _Game, resumed: bool) -> None:
    """The game's first lines: its title, seed and seats, its variant (if any), the step a resumed game is at."""
    from conquest.core.variants import variant_label
    names, seats = game.names, game.record.seats
    out.print(f"{game.rs.title} — seed {game.seed} — " + ", ".join(f"{names[i]}: {s}" for i, s in enumerate(seats)),
              markup=False)
    if variant_label(game.state.options):
        out.print(f"variant: {variant_label(game.state.options)}", markup=False)
    if resumed:
        out.print(f"resumed after step {len(game.record.actions)}", markup=False)


def _human_turn(game: _Game, seat: int, history: list[tuple[State, int | None]]) -> Action | None:
    """Ask the person at ``seat`` until they give a legal action (returned) or take back their last step
    (``None``: the game's position and record are put back). Ends the game on 'quit' or the end of input."""
    rs, state, names = game.rs, game.state, game.names
    legal = list(state.legal_actions())
    menu = _Menu(rs, state, legal)
    out.print(f"\n{names[seat]} to move. Legal actions:", markup=False)
    menu.show()
    while True:
        line = _prompt(f"{names[seat]}> ")
        if line is None:
            game.finish("input ended before the game did")
            raise typer.Exit(1)
        if not line:
            continue
        if line in ("quit", "exit"):
            game.finish("game abandoned")
            raise typer.Exit(0)
        if line == "board":
            out.print(_board(rs.render_text(state, seat)))
            continue
        if line == "help":
            out.print("commands: an action in notation, the number of a listed action, the first "
                      "word of actions to list them, more (the next page), list (every action), "
                      "board, undo, quit", markup=False)
            continue
        if line == "more":
            menu.more()
            continue
        if line == "list":
            menu.list_some(list(range(len(legal))))
            continue
        if line == "undo":
            # only your own steps since the last die roll or other seat's action can be taken back
            if history and history[-1][1] == seat:
                game.state = history.pop()[0]
                game.record.actions.pop()
                out.print("  taken back", markup=False)
                return None
            out.print("  nothing of yours to take back (a die roll or another seat acted since)",
                      markup=False)
            continue
        group = menu.group(line)
        if group is not None:
            menu.list_some(group)
            continue
        try:
            if is_digits(line):
                k = int(line)
                if not 1 <= k <= len(legal):
                    raise ConquestError(f"choose a number from 1 to {len(legal)}")
                return legal[k - 1]
            return state.check(line)
        except ConquestError as e:
            out.print(f"  refused: {e}", markup=False)


def _game_over(game: _Game) -> None:
    """The final board, the scores and the winners; the record written a last time."""
    state, names = game.state, game.names
    out.print("", markup=False)
    out.print(_board(game.rs.render_text(state, None)))
    res = state.result() or ()
    scores = state.scores()
    best = max(res) if res else 0
    winners = [names[i] for i, r in enumerate(res) if r == best]
    out.print("Game over: " + ", ".join(f"{names[i]} {scores[i]:g}" for i in range(state.players))
              + (f" — {winners[0]} wins" if len(winners) == 1 else " — shared: " + ", ".join(winners)),
              markup=False)
    game.finish()

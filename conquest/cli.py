"""The ``conquest`` command. Thin: parses arguments and calls the layers below."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from conquest import cli_analysis, cli_dev
from conquest.cli_common import PLAYERS_HELP, VARIANT_HELP, _board, _seats, err, fail, out, variant_options
from conquest.cli_play import _game_over, _greet, _human_turn, _new_game, _resumed_game, _seat_agents, _told
from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, Action, State
from conquest.core.options import parse_option_pairs

app = typer.Typer(no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="Conquest: territory-conquest board games played exactly by their rules. "
                       "Seats are numbered from 1 everywhere on the command line (Player 1, Player 2, ...).")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version
        try:
            v = version("conquest")
        except PackageNotFoundError:  # run from a source tree without installing
            v = "unknown"
        out.print(f"conquest {v}", markup=False)
        raise typer.Exit(0)


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and exit")) -> None:
    """Conquest: territory-conquest board games played exactly by their rules. Seats are numbered from 1
    everywhere on the command line (Player 1, Player 2, ...)."""


@app.command()
def rulesets() -> None:
    """List the rulesets: id, title, players."""
    from conquest.core.registry import rulesets as all_rulesets
    for rs in all_rulesets().values():
        out.print(f"{rs.id:<11} {rs.title}  ({_players_span(rs)} players)", markup=False)


def _players_span(rs: Any) -> str:
    return f"{rs.min_players}" if rs.min_players == rs.max_players else f"{rs.min_players}-{rs.max_players}"


@app.command()
def info(ruleset: str = typer.Argument(..., help="ruleset id"),
         terms: bool = typer.Option(False, "--terms", help="also list the rules help: races, powers, cards, "
                                    "pieces, action verbs (what the web app shows as tooltips)")) -> None:
    """Show a ruleset's options with their defaults and help."""
    from conquest.core.registry import get_ruleset
    rs = get_ruleset(ruleset)
    out.print(f"{rs.id}: {rs.title} (rules {rs.rules_version}), {_players_span(rs)} players",
              markup=False)
    if rs.summary:
        out.print(rs.summary, markup=False)
    import shutil
    import textwrap
    width = max(60, shutil.get_terminal_size((100, 24)).columns)
    out.print("options (give them as --option NAME=VALUE):", markup=False)
    for o in rs.options().describe():
        if o["type"] == "bool":
            choices = "true, false"
        else:
            choices = ", ".join(_shown(c) for c in o.get("choices", [])) or (
                f"{o.get('minimum', '')}..{o.get('maximum', '')}" if "minimum" in o else "")
        out.print(f"  {o['name']} = {_shown(o['default'])}" + (f"   (choices: {choices})" if choices else ""),
                  markup=False)
        out.print(textwrap.fill(o["help"], width=width, initial_indent="      ", subsequent_indent="      "),
                  markup=False)
    if terms:
        by_kind: dict[str, list[dict[str, str]]] = {}
        for t in rs.help_terms().values():
            by_kind.setdefault(t["kind"], []).append(t)
        if not by_kind:
            out.print("rules help: none for this ruleset", markup=False)
        for kind, items in by_kind.items():
            out.print(f"{kind}s:", markup=False)
            for t in items:
                out.print(textwrap.fill(f"{t['name']}: {t['text']}", width=width, initial_indent="  ",
                                        subsequent_indent="      "), markup=False)


def _shown(value: Any) -> str:
    """An option value as it is typed on the command line (booleans as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_writable(path: Path) -> None:
    """Fail now, before any game is played, when a record cannot be written at ``path``."""
    if path.is_dir():
        fail(f"cannot write {path}: it is a folder")
    if not path.parent.is_dir():
        fail(f"cannot write {path}: the folder {path.parent} does not exist")
    import os
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(f"cannot write {path}: permission denied")


@app.command()
def play(ruleset: str | None = typer.Argument(None, help="ruleset id (see `conquest rulesets`); not needed "
                                                            "with --resume"),
         players: int | None = typer.Option(None, "--players", "-p", help=PLAYERS_HELP),
         seats: str | None = typer.Option(None, "--seats", help="comma-separated, one per seat (Player 1 "
                                             "first): human or an agent spec such as random, greedy, "
                                             "mcts:iterations=800, ismcts:time=1.0, or a level easy, normal, hard "
                                             "(default: human, then greedy; one name: every seat)"),
         seed: int | None = typer.Option(None, "--seed", help="seed for the dice and the agents (default: "
                                                                 "random); the same seed replays the same game"),
         option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value (repeatable)"),
         variant: Path | None = typer.Option(None, "--variant", help=VARIANT_HELP),
         save: Path | None = typer.Option(None, "--save", help="write the game record (JSON) here; kept up "
                                                                  "to date while you play and on Ctrl+C"),
         start_state: Path | None = typer.Option(None, "--state", help="start from this position "
                                                    "(conquest-state/1 JSON, e.g. a scenario's set-up)"),
         resume: Path | None = typer.Option(None, "--resume", help="continue the game of this record "
                                               "(saved by --save or downloaded from the web app); it is saved "
                                               "back there unless --save says otherwise")) -> None:
    """Play in the terminal: the board as text, the legal actions numbered; type notation or a number."""
    from conquest.agents import decide
    from conquest.analysis.limits import check_seed
    from conquest.analysis.runner import sample_chance

    if seed is not None:
        check_seed(seed)
    if resume is not None:
        if start_state is not None or option or players is not None or variant is not None:
            fail("--resume continues a recorded game: its ruleset, players, options and start come from the "
                 "record (leave out --state, --option and --players)")
        game = _resumed_game(resume, ruleset, seats, seed, save)
    else:
        if ruleset is None:
            fail("which ruleset? (see `conquest rulesets`), or --resume RECORD")
        game = _new_game(str(ruleset), players, option, seed, start_state, seats, save, variant)
    rs, record, seat_names, names = game.rs, game.record, game.record.seats, game.names
    agents = _seat_agents(seat_names)
    people = [s for s in range(len(seat_names)) if s not in agents]
    if game.save is not None:
        _check_writable(game.save)
    seed = game.seed
    rng = random.Random(f"{seed}:{len(record.actions)}") if resume is not None else random.Random(seed)
    _greet(game, resume is not None)
    out.print("Type an action in notation or its number; 'board' shows the board, 'undo' takes back your "
              "last action, 'help' lists commands, 'quit' ends.", markup=False)
    history: list[tuple[State, int | None]] = []  # (state before, seat) of each step, for undo
    if game.save:
        game.write_record()  # a path that cannot be written fails now, not after the game
    shown_for: int | None = None
    try:
        while (seat := game.state.to_move) is not None:
            state = game.state
            a: Action | None
            if seat == CHANCE:
                a = sample_chance(state, rng)
                out.print(f"  chance: {_told(state, a, people)}", markup=False)
            elif seat in agents:
                a = decide(agents[seat], state, rng)
                out.print(f"  {names[seat]} ({seat_names[seat]}): {_told(state, a, people)}", markup=False)
            else:
                if game.save:
                    game.write_record()
                if shown_for != id(state):
                    out.print("", markup=False)
                    out.print(_board(rs.render_text(state, seat)))
                    shown_for = id(state)
                a = _human_turn(game, seat, history)
            if a is None:  # undo
                shown_for = None
                continue
            record.actions.append(rs.format_action(a))
            history.append((state, seat))
            game.state = state.apply(a)
    except KeyboardInterrupt:
        game.finish("\ninterrupted")
        raise typer.Exit(130) from None
    _game_over(game)


@app.command()
def simulate(ruleset: str = typer.Argument(..., help="ruleset id"),
             games: int = typer.Option(100, "--games", "-n", min=1, help="number of games (at most 100,000)"),
             seats: str = typer.Option("random", "--seats", help="comma-separated agent specs, one per seat "
                                                                 "(Player 1 first; one name: every seat), e.g. "
                                                                 "ismcts:time=1.0,greedy"),
             players: int | None = typer.Option(None, "--players", "-p", help=PLAYERS_HELP),
             seed: int = typer.Option(0, "--seed", help="seed of the first game; game i uses seed+i"),
             jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="parallel processes"),
             option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
             variant: Path | None = typer.Option(None, "--variant", help=VARIANT_HELP),
             records: Path | None = typer.Option(None, "--records", help="save every game record in this "
                                                                            "folder (made if missing)"),
             as_json: bool = typer.Option(False, "--json", help="print the summary as one JSON object")) -> None:
    """Play many games between agents (in parallel with --jobs) and summarise them.

    A progress bar shows in a terminal; when stderr is not a terminal a line is printed every 10%. Ctrl+C
    stops early and prints the summary of the games finished so far."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from conquest.agents import get_agent, seat_list
    from conquest.analysis.limits import check_games, check_seed
    from conquest.analysis.simulate import simulate as run
    from conquest.core.registry import get_ruleset
    check_games(games)
    check_seed(seed, games)
    opts = variant_options(ruleset, variant, option)
    rs = get_ruleset(ruleset)
    probe = rs.new_game(players, opts, seed)  # bad ruleset, players or options: fail before the bar
    for s in seat_list(_seats(seats), probe.players, rs.min_players, rs.max_players):
        get_agent(s, human_ok=False)
    if records is not None:
        if records.exists() and not records.is_dir():
            fail(f"--records {records} is a file: give a folder for the game records")
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            fail(f"cannot make the folder {records}: {e.strerror}")
    done = [0]

    def step(prog: Any, task: Any) -> None:
        done[0] += 1
        if err.is_terminal:
            prog.advance(task)
        elif done[0] * 10 // games != (done[0] - 1) * 10 // games or done[0] == games:
            err.print(f"{ruleset}: {done[0]}/{games} games ({done[0] * 100 // games}%)", markup=False)

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as prog:
        task = prog.add_task(f"{ruleset}", total=games)
        summary = run(ruleset, games, _seats(seats), players=players, options=opts, seed=seed, jobs=jobs,
                      records_dir=str(records) if records else None,
                      progress=lambda o: step(prog, task))
    data = summary.to_json()
    if summary.interrupted:
        err.print(f"interrupted: the summary covers the {summary.games} games finished", markup=False)
    if as_json:
        print(json.dumps(data))
    else:
        _print_summary(data)
    for sample in data["error_samples"]:
        err.print(f"error in {sample}", markup=False)
    if summary.interrupted:
        raise typer.Exit(130)
    if summary.errors:
        raise typer.Exit(1)


def _print_summary(data: dict[str, Any]) -> None:
    out.print(f"{data['ruleset']}: {data['games']} games, {data['finished']} finished, {data['errors']} errors, "
              f"{data['mean_actions']} actions per game, {data['seconds']} s", markup=False)
    table = Table("seat", "agent", "wins", "win rate", "mean score", caption="seats numbered from 1")
    for i, s in enumerate(data["seats"]):
        table.add_row(str(i + 1), s, str(data["wins"][i]), f"{data['win_rates'][i]:.1%}",
                      f"{data['mean_scores'][i]:.2f}")
    out.print(table)
    if data["stats"]:
        st = Table("figure", "mean per game", "total / counts")
        for k, v in data["stats"].items():
            if "counts" in v:
                st.add_row(k, "", ", ".join(f"{name} {n}" for name, n in v["counts"].items()))
            else:
                st.add_row(k, f"{v['mean']:g}", f"{v['total']:g}")
        out.print(st)
    if data["shared_wins"]:
        out.print(f"games won by several seats together (allies or ties): {data['shared_wins']}, "
                  f"of which draws (every seat equal): {data['draws']}", markup=False)


for _command in (cli_analysis.balance, cli_analysis.tournament, cli_dev.new, cli_dev.doctor):
    app.command()(_command)
app.command(cls=cli_analysis.OddsCommand,   # a game's calculator takes its own options (Ruleset.calculator)
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(cli_analysis.odds)


@app.command()
def replay(file: Path = typer.Argument(..., help="a conquest-record/1 JSON file"),
           verify: bool = typer.Option(False, "--verify", help="check every step is legal and the result "
                                                               "matches"),
           steps: bool = typer.Option(False, "--steps", help="print every step"),
           show: int | None = typer.Option(None, "--show", min=0, help="print the board after step N (0: "
                                                                          "the start)")) -> None:
    """Replay a game record."""
    from conquest.core.records import Record, replay as run_replay
    from conquest.core.registry import get_ruleset
    record = Record.load(file)
    rs = get_ruleset(record.ruleset)
    if show is not None and show > len(record.actions):
        fail(f"--show {show}: the record has {len(record.actions)} steps")
    if steps or show is not None:
        state = record.new_state()
        if show == 0:
            out.print(_board(rs.render_text(state, None)))
        for i, a in enumerate(record.actions, start=1):
            try:
                state = state.apply(a)
            except ConquestError as e:
                fail(f"step {i} ({a!r}): {e}")
            if steps:
                out.print(f"{i:>5}. {a}", markup=False)
            if show == i:
                out.print(f"after step {i} ({a}):", markup=False)
                out.print(_board(rs.render_text(state, None)))
                if not steps and not verify:
                    return
    state = run_replay(record, verify=verify)
    res = state.result()
    scores = state.scores()
    status = "verified" if verify else "replayed"
    out.print(f"{status}: {rs.id}, {len(record.actions)} steps, "
              + (f"result {list(res)}, scores {list(scores)}" if res is not None else "game not finished"),
              markup=False)


@app.command()
def check(paths: list[str] = typer.Argument(..., help="scenario files or folders"),
          verbose: bool = typer.Option(False, "--verbose", "-v", help="list every file with its result")) -> None:
    """Run scenario files (YAML); exit non-zero naming each failed expectation."""
    from conquest.core.scenarios import run_file, scenario_files
    files = scenario_files(paths)
    if not files:
        fail("no scenario files found")
    failed = 0
    for f in files:
        r = run_file(f)
        if r.ok:
            if verbose:
                out.print(f"ok   {f}", markup=False)
            continue
        failed += 1
        for msg in r.failures:
            err.print(f"FAIL {f}: {msg}", markup=False)
    out.print(f"{len(files) - failed} passed, {failed} failed", markup=False)
    if failed:
        raise typer.Exit(1)


@app.command()
def bench(ruleset: str = typer.Argument(..., help="ruleset id"),
          seconds: float = typer.Option(5.0, "--seconds", "-t", min=0.1, max=3600,
                                        help="CPU seconds to run (at most an hour)"),
          players: int | None = typer.Option(None, "--players", "-p", help=PLAYERS_HELP),
          option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
          as_json: bool = typer.Option(False, "--json", help="print the figures as one JSON object"),
          rl: bool = typer.Option(False, "--rl", help="also the PettingZoo environment's steps per second "
                                                      "(random masked actions; needs the rl extra)")) -> None:
    """Random-playout throughput on one core, in CPU time (the engine's own speed on a shared machine)."""
    from conquest.analysis.simulate import bench as run
    if rl:
        try:
            from conquest.rl.bench import bench_both as run  # type: ignore[assignment]
        except ImportError as e:
            fail(f"--rl needs the rl extra (pip install 'conquest[rl]'): {e}")
    data = run(ruleset, seconds, players=players, options=parse_option_pairs(option))
    if as_json:
        print(json.dumps(data))
        return
    out.print(f"{data['ruleset']}: {data['actions_per_second']:,.0f} actions/s, "
              f"{data['games_per_second']:,.2f} games/s ({data['games']} games, "
              f"{data['mean_actions_per_game']} actions each, {data['seconds']} CPU s)", markup=False)
    if rl:
        envb = data["env"]
        out.print(f"{data['ruleset']} environment: {envb['env_steps_per_second']:,.0f} steps/s "
                  f"({data['env_steps_vs_engine_actions']:.0%} of the engine's actions per CPU second; "
                  f"{envb['env_steps_per_engine_action']} steps per engine action; the engine runs at "
                  f"{data['engine_actions_in_env_vs_engine']:.0%} of its own speed inside, "
                  f"{data['env_vs_engine_on_the_same_games']:.0%} of the speed it replays the same games at; "
                  f"observation of "
                  f"{envb['observation_size']} numbers, {envb['action_space']} tokens)", markup=False)
        out.print(f"{data['ruleset']} ceiling: PettingZoo's API alone costs {data['api_floor_us_per_step']} µs a "
                  f"step (an environment that does nothing), so no environment of it passes "
                  f"{data['ratio_ceiling']:.0%} of the engine here", markup=False)


@app.command()
def serve(host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
          port: int = typer.Option(8000, "--port", help="port to listen on"),
          db: str | None = typer.Option(None, "--db", help="database URL or SQLite file (default: CONQUEST_DB "
                                                              "or SQLite in the user data directory)"),
          agents: str = typer.Option("random,greedy", "--agents",
                                     help="computer seats offered besides the levels (easy, normal, hard): "
                                          "comma-separated agent specs, each a seat kind ('' for none)"),
          policies: Path | None = typer.Option(None, "--policies",
                                                  help="folder of trained policies (NAME.json + NAME.safetensors), "
                                                       "offered as seat kinds policy:NAME"),
          decision_seconds: float = typer.Option(5.0, "--decision-seconds",
                                                 help="seconds a computer seat may think per decision, at most"),
          turn_seconds: float = typer.Option(10.0, "--turn-seconds",
                                             help="seconds a computer seat may think per whole turn, at most"),
          thinking_games: int = typer.Option(2, "--thinking-games",
                                             help="games of one client (IP address) whose computer seats may "
                                                  "think at once"),
          smtp_host: str | None = typer.Option(None, "--smtp-host",
                                               help="SMTP server for the turn mails (default: CONQUEST_SMTP_HOST; "
                                                    "none: no mail)"),
          smtp_port: int = typer.Option(587, "--smtp-port", help="its port"),
          smtp_from: str = typer.Option("conquest@localhost", "--smtp-from", help="the sender of the turn mails"),
          smtp_starttls: bool = typer.Option(True, "--smtp-starttls/--no-smtp-starttls",
                                             help="upgrade the SMTP connection with STARTTLS"),
          smtp_user: str | None = typer.Option(None, "--smtp-user",
                                               help="SMTP login (its password from CONQUEST_SMTP_PASSWORD)"),
          public_url: str | None = typer.Option(None, "--public-url",
                                                help="the address players reach this server at, for the links in "
                                                     "mails (default: CONQUEST_PUBLIC_URL)")) -> None:
    """Serve the web app: play in the browser."""
    try:
        from conquest.web.seats import SeatKinds
        from conquest.web.server import serve as run_server
    except ImportError as e:
        fail(f"the web app is not available: {e}")
    import math
    for name, value in (("--decision-seconds", decision_seconds), ("--turn-seconds", turn_seconds)):
        if not (math.isfinite(value) and 0 < value <= 600):
            fail(f"{name} must be more than 0 and at most 600 seconds, not {value:g}")
    if not 1 <= thinking_games <= 1000:
        fail(f"--thinking-games must be from 1 to 1000, not {thinking_games}")
    app_options: dict[str, Any] = {"agents": _seats(agents) if agents.strip() else [],
                                   "policies": str(policies) if policies is not None else None,
                                   "think_limit": decision_seconds, "turn_limit": turn_seconds,
                                   "thinking_per_client": thinking_games}
    problem = _mail_problem(app_options, smtp_host, smtp_port, smtp_from, smtp_starttls, smtp_user, public_url)
    if problem:
        fail(problem)
    try:  # the seat kinds checked before anything is served (a bad spec or policy is one line)
        offered = SeatKinds(app_options["agents"], app_options["policies"], decision_seconds, turn_seconds)
    except ConquestError as e:
        fail(str(e))
    if policies is not None and not offered.policies:
        err.print(f"warning: no policy found in {policies} (each is NAME.json with NAME.safetensors)", markup=False)
    problem = _bind_problem(host, port)
    if problem:
        fail(f"cannot serve on {host}:{port}: {problem}")
    run_server(host, port, _database(db), app_options=app_options)


def _mail_problem(app_options: dict[str, Any], host: str | None, port: int, sender: str, starttls: bool,
                  user: str | None, public_url: str | None) -> str | None:
    """The turn mails' settings (``conquest.web.notify``) put in ``app_options``; what is wrong with them (one line)."""
    import os

    from conquest.web.notify import SmtpSettings, public_url_problem
    try:
        smtp = (SmtpSettings(host=host, port=port, sender=sender, starttls=starttls, user=user,
                             password=os.environ.get("CONQUEST_SMTP_PASSWORD") or None) if host
                else SmtpSettings.from_env(os.environ))
    except ValueError as e:
        return str(e)
    url = public_url or os.environ.get("CONQUEST_PUBLIC_URL") or None
    if smtp is not None:
        bad = smtp.problem()
        if bad:
            return bad
        if url is None:
            return "turn mails need the server's public address for their links: --public-url https://HOST"
        app_options["smtp"] = smtp.public()  # the password is read from the environment by each process
    if url is not None:
        bad = public_url_problem(url)
        if bad:
            return bad
        app_options["public_url"] = url
    return None


policy_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                         help="Trained policies: convert an sb3-contrib model to the safe format.")
app.add_typer(policy_app, name="policy")


@policy_app.command("convert")
def policy_convert(model: Path = typer.Argument(..., metavar="MODEL.zip",
                                                help="the MaskablePPO .zip saved by sb3-contrib"),
                   target: Path = typer.Argument(..., metavar="OUT", help="where to write OUT.json and "
                                                                         "OUT.safetensors"),
                   ruleset: str | None = typer.Option(None, "--ruleset", help="the ruleset it was trained on "
                                                         "(default: the first registered)"),
                   players: int | None = typer.Option(None, "--players", "-p", help=PLAYERS_HELP),
                   option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value it "
                                                                             "was trained with"),
                   text: str | None = typer.Option(None, "--help-text", help="one line said of the policy "
                                                                                  "in the web lobby")) -> None:
    """Convert a MaskablePPO model (sb3-contrib .zip) into a policy: OUT.json (a description) and
    OUT.safetensors (weights only), what `policy:path=OUT` and `conquest serve --policies` read.

    Only convert a model you trained or whose origin you trust: the zip's tensors are in torch's pickle-based
    format. They are read with torch's weights-only loader, and MaskablePPO.load (which unpickles the rest of
    the zip) is never called, but a pickle is a pickle. The policy written holds no pickle."""
    from conquest.core.registry import default_ruleset_id, get_ruleset
    from conquest.rl.convert import convert_sb3
    rs = get_ruleset(ruleset or default_ruleset_id())
    try:
        desc, weights = convert_sb3(str(model), str(target), rs.id, players, parse_option_pairs(option), text)
    except OSError as e:
        fail(f"cannot convert {model}: {e.strerror or e}")
    out.print(f"wrote {desc} and {weights}: play it with --seats policy:path={desc}", markup=False)


def _database(db: str | None) -> str:
    """The database URL for ``db``, checked (opened, tables made) before anything is served."""
    from conquest.web.storage import database_problem, normalise_url
    try:
        url = normalise_url(db)
    except OSError as e:
        fail(f"cannot use the database {db}: {e.strerror or e}")
    problem = database_problem(url)
    if problem:
        fail(problem)
    return url


def _bind_problem(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be served on (None when it can)."""
    import socket
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
            # as uvicorn binds: connections of a stopped server in TIME_WAIT do not hold the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except (OSError, OverflowError) as e:
        return getattr(e, "strerror", None) or str(e)
    return None


def _free_port(host: str, first: int, tries: int = 50) -> int:
    for port in range(first, first + tries):
        problem = _bind_problem(host, port)
        if problem is None:
            return port
        if "in use" not in problem:
            fail(f"cannot serve on {host}:{port}: {problem}")
    fail(f"no free port from {first} to {first + tries - 1} on {host}")
    return first


@app.command()
def start(ruleset: str | None = typer.Argument(None, help="ruleset of the terminal game (default: the first "
                                                             "registered, as `conquest rulesets` lists them)"),
          seats: str = typer.Option("human,greedy", "--seats", help="seats of the terminal game"),
          host: str = typer.Option("127.0.0.1", "--host", help="address of the web app"),
          port: int = typer.Option(8000, "--port", help="first port to try for the web app"),
          db: str | None = typer.Option(None, "--db", help="database URL for the web app"),
          web: bool = typer.Option(True, "--web/--no-web", help="also serve the web app"),
          seed: int | None = typer.Option(None, "--seed", help="seed for the dice and the agents of the "
                                                                  "terminal game (default: random)"),
          variant: Path | None = typer.Option(None, "--variant", help=VARIANT_HELP)) -> None:
    """What `make run` does: serve the web app in the background and play a game in this terminal.

    When the terminal game ends and this is an interactive terminal, the web app keeps running until Ctrl+C;
    with piped input the command ends with the game."""
    import threading

    from conquest.analysis.limits import check_seed
    from conquest.core.registry import default_ruleset_id, get_ruleset
    if seed is not None:
        check_seed(seed)
    ruleset = get_ruleset(ruleset).id if ruleset else default_ruleset_id()
    variant_options(ruleset, variant, [])  # a bad variant file: one line, before the web app starts
    server = None
    thread = None
    if web:
        try:
            import uvicorn

            from conquest.web.server import create_app
        except ImportError as e:
            fail(f"the web app is not available: {e}")
        url = _database(db)
        port = _free_port(host, port)
        server = uvicorn.Server(uvicorn.Config(create_app(url, agent_delay=0.4), host=host, port=port,
                                               log_level="warning"))
        thread = threading.Thread(target=server.run, name="web", daemon=True)
        thread.start()
        shown = host if ":" not in host else f"[{host}]"
        out.print(f"The web app is at http://{shown}:{port}/ — open it in a browser, or play here.", markup=False)
    code = 0
    try:
        play(ruleset=ruleset, players=None, seats=seats, seed=seed, option=[], variant=variant, save=None,
             start_state=None, resume=None)
    except typer.Exit as e:
        code = e.exit_code or 0
    if server is not None and thread is not None:
        if sys.stdin.isatty():
            out.print(f"The web app is still running at http://{host}:{port}/ (Ctrl+C stops it).", markup=False)
            try:
                thread.join()
            except KeyboardInterrupt:
                pass
        server.should_exit = True
        thread.join(timeout=5)
    raise typer.Exit(code)


def main() -> None:
    try:
        code = app(standalone_mode=False)  # returns the exit code of typer.Exit instead of raising it
        sys.exit(code if isinstance(code, int) else 0)
    except ConquestError as e:
        err.print(f"error: {e}", markup=False)
        sys.exit(2)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except typer.Abort:
        err.print("aborted", markup=False)
        sys.exit(1)
    except Exception as e:  # click usage errors and the like: one line, never a traceback
        if hasattr(e, "format_message") and hasattr(e, "exit_code"):  # click / typer usage errors
            err.print(f"error: {e.format_message()}", markup=False)
            sys.exit(e.exit_code)
        if isinstance(e, (KeyboardInterrupt, BrokenPipeError)):
            sys.exit(130)
        err.print(f"error: {type(e).__name__}: {e}", markup=False)
        sys.exit(1)


if __name__ == "__main__":
    main()

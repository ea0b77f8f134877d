"""The generic encoding built from the view (conquest/core/view_encoding.py), what a game without an encoding of
its own gets from ``Ruleset.rl_encoding``: forced on each registered game (``encoding="view"``), its environments
pass PettingZoo's ``api_test`` and ``seed_test`` and Gymnasium's ``check_env``, its mask covers every legal action,
its layout is the same in another process, and it writes the seat's view only. And the generic layers name no
game: ``conquest/rl`` and ``conquest/openspiel`` import no ruleset package and hold no ruleset id."""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import conquest  # noqa: E402
import conquest.rl as rl  # noqa: E402
from conquest.core.chance import sample_chance  # noqa: E402
from conquest.core.errors import ConquestError  # noqa: E402
from conquest.core.game import CHANCE, Ruleset  # noqa: E402
from conquest.core.registry import get_ruleset, rulesets  # noqa: E402
from conquest.core.view_encoding import SPARE, ViewEncoding  # noqa: E402
from conquest.rl.codec import ActionCodec, Decision, EncodingError  # noqa: E402
from conquest.rl.match import Match  # noqa: E402

RULESETS = sorted(rulesets())
CUT = 300
"""Decisions after which the library checks' games are cut (a truncation is part of both APIs)."""


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")
    warnings.filterwarnings("ignore", module="gymnasium")


def test_a_ruleset_without_an_encoding_gets_the_one_built_from_its_view() -> None:
    """The default of the hook, called on a ruleset as if it had not overridden it."""
    rs = get_ruleset(RULESETS[0])
    enc = Ruleset.rl_encoding(rs, rs.default_players(), rs.options().resolve({}))
    assert isinstance(enc, ViewEncoding) and enc.ruleset == rs.id and enc.spare == SPARE


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_test_with_the_generic_encoding(ruleset: str) -> None:
    env = rl.env(ruleset, max_decisions=CUT, encoding="view")
    assert isinstance(env.match.encoding, ViewEncoding)
    api_test(env, num_cycles=200)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_seed_test_with_the_generic_encoding(ruleset: str) -> None:
    seed_test(lambda: rl.env(ruleset, max_decisions=100, encoding="view"), num_cycles=40)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_gymnasium_check_env_with_the_generic_encoding(ruleset: str) -> None:
    env = rl.gym_env(ruleset, opponents="random", max_decisions=CUT, encoding="view")
    check_env(env, skip_render_check=True)
    assert env.observation_space.shape == (env.match.obs_size,)


def _walk(decision: Decision, tokens: tuple[int, ...]) -> object:
    """Feed an action's tokens to a decision as an agent would, each checked against the mask."""
    done = decision.advance_forced()
    k = len(decision.prefix)
    while done is None:
        opts = decision.options()
        if k < len(tokens):
            assert tokens[k] in opts
            done = decision.choose(tokens[k])
            k += 1
        else:
            assert 0 in opts  # END
            done = decision.choose(0)
        if done is None:
            done = decision.advance_forced()
            k = len(decision.prefix)
    return done


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_mask_covers_every_legal_action_beyond_the_sample(ruleset: str) -> None:
    """Games the sample never played (other seeds, longer): every legal action round-trips through its tokens
    and is reached through the masks; a string the sample missed takes a spare token; the observation keeps its
    size."""
    rs = get_ruleset(ruleset)
    match = Match(ruleset, encoding="view")
    codec = match.codec
    listed = set(match.encoding.strings())
    checked = 0
    for seed in (101, 102):
        rng = random.Random(seed)
        st = rs.new_game(None, None, seed=seed)
        for _ in range(700):
            if st.to_move is None:
                break
            if st.to_move == CHANCE:
                st = st.apply_unchecked(sample_chance(st, rng))
                continue
            legal = list(st.legal_actions())
            for a in legal:
                tokens = codec.encode(a)
                assert codec.decode(tokens) == a
                assert _walk(Decision(codec, legal), tokens) == a
                checked += 1
            for s in range(st.players):
                assert len(match.encoding.features(st.view(s), s)) == match.board_size
            st = st.apply_unchecked(legal[rng.randrange(len(legal))])
    assert checked > 100
    learned = [v for v in codec.vocabulary[codec._spare0:] if v is not None]
    assert not set(learned) & listed  # a spare place only ever holds a string the list missed
    assert codec.size == match.codec.size  # the action space never grows


def test_spare_tokens_are_given_by_hash_and_run_out_with_a_clear_error() -> None:
    codec = ActionCodec(["move"], spare=3, signed=True)
    size = codec.size
    a, b = codec.encode(("move", "north")), codec.encode(("move", "south"))
    assert codec.decode(a) == ("move", "north") and codec.decode(b) == ("move", "south") and a != b
    # the place a string takes comes from its hash: another codec gives it the same one
    assert ActionCodec(["move"], spare=3, signed=True).encode(("move", "south")) == b
    codec.encode(("move", "east"))
    with pytest.raises(EncodingError, match="spare tokens of the encoding are all taken"):
        codec.encode(("move", "west"))
    assert codec.size == size
    with pytest.raises(EncodingError, match="not in the action vocabulary"):
        ActionCodec(["move"]).encode(("move", "north"))


def test_negative_numbers_take_a_sign_token() -> None:
    codec = ActionCodec(["at"], signed=True)
    for n in (-1, -63, -64, -10 ** 8 + 1, 0, 5, 4096):
        assert codec.decode(codec.encode(("at", n))) == ("at", n)
    assert len(codec.encode(("at", -3))) == 3
    with pytest.raises(EncodingError, match="negative number"):
        ActionCodec(["at"]).encode(("at", -3))
    with pytest.raises(EncodingError, match="sign token"):
        codec.decode([codec._str_index["at"], codec._sign])


def test_the_layout_is_the_same_in_another_process() -> None:
    """A trained policy records the observation size and action count: a fresh process learns the same."""
    rid = RULESETS[0]
    m = Match(rid, encoding="view")
    st = m.rs.new_game(None, None, seed=7)
    here = [m.obs_size, m.codec.size, m.encoding.strings(), m.encoding.features(st.view(0), 0)]
    code = ("import json; from conquest.rl.match import Match; m = Match(%r, encoding='view'); "
            "st = m.rs.new_game(None, None, seed=7); "
            "print(json.dumps([m.obs_size, m.codec.size, m.encoding.strings(), m.encoding.features(st.view(0), 0)]))"
            % rid)
    root = str(Path(conquest.__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                         env={"PYTHONPATH": root, "PYTHONHASHSEED": "123"})
    assert json.loads(out.stdout) == json.loads(json.dumps(here))
    fresh = ViewEncoding(m.rs, m.players, m.options)  # not the one kept by for_ruleset
    assert fresh.size == m.encoding.size and fresh.strings() == m.encoding.strings()


def test_the_generic_observation_is_the_seats_view_only() -> None:
    """Another seat's hidden card changes the view of that seat, never this one's (Narby: a card in hand is
    "hidden" in the other seats' views)."""
    rid = "narby"
    if rid not in rulesets():
        pytest.skip("the example game is not registered")
    m = Match(rid, 2, encoding="view")
    m.reset(3)
    rng = random.Random(3)
    for step in range(1000):
        if m.over():
            break
        if step >= 100 and m.state.to_json()["hands"][1] is not None:
            break  # seat 1 holds a card (that it holds one is seen; which one is not)
        opts = sorted(m.decision.options())  # type: ignore[union-attr]
        m.choose(opts[rng.randrange(len(opts))])
    from conquest.rulesets.narby.tables import TABLES as T
    doc = m.state.to_json()
    assert doc["hands"][1] is not None
    used = set(doc["played"]) | {h for h in doc["hands"] if h}
    doc["hands"][1] = next(c for c in T.card_ids if c not in used and c not in ("governor", "sheriff", "mayor"))
    before = [m.observe(0), m.observe(1)]
    m.state = m.rs.state_from_json(doc)
    assert np.array_equal(m.observe(0), before[0])
    assert not np.array_equal(m.observe(1), before[1])


def test_an_unknown_encoding_choice_is_refused() -> None:
    with pytest.raises(ConquestError, match="encoding must be"):
        Match(RULESETS[0], encoding="pixels")


# ---- the generic layers name no game ------------------------------------------------------------------------
GENERIC = ("rl", "openspiel")


def _sources() -> list[Path]:
    root = Path(conquest.__file__).resolve().parent
    return [p for d in GENERIC for p in sorted((root / d).rglob("*.py"))]


def test_the_rl_and_openspiel_layers_name_no_game() -> None:
    """No import of a ruleset's package and no ruleset id as a string (a comparison, a key, an import by name):
    a new game gets its environments from the registry and its hooks alone. Docstrings may cite examples."""
    ids = set(rulesets())
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("conquest.rulesets"):
                found.append(f"{path.name}:{node.lineno} imports {node.module}")
            if isinstance(node, ast.Import):
                found += [f"{path.name}:{node.lineno} imports {a.name}" for a in node.names
                          if a.name.startswith("conquest.rulesets")]
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                named = [r for r in ids if r == node.value or f"rulesets.{r}" in node.value
                         or f"rulesets/{r}" in node.value]
                if named:
                    found.append(f"{path.name}:{node.lineno} names {named[0]!r}")
    assert not found, "the generic layers name a game: " + "; ".join(found)
    assert len(_sources()) >= 8  # the check read the layers

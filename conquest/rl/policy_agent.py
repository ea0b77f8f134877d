"""A trained policy as an agent: ``policy:path=FILE``, and the policy file format.

A policy is two files side by side: ``NAME.json``, a small description (the ruleset, player count and options it
was trained for, the observation size, the action count, the network's layers and activation, a one-line help),
and ``NAME.safetensors``, the network's weights and nothing else (the safetensors format holds named arrays: it
has no way to carry code, unlike a pickle). The network is rebuilt from the description as plain matrix
products (numpy); nothing in either file is ever executed. ``FILE`` may name either file or their common stem.

A MaskablePPO model saved by sb3-contrib (a zip) is **not** read here: its owner converts it once with
``conquest policy convert MODEL.zip OUT`` (``conquest/rl/convert.py``); ``examples/train_kingdom.py`` writes this
format directly.

The agent sees what the environments show a seat (its ``view``, through the ruleset's encoding) and picks an
action token by token, each within the mask, so it only ever plays legal actions. It needs numpy and safetensors
(the ``rl`` extra), imported when a policy is first loaded."""

from __future__ import annotations

import json
import math
import os
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from conquest.agents.base import Agent, Param
from conquest.core.errors import ConquestError
from conquest.core.game import Action, State

if TYPE_CHECKING:  # a type only: the match (numpy and the codec) is imported when a policy first plays
    from conquest.rl.match import Match

FORMAT = "conquest-policy/1"
MAX_DESCRIPTION = 64 * 1024  # bytes of the JSON description
MAX_WEIGHTS = 256 * 1024 * 1024  # bytes of the weights file
MAX_LAYERS = 8
MAX_WIDTH = 4096
MAX_SIZE = 1_000_000  # observation size and action count
ACTIVATIONS = ("tanh", "relu")
SUFFIXES = (".json", ".safetensors")


def policy_paths(path: str) -> tuple[str, str]:
    """(description, weights) of the policy ``path`` names: ``NAME.json``, ``NAME.safetensors`` or ``NAME``."""
    stem = str(path)
    for suffix in SUFFIXES:
        if stem.endswith(suffix):
            stem = stem[:-len(suffix)]
            break
    return stem + ".json", stem + ".safetensors"


@dataclass
class Policy:
    """A policy network rebuilt from its description: ``hidden`` layers (weight, bias) with ``activation``, then
    ``out`` (weight, bias) giving one logit per action token."""

    description: dict[str, Any]
    hidden: list[tuple[Any, Any]]
    out: tuple[Any, Any]
    activation: str

    @property
    def ruleset(self) -> str:
        return str(self.description["ruleset"])

    @property
    def players(self) -> int:
        return int(self.description["players"])

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.description.get("options") or {})

    @property
    def observation_size(self) -> int:
        return int(self.description["observation_size"])

    @property
    def actions(self) -> int:
        return int(self.description["actions"])

    @property
    def help(self) -> str:
        text = self.description.get("help")
        if isinstance(text, str) and text.strip():
            return " ".join(text.split())[:200]
        net = "x".join(str(w) for w in self.description["net"]["hidden"]) or "linear"
        return f"a trained policy for {self.ruleset}, {self.players} players (network {net})"

    def logits(self, obs: Any) -> Any:
        import numpy as np
        x = np.asarray(obs, dtype=np.float32).reshape(-1)
        for w, b in self.hidden:
            x = w @ x + b
            x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        w, b = self.out
        return w @ x + b


def _bad(path: str, why: str) -> ConquestError:
    return ConquestError(f"{path} is not a conquest policy ({why}); a policy is NAME.json and NAME.safetensors "
                         f"(an sb3-contrib .zip must first be converted by its owner: conquest policy convert)")


def _int(d: dict[str, Any], key: str, low: int, high: int, where: str) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise ConquestError(f"{where}: '{key}' must be a whole number from {low} to {high}")
    return v


def check_description(doc: Any, where: str) -> dict[str, Any]:
    """The description ``doc`` checked (every field typed and bounded); ``ConquestError`` naming the first fault."""
    if not isinstance(doc, dict):
        raise ConquestError(f"{where}: the description must be a JSON object")
    if doc.get("format") != FORMAT:
        raise ConquestError(f"{where}: format must be '{FORMAT}'")
    if not isinstance(doc.get("ruleset"), str) or not doc["ruleset"]:
        raise ConquestError(f"{where}: 'ruleset' must be a ruleset id")
    _int(doc, "players", 1, 16, where)
    _int(doc, "observation_size", 1, MAX_SIZE, where)
    _int(doc, "actions", 1, MAX_SIZE, where)
    options = doc.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(k, str) and (v is None or isinstance(v, (str, int, float,
                                                                                                    bool)))
                                                for k, v in options.items()):
        raise ConquestError(f"{where}: 'options' must map option names to values")
    net = doc.get("net")
    if not isinstance(net, dict):
        raise ConquestError(f"{where}: 'net' must be an object {{hidden: [widths], activation}}")
    hidden = net.get("hidden")
    if (not isinstance(hidden, list) or len(hidden) > MAX_LAYERS
            or not all(isinstance(w, int) and not isinstance(w, bool) and 1 <= w <= MAX_WIDTH for w in hidden)):
        raise ConquestError(f"{where}: net.hidden must list at most {MAX_LAYERS} layer widths from 1 to {MAX_WIDTH}")
    if net.get("activation") not in ACTIVATIONS:
        raise ConquestError(f"{where}: net.activation must be one of {', '.join(ACTIVATIONS)}")
    if "help" in doc and not isinstance(doc["help"], str):
        raise ConquestError(f"{where}: 'help' must be text")
    return doc


def weight_names(hidden: list[int]) -> list[str]:
    """The arrays a weights file holds, in order."""
    names = []
    for i in range(len(hidden)):
        names += [f"hidden.{i}.weight", f"hidden.{i}.bias"]
    return names + ["out.weight", "out.bias"]


def read_policy(path: str) -> Policy:
    """The policy ``path`` names, read without executing anything from it (JSON and safetensors only).
    ``ConquestError`` with one line when the files are missing, too large or not a policy."""
    desc_path, weights_path = policy_paths(path)
    for p in (desc_path, weights_path):
        if not os.path.isfile(p):
            raise ConquestError(f"policy file not found: {p} (a policy is NAME.json and NAME.safetensors; an "
                                f"sb3-contrib .zip must first be converted by its owner: conquest policy convert)")
    if os.path.getsize(desc_path) > MAX_DESCRIPTION:
        raise _bad(desc_path, f"the description is over {MAX_DESCRIPTION // 1024} KiB")
    if os.path.getsize(weights_path) > MAX_WEIGHTS:
        raise _bad(weights_path, f"the weights are over {MAX_WEIGHTS // 2 ** 20} MiB")
    try:
        with open(desc_path, "rb") as f:
            doc = json.loads(f.read().decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise _bad(desc_path, "the description is not JSON") from None
    except OSError as e:
        raise ConquestError(f"cannot read {desc_path}: {e.strerror or e}") from None
    try:
        desc = check_description(doc, desc_path)
    except ConquestError as e:
        raise _bad(desc_path, str(e).split(": ", 1)[-1]) from None
    try:
        from safetensors.numpy import load_file
    except ImportError:
        raise ConquestError("a policy agent needs the rl extra (numpy, safetensors): pip install 'conquest[rl]'"
                            ) from None
    try:
        arrays = load_file(weights_path)
    except Exception:  # noqa: BLE001 - a damaged or foreign file (safetensors parses, it never executes)
        raise _bad(weights_path, "the weights are not a safetensors file") from None
    return _policy(desc, arrays, weights_path)


def _policy(desc: dict[str, Any], arrays: dict[str, Any], where: str) -> Policy:
    """The network of ``desc`` from ``arrays`` (names, shapes and values checked)."""
    import numpy as np
    hidden = desc["net"]["hidden"]
    names = weight_names(hidden)
    if sorted(arrays) != sorted(names):
        raise _bad(where, f"the weights must be exactly {', '.join(names)}")
    widths = [desc["observation_size"], *hidden, desc["actions"]]
    layers = []
    for i in range(len(widths) - 1):
        prefix = f"hidden.{i}" if i < len(hidden) else "out"
        w, b = np.asarray(arrays[f"{prefix}.weight"]), np.asarray(arrays[f"{prefix}.bias"])
        if w.shape != (widths[i + 1], widths[i]) or b.shape != (widths[i + 1],):
            raise _bad(where, f"{prefix} has shape {tuple(w.shape)}/{tuple(b.shape)}, the description says "
                              f"{(widths[i + 1], widths[i])}/{(widths[i + 1],)}")
        if w.dtype.kind != "f" or b.dtype.kind != "f":
            raise _bad(where, f"{prefix} is not made of floating-point numbers")
        w, b = w.astype(np.float32), b.astype(np.float32)
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise _bad(where, f"{prefix} holds a NaN or an infinity")
        layers.append((w, b))
    return Policy(desc, layers[:-1], layers[-1], desc["net"]["activation"])


def write_policy(path: str, description: dict[str, Any], arrays: dict[str, Any]) -> tuple[str, str]:
    """Write ``NAME.json`` and ``NAME.safetensors`` (``path`` names either or their stem), after checking that
    they read back as a policy. Returns the two paths."""
    import numpy as np
    from safetensors.numpy import save_file
    desc = check_description({"format": FORMAT, **description}, "the policy")
    desc_path, weights_path = policy_paths(path)
    _policy(desc, {k: np.asarray(v) for k, v in arrays.items()}, weights_path)  # checked before writing
    folder = os.path.dirname(os.path.abspath(desc_path))
    if not os.path.isdir(folder):
        raise ConquestError(f"cannot write the policy: {folder} is not a folder")
    save_file({k: np.ascontiguousarray(v, dtype=np.float32) for k, v in arrays.items()}, weights_path)
    with open(desc_path, "w", encoding="utf-8") as f:
        json.dump(desc, f, indent=2)
        f.write("\n")
    read_policy(desc_path)  # what is written is what is read
    return desc_path, weights_path


_POLICIES: dict[tuple[str, float, float], Policy] = {}


def load_policy(path: str) -> Policy:
    """``read_policy``, once per version of the files."""
    desc_path, weights_path = policy_paths(path)
    try:
        key = (os.path.abspath(desc_path), os.path.getmtime(desc_path), os.path.getmtime(weights_path))
    except OSError:
        return read_policy(path)  # it says what is missing
    if key not in _POLICIES:
        _POLICIES[key] = read_policy(path)
    return _POLICIES[key]


class PolicyAgent(Agent):
    """Plays a trained policy. ``path``: the policy (``NAME.json``/``NAME.safetensors``); ``deterministic``: the
    most likely token (default) or a sample from the policy (with the game's generator). ``policy=`` gives an
    already loaded ``Policy`` instead of a path (the web app's installed policies)."""

    id = "policy"
    honours_deadline = True  # a few matrix products per token: it answers at once
    params = {"path": Param(str, "", "the policy: NAME.json and NAME.safetensors (examples/train_kingdom.py "
                                     "writes one; conquest policy convert makes one from an sb3-contrib zip)"),
              "deterministic": Param(str, "true", "true: the most likely token; false: sample the policy")}

    def __init__(self, path: str | None = None, deterministic: bool | str = True, policy: Policy | None = None,
                 name: str | None = None) -> None:
        if policy is None:
            if not path:
                raise ConquestError("the policy agent needs its file: policy:path=FILE")
            policy = load_policy(str(path))
        self.path = str(path or "")
        self.name = name
        self.deterministic = deterministic not in (False, "false", "0", "no")
        self.policy = policy
        self._matches: dict[Any, Match] = {}

    @property
    def spec(self) -> str:
        if self.name is not None:
            return f"policy:{self.name}"
        return f"policy:path={self.path}" + ("" if self.deterministic else ":deterministic=false")

    def _match(self, state: State) -> Match:
        from conquest.rl.match import Match
        key = (state.ruleset.id, state.players, tuple(sorted(state.options.items())))
        if key not in self._matches:
            m = Match(state.ruleset.id, state.players, state.options)
            want = m.obs_size, m.codec.size
            got = self.policy.observation_size, self.policy.actions
            if got != want or self.policy.ruleset != state.ruleset.id:
                raise ConquestError(f"{self.name or self.path} was trained for {self.policy.ruleset}, observations "
                                    f"of {got[0]} and {got[1]} actions; this {state.ruleset.id} game has {want[0]} "
                                    f"and {want[1]} (another ruleset, player count or options)")
            self._matches[key] = m
        return self._matches[key]

    def choose(self, state: State, rng: random.Random, deadline: float | None = None) -> Action:
        import numpy as np
        m = self._match(state)
        seat = state.to_move
        if seat is None:
            raise ConquestError("the game is over: there is no action to choose")
        d = m.at(state)
        done = d.advance_forced()
        while done is None:
            mask = m.mask().astype(bool)
            logits = np.where(mask, self.policy.logits(m.observe(seat)).astype(np.float64), -math.inf)
            if self.deterministic:
                token = int(np.argmax(logits))
            else:
                probs = np.exp(logits - logits.max())
                token = int(np.searchsorted(np.cumsum(probs), rng.random() * probs.sum()))
                token = min(token, len(probs) - 1)
                if not mask[token]:  # a rounding at the edge of the sum: the last legal token below
                    token = int(np.flatnonzero(mask)[-1])
            done = d.choose(token)
            if done is None:
                done = d.advance_forced()
        return done


def installed_policies(folder: str) -> dict[str, Policy]:
    """The policies of an operator's folder (``conquest serve --policies DIR``), by name: each ``NAME.json`` with
    its ``NAME.safetensors``, NAME made of lower-case letters, digits, ``-`` and ``_`` (at most 24). A file that
    is not a policy is left out, and logged."""
    import re
    if not os.path.isdir(folder):
        raise ConquestError(f"the policies folder {folder} does not exist")
    found: dict[str, Policy] = {}
    problems: list[str] = []
    for entry in sorted(os.listdir(folder)):
        if not entry.endswith(".json"):
            continue
        name = entry[:-len(".json")]
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,23}", name):
            problems.append(f"{entry}: a policy's name is 1 to 24 lower-case letters, digits, '-' and '_'")
            continue
        try:
            found[name] = read_policy(os.path.join(folder, entry))
        except ConquestError as e:
            problems.append(str(e))
    if problems:
        import logging
        for p in problems:
            logging.getLogger("conquest.web").error("policy left out: %s", p)
    return found

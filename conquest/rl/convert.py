"""From sb3-contrib to the policy format of ``conquest/rl/policy_agent.py`` (JSON description + safetensors).

``convert_sb3(MODEL.zip, OUT, ruleset, ...)`` is what ``conquest policy convert`` runs, once, by the owner of a
model. It never calls ``MaskablePPO.load`` (which unpickles the zip's ``data``): it reads ``data`` as JSON (the
entries sb3 pickled stay unread), checks that the model is a MaskablePPO ``MlpPolicy`` with plain-JSON
``policy_kwargs``, and reads the network from ``policy.pth`` with ``torch.load(..., weights_only=True)``.
``policy.pth`` is still torch's pickle-based format: the weights-only loader refuses code, but convert only a
model you trained or whose origin you trust. The result plays through ``policy:path=OUT`` and can be installed
in a server's policies folder; it holds no pickle.

``policy_from_sb3(model, OUT, ...)`` does the same from a model in memory (``examples/train_kingdom.py``)."""

from __future__ import annotations

import io
import json
import re
import warnings
import zipfile
from typing import Any

from conquest.core.errors import ConquestError
from conquest.rl.policy_agent import policy_paths, write_policy

MAX_MEMBER = 256 * 1024 * 1024  # bytes of the zip's data or policy.pth


def _network(state: dict[str, Any], where: str) -> tuple[dict[str, Any], list[int], int, int]:
    """(arrays of the policy format, hidden widths, observation size, action count) from an sb3 policy's state
    dict: ``mlp_extractor.policy_net.{0,2,4...}`` (Linear layers between activations) and ``action_net``."""
    import numpy as np
    layer = re.compile(r"mlp_extractor\.policy_net\.(\d+)\.(weight|bias)$")
    idx = sorted({int(m.group(1)) for k in state if (m := layer.match(k))})
    arrays: dict[str, Any] = {}
    hidden: list[int] = []
    if "action_net.weight" not in state or "action_net.bias" not in state:
        raise ConquestError(f"{where}: no action_net in the policy (not an actor-critic MlpPolicy)")
    out_w = np.asarray(state["action_net.weight"], dtype=np.float32)
    obs = out_w.shape[1]
    for i, k in enumerate(idx):
        w = np.asarray(state[f"mlp_extractor.policy_net.{k}.weight"], dtype=np.float32)
        b = np.asarray(state[f"mlp_extractor.policy_net.{k}.bias"], dtype=np.float32)
        if i == 0:
            obs = w.shape[1]
        elif w.shape[1] != hidden[-1]:
            raise ConquestError(f"{where}: policy_net layer {k} does not follow the one before")
        arrays[f"hidden.{i}.weight"], arrays[f"hidden.{i}.bias"] = w, b
        hidden.append(w.shape[0])
    if hidden and out_w.shape[1] != hidden[-1]:
        raise ConquestError(f"{where}: action_net does not follow the policy network")
    arrays["out.weight"] = out_w
    arrays["out.bias"] = np.asarray(state["action_net.bias"], dtype=np.float32)
    return arrays, hidden, obs, out_w.shape[0]


def _activation(policy_kwargs: Any, where: str) -> str:
    """The policy network's activation: sb3's default (Tanh) unless the kwargs name another one."""
    if policy_kwargs is None:
        return "tanh"
    if not isinstance(policy_kwargs, dict) or ":serialized:" in policy_kwargs:
        raise ConquestError(f"{where}: policy_kwargs that are not plain JSON (a custom activation, extractor or "
                            f"class) cannot be converted; only MlpPolicy with net_arch (Tanh) is")
    unknown = sorted(set(policy_kwargs) - {"net_arch", "ortho_init", "log_std_init", "normalize_images"})
    if unknown:
        raise ConquestError(f"{where}: policy_kwargs {', '.join(unknown)} cannot be converted")
    return "tanh"


def _describe(ruleset: str, players: int | None, options: dict[str, Any] | None, obs: int, actions: int,
              hidden: list[int], activation: str, help_text: str | None, source: str) -> dict[str, Any]:
    from conquest.rl.match import Match
    m = Match(ruleset, players, options)
    if (obs, actions) != (m.obs_size, m.codec.size):
        raise ConquestError(f"the model takes observations of {obs} and {actions} actions; {ruleset} with "
                            f"{m.players} players and these options has {m.obs_size} and {m.codec.size} "
                            f"(give the ruleset, --players and --option it was trained with)")
    desc: dict[str, Any] = {"ruleset": ruleset, "players": m.players, "options": dict(m.options),
                            "observation_size": obs, "actions": actions,
                            "net": {"hidden": hidden, "activation": activation}, "source": source}
    if help_text:
        desc["help"] = " ".join(help_text.split())[:200]
    return desc


def convert_sb3(model_zip: str, out: str, ruleset: str, players: int | None = None,
                options: dict[str, Any] | None = None, help_text: str | None = None) -> tuple[str, str]:
    """Convert the MaskablePPO file ``model_zip`` (trained on ``ruleset``/``players``/``options``) to the policy
    ``out`` (``OUT.json`` + ``OUT.safetensors``). Never unpickles ``data``; ``policy.pth`` is read by torch's
    weights-only loader. Returns the two paths written."""
    try:
        import torch
    except ImportError:
        raise ConquestError("converting an sb3-contrib model needs torch (the rl extra)") from None
    try:
        z = zipfile.ZipFile(model_zip)
    except FileNotFoundError:
        raise ConquestError(f"no such file: {model_zip}") from None
    except (zipfile.BadZipFile, OSError) as e:
        raise ConquestError(f"{model_zip} is not an sb3-contrib model (not a zip: {e})") from None
    with z:
        names = set(z.namelist())
        for member in ("data", "policy.pth"):
            if member not in names:
                raise ConquestError(f"{model_zip} is not an sb3-contrib model (no '{member}' in the zip)")
            if z.getinfo(member).file_size > MAX_MEMBER:
                raise ConquestError(f"{model_zip}: '{member}' is over {MAX_MEMBER // 2 ** 20} MiB")
        try:
            data = json.loads(z.read("data").decode("utf-8"))  # read as JSON: the pickled entries stay unread
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise ConquestError(f"{model_zip}: its 'data' is not sb3's JSON") from None
        if not isinstance(data, dict):
            raise ConquestError(f"{model_zip}: its 'data' is not sb3's JSON")
        cls = data.get("policy_class")
        module = cls.get("__module__") if isinstance(cls, dict) else None
        if module != "sb3_contrib.common.maskable.policies":
            raise ConquestError(f"{model_zip}: not a MaskablePPO policy (policy class from {module!r})")
        activation = _activation(data.get("policy_kwargs"), model_zip)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                state = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)
        except Exception:  # noqa: BLE001 - refused by the weights-only loader, or damaged
            raise ConquestError(f"{model_zip}: its policy.pth is not plain weights (torch's weights-only loader "
                                f"refused it: it holds something other than tensors, or is damaged); it was not "
                                f"converted") from None
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise ConquestError(f"{model_zip}: its policy.pth is not a state dict of tensors")
    arrays, hidden, obs, actions = _network({k: v.detach().cpu().numpy() for k, v in state.items()}, model_zip)
    desc = _describe(ruleset, players, options, obs, actions, hidden, activation, help_text,
                     "converted from an sb3-contrib MaskablePPO file")
    return write_policy(out, desc, arrays)


def policy_from_sb3(model: Any, out: str, ruleset: str, players: int | None = None,
                    options: dict[str, Any] | None = None, help_text: str | None = None) -> tuple[str, str]:
    """Write a MaskablePPO model held in memory (just trained) as the policy ``out``."""
    state = {k: v.detach().cpu().numpy() for k, v in model.policy.state_dict().items()}
    activation = _activation(getattr(model, "policy_kwargs", None) or None, "the model")
    arrays, hidden, obs, actions = _network(state, "the model")
    desc = _describe(ruleset, players, options, obs, actions, hidden, activation, help_text,
                     "MaskablePPO (sb3-contrib), saved by its trainer")
    return write_policy(out, desc, arrays)


__all__ = ["convert_sb3", "policy_from_sb3", "policy_paths"]

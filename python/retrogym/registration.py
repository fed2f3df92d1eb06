"""Gymnasium ids ``retrogym/<Game>-v0`` for the games of the data root, so ``gymnasium.make`` works after
``import retrogym`` (or with the id ``"retrogym:retrogym/<Game>-v0"``, which imports the package itself), and
``gymnasium.make_vec`` makes a ``retrogym.make_vec`` vector environment (``vectorization_mode="sync"`` or
``"async"`` for Gymnasium's own); ``retrogym/<Game>-v5`` for the Atari games of ale-py with ALE's conventions
(retrogym.atari)."""
from __future__ import annotations

import re
from typing import List

import gymnasium as gym

from retrogym import data

__all__ = ["register_games", "env_id"]

NAMESPACE = "retrogym"

# stable-retro 1.0.1 names its stable games with a version suffix (``Airstriker-Genesis-v0``); the id keeps it once.
_VERSION = re.compile(r"-v(\d+)$")


def env_id(game: str) -> str:
    """``retrogym/<Game>-v<N>``: the game's own ``-vN`` suffix when it has one (``Airstriker-Genesis-v0`` ->
    ``retrogym/Airstriker-Genesis-v0``), else ``-v0``."""
    return f"{NAMESPACE}/{game}" if _VERSION.search(game) else f"{NAMESPACE}/{game}-v0"


def register_games() -> List[str]:
    """Registers every game of the stable, experimental, contrib and custom integrations that is not registered
    yet (a game is searched in the integration it was found in). Call again after adding custom paths. Returns the
    ids registered by this call."""
    added: List[str] = []
    for flags in (data.Integrations.STABLE, data.Integrations.EXPERIMENTAL_ONLY, data.Integrations.CONTRIB_ONLY,
                  data.Integrations.CUSTOM_ONLY):
        try:
            games = data.list_games(flags)
        except (OSError, ValueError):
            continue
        for game in games:
            gid = env_id(game)
            if gid in gym.registry:
                continue
            gym.register(id=gid, entry_point="retrogym.env:RetroEnv", vector_entry_point="retrogym.vector:make_vec",
                         kwargs={"game": game, "inttype": flags if flags != data.Integrations.STABLE else
                                 data.Integrations.DEFAULT})
            added.append(gid)
    return added + _register_ale()


def _register_ale() -> List[str]:
    """``retrogym/<Game>-v5`` (ALE's names: ``retrogym/Pong-v5``) for the Atari integrations whose ROM ale-py ships
    (retrogym.ale_games): ``gymnasium.make`` gives ALE v5's single environment (retrogym.atari.AtariEnv) and
    ``gymnasium.make_vec`` our vector environment with EnvPool's Atari defaults (retrogym.atari.make_vec)."""
    from retrogym.ale_games import GAMES

    added = []
    for game in sorted(GAMES):
        gid = f"{NAMESPACE}/{game.split('-')[0]}-v5"
        if gid in gym.registry:
            continue
        gym.register(id=gid, entry_point="retrogym.atari:AtariEnv", vector_entry_point="retrogym.atari:make_vec",
                     kwargs={"game": game})
        added.append(gid)
    return added

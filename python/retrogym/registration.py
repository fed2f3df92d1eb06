"""Gymnasium ids ``retrogym/<Game>-v0`` for the games of the data root, so ``gymnasium.make`` works after
``import retrogym`` (or with the id ``"retrogym:retrogym/<Game>-v0"``, which imports the package itself), and
``gymnasium.make_vec`` makes a ``retrogym.make_vec`` vector environment (``vectorization_mode="sync"`` or
``"async"`` for Gymnasium's own)."""
import gymnasium as gym

from retrogym import data

__all__ = ["register_games", "env_id"]

NAMESPACE = "retrogym"


def env_id(game):
    return f"{NAMESPACE}/{game}-v0"


def register_games():
    """Registers every game of the stable, experimental, contrib and custom integrations that is not registered
    yet (a game is searched in the integration it was found in). Call again after adding custom paths. Returns the
    ids registered by this call."""
    added = []
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
    return added

"""Trajectories as Minari datasets (Farama's offline-RL format; the optional extra ``retrogym[minari]``).

``record`` plays episodes of a ``retrogym.make`` environment, ``record_vec`` of a ``make_vec`` pool (each environment's
episodes collected from the batches), ``movie_to_dataset`` replays a ``.bk2`` movie frame by frame; each writes a
Minari dataset of the observations (reset included), actions, rewards, terminations, truncations and infos, through
Minari's own storage API (``minari.create_dataset_from_buffers``). Observations are stored losslessly (no JPEG).
``load`` reads one back (``minari.load_dataset``) and ``replay`` steps a dataset episode's actions through an
environment, returning what it saw, to compare with the stored episode.

Datasets live under Minari's root: ``root=`` (a folder) or else ``MINARI_DATASETS_PATH`` or ``~/.minari/datasets``.
Minari reads its root from that environment variable only, so ``root=`` sets it for the duration of the call (not
safe while another thread uses Minari). Ids follow Minari's ``namespace/env/name-vN``: ``dataset_id(game, name)``
gives ``retrogym/<game>/<name>-v0``."""
import contextlib
import os
import re
import tempfile
import warnings

import numpy as np

__all__ = ["dataset_id", "record", "record_vec", "movie_to_dataset", "load", "replay", "episode_seed"]

_ID = re.compile(r"^([A-Za-z0-9_.-]+/)?([A-Za-z0-9_.-]+/)?[A-Za-z0-9_.-]+-v\d+$")


def _minari():
    try:
        import minari
        from minari.data_collector import EpisodeBuffer
    except ImportError as e:
        raise ImportError("retrogym.datasets needs Minari with its HDF5 storage: pip install 'retrogym[minari]' "
                          f"(minari[hdf5]) ({e})") from None
    return minari, EpisodeBuffer


def dataset_id(game, name, version=0):
    """Minari's id for a dataset of ``game``: ``retrogym/<game>/<name>-v<version>``."""
    if not name or "/" in name or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ValueError(f"a dataset name is letters, digits, '_', '.' and '-', not {name!r}")
    return f"retrogym/{game}/{name}-v{int(version)}"


def _check_id(did):
    if not isinstance(did, str) or not _ID.match(did):
        raise ValueError(f"a Minari dataset id is '[namespace/][env/]name-v<N>' (e.g. retrogym/<game>/<name>-v0), "
                         f"not {did!r}")


@contextlib.contextmanager
def _root(root):
    if root is None:
        yield
        return
    old = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = os.path.abspath(os.fspath(root))
    try:
        yield
    finally:
        if old is None:
            del os.environ["MINARI_DATASETS_PATH"]
        else:
            os.environ["MINARI_DATASETS_PATH"] = old


class _Episode:
    """One episode being collected: observations (the reset's first), actions, rewards, terminations, truncations
    and infos (the reset's first: Minari's layout, one more observation and info than steps)."""

    def __init__(self, obs, info, seed=None):
        self.seed = seed
        self.obs, self.infos = [np.array(obs)], [info]
        self.actions, self.rewards, self.terms, self.truncs = [], [], [], []

    def step(self, action, obs, reward, terminated, truncated, info):
        self.actions.append(np.array(action))
        self.obs.append(np.array(obs))
        self.rewards.append(float(reward))
        self.terms.append(bool(terminated))
        self.truncs.append(bool(truncated))
        self.infos.append(info)

    def __len__(self):
        return len(self.rewards)

    def buffer(self, EpisodeBuffer):
        return EpisodeBuffer(seed=self.seed, observations=np.stack(self.obs), actions=np.stack(self.actions),
                             rewards=np.asarray(self.rewards, np.float64),
                             terminations=np.asarray(self.terms, bool), truncations=np.asarray(self.truncs, bool),
                             infos=_stack_infos(self.infos))


def _stack_infos(infos):
    """Infos as Minari stores them: each numeric key present in every info, an array over the episode."""
    keys = set(infos[0])
    for info in infos[1:]:
        keys &= set(info)
    out = {}
    for key in sorted(keys):
        values = [np.asarray(info[key]) for info in infos]
        if all(v.dtype.kind in "biuf" for v in values) and len({v.shape for v in values}) == 1:
            out[key] = np.stack(values)
    return out


def _write(did, episodes, observation_space, action_space, root, description, algorithm, author):
    minari, EpisodeBuffer = _minari()
    _check_id(did)
    if not episodes or any(len(e) == 0 for e in episodes):
        raise ValueError("no episode to write (an episode needs at least one step)")
    with _root(root), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Minari warns about each metadata field left out
        return minari.create_dataset_from_buffers(
            did, [e.buffer(EpisodeBuffer) for e in episodes], observation_space=observation_space,
            action_space=action_space, description=description, algorithm_name=algorithm, author=author,
            jpeg_encoding=False)


def _exists(did, root):
    from minari.storage.datasets_root_dir import get_dataset_path
    with _root(root):
        return os.path.exists(get_dataset_path(did))


def _precheck(did, root):
    _minari()
    _check_id(did)
    if _exists(did, root):
        raise ValueError(f"a Minari dataset {did} already exists (under {root or 'Minari root'}): choose another "
                         f"name or version")


def record(env, did, episodes=1, *, policy=None, seed=None, max_steps=None, root=None, description=None,
           algorithm=None, author=None):
    """Plays ``episodes`` episodes of ``env`` (a ``retrogym.make`` environment, or any Gymnasium environment) and
    writes them as the Minari dataset ``did``; returns the ``MinariDataset``. ``policy(obs) -> action`` (default:
    the action space's samples); ``seed``: episode k is reset with ``seed + k`` (stored as the episode's seed);
    ``max_steps``: an episode still running after that many steps ends there, truncated."""
    _precheck(did, root)
    if policy is None:
        policy = lambda obs: env.action_space.sample()  # noqa: E731
    collected = []
    for k in range(int(episodes)):
        s = None if seed is None else int(seed) + k
        obs, info = env.reset(seed=s)
        ep = _Episode(obs, info, s)
        done = False
        while not done:
            action = policy(obs)
            obs, reward, terminated, truncated, info = env.step(action)
            if max_steps is not None and len(ep) + 1 >= max_steps:
                truncated = True
            ep.step(action, obs, reward, terminated, truncated, info)
            done = terminated or truncated
        collected.append(ep)
    return _write(did, collected, env.observation_space, env.action_space, root, description, algorithm, author)


def record_vec(venv, did, episodes, *, policy=None, seed=None, root=None, description=None, algorithm=None,
               author=None):
    """Steps the vector environment ``venv`` (``retrogym.make_vec``, autoreset NEXT_STEP) until ``episodes``
    episodes have ended, each environment's collected from the batches, and writes them as the Minari dataset
    ``did`` in the order they ended; returns the ``MinariDataset``. ``policy(batch_obs) -> batch_actions`` (default:
    the action space's samples); ``seed``: the pool's reset seed (environment i's first episode stores seed + i,
    later episodes, reset by the pool, store none)."""
    from gymnasium.vector import AutoresetMode
    _precheck(did, root)
    mode = venv.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)
    if mode != AutoresetMode.NEXT_STEP:
        raise ValueError(f"record_vec needs autoreset_mode NEXT_STEP, not {mode}")
    if policy is None:
        policy = lambda obs: venv.action_space.sample()  # noqa: E731
    n = venv.num_envs
    obs, infos = venv.reset(seed=seed)
    current = [_Episode(obs[i], _row(infos, i), None if seed is None else int(seed) + i) for i in range(n)]
    restart = [False] * n
    finished = []
    while len(finished) < int(episodes):
        actions = policy(obs)
        obs, rewards, terms, truncs, infos = venv.step(actions)
        for i in range(n):
            if restart[i]:  # this step reset environment i: a new episode starts, its action was ignored
                current[i], restart[i] = _Episode(obs[i], _row(infos, i)), False
                continue
            current[i].step(actions[i], obs[i], rewards[i], terms[i], truncs[i], _row(infos, i))
            if terms[i] or truncs[i]:
                finished.append(current[i])
                restart[i] = True
    return _write(did, finished[:int(episodes)], venv.single_observation_space, venv.single_action_space, root,
                  description, algorithm, author)


def _row(infos, i):
    """Environment i's info out of a vector info (keys with their "_key" masks)."""
    return {k: v[i] for k, v in infos.items()
            if not k.startswith("_") and isinstance(v, np.ndarray) and infos.get("_" + k, np.ones(i + 1, bool))[i]}


def movie_to_dataset(movie, did, *, game=None, root=None, description=None, **options):
    """Replays the movie ``movie`` (a ``.bk2`` path or a ``retrogym.Movie``) through its game, frame by frame from
    its start state with ``Actions.ALL``, as ``retrogym.playback_movie`` does, and writes it as a one-episode Minari
    dataset ``did``: frame 0 is the reset, each later frame a step whose action is the frame's buttons
    (MultiBinary, players x buttons). ``game`` must name the movie's game when given (``ValueError`` otherwise);
    ``options`` are ``retrogym.make``'s (core, obs_type, ...). A movie retrogym recorded has its rewards checked
    against the recording. Returns the ``MinariDataset``."""
    from retrogym.enums import Actions, State
    from retrogym.env import make
    from retrogym.movie import Movie, recorded_rewards

    _precheck(did, root)
    path = movie.path if hasattr(movie, "path") and not isinstance(movie, (str, os.PathLike)) else os.fspath(movie)
    m = Movie(path)
    if m.frame_count < 2:
        raise ValueError(f"{path} holds {m.frame_count} frames: a dataset needs at least two (a reset and a step)")
    recorded = m.get_game()
    if game is not None and recorded and game != recorded:
        raise ValueError(f"{path} is a movie of {recorded}, not of {game}")
    name = game or recorded
    if not name:
        raise ValueError(f"{path} names no game: pass game=")
    for key in ("frameskip", "sticky_prob", "repeat_action_probability", "noop_max", "max_pool", "state",
                "use_restricted_actions", "players"):
        if key in options:
            raise TypeError(f"movie_to_dataset replays the movie's own frames: {key} cannot be set")
    scores = recorded_rewards(path) if m.format == "bk2" else None
    start = m.get_state()
    with tempfile.TemporaryDirectory(prefix="retrogym-dataset-") as tmp:
        state = State.NONE
        if start:
            state = os.path.join(tmp, "Core.bin")
            with open(state, "wb") as f:
                f.write(start)
        env = make(name, state=state, use_restricted_actions=Actions.ALL, players=m.players, **options)
    try:
        if env.system != m.system:
            raise ValueError(f"{path} is a movie for {m.system}, but {name} is a {env.system} game")
        buttons = env.num_buttons
        obs, info = env.reset(seed=0)
        ep = _Episode(obs, info, 0)
        for frame in range(1, m.frame_count):
            action = np.array([(m.frame_buttons(frame, p) >> b) & 1 for p in range(m.players) for b in range(buttons)],
                              np.int8)
            obs, reward, terminated, truncated, info = env.step(action)
            if scores is not None and frame >= scores.first:
                want, want_done = scores.at(frame)
                if np.float32(reward) != np.float32(sum(want)) or bool(terminated) != want_done:
                    raise ValueError(f"{path}: the replay differs from the recording at frame {frame}: recorded "
                                     f"reward {want} done {want_done}, now {reward} done {terminated}")
            last = frame == m.frame_count - 1
            ep.step(action, obs, reward, terminated, truncated or (last and not terminated), info)
            if (terminated or truncated) and not last:
                raise ValueError(f"{path}: the game ended at frame {frame} of {m.frame_count}")
        return _write(did, [ep], env.observation_space, env.action_space, root,
                      description or f"replay of the movie {os.path.basename(path)}", "movie", None)
    finally:
        env.close()


def load(did, root=None):
    """The Minari dataset ``did`` (``minari.load_dataset``), from ``root`` or Minari's root; ``ValueError`` naming
    the folder searched when there is none."""
    minari, _ = _minari()
    _check_id(did)
    with _root(root):
        from minari.storage.datasets_root_dir import get_dataset_path
        where = get_dataset_path(did)
        if not os.path.exists(os.path.join(where, "data")):
            raise ValueError(f"no Minari dataset {did} (looked in {where})")
        return minari.load_dataset(did)


def episode_seed(dataset, episode):
    """The seed ``episode`` (an ``EpisodeData`` of ``dataset``) was reset with, or None when none was stored."""
    meta = next(iter(dataset.storage.get_episode_metadata([int(episode.id)])))
    return meta.get("seed")


def replay(episode, env, seed=None):
    """Steps ``episode``'s actions (a Minari ``EpisodeData``) through ``env`` after ``env.reset(seed=seed)``
    (``episode_seed`` gives the stored one; None: 0); returns a dict of what the environment gave: "observations"
    (reset first), "rewards", "terminations", "truncations" (arrays) and "infos" (a list, reset first)."""
    obs, info = env.reset(seed=0 if seed is None else int(seed))
    seen = {"observations": [obs], "rewards": [], "terminations": [], "truncations": [], "infos": [info]}
    for action in episode.actions:
        obs, reward, terminated, truncated, info = env.step(action)
        seen["observations"].append(obs)
        seen["rewards"].append(reward)
        seen["terminations"].append(terminated)
        seen["truncations"].append(truncated)
        seen["infos"].append(info)
    for key in ("observations", "rewards", "terminations", "truncations"):
        seen[key] = np.asarray(seen[key])
    return seen

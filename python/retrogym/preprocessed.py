"""A single environment with the vector engine's preprocessing in C: ``retrogym.make(game, grayscale=True,
resize=(84, 84), frame_stack=4, ...)`` returns a ``PreprocessedEnv``, a ``gymnasium.Env`` over a vector environment
of one (autoreset off: reset it when an episode ends, as any single environment). Grayscale, area resize (OpenCV's
INTER_AREA bytes), frame stacking and reward clipping then run in C, with the frame skip and max-pool of the
environment: under half (0.39-0.44x) of the CPU of Gymnasium's ``AtariPreprocessing`` + ``FrameStackObservation``
over a ``RetroEnv`` (docs/performance.md, "Atari vector environments"; docs/python.md, "Preprocessing in C for a single
environment")."""
import numpy as np
import gymnasium as gym

__all__ = ["PreprocessedEnv", "PREPROCESSING"]

# make()'s arguments that ask for C preprocessing
PREPROCESSING = ("grayscale", "resize", "frame_stack", "reward_clip")


class PreprocessedEnv(gym.Env):
    """One game with C preprocessing (see the module). Observations: ``(frame_stack, h, w)`` or ``(h, w)`` gray,
    ``(..., h, w, 3)`` RGB; ``info`` holds the game variables of the step."""

    metadata = {"render_modes": []}

    def __init__(self, game, *, grayscale=False, resize=None, frame_stack=1, reward_clip=None, render_mode=None,
                 **make_kwargs):
        from retrogym.vector import RetroVectorEnv
        if render_mode is not None:
            raise ValueError("an environment with C preprocessing (grayscale, resize, frame_stack, reward_clip) does "
                             "not render; make it without them to render")
        self._vec = RetroVectorEnv(game, 1, num_threads=1, autoreset_mode="DISABLED", grayscale=grayscale,
                                   resize=resize, frame_stack=frame_stack, reward_clip=reward_clip, **make_kwargs)
        v = self._vec
        self.observation_space = v.single_observation_space
        self.action_space = v.single_action_space
        self.gamename, self.system, self.statename = v.gamename, v.system, v.statename
        self.buttons, self.num_buttons, self.players = v.buttons, v.num_buttons, v.players
        self.use_restricted_actions, self.frameskip = v.use_restricted_actions, v.frameskip
        self.preprocessing = v.preprocessing
        self.metadata = dict(self.metadata, render_fps=v.metadata["render_fps"])

    @staticmethod
    def _info(infos):
        return {k: v[0].item() for k, v in infos.items()
                if not k.startswith("_") and isinstance(v, np.ndarray) and infos.get("_" + k, [True])[0]}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        obs, infos = self._vec.reset(seed=seed)
        return obs[0], self._info(infos)

    def step(self, action):
        obs, rew, term, trunc, infos = self._vec.step(np.asarray(action)[None])
        return obs[0], rew[0].item() if rew.ndim == 1 else rew[0], bool(term[0]), bool(trunc[0]), self._info(infos)

    def episode_steps(self):
        return int(self._vec.episode_steps()[0])

    def close(self):
        self._vec.close()

    def __repr__(self):
        return f"<PreprocessedEnv {self.gamename} {self.preprocessing}>"

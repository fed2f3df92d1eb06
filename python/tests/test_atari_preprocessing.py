"""Our C preprocessing (make_vec(grayscale=True, resize=(84, 84), frame_stack=4, frameskip=4, max_pool=True)) gives
the same bytes as Gymnasium's AtariPreprocessing + FrameStackObservation on the same frames.

The reference is Gymnasium's own wrapper code run on our Atari env's frames: a single env at frame skip 1 is wrapped
in a minimal ALE stand-in whose getScreenGrayscale is ALE's grayscale, taken from ale-py itself (the grays ALE gives
for the colours it shows, read from a real ALEInterface), and AtariPreprocessing max-pools those grays and resizes
them with cv2.resize(INTER_AREA). The pool steps the same game with the same actions. Skipped without ale-py (its
Pong ROM and grayscale), stable-retro (Pong's integration) or OpenCV."""
import os
import shutil

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
cv2 = pytest.importorskip("cv2")
ale_py = pytest.importorskip("ale_py")
stable_retro = pytest.importorskip("stable_retro")

import retrogym  # noqa: E402

GAME = "Pong-Atari2600-v0"
STEPS = 250


@pytest.fixture(scope="module")
def pong_root(tmp_path_factory):
    """A data root with stable-retro's Pong integration and ale-py's Pong ROM."""
    src = os.path.join(os.path.dirname(stable_retro.__file__), "data", "stable", GAME)
    rom = os.path.join(os.path.dirname(ale_py.__file__), "roms", "pong.bin")
    if not os.path.isdir(src) or not os.path.isfile(rom):
        pytest.skip("stable-retro's Pong integration or ale-py's Pong ROM is missing")
    root = tmp_path_factory.mktemp("pong-root")
    shutil.copytree(src, root / "stable" / GAME)
    shutil.copy(rom, root / "stable" / GAME / "rom.a26")
    return str(root)


@pytest.fixture(scope="module")
def ale_gray():
    """ALE's grayscale of each colour its Pong shows: {0xRRGGBB: gray}, read from a real ALEInterface."""
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", 3)
    ale.loadROM(ale_py.roms.get_rom_path("pong"))
    acts = ale.getMinimalActionSet()
    rng = np.random.default_rng(0)
    table = {}
    for i in range(1500):
        ale.act(acts[rng.integers(len(acts))])
        if ale.game_over():
            ale.reset_game()
        if i % 10 == 0:
            rgb = ale.getScreenRGB().reshape(-1, 3).astype(np.int64)
            gray = ale.getScreenGrayscale().reshape(-1)
            colours, first = np.unique((rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2], return_index=True)
            for c, k in zip(colours, first):
                table[int(c)] = int(gray[k])
    return table


class _FakeAle:
    """What AtariPreprocessing reads from env.unwrapped.ale, on our env's current RGB frame."""

    def __init__(self, owner, gray_of):
        self.owner, self.gray_of = owner, gray_of

    def lives(self):
        return 0

    def getScreenRGB(self, out):
        out[...] = self.owner.frame

    def getScreenGrayscale(self, out):
        f = self.owner.frame.astype(np.int64)
        keys = (f[..., 0] << 16) | (f[..., 1] << 8) | f[..., 2]
        colours, inverse = np.unique(keys.reshape(-1), return_inverse=True)
        missing = [hex(int(c)) for c in colours if int(c) not in self.gray_of]
        assert not missing, f"colours ALE's Pong never showed: {missing}"
        grays = np.array([self.gray_of[int(c)] for c in colours], np.uint8)
        out[...] = grays[inverse.reshape(-1)].reshape(out.shape)


class _AleShaped(gym.Env):
    """Our single env at frame skip 1, shaped as AtariPreprocessing expects an ALE env to be."""

    def __init__(self, env, gray_of):
        self.env = env
        self.observation_space = env.observation_space
        self.action_space = env.action_space
        self._frameskip = 1
        self.ale = _FakeAle(self, gray_of)
        self.frame = None
        self.last = []  # the frames of the last step

    def reset(self, *, seed=None, options=None):
        self.frame, info = self.env.reset(seed=seed)
        return self.frame, info

    def step(self, action):
        self.frame, r, term, trunc, info = self.env.step(action)
        self.last = (self.last + [self.frame])[-2:]
        return self.frame, r, term, trunc, info


@pytest.mark.parametrize("scalar", [False, True], ids=["simd", "scalar"])
def test_same_bytes_as_atari_preprocessing(pong_root, ale_gray, monkeypatch, scalar):
    monkeypatch.setenv("RETROGYM_DATA_PATH", pong_root)
    if scalar:
        monkeypatch.setenv("RG_PREPROC_SCALAR", "1")  # read when the pool is created
    common = dict(use_restricted_actions=retrogym.Actions.DISCRETE, core="atari2600")
    vec = retrogym.make_vec(GAME, 2, num_threads=2, frameskip=4, max_pool=True, grayscale=True, resize=(84, 84),
                            frame_stack=4, seed=7, **common)
    single = retrogym.make(GAME, frameskip=1, **common)
    ref = gym.wrappers.FrameStackObservation(
        gym.wrappers.AtariPreprocessing(_AleShaped(single, ale_gray), noop_max=0, frame_skip=4, screen_size=84,
                                        grayscale_obs=True), 4)
    try:
        obs, _ = vec.reset(seed=7)
        want, _ = ref.reset(seed=7)
        assert obs.shape == (2, 4, 84, 84) and want.shape == (4, 84, 84)
        assert np.array_equal(obs[0], want) and np.array_equal(obs[1], want)
        rng = np.random.default_rng(1)
        shaped = ref.unwrapped
        differs = 0
        for step in range(STEPS):
            a = int(rng.integers(vec.single_action_space.n))
            obs, rewards, term, trunc, _ = vec.step(np.array([a, a]))
            want, r, t, tr, _ = ref.step(a)
            assert not (t or tr or term.any() or trunc.any()), "the episode ended: the test needs longer ones"
            assert np.array_equal(obs[0], want), f"step {step}: {np.argwhere(obs[0] != want)[:5]}"
            assert np.array_equal(obs[1], want), step
            assert rewards[0] == r and rewards[1] == r
            # steps where max-pooling the RGB frames before the grayscale would have given other grays
            f3, f4 = (f.astype(np.int64) for f in shaped.last)
            luma = lambda f: (299 * f[..., 0] + 587 * f[..., 1] + 114 * f[..., 2] + 500) // 1000  # noqa: E731
            differs += not np.array_equal(luma(np.maximum(f3, f4)), np.maximum(luma(f3), luma(f4)))
        print(f"{differs} of {STEPS} steps where the order of max-pool and grayscale matters")
        assert differs > 0, "no step where the order of max-pool and grayscale matters: the test cannot tell"
    finally:
        single.close()
        vec.close()


def test_ale_view_gray_is_the_c_gray_of_the_screen(pong_root, ale_gray, monkeypatch):
    """`env.unwrapped.ale.getScreenGrayscale` (what AtariPreprocessing reads every frame) comes from C
    (rg_emu_screen_gray): the bytes of ALE's formula over the RGB screen and of a real ALEInterface's grayscale of
    each colour, into the caller's array when given; a wrong `out` is refused."""
    monkeypatch.setenv("RETROGYM_DATA_PATH", pong_root)
    env = gym.make("retrogym/Pong-v5", frameskip=1)
    try:
        env.reset(seed=3)
        ale, raw = env.unwrapped.ale, env.unwrapped._c
        buf = np.empty((210, 160), np.uint8)
        for i in range(240):
            env.step(i % env.action_space.n)
            rgb = env.unwrapped.get_screen().astype(np.float64)
            want = np.rint(rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114).astype(np.uint8)
            got = ale.getScreenGrayscale()
            assert got.shape == (210, 160) and np.array_equal(got, want), i
            assert ale.getScreenGrayscale(buf) is buf and np.array_equal(buf, want)
            if i % 40 == 0:
                keys = (rgb[..., 0].astype(np.int64) << 16) | (rgb[..., 1].astype(np.int64) << 8) | rgb[..., 2].astype(
                    np.int64)
                for k in np.unique(keys):
                    if int(k) in ale_gray:
                        assert int(got[keys == k][0]) == ale_gray[int(k)], hex(int(k))
        assert len(np.unique(want)) > 2  # the court, the paddles and the ball: not a blank screen
        for bad in (np.empty((210, 161), np.uint8), np.empty((210, 160), np.int16), np.empty((160, 210), np.uint8).T):
            with pytest.raises(ValueError):
                raw.get_screen_gray(bad)
    finally:
        env.close()


def test_grayscale_observations_are_ales_gray_of_the_rgb_env(pong_root, ale_gray, monkeypatch):
    """`obs_type="grayscale"` observes through C (the env observes RAM, the gray comes from the core's frame,
    rg_emu_screen_gray): each step's bytes are ALE's formula over the RGB observation of an env of obs_type "rgb"
    stepped with the same seed and actions, and a real ALEInterface's gray of each colour; rewards, flags and infos
    are the RGB env's; every observation is a new array."""
    monkeypatch.setenv("RETROGYM_DATA_PATH", pong_root)
    gray_env = gym.make("retrogym/Pong-v5", obs_type="grayscale")
    rgb_env = gym.make("retrogym/Pong-v5", obs_type="rgb")
    try:
        assert gray_env.observation_space.shape == (210, 160)
        g, gi = gray_env.reset(seed=5)
        c, ci = rgb_env.reset(seed=5)
        rng = np.random.default_rng(1)
        kept, shades = [], set()
        for i in range(200):
            rgb = c.astype(np.float64)
            want = np.rint(rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114).astype(np.uint8)
            assert g.dtype == np.uint8 and g.shape == (210, 160) and gray_env.observation_space.contains(g), i
            assert np.array_equal(g, want), i
            assert gi == ci, i
            if i % 50 == 0:
                keys = (c[..., 0].astype(np.int64) << 16) | (c[..., 1].astype(np.int64) << 8) | c[..., 2]
                for k in np.unique(keys):
                    if int(k) in ale_gray:
                        assert int(g[keys == k][0]) == ale_gray[int(k)], hex(int(k))
                kept.append((g, g.copy()))
            shades.update(np.unique(g).tolist())
            a = int(rng.integers(gray_env.action_space.n))
            g, gr, gt, gu, gi = gray_env.step(a)
            c, cr, ct, cu, ci = rgb_env.step(a)
            assert (gr, gt, gu) == (cr, ct, cu), i
            if gt or gu:
                g, gi = gray_env.reset()
                c, ci = rgb_env.reset()
        assert all(np.array_equal(a, b) for a, b in kept)  # later steps wrote into no earlier observation
        assert len(shades) > 2  # the court, the paddles and the ball: not a blank screen
    finally:
        gray_env.close()
        rgb_env.close()

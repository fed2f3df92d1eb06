# retrogym: the two set-up commands are `make demo` and `make test` (see README.md).
# Both install what is missing (apt-get, idempotent), build, and run.

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE      ?= cmake
CTEST      ?= ctest

# System packages: build tools and libraries, the Debian libretro cores, libretro.h, the test-ROM toolchains.
APT_PACKAGES := cmake pkg-config gcc make libjansson-dev libcmocka-dev libpng-dev zlib1g-dev \
  retroarch-dev libretro-nestopia libretro-gambatte libretro-mgba libretro-bsnes-mercury-performance \
  libretro-beetle-pce-fast liblua5.1-0-dev libzip-dev nettle-dev cc65 dasm sdcc binutils-m68k-linux-gnu binutils-arm-none-eabi

# Python packages (PyPI) in the project's own environment .venv: what the Python package needs to build, run and
# be tested (numpy, gymnasium, pytest, scikit-build-core), then the optional ones: stable-retro for the
# differential test (tests/compat) and for the cores of the systems Debian has none for, pygame for
# render_mode="human". The package itself is installed into .venv by `make python`.
PYTHON_PACKAGES := numpy gymnasium pytest scikit-build-core
PYTHON_OPTIONAL := stable-retro pygame
VENV := .venv
PIP := $(VENV)/bin/python -m pip

.PHONY: all deps venv build asan python test test-c test-asan test-python demo bench roms clean

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
	@$(HAVE_MODULES) numpy gymnasium pytest scikit_build_core || $(PIP) install -q $(PYTHON_PACKAGES)
	@$(HAVE_MODULES) stable_retro pygame || $(PIP) install -q $(PYTHON_OPTIONAL) || \
	  echo "warning: could not install $(PYTHON_OPTIONAL); the stable-retro differential test, the systems" \
	       "without a Debian core and the human-rendering tests will be skipped"

build: deps
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	$(CMAKE) --build $(BUILD) -j $(JOBS)

asan: deps
	$(CMAKE) -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRG_SANITIZE=address,undefined \
	  -DRG_BUILD_BENCH=OFF >/dev/null
	$(CMAKE) --build $(ASAN_BUILD) -j $(JOBS)

test-c: build
	$(CTEST) --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan: asan
	$(CTEST) --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) -LE no-asan

# The Python package (python/, scikit-build-core + CMake) built and installed into .venv; the CMake build folder
# build-python/ is kept between runs, so a rebuild compiles only what changed.
python: deps venv
	$(PIP) install -q --no-build-isolation -C build-dir=build-python/{wheel_tag} ./

test-python: python
	$(VENV)/bin/python -m pytest -q python/tests

test: venv test-c test-asan test-python

# The main job on our own bundled game: StarCatcher-Nes played by a random agent (DISCRETE actions from the game's
# action groups, each held 4 frames) and scored by its scenario, then a scripted run; last frame as PNG.
demo: build
	@mkdir -p $(BUILD)/demo
	./$(BUILD)/cli/retrogym play StarCatcher-Nes --random 1 --episodes 3 --png $(BUILD)/demo/last-frame.png
	./$(BUILD)/cli/retrogym play StarCatcher-Nes --frames 3600 --buttons RIGHT@30 --buttons 0@80 \
	  --buttons LEFT@500 --buttons 0@600 --buttons A+RIGHT@1200 --buttons 0@1230 --buttons LEFT@2500
	@echo "last frame written to $(BUILD)/demo/last-frame.png"

bench: build
	./$(BUILD)/bench/bench_host

roms:
	$(MAKE) -C tests/roms
	$(MAKE) -C games/starcatcher

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-python

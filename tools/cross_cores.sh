#!/usr/bin/env bash
# Cross-compiles our NES core as a libretro core for macOS (x86-64 and arm64) with zig from PyPI (`ziglang`), the
# experiment behind docs/install.md, "macOS and Windows wheels": no macOS SDK is needed, and nothing built can be
# run here, so this only shows that the core's C builds and links for those targets. `make cross-cores` runs it.
#
#   tools/cross_cores.sh OUT_DIR [ZIG_PYTHON]
#
# ZIG_PYTHON: a Python with the ziglang package (default: .venv-zig/bin/python, made and filled when missing).
set -euo pipefail
out="${1:?usage: tools/cross_cores.sh OUT_DIR [ZIG_PYTHON]}"
py="${2:-.venv-zig/bin/python}"
if ! "$py" -c "import ziglang" 2>/dev/null; then
  [ -x "$py" ] || python3 -m venv "$(dirname "$(dirname "$py")")"
  "$py" -m pip install -q ziglang
fi
mkdir -p "$out"
# The core, its CPU and the src/base files it uses (not own_dirs.c: dladdr1 and link.h are glibc's).
sources=(libretro_export/libretro_shim.c src/cores/nes/*.c src/cpu/m6502/*.c src/base/error.c src/base/log.c
         src/base/strutil.c src/base/bytebuf.c src/base/growth.c src/base/version.c src/base/fileio.c)
status=0
for target in x86_64-macos aarch64-macos; do
  lib="$out/nes_libretro.$target.dylib"
  # _DARWIN_C_SOURCE: macOS hides flock and O_NOFOLLOW under _POSIX_C_SOURCE alone.
  if "$py" -m ziglang cc -target "$target" -std=c11 -O2 -shared -fvisibility=hidden -D_DARWIN_C_SOURCE \
       -DRG_SHIM_NES -Iinclude -Isrc -I/usr/include/libretro-common "${sources[@]}" -o "$lib" &&
     [ -s "$lib" ]; then
    echo "$target: $lib ($(stat -c %s "$lib") bytes)"
  else
    echo "$target: FAILED"
    status=1
  fi
done
exit $status

#!/bin/sh
# The installed C library (docs/install.md, "C library"): `cmake --install` of a finished build into a temporary
# prefix, which is then moved (the install must be relocatable), and checked as a user would use it:
# - libretrogym.so exports exactly the functions the public headers mark RG_API (no rg__ internals);
# - no path of the source or build tree is in any installed file;
# - a C program built with `pkg-config --cflags --libs retrogym`, and one with find_package(retrogym) (shared and
#   static targets), find our Atari core and our integrations in the moved prefix and run an Atari 2600 ROM with it;
# - the installed CLI lists the moved core as its own;
# - retrogym configures as a subproject of another CMake project (configure only: building it again costs minutes).
# The ROM: ../shared/roms/automaton.a26 beside the repository, else one of ale-py's ROMs in .venv; without either
# everything but the runs on a ROM is checked and the test reports a skip (77).
# usage: test_install.sh BUILD_DIR SOURCE_DIR [CC]
set -u
build=$(cd "$1" && pwd) || exit 1
src=$(cd "$2" && pwd) || exit 1
cc="${3:-cc}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rg-install-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # check NAME STATUS
  if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAIL: $1"; fails=$((fails + 1)); fi
  return "$2"
}

rom=""
for r in "$src/../shared/roms/automaton.a26" "$src"/.venv/lib/python3*/site-packages/ale_py/roms/pong.bin; do
  [ -f "$r" ] && { rom=$r; break; }
done

cmake --install "$build" --prefix "$tmp/staged" > "$tmp/install.log" 2>&1
check "cmake --install" $? || cat "$tmp/install.log"
mv "$tmp/staged" "$tmp/moved"
prefix="$tmp/moved"
lib=$(dirname "$(find "$prefix" -name libretrogym.so -print -quit)")
[ -d "$lib" ] && [ -f "$lib/libretrogym.a" ] && [ -f "$lib/pkgconfig/retrogym.pc" ] && \
  [ -f "$lib/cmake/retrogym/retrogymConfig.cmake" ] && [ -f "$lib/cmake/retrogym/retrogymConfigVersion.cmake" ] && \
  [ -f "$prefix/include/retrogym/retrogym.h" ] && [ -x "$prefix/bin/retrogym" ] && \
  [ -f "$lib/retrogym/cores/atari2600_libretro.so" ] && [ -f "$lib/retrogym/cores/nes_libretro.so" ] && \
  [ -f "$prefix/share/retrogym/data/stable/StarCatcher-Nes/data.json" ]
check "installed: headers, libretrogym.so/.a, retrogym.pc, CMake package, bin/retrogym, cores, data" $?
cores="$lib/retrogym/cores"
data="$prefix/share/retrogym/data"

# Exports: the sorted RG_API names of the headers, and nothing else.
grep -h '^RG_API' "$src"/include/retrogym/*.h | grep -o 'rg_[a-z0-9_]*(' | tr -d '(' | sort -u > "$tmp/api.txt"
nm -D --defined-only "$lib/libretrogym.so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u > "$tmp/exported.txt"
diff "$tmp/api.txt" "$tmp/exported.txt" > "$tmp/exports.diff"
check "libretrogym.so exports exactly the $(wc -l < "$tmp/api.txt") RG_API functions" $? || head -20 "$tmp/exports.diff"

found=$(grep -rlaF -e "$src" -e "$build" "$prefix")
[ -z "$found" ]
check "no source or build path in the installed files" $? || echo "$found"

# pkg-config.
export PKG_CONFIG_PATH="$lib/pkgconfig"
flags=$(pkg-config --cflags --libs retrogym) && libdir=$(pkg-config --variable=libdir retrogym) &&
  "$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp/app_pc" "$src/tests/install/installed_app.c" $flags \
    "-Wl,-rpath,$libdir" 2> "$tmp/cc.log"
check "a C program builds with pkg-config --cflags --libs retrogym ($flags)" $? || cat "$tmp/cc.log"
unset RETROGYM_CORE_PATH RETROGYM_DATA_PATH
export RETROGYM_STABLE_RETRO=""
"$tmp/app_pc" "$cores" "$data" $rom
check "the pkg-config program finds the moved core and data and runs ${rom:-no ROM}" $?

# find_package(retrogym): shared and static.
cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  > "$tmp/consumer.log" 2>&1 && cmake --build "$tmp/consumer" >> "$tmp/consumer.log" 2>&1
check "a CMake project builds with find_package(retrogym) (retrogym::retrogym, retrogym::retrogym_static)" $? ||
  tail -30 "$tmp/consumer.log"
"$tmp/consumer/app_shared" "$cores" "$data" $rom
check "find_package program (shared) runs" $?
RETROGYM_CORE_PATH="$cores" RETROGYM_DATA_PATH="$data" "$tmp/consumer/app_static" "$cores" "$data" $rom
check "find_package program (static; cores and data through the environment) runs" $?

# The installed CLI.
RETROGYM_PYTHON=/bin/false "$prefix/bin/retrogym" cores > "$tmp/cores.txt" 2>&1
grep -q "^atari2600 .* own  *$cores/atari2600_libretro.so" "$tmp/cores.txt"
check "bin/retrogym cores lists the moved atari2600_libretro.so as its own" $? || cat "$tmp/cores.txt"
RETROGYM_PYTHON=/bin/false "$prefix/bin/retrogym" games > "$tmp/games.txt" 2>&1
grep -q "^StarCatcher-Nes" "$tmp/games.txt"
check "bin/retrogym games lists StarCatcher-Nes from the moved share/retrogym/data" $? || cat "$tmp/games.txt"

# As a subproject.
cmake -S "$src/tests/install/subproject" -B "$tmp/subproject" -DRG_SOURCE="$src" > "$tmp/sub.log" 2>&1
check "retrogym configures as a subproject (no tests, benchmarks or Python; retrogym::retrogym defined)" $? ||
  tail -30 "$tmp/sub.log"

if [ $fails -gt 0 ]; then
  echo "$fails check(s) failed"
  exit 1
fi
if [ -z "$rom" ]; then
  echo "no Atari 2600 ROM (../shared/roms/automaton.a26 or ale-py's): the runs on a ROM were not checked"
  exit 77
fi
echo "all checks passed"

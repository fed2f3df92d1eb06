#!/usr/bin/env bash
# The product stands alone (docs/testing.md, "docs_standalone"): no file outside the tests cites the external
# compatibility or hosting notes we worked from (their names, "§N" section numbers) or reads a folder beside the
# checkout. The facts those notes gave live in docs/ (docs/formats.md first).
#
#   check_standalone.sh SOURCE_DIR
#
# Scanned: every text file of SOURCE_DIR except tests/, python/tests/, .ci/ (tests and CI may use ../shared, the
# optional third-party test data) and build outputs. docs/ and bench/ may name ../shared (the docs describe where the
# tests and benches find that optional data; bench programs read it when present); nothing else may.
# First the scanner is run on a small tree with one planted violation per rule, each of which it must report, so
# the check cannot pass by finding nothing.
set -u

# scan ROOT: prints "path:line:text" for each violation; exit 1 when there is one.
scan() {
  local root="$1" hits found=0
  # Rules for every scanned file: names of the external notes, section citations into them, absolute paths to them.
  local everywhere='compat[ -]spec|shared/docs|libretro-hosting\.md|test-roms\.md|house-style\.md|hosting doc|§ ?[0-9]|/work/shared'
  # Rule for shipped code and data (not docs/ or bench/): a path beside the checkout.
  local beside='\.\./shared'
  local list
  list=$(mktemp)
  (cd "$root" && find . \( -path ./.git -o -path ./tests -o -path ./python/tests -o -path ./.ci -o -name '.venv*' \
       -o \( -type d -name 'build*' \) -o -name __pycache__ -o -name '*.egg-info' -o -name node_modules \) -prune \
       -o -type f -print) | sed 's|^\./||' | sort >"$list"
  if [ ! -s "$list" ]; then
    rm -f "$list"; echo "nothing to scan under $root"; return 1
  fi
  hits=$(cd "$root" && tr '\n' '\0' <"$list" | xargs -0 grep -H -I -n -i -E "$everywhere" 2>/dev/null)
  [ -z "$hits" ] || { found=1; printf '%s\n' "$hits"; }
  hits=$(cd "$root" && grep -v -E '^(docs|bench)/' "$list" | tr '\n' '\0' | xargs -0 -r grep -H -I -n -E "$beside" 2>/dev/null)
  [ -z "$hits" ] || { found=1; printf '%s\n' "$hits"; }
  rm -f "$list"
  return $found
}

src="${1:?usage: check_standalone.sh SOURCE_DIR}"
[ -d "$src/include/retrogym" ] || { echo "FAIL: $src is not the source tree"; exit 1; }

# 1. The scanner finds what it must (and leaves allowed mentions alone).
plant=$(mktemp -d)
trap 'rm -rf "$plant"' EXIT
mkdir -p "$plant/include" "$plant/src" "$plant/docs" "$plant/bench" "$plant/tests" "$plant/python/tests" \
  "$plant/python/retrogym"
printf '/* the groups of compat spec 3.3 */\n' >"$plant/include/a.h"
printf '/* see the Compat-Spec */\n' >"$plant/src/b.c"
printf 'as the spec says (\xc2\xa75.3)\n' >"$plant/docs/c.md"
printf '# libretro-hosting.md, part 6\n' >"$plant/python/retrogym/d.py"
printf 'rules of shared/docs/test-roms.md\n' >"$plant/docs/e.md"
printf 'path = "/work/shared/roms"\n' >"$plant/src/f.c"
printf 'open("../shared/roms/x.nes")\n' >"$plant/python/retrogym/g.py"
printf 'the hosting doc says\n' >"$plant/src/h.c"
# allowed: tests, and docs/bench naming the optional test data
printf '/* compat spec 5.3, ../shared/roms */\n' >"$plant/tests/t.c"
printf '# compat spec 7.2\n' >"$plant/python/tests/test_t.py"
printf 'the demo ROMs of `../shared/roms`\n' >"$plant/docs/ok.md"
printf 'ROOT "/../shared/roms/demo.nes"\n' >"$plant/bench/ok.c"
report=$(scan "$plant")
rc=$?
want="include/a.h src/b.c docs/c.md python/retrogym/d.py docs/e.md src/f.c python/retrogym/g.py src/h.c"
status=0
[ $rc -eq 1 ] || { echo "FAIL: the scanner passed a tree with planted violations"; status=1; }
for p in $want; do
  printf '%s\n' "$report" | grep -q "^$p:" || { echo "FAIL: the scanner missed the planted violation in $p"; status=1; }
done
for p in tests/t.c python/tests/test_t.py docs/ok.md bench/ok.c; do
  printf '%s\n' "$report" | grep -q "^$p:" && { echo "FAIL: the scanner flagged the allowed mention in $p"; status=1; }
done
[ $status -eq 0 ] || { printf '%s\n' "$report"; exit 1; }
echo "scanner self-check: the 8 planted violations found, the 4 allowed mentions passed"

# 2. The real tree.
if ! report=$(scan "$src"); then
  printf '%s\n' "$report"
  echo "FAIL: product files cite the external notes or a folder beside the checkout; write the fact in docs/ and cite that"
  exit 1
fi
echo "OK: no product file outside tests/ cites the external notes or ../shared"

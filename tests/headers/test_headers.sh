#!/bin/sh
# Each public header (include/retrogym/*.h) compiles alone, included first and with nothing else, as C11 and as
# C++ (C++11), with warnings as errors: it includes what it uses and its declarations are valid C++ (extern "C").
# usage: test_headers.sh SOURCE_DIR [CC] [CXX]   (CXX missing on the machine: the C++ half is skipped, exit 77)
src="$1"
cc="${2:-cc}"
cxx="${3:-c++}"
fails=0
n=0
have_cxx=1
command -v "$cxx" >/dev/null 2>&1 || have_cxx=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for h in "$src"/include/retrogym/*.h; do
  name=$(basename "$h")
  printf '#include <retrogym/%s>\n#include <retrogym/%s>\nint rg_header_test_anchor;\n' "$name" "$name" > "$tmp/t.c"
  if ! "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -Wstrict-prototypes -fsyntax-only -I"$src/include" \
       -x c "$tmp/t.c" 2> "$tmp/err"; then
    echo "FAIL (C11): $name"; cat "$tmp/err"; fails=$((fails + 1))
  fi
  if [ $have_cxx = 1 ] && ! "$cxx" -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$src/include" \
       -x c++ "$tmp/t.c" 2> "$tmp/err"; then
    echo "FAIL (C++11): $name"; cat "$tmp/err"; fails=$((fails + 1))
  fi
  n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no headers found in $src/include/retrogym"; exit 1; }
if [ $fails -gt 0 ]; then
  echo "$fails failure(s) in $n headers"
  exit 1
fi
if [ $have_cxx = 0 ]; then
  echo "$n headers compile alone as C11; no C++ compiler ($cxx): the C++ half is skipped"
  exit 77
fi
echo "$n headers compile alone as C11 and as C++11"

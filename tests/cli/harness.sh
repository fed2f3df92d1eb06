# Shared by the CLI test scripts (sourced): counters, checks, and running a command into $tmp/out and $tmp/err.
# The sourcing script sets $tmp first; it ends with `finish`.
# The tests see the machine's Debian cores and the roots they name, not an installed stable-retro (its discovery is
# tested on its own, tests/cli/test_cli_library.sh) nor the user's ~/.local/share/retrogym.
export RETROGYM_STABLE_RETRO=
export XDG_DATA_HOME="$tmp/xdg-data"
pass=0
fail=0
check() { # name, condition result (0 = ok)
  if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
expect_rc() { # name, expected rc, command...
  local name="$1" want="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq "$want" ]; check "$name (rc $rc, wanted $want)" $?
  if [ "$rc" -ne "$want" ]; then sed 's/^/  out: /' "$tmp/out"; sed 's/^/  err: /' "$tmp/err"; fi
}
one_line_err() { [ "$(wc -l <"$tmp/err")" -eq 1 ]; }
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}

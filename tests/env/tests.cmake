rg_test(env_api env/test_env.c)
# The options structs: initialisers and init functions, version ranges, the named limits (RG_ENV_MAX_*, RG_POOL_MAX_*).
rg_test(env_options env/test_env_options.c)
# The observed screen: fixed size, frames read at it with their pitch (src/emu/screen.c); stable-retro's gpgx.
rg_test(env_screen env/test_env_screen.c)
# A step whose episode ends inside its frame skip on our own cores (which skip drawing unobserved frames) returns that
# frame, as one frame per step does (src/env/env_step.c, src/emu/emu_redraw.h).
rg_test(env_skip_end env/test_env_skip_end.c)
if(NOT RG_SANITIZE)
  rg_test(env_no_alloc env/test_env_noalloc.c LABELS no-asan)
endif()
# Recording episodes as movies and playing them back (src/env/env_record.c, env_playback.c; the recorded rewards: src/movie/movie_scores.c).
rg_test(env_movie env/test_env_movie.c TIMEOUT 600)
# The start state as bytes and a caller's ROM (src/env/env_start.c, rg_env_options.rom).
rg_test(env_start env/test_env_start.c)
# A console's start sequence from power-on (ALE's reset on the Atari 2600; rg_env_options.reset_sequence).
rg_test(env_reset_sequence env/test_env_reset_sequence.c)
# The CLI's movie commands (record, playback), a shell test like tests/cli/test_cli.sh.
add_test(NAME cli_movie COMMAND "${CMAKE_SOURCE_DIR}/tests/cli/test_cli_movie.sh" "$<TARGET_FILE:retrogym_cli>"
         "${CMAKE_SOURCE_DIR}")
set_tests_properties(cli_movie PROPERTIES TIMEOUT 600
                     ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}/test-tmp/cli_movie;${RG_SANITIZER_ENV}")
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/test-tmp/cli_movie")
# A start state the default core refuses goes to the next installed core of the system (src/env/env.c).
rg_test(env_core_fallback env/test_env_core_fallback.c LIBS ZLIB::ZLIB)
# Under LeakSanitizer the exit crashed LSan's own tracer ("Tracer caught signal 11", 2026-11-27) while it read the
# dynamic TLS left by the two copies of stable-retro's Stella that the test loads and unloads (dlclose leaves a stale
# DTLS range); with TLS not scanned as a root (use_tls=0, stricter: a block only TLS points to counts as a leak) the
# test is checked for leaks as the others are.
# (string_append, value ":use_tls=0")
set_tests_properties(env_core_fallback PROPERTIES ENVIRONMENT_MODIFICATION "LSAN_OPTIONS=string_append::use_tls=0")
# The start state's file picks the core that saved it (src/env/env_core_pick.c).
rg_test(env_state_core env/test_env_state_core.c LIBS ZLIB::ZLIB)

# Tests of the game layer (src/game): data types, variables, scenarios, Lua, action groups, our own game.
rg_test(game_datatype game/test_datatype.c)
rg_test(game_gamedata game/test_gamedata.c)
rg_test(game_lua game/test_lua.c)
# Scenario engine and action groups (tests/game/test_scenario.c, test_actions.c).
rg_test(game_scenario game/test_scenario.c LIBS m)
rg_test(game_actions game/test_actions.c)
# The scenario conformance corpus (tests/game/corpus, data-driven by each folder's expected.json).
rg_test(game_corpus game/test_corpus.c LIBS m)
target_compile_definitions(game_corpus PRIVATE "CORPUS_DIR=\"${CMAKE_CURRENT_SOURCE_DIR}/game/corpus\"")
rg_test(game_starcatcher game/test_starcatcher.c)
# The Lua sandbox against hostile scripts (issue 16: patterns, C-call budgets, random generator, restore, paths).
rg_test(game_lua_sandbox game/test_lua_sandbox.c)
# NaN and infinite results of Lua reward and done functions are errors of the step (issue 16).
rg_test(game_lua_nonfinite game/test_lua_nonfinite.c)
# What a hostile script can make us hold or spend beyond a call's budget (issue 16): snapshot size, the VM's `..`.
rg_test(game_lua_bounds game/test_lua_bounds.c)
# Memory search (issue 19): the value and delta table, the first round against a plain enumeration, overlays, a
# 512 KiB space, saved searches and their bad files.
rg_test(game_search game/test_search.c)

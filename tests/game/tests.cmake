# Tests of the game layer (src/game): data types, variables, scenarios, Lua, action groups, our own game.
rg_test(game_datatype game/test_datatype.c)

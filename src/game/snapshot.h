/* Snapshots of the game layer's run-time state (not its definitions), for rg_env_clone / rg_env_restore. */
#ifndef RG_SRC_GAME_SNAPSHOT_H
#define RG_SRC_GAME_SNAPSHOT_H

#include "base/base.h"

#include <retrogym/gamedata.h>
#include <retrogym/scenario.h>

/* Variables' remembered values (checked against the variable names on restore) and custom variables. */
void rg__gamedata_snapshot(const rg_gamedata *gd, rg__wbuf *w);
int rg__gamedata_restore(rg_gamedata *gd, rg__rbuf *r);
/* Frame counter, done, rewards, totals, and the Lua scripts' global numbers, strings and booleans. */
void rg__scenario_snapshot(const rg_scenario *sc, rg__wbuf *w);
int rg__scenario_restore(rg_scenario *sc, rg_gamedata *gd, rg__rbuf *r);
/* Whether a snapshot the user keeps (rg_env_clone) may hold the scenario's state: RG_ETOOBIG when the scripts'
 * globals exceed RG__LUA_SNAPSHOT_MAX (script_lua.h). The internal copy a restore keeps to roll back is not limited. */
int rg__scenario_snapshot_check(const rg_scenario *sc);
/* Seeds the scripts' random generator (math.random) of the next resets: rg_env_reset with a seed calls it. */
void rg__scenario_seed(rg_scenario *sc, uint64_t seed);

#endif

/* A sandboxed Lua 5.1 interpreter for one scenario: base/table/string/math only, the `data` and `scenario`
 * globals of docs/formats.md "Lua scripts", and limits on instructions, time and memory for every call. */
#ifndef RG_SRC_GAME_SCRIPT_LUA_H
#define RG_SRC_GAME_SCRIPT_LUA_H

#include <retrogym/gamedata.h>
#include <retrogym/scenario.h>

typedef struct rg__lua rg__lua;

/* *frame points at the scenario's frame counter (read by scenario.frame / scenario.timestep). */
int rg__lua_create(rg__lua **out, const rg_script_limits *limits, const uint64_t *frame);
void rg__lua_free(rg__lua *lua);
/* The gamedata that `data` reads and writes (set before each use). */
void rg__lua_bind(rg__lua *lua, rg_gamedata *gd);
/* Runs a chunk (source text, or the file when source is NULL). Binary chunks are refused. */
int rg__lua_run(rg__lua *lua, const char *name, const char *source);
/* Calls a global function with no arguments. Numbers give their value, booleans 0/1, anything else 0. */
int rg__lua_call(rg__lua *lua, const char *function, double *result);

/* The state of the interpreter's math.random generator (splitmix64): seeded by the scenario at each reset and
 * kept in snapshots, so a restore replays the draws. */
void rg__lua_set_random(rg__lua *lua, uint64_t state);
uint64_t rg__lua_random(const rg__lua *lua);

/* The scripts' global numbers, strings and booleans (tables and functions are not captured). */
#include "base/base.h"
void rg__lua_snapshot(rg__lua *lua, rg__wbuf *w);
/* Globals of those kinds not in the snapshot become nil; the snapshot's come back. */
int rg__lua_restore(rg__lua *lua, rg__rbuf *r);
/* The most bytes the globals may take in a snapshot for rg_env_clone (docs/reliability.md): a script that keeps a
 * 12 MB string in a global made every snapshot 12 MB. */
#define RG__LUA_SNAPSHOT_MAX ((size_t)1 << 20)
/* RG_OK, or RG_ETOOBIG naming the size and the limit when rg__lua_snapshot would write more than
 * RG__LUA_SNAPSHOT_MAX bytes. */
int rg__lua_snapshot_check(rg__lua *lua);

#endif

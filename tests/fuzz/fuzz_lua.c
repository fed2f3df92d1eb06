/* Fuzz target "lua": scenario scripts run in the sandbox (src/game/script_lua.c) with tight budgets.
 *
 * The input is Lua source, added to a scenario whose reward (players 1 and 2) and done come from the script's
 * functions `reward`, `reward2` and `done`, over a gamedata with a few variables bound to a memory block. The
 * scenario is reset (the script's top level runs), scored for a few frames, snapshot (the snapshot limit checked)
 * and restored, reset again.
 * The budgets (instructions, time, memory) must hold: every call returns, within the time budget plus a margin
 * (libFuzzer's -timeout and -rss_limit_mb are the outer guards), and errors are reported as codes. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include "game/script_lua.h"
#include "game/snapshot.h"

#include <retrogym/error.h>
#include <retrogym/gamedata.h>
#include <retrogym/scenario.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MEM_SIZE 256
#define SECONDS 0.25

static uint8_t memory[MEM_SIZE];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One call into the scripts: an expected code, and no longer than the time budget allows (with room for a slow,
 * sanitized build and the calls' own work). */
static int timed(int rc, double started)
{
    FUZZ_CHECK(rc == RG_OK || rc == RG_ECORRUPT || rc == RG_ETIMEOUT || rc == RG_ENOMEM || rc == RG_ENOTFOUND);
    double took = now() - started;
    fuzz_note("rc %d after %.3f s: %s", rc, took, rc == RG_OK ? "" : rg_error_last());
    if (took > SECONDS * 8 + 1.0)
        fprintf(stderr, "a script call took %.2f s (budget %.2f s)\n", took, SECONDS);
    FUZZ_CHECK(took <= SECONDS * 8 + 1.0);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *source = malloc(size + 1);
    if (!source)
        return 0;
    memcpy(source, data, size);
    source[size] = '\0';
    rg_gamedata *gd = NULL;
    rg_scenario *sc = NULL;
    FUZZ_CHECK(rg_gamedata_create(&gd) == RG_OK && rg_scenario_create(&sc) == RG_OK);
    FUZZ_CHECK(rg_gamedata_set_variable(gd, "score", 0, "<u4", RG_MASK_ALL) == RG_OK);
    FUZZ_CHECK(rg_gamedata_set_variable(gd, "lives", 4, "|u1", RG_MASK_ALL) == RG_OK);
    FUZZ_CHECK(rg_gamedata_set_variable(gd, "x", 6, ">i2", RG_MASK_ALL) == RG_OK);
    FUZZ_CHECK(rg_gamedata_set_variable(gd, "bcd", 8, ">d3", RG_MASK_ALL) == RG_OK);
    FUZZ_CHECK(rg_gamedata_set_variable(gd, "edge", MEM_SIZE - 2, "<u4", RG_MASK_ALL) == RG_OK);
    for (unsigned i = 0; i < MEM_SIZE; i++)
        memory[i] = (uint8_t)(i * 5u);
    rg_mem_block block = {0, MEM_SIZE, memory};
    FUZZ_CHECK(rg_gamedata_bind_blocks(gd, &block, 1, 0) == RG_OK);
    rg_script_limits limits = {2000000, SECONDS, 16u << 20};
    FUZZ_CHECK(rg_scenario_set_script_limits(sc, &limits) == RG_OK);
    FUZZ_CHECK(rg_scenario_add_script_source(sc, "fuzz.lua", source) == RG_OK);
    FUZZ_CHECK(rg_scenario_set_reward_script(sc, 0, "lua:reward") == RG_OK);
    FUZZ_CHECK(rg_scenario_set_reward_script(sc, 1, "reward2") == RG_OK);
    FUZZ_CHECK(rg_scenario_set_done_script(sc, "done") == RG_OK);

    if (timed(rg_scenario_reset(sc, gd), now()) == RG_OK) {
        for (unsigned f = 0; f < 3; f++) {
            memory[f] ^= 0x55;
            if (timed(rg_scenario_update(sc, gd), now()) != RG_OK)
                break;
            rg_scenario_reward(sc, 0);
            rg_scenario_reward(sc, 1);
            rg_scenario_done(sc);
        }
        rg__wbuf count = {0}, part = {0};
        rg__gamedata_snapshot(gd, &count);
        rg__scenario_snapshot(sc, &count);
        /* the limit of the scripts' part of a user's snapshot (rg_env_clone) refuses exactly what exceeds it */
        rg__scenario_snapshot(sc, &part);
        int limit_rc = rg__scenario_snapshot_check(sc);
        FUZZ_CHECK(limit_rc == RG_OK || limit_rc == RG_ETOOBIG);
        FUZZ_CHECK(limit_rc == RG_OK ? part.len <= RG__LUA_SNAPSHOT_MAX + 1024 /* the scenario's own fields */
                                     : part.len > RG__LUA_SNAPSHOT_MAX);
        uint8_t *snap = malloc(count.len ? count.len : 1);
        FUZZ_CHECK(snap != NULL);
        rg__wbuf w = {snap, 0, count.len, 0};
        rg__gamedata_snapshot(gd, &w);
        rg__scenario_snapshot(sc, &w);
        FUZZ_CHECK(!w.overflow && w.len == count.len);
        rg__rbuf r = {snap, w.len, 0, 0};
        double t0 = now();
        FUZZ_CHECK(rg__gamedata_restore(gd, &r) == RG_OK);
        timed(rg__scenario_restore(sc, gd, &r), t0);
        free(snap);
        if (timed(rg_scenario_reset(sc, gd), now()) == RG_OK)
            timed(rg_scenario_update(sc, gd), now());
    }
    rg_scenario_free(sc);
    rg_gamedata_free(gd);
    free(source);
    return 0;
}

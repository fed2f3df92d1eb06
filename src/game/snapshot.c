/* Snapshots of variables and scenario state (see snapshot.h). */
#include "snapshot.h"

#include "gamedata_types.h"
#include "scenario_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 4096

void rg__gamedata_snapshot(const rg_gamedata *gd, rg__wbuf *w)
{
    rg__w_u64(w, gd->n_vars);
    for (size_t i = 0; i < gd->n_vars; i++) {
        const rg__gd_var *v = &gd->vars[i];
        rg__w_str(w, v->name);
        rg__w_u64(w, (uint64_t)v->cur);
        rg__w_u64(w, (uint64_t)v->prev);
        uint8_t flags[4] = {v->have_cur, v->have_prev, v->cur_ok, v->prev_ok};
        rg__w_bytes(w, flags, 4);
    }
    rg__w_u64(w, gd->n_custom);
    for (size_t i = 0; i < gd->n_custom; i++) {
        rg__w_str(w, gd->custom[i].name);
        rg__w_u64(w, (uint64_t)gd->custom[i].value.kind);
        uint64_t bits;
        memcpy(&bits, &gd->custom[i].value.number, 8);
        rg__w_u64(w, bits);
    }
}

int rg__gamedata_restore(rg_gamedata *gd, rg__rbuf *r)
{
    char name[NAME_MAX_LEN];
    if (rg__r_u64(r) != gd->n_vars)
        return rg__error(RG_ECORRUPT, "the snapshot's variables differ from this game's");
    for (size_t i = 0; i < gd->n_vars; i++) {
        rg__gd_var *v = &gd->vars[i];
        if (rg__r_str(r, name, sizeof name) != 0 || strcmp(name, v->name) != 0)
            return rg__error(RG_ECORRUPT, "the snapshot's variables differ from this game's");
        v->cur = (int64_t)rg__r_u64(r);
        v->prev = (int64_t)rg__r_u64(r);
        const uint8_t *f = rg__r_bytes(r, 4);
        if (!f)
            break;
        v->have_cur = f[0], v->have_prev = f[1], v->cur_ok = f[2], v->prev_ok = f[3];
    }
    uint64_t n = rg__r_u64(r);
    rg_gamedata_clear_custom(gd);
    for (uint64_t i = 0; i < n && !r->bad; i++) {
        rg_value value;
        if (rg__r_str(r, name, sizeof name) != 0)
            break;
        value.kind = (rg_value_kind)rg__r_u64(r);
        uint64_t bits = rg__r_u64(r);
        memcpy(&value.number, &bits, 8);
        int rc = rg_gamedata_custom_set(gd, name, value);
        if (rc != RG_OK)
            return rc;
    }
    return r->bad ? rg__error(RG_ECORRUPT, "the snapshot is truncated") : RG_OK;
}

void rg__scenario_snapshot(const rg_scenario *sc, rg__wbuf *w)
{
    rg__w_u64(w, sc->frame);
    rg__w_u64(w, (uint64_t)sc->done_flag);
    rg__w_bytes(w, sc->reward, sizeof sc->reward);
    rg__w_bytes(w, sc->total, sizeof sc->total);
    /* 2: the scripts' seed and random generator come before the globals (1, the earlier format, had neither) */
    rg__w_u64(w, sc->lua ? 2 : 0);
    if (sc->lua) {
        rg__w_u64(w, sc->script_seed);
        rg__w_u64(w, rg__lua_random(sc->lua));
        rg__lua_snapshot(sc->lua, w);
    }
}

int rg__scenario_snapshot_check(const rg_scenario *sc)
{
    return sc->lua ? rg__lua_snapshot_check(sc->lua) : RG_OK;
}

int rg__scenario_restore(rg_scenario *sc, rg_gamedata *gd, rg__rbuf *r)
{
    uint64_t frame = rg__r_u64(r), done = rg__r_u64(r);
    const void *reward = rg__r_bytes(r, sizeof sc->reward), *total = rg__r_bytes(r, sizeof sc->total);
    uint64_t has_lua = rg__r_u64(r);
    uint64_t seed = has_lua == 2 ? rg__r_u64(r) : sc->script_seed, random = has_lua == 2 ? rg__r_u64(r) : 0;
    if (r->bad)
        return rg__error(RG_ECORRUPT, "the snapshot is truncated");
    if (has_lua > 2)
        return rg__error(RG_ECORRUPT, "the snapshot's scenario part is damaged");
    sc->frame = frame;
    sc->done_flag = done != 0;
    memcpy(sc->reward, reward, sizeof sc->reward);
    memcpy(sc->total, total, sizeof sc->total);
    if (!has_lua)
        return RG_OK;
    /* The interpreter of the snapshot's episode: scripts loaded afresh, then their globals put back. */
    if (!sc->lua) {
        uint64_t keep = sc->frame;
        int rc = rg__scenario_load_scripts(sc, gd);
        sc->frame = keep;
        if (rc != RG_OK)
            return rc;
    }
    if (!sc->lua)
        return rg__error(RG_ECORRUPT, "the snapshot has scripts this game has not");
    sc->script_seed = seed;
    if (has_lua == 2)
        rg__lua_set_random(sc->lua, random);
    rg__lua_bind(sc->lua, gd); /* its custom variables are counted from this gamedata */
    return rg__lua_restore(sc->lua, r);
}

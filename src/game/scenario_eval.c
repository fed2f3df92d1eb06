/* Scenario evaluation: reset and the per-frame update (docs/formats.md, "Scenarios", "Lua scripts"). */
#include "gamedata_internal.h"
#include "scenario_types.h"
#include "snapshot.h"

#include <math.h>
#include <string.h>

/* A data.json variable's index, or -1: then the name is looked up among the custom variables at each use (they
 * come and go with scripts), as Gym Retro's lookupValue does. */
static int resolve_name(const rg_gamedata *gd, const char *name, long *idx)
{
    *idx = rg__gd_index(gd, name);
    return RG_OK;
}

static int resolve_node(const rg_gamedata *gd, rg__done_node *node)
{
    for (size_t i = 0; i < node->n; i++) {
        int rc = resolve_name(gd, node->terms[i].name, &node->terms[i].idx);
        if (rc != RG_OK)
            return rc;
    }
    for (size_t i = 0; i < node->n_nodes; i++) {
        int rc = resolve_node(gd, &node->nodes[i]);
        if (rc != RG_OK)
            return rc;
    }
    return RG_OK;
}

/* Variable names become gamedata indices once per gamedata and variable set. */
static int resolve(rg_scenario *sc, const rg_gamedata *gd)
{
    if (sc->resolved_gd == gd && sc->resolved_gen == rg__gd_generation(gd))
        return RG_OK;
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++) {
        rg__player_rewards *pr = &sc->players[p];
        if (pr->script)
            continue;
        for (size_t i = 0; i < pr->n; i++) {
            int rc = resolve_name(gd, pr->terms[i].name, &pr->terms[i].idx);
            if (rc != RG_OK)
                return rc;
        }
    }
    if (!sc->done_script) {
        int rc = resolve_node(gd, &sc->done);
        if (rc != RG_OK)
            return rc;
    }
    sc->resolved_gd = gd;
    sc->resolved_gen = rg__gd_generation(gd);
    return RG_OK;
}

static int measure(const rg_gamedata *gd, long idx, const char *name, rg_measurement m, int64_t *v)
{
    if (idx >= 0)
        return m == RG_MEASURE_DELTA ? rg__gd_delta_at(gd, (size_t)idx, v) : rg__gd_value_at(gd, (size_t)idx, v);
    rg_value cv;
    if (rg_gamedata_custom_get(gd, name, &cv) != RG_OK)
        return rg__error(RG_ENOTFOUND, "scenario variable \"%s\" is not defined in the game data", name);
    /* custom variables have no history: their delta is 0 */
    *v = m == RG_MEASURE_DELTA ? 0 : rg__double_to_i64(cv.number);
    return RG_OK;
}

static float contribution(const rg_reward_spec *s, int64_t measured)
{
    int64_t m = rg_op_apply(s->op, measured, s->reference);
    if (m > 0)
        return (float)m * s->reward;
    if (m < 0)
        return (float)m * s->penalty;
    return 0.0f;
}

static int node_done(const rg_gamedata *gd, const rg__done_node *node, int *done)
{
    for (size_t i = 0; i < node->n; i++) {
        const rg__done_term *t = &node->terms[i];
        int64_t v;
        rg_measurement m = t->spec.measurement == RG_MEASURE_DELTA ? RG_MEASURE_DELTA : RG_MEASURE_ABSOLUTE;
        int rc = measure(gd, t->idx, t->name, m, &v);
        if (rc != RG_OK)
            return rc;
        int fires = rg_op_apply(t->spec.op, v, t->spec.reference) > 0;
        if (fires && !node->all) {
            *done = 1;
            return RG_OK;
        }
        if (!fires && node->all) {
            *done = 0;
            return RG_OK;
        }
    }
    for (size_t i = 0; i < node->n_nodes; i++) {
        int fires;
        int rc = node_done(gd, &node->nodes[i], &fires);
        if (rc != RG_OK)
            return rc;
        if (fires && !node->all) {
            *done = 1;
            return RG_OK;
        }
        if (!fires && node->all) {
            *done = 0;
            return RG_OK;
        }
    }
    *done = node->all;
    return RG_OK;
}

/* A script's number that is NaN or infinite (0/0, 1/0, or a double past the float range for a reward) would poison
 * every sum a trainer makes; it is an error of the step, naming the function, and the scenario keeps its values. */
static int non_finite(const char *what, const char *function, double v)
{
    const char *name = isnan(v) ? "NaN" : isinf(v) ? (v > 0 ? "inf" : "-inf") : NULL;
    if (name)
        return rg__error(RG_ECORRUPT, "%s script \"%s\" returned %s; it must return a finite number", what, function,
                         name);
    return rg__error(RG_ECORRUPT, "%s script \"%s\" returned %g, outside the range of a float reward", what,
                     function, v);
}

static int player_reward(rg_scenario *sc, const rg_gamedata *gd, unsigned p, float *out)
{
    const rg__player_rewards *pr = &sc->players[p];
    *out = 0.0f;
    if (pr->script) {
        double r;
        int rc = rg__lua_call(sc->lua, pr->script, &r);
        if (rc != RG_OK)
            return rc;
        if (!isfinite((float)r))
            return non_finite("reward", pr->script, r);
        *out = (float)r;
        return RG_OK;
    }
    float total = 0.0f;
    if (pr->has_time)
        total += contribution(&pr->time, 1);
    for (size_t i = 0; i < pr->n; i++) {
        const rg__reward_term *t = &pr->terms[i];
        int64_t v;
        rg_measurement m = t->spec.measurement == RG_MEASURE_ABSOLUTE ? RG_MEASURE_ABSOLUTE : RG_MEASURE_DELTA;
        int rc = measure(gd, t->idx, t->name, m, &v);
        if (rc != RG_OK)
            return rc;
        total += contribution(&t->spec, v);
    }
    *out = total;
    return RG_OK;
}

static int needs_lua(const rg_scenario *sc)
{
    if (sc->n_scripts || sc->done_script)
        return 1;
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++)
        if (sc->players[p].script)
            return 1;
    return 0;
}

static uint64_t mix_seed(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rg__scenario_seed(rg_scenario *sc, uint64_t seed)
{
    sc->script_seed = seed ^ 0xD1B54A32D192ED03ull; /* not the env's own generator's stream */
}

int rg__scenario_load_scripts(rg_scenario *sc, rg_gamedata *gd)
{
    rg__lua_free(sc->lua);
    sc->lua = NULL;
    if (!needs_lua(sc))
        return RG_OK;
    int rc = rg__lua_create(&sc->lua, &sc->limits, &sc->frame);
    if (rc != RG_OK)
        return rc;
    rg__lua_bind(sc->lua, gd);
    rg__lua_set_random(sc->lua, sc->script_seed);
    for (size_t i = 0; i < sc->n_scripts; i++)
        if ((rc = rg__lua_run(sc->lua, sc->scripts[i].name, sc->scripts[i].source)) != RG_OK) {
            rg__lua_free(sc->lua); /* never keep a half-loaded interpreter */
            sc->lua = NULL;
            return rc;
        }
    return RG_OK;
}

int rg_scenario_reset(rg_scenario *sc, rg_gamedata *gd)
{
    if (!sc || !gd)
        return rg__error(RG_EINVAL, "rg_scenario_reset: NULL argument");
    memset(sc->reward, 0, sizeof sc->reward);
    memset(sc->total, 0, sizeof sc->total);
    sc->done_flag = 0;
    sc->frame = 0;
    rg_gamedata_clear_custom(gd);
    sc->script_seed = mix_seed(sc->script_seed + 0x9E3779B97F4A7C15ull); /* each episode draws anew */
    return rg__scenario_load_scripts(sc, gd);
}

int rg_scenario_update(rg_scenario *sc, rg_gamedata *gd)
{
    if (!sc || !gd)
        return rg__error(RG_EINVAL, "rg_scenario_update: NULL argument");
    int rc = rg_gamedata_update(gd);
    if (rc != RG_OK)
        return rc;
    if ((rc = resolve(sc, gd)) != RG_OK)
        return rc;
    if (needs_lua(sc)) {
        if (!sc->lua && (rc = rg__scenario_load_scripts(sc, gd)) != RG_OK)
            return rc;
        rg__lua_bind(sc->lua, gd);
    }
    int done = 0;
    if (sc->done_script) {
        double d;
        if ((rc = rg__lua_call(sc->lua, sc->done_script, &d)) != RG_OK)
            return rc;
        if (!isfinite(d))
            return non_finite("done", sc->done_script, d);
        done = d != 0;
    } else if ((rc = node_done(gd, &sc->done, &done)) != RG_OK) {
        return rc;
    }
    float reward[RG_SCENARIO_MAX_PLAYERS];
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++)
        if ((rc = player_reward(sc, gd, p, &reward[p])) != RG_OK)
            return rc;
    sc->done_flag = done;
    for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++) {
        sc->reward[p] = reward[p];
        sc->total[p] += reward[p];
    }
    sc->frame++;
    return RG_OK;
}

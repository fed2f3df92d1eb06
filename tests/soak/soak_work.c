#define _POSIX_C_SOURCE 200809L
#include "soak_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void soak_die(const char *what, const char *label)
{
    fprintf(stderr, "soak: FAIL: %s (%s): %s\n", what, label, rg_error_last());
    exit(1);
}

void soak_check(int rc, const char *what, const char *label)
{
    if (rc != RG_OK)
        soak_die(what, label);
}

static void *xmalloc(size_t size)
{
    void *p = calloc(1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "soak: out of memory\n");
        exit(1);
    }
    return p;
}

uint64_t soak_rand(uint64_t *state)
{
    /* xorshift64*: a fixed seed gives the same run every time */
    uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dull;
}

void soak_random_action(const rg_env *env, uint64_t *rng, int64_t *a)
{
    size_t n = rg_env_action_length(env);
    const rg_actionset *as = rg_env_actionset(env);
    switch (rg_env_action_mode(env)) {
    case RG_ACTIONS_DISCRETE:
        a[0] = (int64_t)(soak_rand(rng) % rg_env_discrete_count(env));
        break;
    case RG_ACTIONS_MULTI_DISCRETE: {
        size_t groups = rg_actionset_group_count(as);
        for (size_t i = 0; i < n; i++)
            a[i] = (int64_t)(soak_rand(rng) % rg_actionset_combo_count(as, i % groups));
        break;
    }
    default:
        for (size_t i = 0; i < n; i++)
            a[i] = (soak_rand(rng) & 3) == 0;
    }
}

void soak_snapshot(rg_env *env, uint8_t **buf, size_t *cap, size_t *len, const char *label)
{
    size_t need;
    soak_check(rg_env_clone_size(env, &need), "clone size", label);
    if (need > *cap) {
        free(*buf);
        *buf = xmalloc(need);
        *cap = need;
    }
    soak_check(rg_env_clone(env, *buf, *cap, len), "clone", label);
}

/* ---- single environments ---- */

void soak_single_open(soak_single *s, const char *label, const rg_env_options *o, unsigned burst, uint64_t seed,
                      const char *out_dir)
{
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", label);
    soak_check(rg_env_create(&s->env, o), "create", label);
    s->obs_size = rg_env_obs_size(s->env);
    s->obs = xmalloc(s->obs_size);
    s->action = xmalloc(rg_env_action_length(s->env) * sizeof *s->action);
    s->rng = seed * 0x9e3779b97f4a7c15ull + 1;
    s->burst = burst;
    s->out_dir = out_dir;
    soak_check(rg_env_reset(s->env, 1, seed, s->obs, s->obs_size), "reset", label);
}

/* Observation, RAM and the raw emulator state read back (the paths a training loop's wrappers use). */
static void read_back(soak_single *s)
{
    rg_emu *emu = rg_env_emu(s->env);
    size_t ram = rg_emu_ram_size(emu), state;
    soak_check(rg_emu_state_size(emu, &state), "state size", s->label);
    size_t need = ram > state ? ram : state;
    if (need > s->scratch_cap) {
        free(s->scratch);
        s->scratch = xmalloc(need);
        s->scratch_cap = need;
    }
    soak_check(rg_env_observe(s->env, s->obs, s->obs_size), "observe", s->label);
    soak_check(rg_emu_ram_copy(emu, s->scratch, s->scratch_cap), "ram copy", s->label);
    size_t written;
    soak_check(rg_emu_state_save(emu, s->scratch, s->scratch_cap, &written), "state save", s->label);
    soak_check(rg_emu_state_load(emu, s->scratch, written), "state load", s->label);
}

/* A gzip .state file written and loaded back (one name for every env: the folder must not grow). */
static void state_file(soak_single *s, soak_counts *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/soak.state", s->out_dir);
    soak_check(rg_emu_state_save_file(rg_env_emu(s->env), path), "state file save", s->label);
    soak_check(rg_emu_state_load_file(rg_env_emu(s->env), path), "state file load", s->label);
    c->state_files++;
}

static void single_events(soak_single *s, soak_counts *c)
{
    uint64_t k = s->steps;
    if (k % 211 == 0) {
        soak_snapshot(s->env, &s->snap, &s->snap_cap, &s->snap_len, s->label);
        c->clones++;
    }
    if (k % 307 == 0 && s->snap_len) {
        soak_check(rg_env_restore(s->env, s->snap, s->snap_len), "restore", s->label);
        c->restores++;
    }
    if (k % 401 == 0) {
        soak_check(rg_env_reset(s->env, 1, soak_rand(&s->rng), s->obs, s->obs_size), "seeded reset", s->label);
        c->resets++;
    }
    if (k % 503 == 0)
        read_back(s);
    if (k % 1009 == 0)
        state_file(s, c);
    if (!s->toggle_start)
        return;
    if (k % 1201 == 0 && strcmp(rg_env_state_name(s->env), "") != 0 && !s->start_none) {
        soak_check(rg_env_set_start_state(s->env, RG_STATE_NONE), "start state none", s->label);
        s->start_none = 1;
    } else if (k % 1201 == 0 && s->start_none) {
        soak_check(rg_env_set_start_state(s->env, "Start"), "start state", s->label);
        s->start_none = 0;
    }
}

void soak_single_run(soak_single *s, soak_counts *c)
{
    size_t n = rg_env_action_length(s->env);
    for (unsigned i = 0; i < s->burst; i++) {
        soak_random_action(s->env, &s->rng, s->action);
        rg_step_result r;
        soak_check(rg_env_step(s->env, s->action, n, s->obs, s->obs_size, &r), "step", s->label);
        int64_t sum = 0;
        for (size_t j = 0; j < rg_env_info_count(s->env); j++) {
            const char *name;
            int64_t v;
            if (rg_env_info_at(s->env, j, &name, &v) == RG_OK)
                sum += v;
        }
        (void)sum;
        s->steps++;
        c->steps++;
        if (r.terminated || r.truncated) {
            c->episodes++;
            soak_check(rg_env_reset(s->env, 0, 0, s->obs, s->obs_size), "reset", s->label);
            c->resets++;
        }
        single_events(s, c);
    }
}

void soak_single_close(soak_single *s)
{
    rg_env_free(s->env);
    free(s->obs);
    free(s->scratch);
    free(s->action);
    free(s->snap);
    memset(s, 0, sizeof *s);
}

/* ---- pools ---- */

void soak_pool_open(soak_pool *p, const char *label, const rg_pool_options *o, unsigned burst, soak_counts *c)
{
    memset(p, 0, sizeof *p);
    snprintf(p->label, sizeof p->label, "%s", label);
    soak_check(rg_pool_create(&p->pool, o), "pool create", label);
    p->mode = o->autoreset;
    p->n = rg_pool_num_envs(p->pool);
    p->async = o->batch_size && o->batch_size < p->n;
    p->act_len = rg_pool_action_length(p->pool);
    p->obs_size = rg_pool_obs_size(p->pool);
    p->actions = xmalloc(p->n * p->act_len * sizeof *p->actions);
    p->ids = xmalloc(p->n * sizeof *p->ids);
    p->into = xmalloc(p->n * p->obs_size);
    p->rng = o->seed * 0x9e3779b97f4a7c15ull + 7;
    p->burst = burst;
    rg_pool_batch b;
    soak_check(rg_pool_reset(p->pool, NULL, 0, &b), "pool reset", label);
    c->pool_creates++;
}

static void pool_action(soak_pool *p, size_t env, int64_t *row)
{
    soak_random_action(rg_pool_env(p->pool, env), &p->rng, row);
}

/* Reads every row's results the way a training loop would (rewards, flags, info columns). */
static void consume(const rg_pool_batch *b, soak_counts *c)
{
    double sum = 0;
    for (size_t k = 0; k < b->count; k++) {
        sum += b->rewards[k * RG_SCENARIO_MAX_PLAYERS];
        c->episodes += b->terminated[k] || b->truncated[k];
        for (size_t j = 0; j < b->n_info; j++)
            sum += b->info_valid[k * b->n_info + j] ? (double)b->info[k * b->n_info + j] : 0;
    }
    (void)sum;
    c->steps += b->count;
}

/* One synchronous step (alternately into the pool's buffer and into ours); DISABLED: the caller resets ended envs. */
static void pool_sync_step(soak_pool *p, soak_counts *c)
{
    for (size_t i = 0; i < p->n; i++)
        pool_action(p, i, p->actions + i * p->act_len);
    rg_pool_batch b;
    if (p->calls % 2)
        soak_check(rg_pool_step(p->pool, p->actions, &b), "pool step", p->label);
    else
        soak_check(rg_pool_step_into(p->pool, p->actions, p->into, &b), "pool step into", p->label);
    consume(&b, c);
    if (p->mode != RG_AUTORESET_DISABLED)
        return;
    size_t m = 0;
    for (size_t k = 0; k < b.count; k++)
        if (b.terminated[k] || b.truncated[k])
            p->ids[m++] = b.env_ids[k];
    if (m) {
        soak_check(rg_pool_reset(p->pool, p->ids, m, &b), "pool reset ended", p->label);
        c->resets += m;
    }
}

/* A burst of send/recv: every env in flight, each finished batch sent again, then drained so nothing is in flight. */
static void pool_async_burst(soak_pool *p, soak_counts *c)
{
    for (size_t i = 0; i < p->n; i++) {
        p->ids[i] = (int32_t)i;
        pool_action(p, i, p->actions + i * p->act_len);
    }
    soak_check(rg_pool_send(p->pool, p->actions, p->ids, p->n), "pool send", p->label);
    size_t in_flight = p->n;
    for (unsigned k = 0; k < p->burst; k++) {
        rg_pool_batch b;
        soak_check(rg_pool_recv(p->pool, &b), "pool recv", p->label);
        consume(&b, c);
        size_t m = b.count;
        int32_t ids[64];
        memcpy(ids, b.env_ids, m * sizeof *ids);
        for (size_t j = 0; j < m; j++)
            pool_action(p, (size_t)ids[j], p->actions + j * p->act_len);
        soak_check(rg_pool_send(p->pool, p->actions, ids, m), "pool send", p->label);
    }
    while (in_flight) {
        rg_pool_batch b;
        soak_check(rg_pool_recv(p->pool, &b), "pool recv", p->label);
        consume(&b, c);
        in_flight -= b.count;
    }
}

static void pool_events(soak_pool *p, soak_counts *c)
{
    uint64_t k = p->calls;
    rg_pool_batch b;
    if (k % 50 == 0) {
        p->snap_env = (size_t)(k / 50) % p->n;
        soak_snapshot(rg_pool_env(p->pool, p->snap_env), &p->snap, &p->snap_cap, &p->snap_len, p->label);
        c->clones++;
    }
    if (k % 75 == 0 && p->snap_len) {
        /* into the next env of the same game (workers are idle between calls) */
        const char *game = rg_env_game(rg_pool_env(p->pool, p->snap_env));
        size_t to = p->snap_env;
        for (size_t j = 1; j < p->n && to == p->snap_env; j++)
            if (strcmp(rg_env_game(rg_pool_env(p->pool, (p->snap_env + j) % p->n)), game) == 0)
                to = (p->snap_env + j) % p->n;
        soak_check(rg_env_restore(rg_pool_env(p->pool, to), p->snap, p->snap_len), "pool env restore", p->label);
        c->restores++;
    }
    if (k % 120 == 0) {
        int32_t ids[2] = {(int32_t)(p->n - 1), 0};
        soak_check(rg_pool_reset(p->pool, ids, p->n > 1 ? 2 : 1, &b), "pool reset ids", p->label);
        c->resets += p->n > 1 ? 2 : 1;
    }
    if (k % 500 == 0) {
        soak_check(rg_pool_seed(p->pool, soak_rand(&p->rng)), "pool seed", p->label);
        soak_check(rg_pool_reset(p->pool, NULL, 0, &b), "pool reset", p->label);
        c->resets += p->n;
    }
}

void soak_pool_run(soak_pool *p, soak_counts *c)
{
    if (p->async) {
        pool_async_burst(p, c);
        p->calls++;
        pool_events(p, c);
        return;
    }
    for (unsigned i = 0; i < p->burst; i++) {
        pool_sync_step(p, c);
        p->calls++;
        pool_events(p, c);
    }
}

void soak_pool_close(soak_pool *p)
{
    rg_pool_free(p->pool);
    free(p->actions);
    free(p->ids);
    free(p->into);
    free(p->snap);
    memset(p, 0, sizeof *p);
}

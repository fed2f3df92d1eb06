/* The pool: creation, the caller's calls (reset, step, send, recv) and shutdown. */
#define _POSIX_C_SOURCE 200809L
#include "pool_internal.h"

#include <retrogym/core.h>
#include <retrogym/emu.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How long a thread with nothing to do spins before it sleeps (see rg_pool.work_seq). */
#define RG__POOL_SPIN_NS 50000L

int rg__rows_alloc(rg__rows *r, size_t rows, size_t obs_size, size_t n_info, int shared)
{
    memset(r, 0, sizeof *r);
    r->cap = rows;
    r->shared = shared;
    r->obs = rg__pool_calloc(rows, obs_size, shared);
    r->final_obs = rg__pool_calloc(rows, obs_size, shared);
    r->terminated = rg__pool_calloc(rows, 1, shared);
    r->truncated = rg__pool_calloc(rows, 1, shared);
    r->has_final = rg__pool_calloc(rows, 1, shared);
    r->failed = rg__pool_calloc(rows, 1, shared);
    r->done = rg__pool_calloc(rows, 1, shared);
    r->rewards = rg__pool_calloc(rows * RG_SCENARIO_MAX_PLAYERS, sizeof *r->rewards, shared);
    r->ids = rg__pool_calloc(rows, sizeof *r->ids, shared);
    size_t cells = rows * (n_info ? n_info : 1);
    r->info = rg__pool_calloc(cells, sizeof *r->info, shared);
    r->final_info = rg__pool_calloc(cells, sizeof *r->final_info, shared);
    r->info_valid = rg__pool_calloc(cells, 1, shared);
    r->final_info_valid = rg__pool_calloc(cells, 1, shared);
    if (!r->obs || !r->final_obs || !r->terminated || !r->truncated || !r->has_final || !r->failed || !r->done ||
        !r->rewards || !r->ids || !r->info || !r->final_info || !r->info_valid || !r->final_info_valid)
        return rg__error(RG_ENOMEM, "out of memory for %zu result rows", rows);
    return RG_OK;
}

void rg__rows_free(rg__rows *r)
{
    int sh = r->shared;
    rg__pool_free_mem(r->obs, sh);
    rg__pool_free_mem(r->final_obs, sh);
    rg__pool_free_mem(r->terminated, sh);
    rg__pool_free_mem(r->truncated, sh);
    rg__pool_free_mem(r->has_final, sh);
    rg__pool_free_mem(r->failed, sh);
    rg__pool_free_mem(r->done, sh);
    rg__pool_free_mem(r->rewards, sh);
    rg__pool_free_mem(r->ids, sh);
    rg__pool_free_mem(r->info, sh);
    rg__pool_free_mem(r->final_info, sh);
    rg__pool_free_mem(r->info_valid, sh);
    rg__pool_free_mem(r->final_info_valid, sh);
    memset(r, 0, sizeof *r);
}

static int check_options(const rg_pool_options *o)
{
    if (o->version < RG_POOL_OPTIONS_VERSION_OLDEST || o->version > RG_POOL_OPTIONS_VERSION)
        return rg__error(RG_EINVAL, "rg_pool_options.version is %u; this library accepts %d..%d (start from "
                         "RG_POOL_OPTIONS_INIT or rg_pool_options_init)", o->version, RG_POOL_OPTIONS_VERSION_OLDEST,
                         RG_POOL_OPTIONS_VERSION);
    /* version 1 ends before isolation: those fields are not read */
    if (o->version >= 2 && (unsigned)o->isolation > RG_POOL_PROCESSES)
        return rg__error(RG_EINVAL, "unknown isolation mode %d", (int)o->isolation);
    if (o->version >= 2 && o->worker_timeout_ms > RG_POOL_MAX_WORKER_TIMEOUT_MS)
        return rg__error(RG_EINVAL, "worker_timeout_ms must be 0..%d (RG_POOL_MAX_WORKER_TIMEOUT_MS), not %u",
                         RG_POOL_MAX_WORKER_TIMEOUT_MS, o->worker_timeout_ms);
    if (o->num_envs < 1 || o->num_envs > RG_POOL_MAX_NUM_ENVS)
        return rg__error(RG_EINVAL, "num_envs must be 1..%d (RG_POOL_MAX_NUM_ENVS), not %zu", RG_POOL_MAX_NUM_ENVS,
                         o->num_envs);
    if (o->num_threads > RG_POOL_MAX_THREADS)
        return rg__error(RG_EINVAL, "num_threads must be 0..%d (RG_POOL_MAX_THREADS), not %u", RG_POOL_MAX_THREADS,
                         o->num_threads);
    if (o->frame_stack > RG_POOL_MAX_FRAME_STACK)
        return rg__error(RG_EINVAL, "frame_stack must be 0..%d (RG_POOL_MAX_FRAME_STACK), not %u",
                         RG_POOL_MAX_FRAME_STACK, o->frame_stack);
    if (o->resize_width > RG_POOL_MAX_RESIZE || o->resize_height > RG_POOL_MAX_RESIZE)
        return rg__error(RG_EINVAL, "resize must be at most %dx%d (RG_POOL_MAX_RESIZE), not %ux%u",
                         RG_POOL_MAX_RESIZE, RG_POOL_MAX_RESIZE, o->resize_width, o->resize_height);
    if ((o->resize_width == 0) != (o->resize_height == 0))
        return rg__error(RG_EINVAL, "give both resize_width and resize_height, or neither");
    if (!(o->reward_clip >= 0.0f))
        return rg__error(RG_EINVAL, "reward_clip must be >= 0");
    if (!o->envs || (o->n_env_options != 1 && o->n_env_options != o->num_envs))
        return rg__error(RG_EINVAL, "give one environment option set, or one per environment (%zu given for %zu)",
                         o->n_env_options, o->num_envs);
    if (o->batch_size > o->num_envs)
        return rg__error(RG_EINVAL, "batch_size %zu is larger than num_envs %zu", o->batch_size, o->num_envs);
    if ((unsigned)o->autoreset > RG_AUTORESET_DISABLED)
        return rg__error(RG_EINVAL, "unknown autoreset mode %d", (int)o->autoreset);
    return RG_OK;
}

static int open_envs(rg_pool *p, const rg_pool_options *o)
{
    for (size_t i = 0; i < p->n; i++) {
        rg_env_options eo = o->envs[o->n_env_options == 1 ? 0 : i];
        if (p->isolated)
            rg__proc_tap_log(p, i, &eo);
        int rc = rg_env_create(&p->envs[i], &eo);
        if (rc != RG_OK)
            return rg__error_context(rc, "environment %zu", i);
        size_t obs = rg_env_obs_size(p->envs[i]), act = rg_env_action_length(p->envs[i]);
        if (i == 0) {
            p->obs_size = obs;
            p->act_len = act;
        } else if (obs != p->obs_size || act != p->act_len) {
            return rg__error(RG_EINVAL, "environment %zu has observations of %zu bytes and actions of %zu values, "
                                        "environment 0 %zu and %zu: a pool needs them equal", i, obs, act,
                             p->obs_size, p->act_len);
        }
    }
    return RG_OK;
}

/* Whether env runs one of the library's own cores: its core's name, library name and version are a built-in core's
 * (the libretro builds of our cores match too: the same code). */
static int own_core(rg_env *env)
{
    rg_emu *emu = rg_env_emu(env);
    const char *name = rg_emu_core_name(emu), *lib = rg_emu_core_library(emu), *ver = rg_emu_core_version(emu);
    if (!emu || !name || !lib || !ver)
        return 0;
    for (size_t i = 0; i < rg_core_builtin_count(); i++) {
        rg_core_info c;
        if (rg_core_builtin_at(i, &c) == RG_OK && c.name && c.library_name && c.library_version &&
            strcmp(c.name, name) == 0 && strcmp(c.library_name, lib) == 0 && strcmp(c.library_version, ver) == 0)
            return 1;
    }
    return 0;
}

static int start_workers(rg_pool *p, unsigned threads)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned want = threads ? threads : (unsigned)(cpus > 0 ? cpus : 1);
    if (want > p->n)
        want = (unsigned)p->n;
    /* A synchronous pool's caller runs lane 0 while it waits. An asynchronous one (batch < n) gets `want` workers of
     * its own and a caller that only waits: a job the caller started would hold its batch back until it finished,
     * and the caller's own work (the agent's) runs in parallel with the workers instead. */
    p->caller_lane = p->batch >= p->n;
    p->own_cores = 1;
    for (size_t i = 0; i < p->n && p->own_cores; i++)
        p->own_cores = own_core(p->envs[i]);
    p->m = p->caller_lane ? want : want + 1;
    p->spin_ns = p->m > 1 && (long)want <= cpus ? RG__POOL_SPIN_NS : 0;
    /* a caller that runs no lane spins only while the workers leave a CPU free */
    p->caller_spin_ns = p->caller_lane || (long)want < cpus ? p->spin_ns : 0;
    p->queues = calloc(p->m, sizeof *p->queues);
    p->threads = calloc(p->m, sizeof *p->threads);
    if (!p->queues || !p->threads)
        return rg__error(RG_ENOMEM, "out of memory");
    for (unsigned w = 0; w < p->m; w++)
        if (!(p->queues[w].ids = calloc(p->n, sizeof(int32_t))))
            return rg__error(RG_ENOMEM, "out of memory");
    for (unsigned w = 1; w < p->m; w++) { /* lane 0 is the caller's */
        rg__worker_arg *arg = malloc(sizeof *arg);
        if (!arg)
            return rg__error(RG_ENOMEM, "out of memory");
        arg->pool = p;
        arg->index = w;
        if (pthread_create(&p->threads[w], NULL, rg__pool_worker, arg) != 0) {
            free(arg);
            return rg__error(RG_ENOMEM, "cannot start worker thread %u", w);
        }
        p->threads_started = (int)w;
    }
    return RG_OK;
}

int rg_pool_create(rg_pool **out, const rg_pool_options *opts)
{
    if (!out || !opts)
        return rg__error(RG_EINVAL, "rg_pool_create: NULL argument");
    *out = NULL;
    int rc = check_options(opts);
    if (rc != RG_OK)
        return rc;
    rg_pool *p = calloc(1, sizeof *p);
    if (!p)
        return rg__error(RG_ENOMEM, "out of memory");
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_condattr_t monotonic; /* rg_pool_wait's deadlines are CLOCK_MONOTONIC */
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&p->done, &monotonic);
    pthread_condattr_destroy(&monotonic);
    p->n = opts->num_envs;
    p->batch = opts->batch_size ? opts->batch_size : opts->num_envs;
    p->autoreset = opts->autoreset;
    p->seed = opts->seed;
    p->ring_len = (p->n + p->batch - 1) / p->batch + 1;
    p->isolated = opts->version >= 2 && opts->isolation == RG_POOL_PROCESSES;
    int sh = p->isolated; /* what the workers write is shared with them */
    p->envs = calloc(p->n, sizeof *p->envs);
    p->job = rg__pool_calloc(p->n, 1, sh);
    p->row = rg__pool_calloc(p->n, sizeof *p->row, sh);
    p->ended = rg__pool_calloc(p->n, 1, sh);
    p->seeded = rg__pool_calloc(p->n, 1, sh);
    p->flying = calloc(p->n, 1);
    p->failed = rg__pool_calloc(p->n, 1, sh);
    p->ring = calloc(p->ring_len, sizeof *p->ring);
    p->ring_done = calloc(p->ring_len, sizeof *p->ring_done);
    if (!p->envs || !p->job || !p->row || !p->ended || !p->seeded || !p->flying || !p->failed || !p->ring || !p->ring_done)
        rc = rg__error(RG_ENOMEM, "out of memory");
    if (rc == RG_OK && sh) {
        p->lost = rg__pool_calloc(p->n, 1, sh);
        p->steps = rg__pool_calloc(p->n, sizeof *p->steps, sh);
        p->taps = calloc(p->n, sizeof *p->taps);
        if (!p->lost || !p->steps || !p->taps)
            rc = rg__error(RG_ENOMEM, "out of memory");
    }
    if (rc == RG_OK)
        rc = open_envs(p, opts);
    if (rc == RG_OK)
        rc = rg__pre_init(p, opts);
    if (rc == RG_OK)
        rc = rg__info_init(p);
    if (rc == RG_OK && !(p->actions = rg__pool_calloc(p->n * (p->act_len ? p->act_len : 1), sizeof *p->actions, sh)))
        rc = rg__error(RG_ENOMEM, "out of memory");
    if (rc == RG_OK)
        rc = rg__rows_alloc(&p->sync, p->n, p->obs_size, p->n_info, sh);
    for (size_t r = 0; rc == RG_OK && r < p->ring_len; r++)
        rc = rg__rows_alloc(&p->ring[r], p->batch, p->obs_size, p->n_info, sh);
    if (rc == RG_OK && sh) {
        p->worker_timeout_ms = opts->worker_timeout_ms;
        rc = rg__proc_start(p, opts->num_threads);
    } else if (rc == RG_OK) {
        rc = start_workers(p, opts->num_threads);
    }
    if (rc != RG_OK) {
        rg_pool_free(p);
        return rc;
    }
    *out = p;
    return RG_OK;
}

void rg_pool_free(rg_pool *p)
{
    if (!p)
        return;
    if (p->isolated)
        rg__proc_stop(p); /* kills what does not stop: nothing of the pool is used by a worker afterwards */
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    rg__pool_wake(p);
    if (p->pending) {
        /* Jobs of the pending call that have not started never will; running ones get a grace period. A job still
         * running after it (a hung core) keeps its thread, which may still write into the pool: the threads are
         * detached and the pool is leaked on purpose (a worker that comes back sees stop and ends). */
        long deadline = rg__pool_now_ns() + RG_POOL_FREE_GRACE_MS * 1000000L;
        while (p->running && rg__pool_now_ns() < deadline)
            rg__pool_wait(p, &p->done, &p->done_seq, 0, deadline, NULL);
        if (p->running) {
            for (int w = p->lane0_thread ? 0 : 1; w <= p->threads_started; w++)
                pthread_detach(p->threads[w]);
            pthread_mutex_unlock(&p->lock);
            return;
        }
    }
    pthread_mutex_unlock(&p->lock);
    for (int w = p->lane0_thread ? 0 : 1; w <= p->threads_started; w++)
        pthread_join(p->threads[w], NULL);
    for (unsigned w = 0; p->queues && w < p->m; w++)
        free(p->queues[w].ids);
    free(p->queues);
    free(p->threads);
    for (size_t i = 0; p->envs && i < p->n; i++)
        rg_env_free(p->envs[i]);
    rg__pre_free(p);
    rg__info_free(p);
    rg__rows_free(&p->sync);
    for (size_t r = 0; p->ring && r < p->ring_len; r++)
        rg__rows_free(&p->ring[r]);
    free(p->ring);
    free(p->ring_done);
    free(p->envs);
    int sh = p->isolated;
    rg__pool_free_mem(p->actions, sh);
    rg__pool_free_mem(p->job, sh);
    rg__pool_free_mem(p->row, sh);
    rg__pool_free_mem(p->ended, sh);
    rg__pool_free_mem(p->seeded, sh);
    free(p->flying);
    rg__pool_free_mem(p->failed, sh);
    rg__pool_free_mem(p->lost, sh);
    rg__pool_free_mem(p->steps, sh);
    free(p->taps);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p);
}

size_t rg_pool_num_envs(const rg_pool *p)
{
    return p ? p->n : 0;
}

size_t rg_pool_obs_size(const rg_pool *p)
{
    return p ? p->obs_size : 0;
}

size_t rg_pool_action_length(const rg_pool *p)
{
    return p ? p->act_len : 0;
}

rg_env *rg_pool_env(rg_pool *p, size_t i)
{
    return p && i < p->n ? p->envs[i] : NULL;
}

uint64_t rg_pool_episode_steps(const rg_pool *p, size_t i)
{
    if (!p || i >= p->n)
        return 0;
    return p->isolated ? __atomic_load_n(&p->steps[i], __ATOMIC_ACQUIRE) : rg_env_episode_steps(p->envs[i]);
}

rg_pool_isolation rg_pool_isolation_mode(const rg_pool *p)
{
    return p && p->isolated ? RG_POOL_PROCESSES : RG_POOL_THREADS;
}

const char *rg_pool_failure(const rg_pool *p, size_t i)
{
    return p && p->isolated && i < p->n ? rg__proc_failure(p, i) : NULL;
}

uint64_t rg_pool_respawns(const rg_pool *p)
{
    return p && p->isolated ? rg__proc_respawns(p) : 0;
}

/* Queues a job for env id (lock held). */
static void enqueue(rg_pool *p, int32_t id, int job, int64_t row)
{
    p->row[id] = row;
    if (p->isolated) { /* the job byte last: a worker that sees it sees the rest (rg__proc_post wakes it) */
        __atomic_store_n(&p->job[id], (uint8_t)job, __ATOMIC_RELEASE);
        return;
    }
    p->job[id] = (uint8_t)job;
    rg__queue *q = &p->queues[p->caller_lane ? (size_t)id % p->m : 1 + (size_t)id % (p->m - 1)];
    q->ids[(q->head + q->count) % p->n] = id;
    q->count++;
}

/* The first worker error since the last call, reported on the caller's thread (lock held). */
static int take_error(rg_pool *p)
{
    if (p->isolated)
        rg__proc_collect(p);
    int rc = p->err_rc;
    if (rc != RG_OK) {
        rg__error(rc, "environment %d: %s", p->err_env, p->err_msg);
        p->err_rc = RG_OK;
    }
    return rc;
}

static void fill_batch(const rg_pool *p, const rg__rows *r, size_t count, rg_pool_batch *out)
{
    out->count = count;
    out->n_info = p->n_info;
    out->info = r->info;
    out->info_valid = r->info_valid;
    out->final_info = r->final_info;
    out->final_info_valid = r->final_info_valid;
    out->obs = r->obs;
    out->final_obs = r->final_obs;
    out->rewards = r->rewards;
    out->terminated = r->terminated;
    out->truncated = r->truncated;
    out->has_final = r->has_final;
    out->failed = r->failed;
    out->env_ids = r->ids;
}

/* Ids in range, each once (the env's job slot holds one job), none in flight. Uses p->job as scratch marks. */
static int valid_ids(rg_pool *p, const int32_t *ids, size_t n)
{
    int rc = RG_OK;
    size_t k = 0;
    for (; k < n && rc == RG_OK; k++) {
        if (ids[k] < 0 || (size_t)ids[k] >= p->n)
            rc = rg__error(RG_ERANGE, "environment id %d is not in [0, %zu)", ids[k], p->n);
        else if (p->flying[ids[k]])
            rc = rg__error(RG_EMISUSE, "environment %d has a step in flight: receive it first", ids[k]);
        else if (p->job[ids[k]] == 0xFF)
            rc = rg__error(RG_EINVAL, "environment id %d is given twice", ids[k]);
        else
            p->job[ids[k]] = 0xFF;
    }
    for (size_t j = 0; j < k; j++) /* clear the marks (ids past an error were not marked) */
        if (ids[j] >= 0 && (size_t)ids[j] < p->n && p->job[ids[j]] == 0xFF)
            p->job[ids[j]] = 0;
    return rc;
}

/* A call left pending (rg_pool_set_timeout) refuses every other call until rg_pool_wait finishes it. */
int rg__pool_check_pending(const rg_pool *p)
{
    return p->pending ? rg__error(RG_EMISUSE, "a pool call is pending: rg_pool_wait for it first") : RG_OK;
}

int rg_pool_seed(rg_pool *p, uint64_t seed)
{
    if (!p)
        return rg__error(RG_EINVAL, "rg_pool_seed: NULL argument");
    if (p->pending)
        return rg__pool_check_pending(p);
    if (p->in_flight)
        return rg__error(RG_EMISUSE, "%zu asynchronous steps are in flight: rg_pool_recv them first", p->in_flight);
    p->seed = seed;
    memset(p->seeded, 0, p->n);
    return RG_OK;
}

/* Runs one synchronous job per listed env (all when ids is NULL) and waits for them; observations go to obs_dst
 * when given (the caller's array), else to the pool's rows. */
/* Whether the pending call's rows are all done (lock held). */
static int pending_done(rg_pool *p)
{
    if (p->isolated)
        return rg__proc_done(p);
    return p->pending == PENDING_SYNC ? p->sync_left == 0 : p->ring_done[p->pending_ring] >= p->batch;
}

/* Waits for the pending call's rows (lock held), running lane 0 meanwhile when the caller owns it; gives up at the
 * deadline (0: none). Returns whether they are done. */
static int wait_rows(rg_pool *p, long deadline_ns)
{
    if (p->isolated) {
        pthread_mutex_unlock(&p->lock); /* the workers are processes: the lock orders nothing for them */
        int done = rg__proc_wait(p, deadline_ns);
        pthread_mutex_lock(&p->lock);
        return done;
    }
    while (!pending_done(p)) {
        if (p->caller_lane && !p->lane0_thread && rg__pool_run_next(p, 0)) /* synchronous pools */
            continue;
        if (deadline_ns && rg__pool_now_ns() >= deadline_ns)
            return 0;
        rg__pool_wait(p, &p->done, &p->done_seq, p->caller_spin_ns, deadline_ns, &p->caller_wait_ns);
    }
    return 1;
}

/* Ends the pending call whose rows are done (lock held on entry, released). */
static int finish(rg_pool *p, rg_pool_batch *out)
{
    int kind = p->pending;
    p->pending = PENDING_NONE;
    int rc = take_error(p);
    pthread_mutex_unlock(&p->lock);
    if (kind == PENDING_SYNC) {
        if (out)
            fill_batch(p, &p->sync, p->pending_n, out);
        if (!p->isolated) {
            p->sync.obs = p->pending_own;
        } else if (p->pending_own) { /* workers cannot write into the caller's array: one copy */
            memcpy(p->pending_own, p->sync.obs, p->pending_n * p->obs_size);
            if (out)
                out->obs = p->pending_own;
            p->pending_own = NULL;
        }
        return rc;
    }
    size_t r = p->pending_ring;
    p->ring_done[r] = 0;
    if (p->isolated) { /* the slots are claimed again only after this call */
        memset(p->ring[r].done, 0, p->batch);
        rg__proc_consumed(p, r);
    }
    p->consumed += p->batch;
    p->in_flight -= p->batch;
    for (size_t k = 0; k < p->batch; k++)
        p->flying[p->ring[r].ids[k]] = 0;
    fill_batch(p, &p->ring[r], p->batch, out);
    return rc;
}

/* Waits for the pending call (lock held on entry, released): its result, or RG_POOL_PENDING at the deadline. */
static int wait_pending(rg_pool *p, unsigned timeout_ms, rg_pool_batch *out)
{
    long deadline = timeout_ms ? rg__pool_now_ns() + (long)timeout_ms * 1000000L : 0;
    if (!wait_rows(p, deadline)) {
        pthread_mutex_unlock(&p->lock);
        return RG_POOL_PENDING;
    }
    return finish(p, out);
}

/* Runs one synchronous job per listed env (all when ids is NULL) and waits for them; observations go to obs_dst
 * when given (the caller's array), else to the pool's rows. */
static int run_sync(rg_pool *p, int job, const int32_t *ids, size_t n, uint8_t *obs_dst, rg_pool_batch *out)
{
    if (p->in_flight)
        return rg__error(RG_EMISUSE, "%zu asynchronous steps are in flight: rg_pool_recv them first", p->in_flight);
    pthread_mutex_lock(&p->lock);
    p->pending = PENDING_SYNC;
    p->pending_n = n;
    if (p->isolated) {
        p->pending_own = obs_dst; /* copied there when done (rg_pool_step_into) */
        memset(p->sync.done, 0, n);
    } else {
        p->pending_own = p->sync.obs;
        if (obs_dst)
            p->sync.obs = obs_dst; /* read by the workers when their jobs start, all before the call finishes */
    }
    p->sync_left = n;
    for (size_t k = 0; k < n; k++)
        enqueue(p, ids ? ids[k] : (int32_t)k, job, (int64_t)k);
    if (p->isolated) {
        int rc = rg__proc_post(p, ids, n);
        if (rc != RG_OK) { /* no worker could be started: nothing was run */
            for (size_t k = 0; k < n; k++)
                __atomic_store_n(&p->job[ids ? ids[k] : (int32_t)k], 0, __ATOMIC_RELAXED);
            p->pending = PENDING_NONE;
            pthread_mutex_unlock(&p->lock);
            return rc;
        }
    } else {
        rg__pool_wake(p);
    }
    return wait_pending(p, p->timeout_ms, out);
}

int rg_pool_set_timeout(rg_pool *p, unsigned timeout_ms)
{
    if (!p)
        return rg__error(RG_EINVAL, "rg_pool_set_timeout: NULL argument");
    if (p->pending)
        return rg__pool_check_pending(p);
    /* A pool of one lane on our own cores stays on the caller: its jobs cannot hang, and handing each step to a
     * worker and back cost about 70 us of waits and wake-ups per step (a quarter of a Pong step; docs/performance.md,
     * "Where a batch's time goes"). With more lanes the caller only waits: under other processes' load, a pool whose
     * caller also ran lane 0 got less CPU (bench/bench_contention.py). */
    if (timeout_ms && !p->isolated && p->caller_lane && !p->lane0_thread && !(p->own_cores && p->m == 1)) {
        rg__worker_arg *arg = malloc(sizeof *arg);
        if (!arg)
            return rg__error(RG_ENOMEM, "out of memory");
        arg->pool = p;
        arg->index = 0;
        pthread_mutex_lock(&p->lock);
        /* The caller now only waits, as an asynchronous pool's does: it spins before it sleeps only while the
         * workers leave it a CPU (spinning against them cost up to 1.5x on steps of 10-40 us). A pool of one lane
         * never spun (nobody to wait for); now its worker and caller hand each step over, so both spin. */
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        if (p->m == 1 && cpus > 1)
            p->spin_ns = RG__POOL_SPIN_NS;
        p->caller_spin_ns = (long)p->m < cpus ? p->spin_ns : 0;
        int bad = pthread_create(&p->threads[0], NULL, rg__pool_worker, arg) != 0;
        p->lane0_thread = !bad;
        pthread_mutex_unlock(&p->lock);
        if (bad) {
            free(arg);
            return rg__error(RG_ENOMEM, "cannot start the worker thread of lane 0");
        }
    }
    p->timeout_ms = timeout_ms;
    return RG_OK;
}

int rg_pool_wait(rg_pool *p, unsigned timeout_ms, rg_pool_batch *out)
{
    if (!p)
        return rg__error(RG_EINVAL, "rg_pool_wait: NULL argument");
    if (!p->pending)
        return rg__error(RG_EMISUSE, "rg_pool_wait: no pool call is pending");
    pthread_mutex_lock(&p->lock);
    return wait_pending(p, timeout_ms, out);
}

int rg_pool_reset(rg_pool *p, const int32_t *ids, size_t n, rg_pool_batch *out)
{
    if (!p)
        return rg__error(RG_EINVAL, "rg_pool_reset: NULL argument");
    if (!ids)
        n = p->n;
    if (n > p->n)
        return rg__error(RG_EINVAL, "%zu ids for %zu environments", n, p->n);
    if (p->pending)
        return rg__pool_check_pending(p);
    int rc = ids ? valid_ids(p, ids, n) : RG_OK;
    return rc == RG_OK ? run_sync(p, JOB_RESET, ids, n, NULL, out) : rc;
}

int rg_pool_step(rg_pool *p, const int64_t *actions, rg_pool_batch *out)
{
    return rg_pool_step_into(p, actions, NULL, out);
}

int rg_pool_step_into(rg_pool *p, const int64_t *actions, uint8_t *obs, rg_pool_batch *out)
{
    if (!p || !actions)
        return rg__error(RG_EINVAL, "rg_pool_step: NULL argument");
    if (p->pending)
        return rg__pool_check_pending(p);
    memcpy(p->actions, actions, p->n * p->act_len * sizeof *actions);
    return run_sync(p, JOB_STEP, NULL, p->n, obs, out);
}

int rg_pool_send(rg_pool *p, const int64_t *actions, const int32_t *ids, size_t n)
{
    if (!p || (!actions && n) || (!ids && n))
        return rg__error(RG_EINVAL, "rg_pool_send: NULL argument");
    if (p->pending)
        return rg__pool_check_pending(p);
    int rc = valid_ids(p, ids, n);
    if (rc != RG_OK)
        return rc;
    if (p->in_flight + n > p->n)
        return rg__error(RG_EMISUSE, "more steps sent than environments: receive results first");
    pthread_mutex_lock(&p->lock);
    for (size_t k = 0; k < n; k++) {
        memcpy(p->actions + (size_t)ids[k] * p->act_len, actions + k * p->act_len, p->act_len * sizeof *actions);
        p->flying[ids[k]] = 1;
        enqueue(p, ids[k], JOB_STEP, -1);
    }
    p->in_flight += n;
    if (p->isolated) {
        rc = rg__proc_post(p, ids, n);
        if (rc != RG_OK) {
            for (size_t k = 0; k < n; k++) {
                __atomic_store_n(&p->job[ids[k]], 0, __ATOMIC_RELAXED);
                p->flying[ids[k]] = 0;
            }
            p->in_flight -= n;
        }
    } else {
        rg__pool_wake(p);
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int rg_pool_recv(rg_pool *p, rg_pool_batch *out)
{
    if (!p || !out)
        return rg__error(RG_EINVAL, "rg_pool_recv: NULL argument");
    if (p->pending)
        return rg__pool_check_pending(p);
    if (p->in_flight < p->batch)
        return rg__error(RG_EMISUSE, "%zu steps in flight, fewer than the batch size %zu", p->in_flight, p->batch);
    pthread_mutex_lock(&p->lock);
    p->pending = PENDING_RECV;
    p->pending_ring = (size_t)((p->consumed / p->batch) % p->ring_len);
    return wait_pending(p, p->timeout_ms, out);
}

/**
 * @file pool.h
 * The vectorized engine: N environments stepped by M worker threads, each worker owning a fixed set of
 * environments (environment i belongs to worker i % M; a worker whose own jobs are done takes a waiting job of the
 * busiest other worker, so a slow environment or a preempted thread does not hold the batch back), results written
 * by the workers straight into contiguous batch buffers (EnvPool style).
 * Synchronous steps (every environment, results in environment order) and asynchronous send/recv (the first
 * batch_size environments to finish, with their ids). Results do not depend on the number of threads.
 * One caller thread drives a pool at a time.
 */
#ifndef RETROGYM_POOL_H
#define RETROGYM_POOL_H

#include "export.h"
#include <retrogym/env.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_pool rg_pool;

/** What happens when an episode ends (Gymnasium 1.x autoreset modes). */
typedef enum rg_autoreset_mode {
    RG_AUTORESET_NEXT_STEP = 0, /**< the step after the end resets the env (its action is ignored) */
    RG_AUTORESET_SAME_STEP = 1, /**< the ending step resets at once; the final observation is kept apart */
    RG_AUTORESET_DISABLED = 2   /**< the caller resets ended envs (rg_pool_reset with their ids) */
} rg_autoreset_mode;

/** Where a pool's environments run. */
typedef enum rg_pool_isolation {
    RG_POOL_THREADS = 0,  /**< worker threads of the calling process (the default; the fastest hand-over) */
    RG_POOL_PROCESSES = 1 /**< worker processes: a core that crashes, aborts, exits or hangs loses only its own
                               process's environments, which are reported (rg_pool_batch.failed) and reset */
} rg_pool_isolation;

/** The options layout this header declares. rg_pool_create accepts versions RG_POOL_OPTIONS_VERSION_OLDEST ..
 *  RG_POOL_OPTIONS_VERSION (version 1 lacks isolation and worker_timeout_ms: threads) and refuses others with
 *  RG_EINVAL. */
#define RG_POOL_OPTIONS_VERSION 2
#define RG_POOL_OPTIONS_VERSION_OLDEST 1

/* Limits of rg_pool_options, checked by rg_pool_create (RG_EINVAL, the message names the limit). */
#define RG_POOL_MAX_NUM_ENVS 65536             /**< num_envs */
#define RG_POOL_MAX_THREADS 4096               /**< num_threads (threads or worker processes) */
#define RG_POOL_MAX_FRAME_STACK 64             /**< frame_stack */
#define RG_POOL_MAX_RESIZE 4096                /**< resize_width and resize_height */
#define RG_POOL_MAX_WORKER_TIMEOUT_MS 86400000 /**< worker_timeout_ms (one day) */

/** Options of rg_pool_create. Start from RG_POOL_OPTIONS_INIT or rg_pool_options_init(). */
typedef struct rg_pool_options {
    unsigned version;              /**< RG_POOL_OPTIONS_VERSION */
    const rg_env_options *envs;    /**< one per environment, or one for all when n_env_options is 1 */
    size_t n_env_options;
    size_t num_envs;               /**< 1 .. RG_POOL_MAX_NUM_ENVS */
    unsigned num_threads;          /**< at most RG_POOL_MAX_THREADS; 0: the number of online CPUs (at most num_envs). A synchronous pool
                                        (batch_size = num_envs) counts the calling thread as one of them: it steps
                                        environments while it waits. An asynchronous pool (batch_size < num_envs)
                                        starts num_threads workers and its caller only waits, so that it gets each
                                        batch as soon as it is done and works on it while the workers go on. */
    size_t batch_size;             /**< results per rg_pool_recv; 0: num_envs */
    rg_autoreset_mode autoreset;
    uint64_t seed;                 /**< environment i is first reset with seed + i */
    /* Preprocessing of image observations, in the workers (frame skip, sticky actions, max-pool and no-op starts
     * are environment options). Observation = frame_stack x height x width x channels, oldest frame first. */
    int grayscale;                 /**< one channel: luma (0.299 R + 0.587 G + 0.114 B, rounded) */
    unsigned resize_width;         /**< area-average resize to this size (0: keep); both or neither */
    unsigned resize_height;
    unsigned frame_stack;          /**< last K observations stacked (0 or 1: none) */
    float reward_clip;             /**< rewards clipped to [-c, c] (0: none; negative or NaN refused) */
    /* Version 2. Process isolation (docs/python.md, docs/reliability.md): the environments are created in the calling process (as
     * rg_env_create does: use `retrogym validate --states` for untrusted states), then num_threads worker processes
     * are forked, each owning environments i % num_threads; they write results into shared-memory batch buffers.
     * Results equal the threaded pool's. A worker that crashes, aborts, exits, or runs one job longer than
     * worker_timeout_ms is killed and forked again; each of its environments then gives one failed row (failed = 1,
     * truncated = 1, zero observation and reward; SAME_STEP: the row is already the reset one) and is reset by its
     * next job, while the other workers' environments go on. Recording movies is not available in this mode. */
    rg_pool_isolation isolation;
    unsigned worker_timeout_ms;    /**< RG_POOL_PROCESSES: the longest one job may take (0: no limit; crashes are
                                        caught all the same) */
} rg_pool_options;

/** The defaults, as an initialiser: `rg_pool_options o = RG_POOL_OPTIONS_INIT;` (fields not named are zero/NULL). */
#define RG_POOL_OPTIONS_INIT                                                                                       \
    {                                                                                                              \
        .version = RG_POOL_OPTIONS_VERSION, .autoreset = RG_AUTORESET_NEXT_STEP, .isolation = RG_POOL_THREADS      \
    }

/** The same defaults set on an existing struct (also from C++ and bindings). Inline: it writes the struct as this
 *  header declares it. */
static inline void rg_pool_options_init(rg_pool_options *o)
{
    o->version = RG_POOL_OPTIONS_VERSION;
    o->envs = NULL;
    o->n_env_options = 0;
    o->num_envs = 0;
    o->num_threads = 0;
    o->batch_size = 0;
    o->autoreset = RG_AUTORESET_NEXT_STEP;
    o->seed = 0;
    o->grayscale = 0;
    o->resize_width = 0;
    o->resize_height = 0;
    o->frame_stack = 0;
    o->reward_clip = 0.0f;
    o->isolation = RG_POOL_THREADS;
    o->worker_timeout_ms = 0;
}

/** The shape of one environment's observation in the batch: stack, height, width, channels. */
RG_API void rg_pool_obs_shape(const rg_pool *pool, unsigned *stack, unsigned *height, unsigned *width,
                              unsigned *channels);

/**
 * A batch of results, in buffers owned by the pool, valid until the next call that produces results. Row k
 * belongs to environment env_ids[k].
 */
typedef struct rg_pool_batch {
    size_t count;            /**< rows */
    const uint8_t *obs;      /**< count x obs_size */
    const float *rewards;    /**< count x RG_SCENARIO_MAX_PLAYERS */
    const uint8_t *terminated;
    const uint8_t *truncated;
    const int32_t *env_ids;
    const uint8_t *final_obs;   /**< SAME_STEP: count x obs_size, the ended episode's last observation */
    const uint8_t *has_final;   /**< SAME_STEP: 1 in rows whose episode ended (and was reset) */
    /* Info: the game variables (rg_pool_info_name), one int64 column each, written by the workers. A value is
     * meaningful where its valid byte is 1 (0: the row's env has no such variable, or could not read it). */
    size_t n_info;                    /**< columns */
    const int64_t *info;              /**< count x n_info */
    const uint8_t *info_valid;        /**< count x n_info */
    const int64_t *final_info;        /**< SAME_STEP: count x n_info, the ended episode's last info (has_final rows) */
    const uint8_t *final_info_valid;  /**< SAME_STEP: count x n_info */
    /** 1 in rows whose environment was lost with its worker process (RG_POOL_PROCESSES; rg_pool_failure says why):
     *  the row ends its episode (truncated) and the environment's next job resets it. Always 0 with threads. */
    const uint8_t *failed;
} rg_pool_batch;

/**
 * The info columns: the union of the environments' data.json variables, in name order, fixed at creation (custom
 * variables a script adds later are not columns; read them from the env).
 */
RG_API size_t rg_pool_info_count(const rg_pool *pool);
/** Column j's variable name, or NULL. */
RG_API const char *rg_pool_info_name(const rg_pool *pool, size_t j);

/**
 * Creates the environments (every one must have the same observation size and action length) and the workers.
 * @return RG_OK; RG_EINVAL (bad options, mismatched envs); what rg_env_create returns for an environment
 */
RG_API int rg_pool_create(rg_pool **out, const rg_pool_options *opts);
/**
 * Stops the workers (waiting for steps in flight) and frees everything. While a call is pending (rg_pool_set_timeout),
 * jobs already running are given RG_POOL_FREE_GRACE_MS to end (queued ones are dropped); if one is still running
 * then (a hung core), its thread cannot be joined and may still write into the pool: the workers are detached and
 * the pool is deliberately leaked, environments included (its threads never block the process's exit).
 */
#define RG_POOL_FREE_GRACE_MS 200
RG_API void rg_pool_free(rg_pool *pool);

RG_API size_t rg_pool_num_envs(const rg_pool *pool);
RG_API size_t rg_pool_obs_size(const rg_pool *pool);
RG_API size_t rg_pool_action_length(const rg_pool *pool);
/**
 * An environment of the pool, for its spaces and data; do not step it while the pool may. With RG_POOL_PROCESSES it
 * is the calling process's copy, as created: the running one lives in a worker process.
 */
RG_API rg_env *rg_pool_env(rg_pool *pool, size_t i);
/** Steps since environment i's last reset (read where the environment runs; nothing may be in flight for it). */
RG_API uint64_t rg_pool_episode_steps(const rg_pool *pool, size_t i);
/** The pool's isolation mode. */
RG_API rg_pool_isolation rg_pool_isolation_mode(const rg_pool *pool);
/**
 * Why environment i's last failed row failed ("worker process 2 was killed by signal 11 (Segmentation fault)", ...),
 * or NULL when none did. Valid until the next call on the pool.
 */
RG_API const char *rg_pool_failure(const rg_pool *pool, size_t i);
/** Worker processes forked again after a failure since the pool was created (0 with threads). */
RG_API uint64_t rg_pool_respawns(const rg_pool *pool);

/**
 * Resets every environment (ids NULL) or the given ones, in parallel; the batch has their rows in the given order.
 * The first reset of environment i (after creation or rg_pool_seed) is seeded with seed + i; later ones continue
 * its generator. @return RG_OK; RG_ERANGE (an id out of range); RG_EINVAL (an id given twice)
 */
RG_API int rg_pool_reset(rg_pool *pool, const int32_t *ids, size_t n, rg_pool_batch *out);
/** Reseeds: the next reset of environment i is seeded with seed + i (no emulation happens here). */
RG_API int rg_pool_seed(rg_pool *pool, uint64_t seed);
/** Steps every environment with actions[i * action_length ...] and waits; rows in environment order. */
RG_API int rg_pool_step(rg_pool *pool, const int64_t *actions, rg_pool_batch *out);
/**
 * rg_pool_step with the observations written by the workers straight into obs (num_envs x obs_size bytes, the
 * caller's; NULL: the pool's buffer): no copy afterwards. out->obs points to obs; the other results are the pool's.
 */
RG_API int rg_pool_step_into(rg_pool *pool, const int64_t *actions, uint8_t *obs, rg_pool_batch *out);
/**
 * Queues steps for some environments (actions row k for env_ids[k]); returns at once.
 * @return RG_OK; RG_ERANGE (an id out of range); RG_EINVAL (an id given twice); RG_EMISUSE (an env already in flight)
 */
RG_API int rg_pool_send(rg_pool *pool, const int64_t *actions, const int32_t *env_ids, size_t n);
/**
 * Waits for the first batch_size environments to finish their queued steps and returns them.
 * @return RG_OK; RG_EMISUSE (fewer steps in flight than batch_size); an environment's error, with its id in the
 *         message (that environment's next job resets it, whatever the autoreset mode)
 */
RG_API int rg_pool_recv(rg_pool *pool, rg_pool_batch *out);

/* ---- waiting in slices (so that a caller can react to Ctrl-C while a core hangs) ---- */

/** Returned (a positive value, not an error) by a call whose work is not finished when its wait limit passed. */
#define RG_POOL_PENDING 1

/**
 * Limits how long rg_pool_reset, rg_pool_step, rg_pool_step_into and rg_pool_recv wait (0, the default: until the
 * work is done). With a limit, a call whose environments are not all done after timeout_ms returns RG_POOL_PENDING
 * and its work goes on in the workers: call rg_pool_wait until it returns RG_OK (the batch, as the call would have
 * given it) or an error; every other call but rg_pool_free is refused with RG_EMISUSE meanwhile. A caller can thus
 * check for signals between waits (Python raises KeyboardInterrupt this way).
 * The first limit set on a synchronous pool starts one more worker thread, which runs lane 0's environments in place
 * of the calling thread (a hung core would otherwise hold the caller itself); the pool then has num_threads workers
 * and a caller that only waits, as an asynchronous pool has. Without a limit the caller runs lane 0 as before; so it
 * does with a limit in a pool of one lane whose environments all run the library's own cores (rg_core_builtin_at: a
 * frame is a bounded amount of work, so a job cannot hold the caller for long), which then has no hand-over per step.
 * @return RG_OK; RG_EINVAL; RG_ENOMEM (the thread cannot start); RG_EMISUSE (a call is pending)
 */
RG_API int rg_pool_set_timeout(rg_pool *pool, unsigned timeout_ms);
/**
 * Waits up to timeout_ms (0: until done) for the pending call's work.
 * @return RG_OK with *out filled; RG_POOL_PENDING (not done yet); the call's error; RG_EMISUSE (nothing pending)
 */
RG_API int rg_pool_wait(rg_pool *pool, unsigned timeout_ms, rg_pool_batch *out);

/* ---- recording movies (rg_env_record_dir for every environment; env.h says what a movie holds) ---- */

/**
 * Records every episode of every environment from now on: environment i into the subfolder `dir/env-<i>` (at least
 * three digits: env-000, env-001, ...; made when missing, `dir` itself must exist), one stable-retro `.bk2` per
 * episode named as rg_env_record_dir names it, numbered from 0 in each subfolder (a later recording into the same
 * folder replaces the movies of the same numbers). Called before the first reset, or right after a reset, the
 * current episodes are recorded whole; otherwise recording starts at each environment's next reset. Each movie is
 * exactly the one an independent environment with the same seed and actions records; autoresets in the workers end
 * a movie and start the next. Movies being recorded are written first (a recording into another folder ends).
 * A movie that cannot be written (disk full, folder removed) stops that environment's recording only: the step,
 * reset or recv that met it returns the error with the environment's id, and, as for any environment error, that
 * environment's next job resets it; the others go on recording. Call again to record it again.
 * @return RG_OK; RG_EINVAL; RG_ENOTFOUND (no folder `dir`); RG_EIO (a subfolder cannot be made: the recording is
 *         left as it was); RG_EMISUSE (asynchronous steps in flight); what writing a previous movie returns, with
 *         the environment's id (then no environment records)
 */
RG_API int rg_pool_record_dir(rg_pool *pool, const char *dir);
/**
 * Stops every environment's recording; the movies being recorded are written (a movie of an unfinished episode
 * ends at its last step). rg_pool_free writes them too, but cannot report a failure.
 * @return RG_OK (also when not recording); RG_EMISUSE (asynchronous steps in flight: nothing stopped); the first
 *         write error, with its environment's id (every recording is stopped all the same)
 */
RG_API int rg_pool_record_stop(rg_pool *pool);

#ifdef __cplusplus
}
#endif
#endif

/* The pool's layout, shared by the files of src/pool. */
#ifndef RG_SRC_POOL_POOL_INTERNAL_H
#define RG_SRC_POOL_POOL_INTERNAL_H

#include "base/base.h"

#include <retrogym/pool.h>

#include <pthread.h>
#include <stdatomic.h>

enum { JOB_STEP = 1, JOB_RESET = 2 };
enum { PENDING_NONE = 0, PENDING_SYNC = 1, PENDING_RECV = 2 };

/* A set of result rows: the synchronous buffer (rows by order of the call) or one batch of the async ring. */
typedef struct rg__rows {
    uint8_t *obs, *final_obs, *terminated, *truncated, *has_final;
    float *rewards;
    int64_t *info, *final_info; /* rows x n_info */
    uint8_t *info_valid, *final_info_valid;
    int32_t *ids;
    uint8_t *failed;        /* the row's env was lost with its worker process */
    uint8_t *done;          /* processes: the row is written (set by the worker, cleared by the caller) */
    size_t cap;
    int shared;             /* the columns are in shared memory (processes) */
} rg__rows;

typedef struct rg__queue {
    int32_t *ids; /* ring of num_envs entries */
    size_t head, count;
} rg__queue;

struct rg_pool {
    size_t n, obs_size, act_len, batch;
    rg_autoreset_mode autoreset;
    uint64_t seed;
    rg_env **envs;
    int64_t *actions;       /* n x act_len: the action each env will step with */
    uint8_t *job;           /* JOB_* queued for each env */
    int64_t *row;           /* >= 0: the row of the synchronous buffer; -1: a slot of the async ring */
    uint8_t *ended;         /* NEXT_STEP: the env's episode ended; its next step resets it */
    uint8_t *seeded;        /* the env's first reset happened */
    uint8_t *failed;        /* the env's last job failed: its next job resets it, in every autoreset mode */
    uint8_t *flying;        /* an async step of the env is in flight or not yet received */
    rg__rows sync;          /* n rows */
    rg__rows *ring;         /* ring_len batches of `batch` rows */
    size_t ring_len;
    size_t *ring_done;      /* finished rows per ring batch */
    uint64_t produced, consumed; /* async slots claimed, and returned to the caller */
    size_t in_flight;       /* async steps sent and not yet returned */
    size_t sync_left;       /* synchronous jobs not finished */
    /* workers */
    unsigned m;
    pthread_t *threads;
    rg__queue *queues;      /* one per lane; env i belongs to lane i % m, or 1 + i % (m - 1) without a caller lane
                             * (its jobs are queued there, and run there unless another lane runs dry first and
                             * steals them); lane 0 is the calling thread */
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    int stop, threads_started;
    /* Bumped (under the lock) whenever work is queued / a job finishes: a thread about to sleep spins on them for a
     * few microseconds first, which saves the wake-up latency between steps (off when lanes outnumber CPUs). */
    atomic_ulong work_seq, done_seq;
    long spin_ns;           /* workers */
    long caller_spin_ns;    /* the caller waiting for results */
    long caller_wait_ns;    /* the caller's last wait (rg__pool_wait) */
    int caller_lane;        /* the caller runs lane 0 (batch = n); else lane 0 has no envs and m - 1 workers run all */
    int own_cores;          /* every env runs one of the library's own cores: a frame is a bounded amount of work */
    /* preprocessing (pool_preproc.c) */
    size_t raw_size, frame_size;
    unsigned src_h, src_w, src_c, out_h, out_w, out_c, stack;
    int gray, preprocess;
    float clip;
    uint8_t *scratch;       /* n x raw_size: where envs write when preprocessing */
    uint8_t *frames;        /* n x stack x frame_size: each env's ring of frames */
    unsigned *stack_head;   /* per env: the ring slot the next frame goes to (= the oldest frame) */
    struct rg__pre_ctx *pre_ctx; /* the resize plan, the kernels chosen, per-env scratch (pool_preproc.c) */
    /* info columns (pool_info.c) */
    size_t n_info;
    char **info_names;      /* sorted union of the envs' data.json variables */
    size_t *info_off;       /* n + 1: env i's variables map through info_col[info_off[i] ...] */
    size_t *info_col;       /* the column of each env variable (SIZE_MAX: none) */
    /* waiting in slices (rg_pool_set_timeout) */
    unsigned timeout_ms;    /* 0: calls wait until their work is done */
    int lane0_thread;       /* a worker thread (threads[0]) runs lane 0 in place of the caller */
    int pending;            /* PENDING_*: a call returned RG_POOL_PENDING and rg_pool_wait finishes it */
    size_t pending_n;       /* PENDING_SYNC: its rows */
    uint8_t *pending_own;   /* PENDING_SYNC: the pool's own observation rows, put back when it finishes */
    size_t pending_ring;    /* PENDING_RECV: the ring batch */
    unsigned running;       /* jobs running now, outside the lock */
    /* the first error since the last call */
    int err_rc, err_env;
    char err_msg[512];
    /* process isolation (pool_proc.c); the per-env arrays above that workers write (actions, job, row, ended,
     * seeded, failed, the rows) are then in shared memory */
    int isolated;
    int in_child;           /* this copy of the pool runs in a worker process */
    struct rg__proc *proc;  /* the workers and their shared control blocks */
    uint8_t *lost;          /* the env's worker process died: its next job reports it (shared) */
    uint64_t *steps;        /* processes: episode steps after the env's last job (shared) */
    struct rg__log_tap *taps; /* processes: per env, its own log callback (messages of workers go through a ring) */
    unsigned worker_timeout_ms;
};

/* A worker process's way to an env's log callback (pool_proc.c). */
struct rg__log_tap {
    rg_pool *pool;
    int32_t id;
    rg_log_fn fn;
    void *user;
};

/* The argument of a worker thread (freed by the worker). */
typedef struct rg__worker_arg {
    rg_pool *pool;
    unsigned index;
} rg__worker_arg;
void *rg__pool_worker(void *arg);
/* Runs the next job of lane `lane` (lock held; released while the job runs): the head of its own queue, or, when
 * that is empty, a job stolen from the tail of the fullest other queue (the job its owner would have run last), so
 * that a lane that finishes early helps the slowest. Returns 0 when there was nothing to run. Lane 0 is run this way
 * by the calling thread while it waits, so a pool of M lanes has M - 1 worker threads. */
int rg__pool_run_next(rg_pool *p, unsigned lane);
/* Waits on cond (lock held) after spinning up to spin_ns for *seq to move on from its value now; with a deadline
 * (CLOCK_MONOTONIC ns, 0: none) it returns by then at the latest (cond must use CLOCK_MONOTONIC). With last_ns (the
 * waiting thread's own), it spins only when its last wait, stored there, was shorter than spin_ns: a spin that
 * would end in the sleep anyway (the other side takes longer, e.g. the Python between two steps) is CPU thrown
 * away, and under contention CPU the pool's other threads could have had. */
void rg__pool_wait(rg_pool *p, pthread_cond_t *cond, atomic_ulong *seq, long spin_ns, long deadline_ns,
                   long *last_ns);
long rg__pool_now_ns(void);
/* A spin-wait loop's pause. */
static inline void rg__cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("pause");
#endif
}
/* Wakes the threads waiting for work (lock held). */
void rg__pool_wake(rg_pool *p);
/* RG_EMISUSE with a message while a call is pending (rg_pool_set_timeout), else RG_OK. */
int rg__pool_check_pending(const rg_pool *p);
int rg__pre_init(rg_pool *p, const rg_pool_options *o);
void rg__pre_free(rg_pool *p);
/* Where env id writes its raw observation for a row. */
uint8_t *rg__pre_target(rg_pool *p, int32_t id, uint8_t *row);
/* Processes env id's raw observation into its frame ring (reset: fills every slot). */
void rg__pre_push(rg_pool *p, int32_t id, int reset);
/* Writes env id's stacked observation, oldest frame first. */
void rg__pre_gather(const rg_pool *p, int32_t id, uint8_t *dst);
void rg__pre_clip(const rg_pool *p, float *rewards);
int rg__rows_alloc(rg__rows *r, size_t rows, size_t obs_size, size_t n_info, int shared);
/* One job of env id into rows/row, outside any lock (pool_worker.c). Returns RG_OK or the env's error. */
int rg__pool_run_job(rg_pool *p, int32_t id, int job, rg__rows *rows, size_t row);
/* Zeroed memory, in shared memory (MAP_SHARED, kept by forked workers) when shared; freed by rg__pool_free_mem. */
void *rg__pool_calloc(size_t n, size_t size, int shared);
void rg__pool_free_mem(void *ptr, int shared);

/* ---- process isolation (pool_proc.c) ---- */
/* Points env i's log (when it has one) at its tap: in a worker process messages go through the worker's ring to the
 * calling process, which forwards them to the env's own callback (p->taps is allocated). */
void rg__proc_tap_log(rg_pool *p, size_t i, rg_env_options *eo);
/* Forks the workers (after everything else exists). */
int rg__proc_start(rg_pool *p, unsigned workers);
/* Stops, kills if needed, and reaps the workers; frees their control blocks. */
void rg__proc_stop(rg_pool *p);
/* Tells the workers that own the given envs (all when ids is NULL) about the jobs just written for them. */
int rg__proc_post(rg_pool *p, const int32_t *ids, size_t n);
/* Whether every row of the pending call is written. */
int rg__proc_done(rg_pool *p);
/* Waits for the pending call's rows until the deadline (0: none), watching the workers (crash, hang) and respawning
 * them. Returns whether the rows are done. */
int rg__proc_wait(rg_pool *p, long deadline_ns);
/* Forwards the workers' log messages and takes their first env error into p->err_* (caller's thread). */
void rg__proc_collect(rg_pool *p);
/* The caller took ring batch r: its rows may be claimed again. */
void rg__proc_consumed(rg_pool *p, size_t r);
const char *rg__proc_failure(const rg_pool *p, size_t env);
uint64_t rg__proc_respawns(const rg_pool *p);
int rg__info_init(rg_pool *p);
void rg__info_free(rg_pool *p);
/* Writes env id's current info into one row's columns. */
void rg__info_write(const rg_pool *p, int32_t id, int64_t *values, uint8_t *valid);
void rg__rows_free(rg__rows *r);

#endif

/* The pool's layout, shared by the files of src/pool. */
#ifndef RG_SRC_POOL_POOL_INTERNAL_H
#define RG_SRC_POOL_POOL_INTERNAL_H

#include "base/base.h"

#include <retrogym/pool.h>

#include <pthread.h>

enum { JOB_STEP = 1, JOB_RESET = 2 };

/* A set of result rows: the synchronous buffer (rows by order of the call) or one batch of the async ring. */
typedef struct rg__rows {
    uint8_t *obs, *final_obs, *terminated, *truncated, *has_final;
    float *rewards;
    int32_t *ids;
    size_t cap;
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
    rg__queue *queues;      /* one per worker; env i belongs to worker i % m */
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    int stop, threads_started;
    /* the first error since the last call */
    int err_rc, err_env;
    char err_msg[512];
};

/* The argument of a worker thread (freed by the worker). */
typedef struct rg__worker_arg {
    rg_pool *pool;
    unsigned index;
} rg__worker_arg;
void *rg__pool_worker(void *arg);
int rg__rows_alloc(rg__rows *r, size_t rows, size_t obs_size);
void rg__rows_free(rg__rows *r);

#endif

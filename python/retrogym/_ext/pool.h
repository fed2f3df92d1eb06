/* Declarations shared by the files of the Pool type (include/retrogym/pool.h behind a Python object): pool_type.c
 * its life (creation, close, the GC), pool_step.c resets and steps, pool_batch.c the arrays and info dicts of a
 * result, pool_attrs.c its attributes and describe(), pool_record.c recording movies. The Python front is
 * python/retrogym/vector.py. */
#ifndef RGPY_POOL_H
#define RGPY_POOL_H

#include "ext.h"

typedef struct rgpy_Pool {
    PyObject_HEAD
    rg_pool *pool;          /* NULL once closed */
    int busy;               /* a call without the GIL is running on this pool */
    PyObject *env_dicts;    /* tuple of dicts: Env's keyword arguments, one for all or one per env (copied at
                             * creation, when the pool's environments are made from them) */
    PyObject *log_fn;       /* callable(level, message) or NULL */
    int log_on;
    PyInterpreterState *interp; /* the interpreter log_fn belongs to */
    rg_pool_options popts;  /* everything but envs, n_env_options and seed */
    uint64_t seed;          /* the last seed: given at creation or to a reset (rg_pool_seed reseeds in place) */
    size_t n, batch, obs_size, act_len;
    unsigned players;
    int ram;                /* RAM observations */
    int obs_nd;             /* per env */
    npy_intp obs_dims[4];
    int fresh;              /* no reset since the pool was created */
    int reset_done;         /* some reset happened: steps are allowed */
    int multi_rewards;      /* rewards of every player (count x players) instead of player 1's */
    uint8_t *inflight;      /* per env: an asynchronous step is queued and not received */
    size_t n_inflight;
    PyObject *info_keys;    /* tuple: for each info column its name and "_name", made once (not per step) */
    PyObject *weakrefs;
    unsigned slice_ms;      /* waits for the workers last at most this long between checks for signals (0: no check) */
    int interrupted;        /* a signal's exception (Ctrl-C) ended a wait: work may still run in a lane */
    PyObject *held;         /* list: arrays the workers may still write into after an interruption (never freed) */
} rgpy_Pool;

/* How long one wait for the workers lasts before the GIL is taken back to check for signals (Ctrl-C). */
#define RGPY_WAIT_SLICE_MS 20

/* rgpy_pool_finish_pending's result when a signal handler raised (the exception is set). */
#define RGPY_INTERRUPTED 2

/* ---- pool_type.c ---- */

/** Finishes a pool call left pending (RG_POOL_PENDING): waits slice by slice without the GIL, running the signal
 * handlers between slices; RGPY_INTERRUPTED when one raised (the pool is then marked interrupted). */
int rgpy_pool_finish_pending(rgpy_Pool *self, int rc, char *msg, rg_pool_batch *b, PyObject *hold);
/** 0 when the pool is open, not interrupted and not busy; -1 with RuntimeError set otherwise. */
int rgpy_pool_usable(rgpy_Pool *self);

/* ---- pool_batch.c: results ---- */

/** The info columns' keys (name and "_name" each), made once per pool into self->info_keys. */
int rgpy_pool_make_info_keys(rgpy_Pool *self);
/** A new (count, *obs_shape) uint8 array, copied from src (NULL: left to be filled). */
PyObject *rgpy_pool_new_obs(rgpy_Pool *self, const uint8_t *src, size_t count);
/** Gymnasium's vector info dict of a batch (arrays of `len`, by env id or by row; `final`: SAME_STEP's final info). */
PyObject *rgpy_pool_new_infos(rgpy_Pool *self, const rg_pool_batch *b, size_t len, int by_id, int final);
/** (obs, rewards, terminated, truncated, infos, final_obs, has_final[, env_ids]) of a batch. */
PyObject *rgpy_pool_batch_result(rgpy_Pool *self, const rg_pool_batch *b, int by_row, PyObject *obs_ready);

/* ---- pool_attrs.c ---- */

/** Environment index i of arg, checked; -1 with an IndexError set otherwise. */
Py_ssize_t rgpy_pool_env_index(rgpy_Pool *self, PyObject *arg);
extern PyGetSetDef rgpy_pool_getset[];

#endif

/* The Pool type: one rg_pool (include/retrogym/pool.h), N environments stepped by worker threads, behind a Python
 * object. Every call that waits for the workers or writes movies (create, reset, step, recv, close, record_dir,
 * stop_record) runs without the GIL; each result is a set of new arrays the caller owns, filled from the pool's batch
 * buffers with one copy each (never views into them). The Python front is python/retrogym/vector.py. */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

typedef struct rgpy_Pool {
    PyObject_HEAD
    rg_pool *pool;          /* NULL once closed */
    int busy;               /* a call without the GIL is running on this pool */
    PyObject *env_dicts;    /* tuple of dicts: Env's keyword arguments, one for all or one per env (kept to
                             * re-create the pool for a seeded reset) */
    PyObject *log_fn;       /* callable(level, message) or NULL */
    int log_on;
    PyInterpreterState *interp; /* the interpreter log_fn belongs to */
    rg_pool_options popts;  /* everything but envs, n_env_options and seed */
    uint64_t seed;          /* the seed the pool was created with */
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
/* finish_pending's result when a signal handler raised (the exception is set). */
#define RGPY_INTERRUPTED 2

/* ---- helpers ---- */

/* Finishes a pool call left pending (RG_POOL_PENDING: its work was not done within slice_ms): waits slice by slice
 * without the GIL, and between slices runs the signal handlers with the GIL. When one raises (KeyboardInterrupt),
 * the pool is marked interrupted (only close() is allowed: a worker may be stuck in a core and may still write into
 * the pool's buffers and `hold`, and may log through this object: both are therefore kept alive for good) and
 * RGPY_INTERRUPTED is returned. */
static int finish_pending(rgpy_Pool *self, int rc, char *msg, rg_pool_batch *b, PyObject *hold)
{
    while (rc == RG_POOL_PENDING) {
        if (PyErr_CheckSignals()) {
            if (!self->interrupted)
                Py_INCREF(self); /* kept for good: a stuck worker may still call pool_log with it */
            self->interrupted = 1;
            if (hold && (self->held || (self->held = PyList_New(0))))
                PyList_Append(self->held, hold); /* on failure the array is merely freed early: nothing to add */
            return RGPY_INTERRUPTED;
        }
        self->busy = 1;
        Py_BEGIN_ALLOW_THREADS
        rc = rg_pool_wait(self->pool, self->slice_ms, b);
        if (rc != RG_OK && rc != RG_POOL_PENDING)
            snprintf(msg, RGPY_MSG, "%s", rg_error_last());
        Py_END_ALLOW_THREADS
        self->busy = 0;
    }
    return rc;
}

static int pool_usable(rgpy_Pool *self)
{
    if (!self->pool) {
        PyErr_SetString(PyExc_RuntimeError, "the environment is closed");
        return -1;
    }
    if (self->interrupted) {
        PyErr_SetString(PyExc_RuntimeError, "the vector environment was interrupted while it waited for its workers: "
                                            "a lane may still be running (a hung core?); close it");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the vector environment is in use by another thread (one thread drives "
                                            "a vector environment at a time)");
        return -1;
    }
    return 0;
}

/* Library and core messages of every environment go to one Python callable (from the worker threads too). */
static void pool_log(rg_log_level level, const char *message, void *user)
{
    rgpy_Pool *self = user;
    rgpy_forward_log(self->interp, self->log_fn, self->log_on, level, message);
}

/* Frees the pool without the GIL (waits for steps in flight). */
static void pool_release(rgpy_Pool *self)
{
    rg_pool *pool = self->pool;
    self->pool = NULL;
    if (!pool)
        return;
    Py_BEGIN_ALLOW_THREADS
    rg_pool_free(pool);
    Py_END_ALLOW_THREADS
    self->log_on = 0;
    if (self->inflight)
        memset(self->inflight, 0, self->n);
    self->n_inflight = 0;
}

/* The info columns' keys, name and "_name" for each, built once per pool. */
static int make_info_keys(rgpy_Pool *self)
{
    size_t n = rg_pool_info_count(self->pool);
    PyObject *keys = PyTuple_New((Py_ssize_t)(2 * n));
    for (size_t j = 0; keys && j < n; j++) {
        const char *name = rg_pool_info_name(self->pool, j);
        PyObject *k = PyUnicode_FromString(name), *m = PyUnicode_FromFormat("_%s", name);
        if (!k || !m) {
            Py_XDECREF(k);
            Py_XDECREF(m);
            Py_CLEAR(keys);
            break;
        }
        PyTuple_SET_ITEM(keys, (Py_ssize_t)(2 * j), k);
        PyTuple_SET_ITEM(keys, (Py_ssize_t)(2 * j + 1), m);
    }
    Py_XSETREF(self->info_keys, keys);
    return keys ? 0 : -1;
}

/* The per-env observation shape from the pool's (stack, height, width, channels): RAM (bytes,) or (stack, bytes);
 * one channel (grayscale) (h, w) or (stack, h, w); colour (h, w, c) or (stack, h, w, c). */
static int pool_shape(rgpy_Pool *self)
{
    unsigned st = 1, h = 0, w = 0, c = 0;
    rg_pool_obs_shape(self->pool, &st, &h, &w, &c);
    if (st == 0)
        st = 1;
    int nd = 0;
    npy_intp *d = self->obs_dims;
    if (st > 1)
        d[nd++] = st;
    if (self->ram) {
        d[nd++] = (npy_intp)h * w * c;
    } else {
        d[nd++] = h;
        d[nd++] = w;
        if (c != 1)
            d[nd++] = c;
    }
    self->obs_nd = nd;
    size_t size = 1;
    for (int i = 0; i < nd; i++)
        size *= (size_t)d[i];
    if (size != self->obs_size) {
        PyErr_Format(PyExc_RuntimeError,
                     "the pool's observation shape (%u, %u, %u, %u) does not match its size of %zu bytes", st, h, w,
                     c, self->obs_size);
        return -1;
    }
    return 0;
}

/* Creates the rg_pool from the stored options with a seed; 0, or -1 with an exception set. */
static int pool_open(rgpy_Pool *self, uint64_t seed)
{
    Py_ssize_t nd = PyTuple_GET_SIZE(self->env_dicts);
    rgpy_env_opts *eo = PyMem_Calloc((size_t)nd, sizeof *eo);
    rg_env_options *o = PyMem_Calloc((size_t)nd, sizeof *o);
    PyObject *empty = PyTuple_New(0);
    int ok = eo && o && empty;
    if (!eo || !o)
        PyErr_NoMemory();
    Py_ssize_t parsed = 0;
    for (; ok && parsed < nd; parsed++) {
        PyObject *kw = PyTuple_GET_ITEM(self->env_dicts, parsed);
        if (rgpy_env_opts_parse(empty, kw, &eo[parsed])) {
            ok = 0;
            break;
        }
        o[parsed] = eo[parsed].o;
        o[parsed].log = self->log_fn ? pool_log : NULL;
        o[parsed].log_user = self;
    }
    if (ok) {
        rg_pool_options po = self->popts;
        po.envs = o;
        po.n_env_options = (size_t)nd;
        po.seed = seed;
        rg_pool *pool = NULL;
        int rc;
        char msg[RGPY_MSG] = "";
        self->log_on = 1;
        self->interp = PyInterpreterState_Get();
        RGPY_NOGIL(self, rc, msg, rg_pool_create(&pool, &po));
        if (rc != RG_OK) {
            self->log_on = 0;
            rgpy_raise_msg(rc, msg);
            ok = 0;
        } else if (self->slice_ms && (rc = rg_pool_set_timeout(pool, self->slice_ms)) != RG_OK) {
            self->log_on = 0;
            rgpy_raise(rc);
            Py_BEGIN_ALLOW_THREADS
            rg_pool_free(pool);
            Py_END_ALLOW_THREADS
            ok = 0;
        } else {
            self->pool = pool;
            self->seed = seed;
            self->ram = o[0].obs == RG_OBS_RAM;
        }
    }
    for (Py_ssize_t i = 0; eo && i < parsed; i++)
        rgpy_env_opts_release(&eo[i]);
    PyMem_Free(eo);
    PyMem_Free(o);
    Py_XDECREF(empty);
    if (!ok)
        return -1;
    self->n = rg_pool_num_envs(self->pool);
    self->obs_size = rg_pool_obs_size(self->pool);
    self->act_len = rg_pool_action_length(self->pool);
    self->players = rg_env_players(rg_pool_env(self->pool, 0));
    self->fresh = 1;
    self->reset_done = 0;
    self->n_inflight = 0;
    if (pool_shape(self) || make_info_keys(self)) {
        pool_release(self);
        return -1;
    }
    return 0;
}


/* Environment ids from any 1-d integer sequence, checked (in range, no repeats); a PyMem buffer or NULL. */
static int32_t *parse_ids(rgpy_Pool *self, PyObject *obj, size_t *count)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_INT64, 1, 1, NPY_ARRAY_C_CONTIGUOUS |
                                                                                   NPY_ARRAY_ALIGNED);
    if (!a) {
        if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "environment ids must be a 1-d sequence of ints, not %R", obj);
        }
        return NULL;
    }
    size_t n = (size_t)PyArray_SIZE(a);
    const int64_t *v = PyArray_DATA(a);
    int32_t *ids = PyMem_Malloc((n ? n : 1) * sizeof *ids);
    uint8_t *seen = PyMem_Calloc(self->n, 1);
    if (!ids || !seen) {
        PyMem_Free(ids);
        PyMem_Free(seen);
        Py_DECREF(a);
        PyErr_NoMemory();
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        if (v[k] < 0 || (uint64_t)v[k] >= self->n) {
            PyErr_Format(PyExc_ValueError, "environment id %lld is not in [0, %zu)", (long long)v[k], self->n);
            goto fail;
        }
        if (seen[v[k]]) {
            PyErr_Format(PyExc_ValueError, "environment id %lld is given twice", (long long)v[k]);
            goto fail;
        }
        seen[v[k]] = 1;
        ids[k] = (int32_t)v[k];
    }
    PyMem_Free(seen);
    Py_DECREF(a);
    *count = n;
    return ids;
fail:
    PyMem_Free(ids);
    PyMem_Free(seen);
    Py_DECREF(a);
    return NULL;
}

/* Actions for `rows` environments as a C-contiguous int64 array of shape (rows, action_length); (rows,) is taken
 * too when an action is one integer. Values are cast as int() would (MultiBinary floats 0.0/1.0 work). */
static PyArrayObject *parse_actions(rgpy_Pool *self, PyObject *actions, size_t rows)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(actions, NPY_INT64, 0, 0, NPY_ARRAY_C_CONTIGUOUS |
                                                                                      NPY_ARRAY_ALIGNED |
                                                                                      NPY_ARRAY_FORCECAST);
    if (!a) {
        if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "actions must be integers of shape (%zu, %zu), not %R", rows,
                         self->act_len, actions);
        }
        return NULL;
    }
    int nd = PyArray_NDIM(a);
    npy_intp *d = PyArray_DIMS(a);
    int ok = (nd == 2 && (size_t)d[0] == rows && (size_t)d[1] == self->act_len) ||
             (nd == 1 && self->act_len == 1 && (size_t)d[0] == rows);
    if (!ok) {
        PyObject *shape = PyObject_GetAttrString((PyObject *)a, "shape");
        PyErr_Format(PyExc_ValueError, "actions must have shape (%zu, %zu)%s, not %R", rows, self->act_len,
                     self->act_len == 1 ? " or (num,)" : "", shape ? shape : Py_None);
        Py_XDECREF(shape);
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* A new (count, *obs_shape) uint8 array holding `count` observations copied from src (NULL: left to be filled). */
static PyObject *new_obs(rgpy_Pool *self, const uint8_t *src, size_t count)
{
    npy_intp dims[5];
    dims[0] = (npy_intp)count;
    for (int i = 0; i < self->obs_nd; i++)
        dims[i + 1] = self->obs_dims[i];
    PyObject *a = PyArray_SimpleNew(self->obs_nd + 1, dims, NPY_UINT8);
    if (a && count && src)
        memcpy(PyArray_DATA((PyArrayObject *)a), src, count * self->obs_size);
    return a;
}

static PyObject *new_flags(const uint8_t *src, size_t count)
{
    npy_intp n = (npy_intp)count;
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_BOOL);
    if (a && count)
        memcpy(PyArray_DATA((PyArrayObject *)a), src, count);
    return a;
}

/* Rewards as float32: player 1's (count,), or every player's (count, players) with multi_rewards. */
static PyObject *new_rewards(rgpy_Pool *self, const float *src, size_t count)
{
    int multi = self->multi_rewards && self->players > 1;
    npy_intp dims[2] = {(npy_intp)count, (npy_intp)self->players};
    PyObject *a = PyArray_SimpleNew(multi ? 2 : 1, dims, NPY_FLOAT32);
    if (!a)
        return NULL;
    float *dst = PyArray_DATA((PyArrayObject *)a);
    for (size_t k = 0; k < count; k++) {
        if (multi)
            for (unsigned p = 0; p < self->players; p++)
                dst[k * self->players + p] = src[k * RG_SCENARIO_MAX_PLAYERS + p];
        else
            dst[k] = src[k * RG_SCENARIO_MAX_PLAYERS];
    }
    return a;
}

/* Sets infos[name] (int64 array of len) and infos["_name"] (bool mask), creating both on first use; returns
 * borrowed pointers to their data. */
static int info_arrays(PyObject *infos, const char *name, npy_intp len, int64_t **values, npy_bool **mask)
{
    PyObject *mkey = PyUnicode_FromFormat("_%s", name);
    if (!mkey)
        return -1;
    PyObject *arr = PyDict_GetItemString(infos, name); /* borrowed */
    PyObject *m = arr ? PyDict_GetItem(infos, mkey) : NULL;
    if (!arr || !m) {
        arr = PyArray_ZEROS(1, &len, NPY_INT64, 0);
        m = PyArray_ZEROS(1, &len, NPY_BOOL, 0);
        int bad = !arr || !m || PyDict_SetItemString(infos, name, arr) || PyDict_SetItem(infos, mkey, m);
        Py_XDECREF(arr);
        Py_XDECREF(m);
        if (bad) {
            Py_DECREF(mkey);
            return -1;
        }
    }
    Py_DECREF(mkey);
    *values = PyArray_DATA((PyArrayObject *)arr);
    *mask = PyArray_DATA((PyArrayObject *)m);
    return 0;
}

/* Gymnasium's vector info: for every game variable an int64 array of `len` and a bool mask "_name"; row k's values go
 * to index ids[k] (by_id) or k. The data.json variables come from the batch's columns (written by the workers);
 * custom variables, when an env has any, are read from the env (idle now). `final`: SAME_STEP's final info, from the
 * final columns, valid only in the rows whose episode ended, without custom variables. */
static PyObject *new_infos(rgpy_Pool *self, const rg_pool_batch *b, size_t len, int by_id, int final)
{
    PyObject *infos = PyDict_New();
    if (!infos)
        return NULL;
    npy_intp n = (npy_intp)len;
    const int64_t *vals = final ? b->final_info : b->info;
    const uint8_t *valid = final ? b->final_info_valid : b->info_valid;
    for (size_t j = 0; j < b->n_info; j++) {
        /* every position is written below when the batch covers them all; otherwise the others stay 0 */
        PyObject *arr = b->count >= len ? PyArray_SimpleNew(1, &n, NPY_INT64) : PyArray_ZEROS(1, &n, NPY_INT64, 0);
        PyObject *m = b->count >= len ? PyArray_SimpleNew(1, &n, NPY_BOOL) : PyArray_ZEROS(1, &n, NPY_BOOL, 0);
        int bad = !arr || !m || PyDict_SetItem(infos, PyTuple_GET_ITEM(self->info_keys, (Py_ssize_t)(2 * j)), arr) ||
                  PyDict_SetItem(infos, PyTuple_GET_ITEM(self->info_keys, (Py_ssize_t)(2 * j + 1)), m);
        Py_XDECREF(arr);
        Py_XDECREF(m);
        if (bad) {
            Py_DECREF(infos);
            return NULL;
        }
        int64_t *dst = PyArray_DATA((PyArrayObject *)arr);
        npy_bool *mask = PyArray_DATA((PyArrayObject *)m);
        for (size_t k = 0; k < b->count; k++) {
            size_t pos = by_id ? (size_t)b->env_ids[k] : k;
            int ok = valid[k * b->n_info + j] && (!final || b->has_final[k]);
            dst[pos] = ok ? vals[k * b->n_info + j] : 0;
            mask[pos] = (npy_bool)ok;
        }
    }
    /* (worker processes: the envs that run are theirs, and their custom variables are not reported) */
    int isolated = rg_pool_isolation_mode(self->pool) == RG_POOL_PROCESSES;
    for (size_t k = 0; !final && !isolated && k < b->count; k++) {
        rg_env *env = rg_pool_env(self->pool, (size_t)b->env_ids[k]);
        size_t pos = by_id ? (size_t)b->env_ids[k] : k;
        size_t nd = rg_gamedata_variable_count(rg_env_gamedata(env)), nv = rg_env_info_count(env);
        for (size_t i = nd; i < nv; i++) {
            const char *name;
            int64_t value, *dst;
            npy_bool *mask;
            if (rg_env_info_at(env, i, &name, &value) != RG_OK)
                continue;
            if (info_arrays(infos, name, n, &dst, &mask) < 0) {
                Py_DECREF(infos);
                return NULL;
            }
            dst[pos] = value;
            mask[pos] = 1;
        }
    }
    return infos;
}

/* SAME_STEP: infos["final_info"] (the ended episodes' last infos, Gymnasium's layout) and infos["_final_info"]. */
static int add_final_info(rgpy_Pool *self, PyObject *infos, const rg_pool_batch *b, PyObject *has_final)
{
    PyObject *fin = new_infos(self, b, b->count, 0, 1);
    int bad = !fin || PyDict_SetItemString(infos, "final_info", fin) ||
              PyDict_SetItemString(infos, "_final_info", has_final);
    Py_XDECREF(fin);
    return bad ? -1 : 0;
}

/* Worker processes: infos["failure"] (an object array: why the row's env was lost with its worker, None elsewhere)
 * and infos["_failure"], only when some row failed. */
static int add_failures(rgpy_Pool *self, PyObject *infos, const rg_pool_batch *b, size_t len, int by_id)
{
    int any = 0;
    for (size_t k = 0; b->failed && k < b->count && !any; k++)
        any = b->failed[k] != 0;
    if (!any)
        return 0;
    npy_intp n = (npy_intp)len;
    PyObject *list = PyList_New(n); /* None everywhere but the failed rows */
    PyObject *mask = PyArray_ZEROS(1, &n, NPY_BOOL, 0);
    int bad = !list || !mask;
    for (npy_intp i = 0; !bad && i < n; i++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(list, i, Py_None);
    }
    for (size_t k = 0; !bad && k < b->count; k++) {
        if (!b->failed[k])
            continue;
        size_t pos = by_id ? (size_t)b->env_ids[k] : k;
        const char *msg = rg_pool_failure(self->pool, (size_t)b->env_ids[k]);
        PyObject *str = PyUnicode_FromString(msg ? msg : "its worker process was lost");
        if (!str)
            bad = 1;
        else
            PyList_SetItem(list, (Py_ssize_t)pos, str); /* steals str, drops the None */
        if (!bad)
            ((npy_bool *)PyArray_DATA((PyArrayObject *)mask))[pos] = 1;
    }
    PyObject *why = bad ? NULL : PyArray_FromAny(list, PyArray_DescrFromType(NPY_OBJECT), 1, 1, 0, NULL);
    Py_XDECREF(list);
    bad = bad || !why;
    bad = bad || PyDict_SetItemString(infos, "failure", why) || PyDict_SetItemString(infos, "_failure", mask);
    Py_XDECREF(why);
    Py_XDECREF(mask);
    return bad ? -1 : 0;
}

/* (obs, rewards, terminated, truncated, infos, final_obs, has_final[, env_ids]) of a batch; final_obs and has_final
 * are None unless some row's episode ended and was reset in the same step (SAME_STEP). */
static PyObject *batch_result(rgpy_Pool *self, const rg_pool_batch *b, int by_row, PyObject *obs_ready)
{
    size_t count = b->count;
    int any_final = 0;
    if (self->popts.autoreset == RG_AUTORESET_SAME_STEP && b->has_final)
        for (size_t k = 0; k < count && !any_final; k++)
            any_final = b->has_final[k] != 0;
    PyObject *obs = obs_ready ? obs_ready : new_obs(self, b->obs, count); /* obs_ready: a reference we take */
    PyObject *rew = new_rewards(self, b->rewards, count);
    PyObject *term = new_flags(b->terminated, count);
    PyObject *trunc = new_flags(b->truncated, count);
    PyObject *infos = new_infos(self, b, by_row ? count : self->n, !by_row, 0);
    PyObject *fin = any_final ? new_obs(self, b->final_obs, count) : (Py_INCREF(Py_None), Py_None);
    PyObject *has = any_final ? new_flags(b->has_final, count) : (Py_INCREF(Py_None), Py_None);
    if (any_final && infos && has && add_final_info(self, infos, b, has) < 0)
        Py_CLEAR(infos);
    if (infos && add_failures(self, infos, b, by_row ? count : self->n, !by_row) < 0)
        Py_CLEAR(infos);
    PyObject *ids = NULL;
    if (by_row) {
        npy_intp n = (npy_intp)count;
        ids = PyArray_SimpleNew(1, &n, NPY_INT32);
        if (ids && count)
            memcpy(PyArray_DATA((PyArrayObject *)ids), b->env_ids, count * sizeof(int32_t));
    }
    if (!obs || !rew || !term || !trunc || !infos || !fin || !has || (by_row && !ids)) {
        Py_XDECREF(obs);
        Py_XDECREF(rew);
        Py_XDECREF(term);
        Py_XDECREF(trunc);
        Py_XDECREF(infos);
        Py_XDECREF(fin);
        Py_XDECREF(has);
        Py_XDECREF(ids);
        return NULL;
    }
    if (by_row)
        return Py_BuildValue("(NNNNNNNN)", obs, rew, term, trunc, infos, fin, has, ids);
    return Py_BuildValue("(NNNNNNN)", obs, rew, term, trunc, infos, fin, has);
}

/* ---- the type ---- */

static int Pool_init(rgpy_Pool *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"envs", "num_envs", "num_threads", "batch_size", "autoreset", "seed", "grayscale",
                         "resize", "frame_stack", "reward_clip", "log", "processes", "worker_timeout_ms", NULL};
    PyObject *envs, *seed = Py_None, *resize = Py_None, *log = Py_None;
    Py_ssize_t num_envs, threads = 0, batch = 0, stack = 0, timeout_ms = 0;
    int autoreset = RG_AUTORESET_NEXT_STEP, gray = 0, processes = 0;
    double clip = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "On|$nniOpOndOpn", kw, &envs, &num_envs, &threads, &batch,
                                     &autoreset, &seed, &gray, &resize, &stack, &clip, &log, &processes,
                                     &timeout_ms))
        return -1;
    if (timeout_ms < 0 || timeout_ms > 86400000) {
        PyErr_Format(PyExc_ValueError, "worker_timeout_ms must be 0..86400000, not %zd", timeout_ms);
        return -1;
    }
    if (self->pool || self->env_dicts) {
        PyErr_SetString(PyExc_RuntimeError, "Pool.__init__ called twice");
        return -1;
    }
    if (num_envs < 1 || num_envs > 65536) {
        PyErr_Format(PyExc_ValueError, "num_envs must be 1..65536, not %zd", num_envs);
        return -1;
    }
    if (threads < 0 || threads > 4096 || batch < 0 || batch > num_envs || stack < 0 || stack > 64) {
        PyErr_SetString(PyExc_ValueError, "num_threads must be 0..4096, batch_size 0..num_envs, frame_stack 0..64");
        return -1;
    }
    if (autoreset < RG_AUTORESET_NEXT_STEP || autoreset > RG_AUTORESET_DISABLED) {
        PyErr_Format(PyExc_ValueError, "unknown autoreset mode %d", autoreset);
        return -1;
    }
    if (!(clip >= 0.0)) {
        PyErr_SetString(PyExc_ValueError, "reward_clip must be >= 0");
        return -1;
    }
    unsigned rh = 0, rw = 0;
    if (resize != Py_None) {
        Py_ssize_t h, w;
        if (!PyTuple_Check(resize) || !PyArg_ParseTuple(resize, "nn", &h, &w)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "resize must be (height, width) or None, not %R", resize);
            return -1;
        }
        if (h < 1 || w < 1 || h > 4096 || w > 4096) {
            PyErr_Format(PyExc_ValueError, "resize must be (height, width) in 1..4096, not %R", resize);
            return -1;
        }
        rh = (unsigned)h;
        rw = (unsigned)w;
    }
    if (log != Py_None && !PyCallable_Check(log)) {
        PyErr_SetString(PyExc_TypeError, "log must be callable or None");
        return -1;
    }
    int seeded;
    uint64_t seed_value;
    if (rgpy_parse_seed(seed, &seeded, &seed_value))
        return -1;
    /* the per-env options: one dict for all, or one per env; copied so later changes by the caller do not count */
    PyObject *seq = NULL;
    if (!PyDict_Check(envs) && !(seq = PySequence_Fast(envs, "envs must be a dict or a sequence of dicts")))
        return -1;
    Py_ssize_t nd = seq ? PySequence_Fast_GET_SIZE(seq) : 1;
    if (nd != 1 && nd != num_envs) {
        Py_XDECREF(seq);
        PyErr_Format(PyExc_ValueError, "give one dict of environment options, or one per environment (%zd given for "
                                       "%zd)", nd, num_envs);
        return -1;
    }
    PyObject *dicts = PyTuple_New(nd);
    for (Py_ssize_t i = 0; dicts && i < nd; i++) {
        PyObject *d = seq ? PySequence_Fast_GET_ITEM(seq, i) : envs;
        if (!PyDict_Check(d)) {
            PyErr_Format(PyExc_TypeError, "environment options must be dicts, not %.100s", Py_TYPE(d)->tp_name);
            Py_CLEAR(dicts);
            break;
        }
        PyObject *copy = PyDict_Copy(d);
        if (!copy)
            Py_CLEAR(dicts);
        else
            PyTuple_SET_ITEM(dicts, i, copy);
    }
    Py_XDECREF(seq);
    if (!dicts)
        return -1;
    self->env_dicts = dicts;
    if (log != Py_None) {
        Py_INCREF(log);
        Py_XSETREF(self->log_fn, log);
    }
    rg_pool_options po = RG_POOL_OPTIONS_INIT;
    po.num_envs = (size_t)num_envs;
    po.num_threads = (unsigned)threads;
    po.batch_size = (size_t)batch;
    po.autoreset = (rg_autoreset_mode)autoreset;
    po.grayscale = gray;
    po.resize_height = rh;
    po.resize_width = rw;
    po.frame_stack = (unsigned)stack;
    po.reward_clip = (float)clip;
    po.isolation = processes ? RG_POOL_PROCESSES : RG_POOL_THREADS;
    po.worker_timeout_ms = (unsigned)timeout_ms;
    self->popts = po;
    self->slice_ms = RGPY_WAIT_SLICE_MS;
    self->batch = batch ? (size_t)batch : (size_t)num_envs;
    if (!(self->inflight = PyMem_Calloc((size_t)num_envs, 1))) {
        PyErr_NoMemory();
        return -1;
    }
    return pool_open(self, seed_value);
}

static PyObject *Pool_close(rgpy_Pool *self, PyObject *unused)
{
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot close the vector environment while another thread is using it");
        return NULL;
    }
    pool_release(self);
    Py_RETURN_NONE;
}

/* reset(seed=None, ids=None) -> (obs, infos): every env (rows in env order) or the given ones (rows in the given
 * order; the infos' arrays are indexed by env id either way). A seed makes env i start from seed + i: the pool has
 * no call to reseed its environments, so it is created again with that seed (unless it was just created with it and
 * never reset). */
static PyObject *Pool_reset(rgpy_Pool *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"seed", "ids", NULL};
    PyObject *seed = Py_None, *ids_obj = Py_None;
    int seeded;
    uint64_t value;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", kw, &seed, &ids_obj) ||
        rgpy_parse_seed(seed, &seeded, &value) || pool_usable(self))
        return NULL;
    if (self->n_inflight) {
        PyErr_Format(PyExc_RuntimeError, "%zu asynchronous steps are in flight: recv() them first", self->n_inflight);
        return NULL;
    }
    if (seeded && ids_obj != Py_None) {
        PyErr_SetString(PyExc_ValueError, "a seed resets every environment: give no ids with it");
        return NULL;
    }
    int32_t *ids = NULL;
    size_t n = self->n;
    if (ids_obj != Py_None && !(ids = parse_ids(self, ids_obj, &n)))
        return NULL;
    if (ids && n == 0) {
        PyMem_Free(ids);
        PyErr_SetString(PyExc_ValueError, "no environment ids to reset");
        return NULL;
    }
    if (seeded && (!self->fresh || value != self->seed)) {
        int src = rg_pool_seed(self->pool, value);
        if (src != RG_OK)
            return rgpy_raise(src);
        self->seed = value;
    }
    rg_pool_batch b;
    int rc;
    char msg[RGPY_MSG] = "";
    RGPY_NOGIL(self, rc, msg, rg_pool_reset(self->pool, ids, ids ? n : 0, &b));
    PyMem_Free(ids); /* queued by rg_pool_reset */
    rc = finish_pending(self, rc, msg, &b, NULL);
    if (rc == RGPY_INTERRUPTED)
        return NULL;
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    self->fresh = 0;
    self->reset_done = 1;
    PyObject *obs = new_obs(self, b.obs, b.count);
    PyObject *infos = obs ? new_infos(self, &b, self->n, 1, 0) : NULL;
    if (!infos) {
        Py_XDECREF(obs);
        return NULL;
    }
    return Py_BuildValue("(NN)", obs, infos);
}

static int check_stepping(rgpy_Pool *self)
{
    if (pool_usable(self))
        return -1;
    if (!self->reset_done) {
        PyErr_SetString(PyExc_RuntimeError, "reset() must be called before the first step");
        return -1;
    }
    return 0;
}

/* step(actions) -> (obs, rewards, terminated, truncated, infos, final_obs, has_final), rows in env order. */
static PyObject *Pool_step(rgpy_Pool *self, PyObject *actions)
{
    if (check_stepping(self))
        return NULL;
    if (self->n_inflight) {
        PyErr_Format(PyExc_RuntimeError, "%zu asynchronous steps are in flight: recv() them first", self->n_inflight);
        return NULL;
    }
    PyArrayObject *a = parse_actions(self, actions, self->n);
    if (!a)
        return NULL;
    /* the workers write the observations straight into the array we return */
    PyObject *obs = new_obs(self, NULL, self->n);
    rg_pool_batch b;
    int rc = RG_ENOMEM;
    char msg[RGPY_MSG] = "";
    const int64_t *act = PyArray_DATA(a);
    if (obs) {
        uint8_t *dst = PyArray_DATA((PyArrayObject *)obs);
        RGPY_NOGIL(self, rc, msg, rg_pool_step_into(self->pool, act, dst, &b));
        rc = finish_pending(self, rc, msg, &b, obs);
    }
    Py_DECREF(a);
    if (!obs)
        return NULL;
    if (rc == RGPY_INTERRUPTED) {
        Py_DECREF(obs); /* held by self->held: a worker may still write into it */
        return NULL;
    }
    if (rc != RG_OK) {
        Py_DECREF(obs);
        return rgpy_raise_msg(rc, msg);
    }
    return batch_result(self, &b, 0, obs);
}

/* send(actions, ids): queues one step for each listed env (actions row k for ids[k]) and returns at once. */
static PyObject *Pool_send(rgpy_Pool *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"actions", "ids", NULL};
    PyObject *actions, *ids_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO", kw, &actions, &ids_obj) || check_stepping(self))
        return NULL;
    size_t n;
    int32_t *ids = parse_ids(self, ids_obj, &n);
    if (!ids)
        return NULL;
    for (size_t k = 0; k < n; k++)
        if (self->inflight[ids[k]]) {
            PyErr_Format(PyExc_RuntimeError, "environment %d has a step in flight already: recv() it first",
                         (int)ids[k]);
            PyMem_Free(ids);
            return NULL;
        }
    PyArrayObject *a = parse_actions(self, actions, n);
    if (!a) {
        PyMem_Free(ids);
        return NULL;
    }
    int rc = n ? rg_pool_send(self->pool, PyArray_DATA(a), ids, n) : RG_OK; /* quick: queues and wakes workers */
    Py_DECREF(a);
    if (rc == RG_OK) {
        for (size_t k = 0; k < n; k++)
            self->inflight[ids[k]] = 1;
        self->n_inflight += n;
    }
    PyMem_Free(ids);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* recv() -> (obs, rewards, terminated, truncated, infos, final_obs, has_final, env_ids): the first batch_size envs
 * to finish their queued steps, rows in the order they finished. */
static PyObject *Pool_recv(rgpy_Pool *self, PyObject *unused)
{
    (void)unused;
    if (pool_usable(self))
        return NULL;
    if (self->n_inflight < self->batch) {
        PyErr_Format(PyExc_RuntimeError, "%zu steps in flight, fewer than the batch size %zu: send() more first",
                     self->n_inflight, self->batch);
        return NULL;
    }
    rg_pool_batch b;
    memset(&b, 0, sizeof b);
    int rc;
    char msg[RGPY_MSG] = "";
    RGPY_NOGIL(self, rc, msg, rg_pool_recv(self->pool, &b));
    rc = finish_pending(self, rc, msg, &b, NULL);
    if (rc == RGPY_INTERRUPTED)
        return NULL;
    if (b.env_ids) {
        /* the batch was taken even when an environment failed */
        for (size_t k = 0; k < b.count; k++)
            if (self->inflight[b.env_ids[k]]) {
                self->inflight[b.env_ids[k]] = 0;
                self->n_inflight--;
            }
    }
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    return batch_result(self, &b, 1, NULL);
}

/* episode_steps() -> list of the steps since each env's last reset (no step may be in flight). */
static PyObject *Pool_episode_steps(rgpy_Pool *self, PyObject *unused)
{
    (void)unused;
    if (pool_usable(self))
        return NULL;
    if (self->n_inflight) {
        PyErr_SetString(PyExc_RuntimeError, "steps are in flight: recv() them first");
        return NULL;
    }
    PyObject *out = PyList_New((Py_ssize_t)self->n);
    for (size_t i = 0; out && i < self->n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(rg_pool_episode_steps(self->pool, i));
        if (!v)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, (Py_ssize_t)i, v);
    }
    return out;
}

/* elapsed_steps(ids) -> int32 array of the steps since the last reset of each environment of `ids` (none of them
 * may have a step in flight; the others may): EnvPool's info "elapsed_step". */
static PyObject *Pool_elapsed_steps(rgpy_Pool *self, PyObject *arg)
{
    if (pool_usable(self))
        return NULL;
    PyArrayObject *ids = (PyArrayObject *)PyArray_FROMANY(arg, NPY_INT64, 1, 1, NPY_ARRAY_CARRAY_RO);
    if (!ids)
        return NULL;
    npy_intp n = PyArray_DIM(ids, 0);
    const int64_t *id = (const int64_t *)PyArray_DATA(ids);
    PyObject *out = PyArray_SimpleNew(1, &n, NPY_INT32);
    for (npy_intp k = 0; out && k < n; k++) {
        if (id[k] < 0 || (size_t)id[k] >= self->n) {
            PyErr_Format(PyExc_IndexError, "environment %lld is not in 0..%zu", (long long)id[k], self->n - 1);
            Py_CLEAR(out);
        } else if (self->inflight[id[k]]) {
            PyErr_Format(PyExc_RuntimeError, "environment %lld has a step in flight: recv() it first", (long long)id[k]);
            Py_CLEAR(out);
        } else {
            uint64_t steps = rg_pool_episode_steps(self->pool, (size_t)id[k]);
            ((int32_t *)PyArray_DATA((PyArrayObject *)out))[k] = steps > INT32_MAX ? INT32_MAX : (int32_t)steps;
        }
    }
    Py_DECREF(ids);
    return out;
}

static PyObject *str_or_none(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

/* Environment index i of arg, checked; -1 with an IndexError set otherwise. */
static Py_ssize_t env_index(rgpy_Pool *self, PyObject *arg)
{
    Py_ssize_t i = PyNumber_AsSsize_t(arg, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred())
        return -1;
    if (i < 0 || (size_t)i >= self->n) {
        PyErr_Format(PyExc_IndexError, "environment %zd is not in [0, %zu)", i, self->n);
        return -1;
    }
    return i;
}

/* describe(i) -> dict: environment i's game, system, buttons, action groups and counts (for the spaces). */
static PyObject *Pool_describe(rgpy_Pool *self, PyObject *arg)
{
    Py_ssize_t i = pool_usable(self) ? -1 : env_index(self, arg);
    if (i < 0)
        return NULL;
    rg_env *env = rg_pool_env(self->pool, (size_t)i);
    rg_emu *emu = rg_env_emu(env);
    return Py_BuildValue("{s:s,s:s,s:s,s:I,s:I,s:N,s:N,s:i,s:n,s:K,s:N,s:d}", "game", rg_env_game(env), "system",
                         rg_env_system(env)->name, "state_name", rg_env_state_name(env), "players",
                         rg_env_players(env), "num_buttons", rg_env_num_buttons(env), "buttons",
                         rgpy_env_buttons(env), "button_combos", rgpy_env_button_combos(env), "action_mode",
                         (int)rg_env_action_mode(env), "action_length", (Py_ssize_t)rg_env_action_length(env),
                         "discrete_count", (unsigned long long)rg_env_discrete_count(env), "core",
                         str_or_none(rg_emu_core_name(emu)), "fps", rg_emu_fps(emu));
}

/* ---- recording movies (rg_pool_record_dir: environment i into folder/env-<i>, a movie per episode) ---- */

static int check_idle(rgpy_Pool *self)
{
    if (pool_usable(self))
        return -1;
    if (self->n_inflight) {
        PyErr_Format(PyExc_RuntimeError, "%zu asynchronous steps are in flight: recv() them first", self->n_inflight);
        return -1;
    }
    return 0;
}

/* record_dir(folder): writing the movies being recorded runs without the GIL, as Env.record_dir does. */
static PyObject *Pool_record_dir(rgpy_Pool *self, PyObject *args)
{
    PyObject *path;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path))
        return NULL;
    if (check_idle(self)) {
        Py_DECREF(path);
        return NULL;
    }
    int rc;
    char msg[RGPY_MSG] = "";
    const char *dir = PyBytes_AS_STRING(path);
    RGPY_NOGIL(self, rc, msg, rg_pool_record_dir(self->pool, dir));
    Py_DECREF(path);
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

static PyObject *Pool_stop_record(rgpy_Pool *self, PyObject *unused)
{
    (void)unused;
    if (check_idle(self))
        return NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    RGPY_NOGIL(self, rc, msg, rg_pool_record_stop(self->pool));
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

static PyObject *fs_or_none(const char *path)
{
    if (!path)
        Py_RETURN_NONE;
    return PyUnicode_DecodeFSDefault(path);
}

/* movie_info(i) -> None when environment i is not recording, else {"path": its movie file or None (waiting for its
 * next reset), "folder": its subfolder, "movie_id": the number its next movie gets, "frames": frames so far}. */
static PyObject *Pool_movie_info(rgpy_Pool *self, PyObject *arg)
{
    Py_ssize_t i = check_idle(self) ? -1 : env_index(self, arg);
    if (i < 0)
        return NULL;
    const rg_env *env = rg_pool_env(self->pool, (size_t)i);
    const char *path = rg_env_movie_path(env), *folder = rg_env_record_folder(env);
    if (!path && !folder)
        Py_RETURN_NONE;
    const rg_movie *m = rg_env_movie(env);
    return Py_BuildValue("{s:N,s:N,s:K,s:K}", "path", fs_or_none(path), "folder", fs_or_none(folder), "movie_id",
                         (unsigned long long)rg_env_movie_id(env), "frames",
                         (unsigned long long)(m ? rg_movie_frame_count(m) : 0));
}

static int Pool_traverse(rgpy_Pool *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self)); /* a heap type: its instances hold it */
    Py_VISIT(self->log_fn);
    Py_VISIT(self->env_dicts);
    return 0;
}

static int Pool_clear(rgpy_Pool *self)
{
    self->log_on = 0;
    Py_CLEAR(self->log_fn);
    Py_CLEAR(self->env_dicts);
    Py_CLEAR(self->info_keys);
    return 0;
}

static void Pool_dealloc(rgpy_Pool *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakrefs)
        PyObject_ClearWeakRefs((PyObject *)self);
    self->log_on = 0;
    pool_release(self);
    Pool_clear(self);
    PyMem_Free(self->inflight);
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* ---- attributes ---- */

#define POOL_GETTER(name, expr)                                                                                    \
    static PyObject *Pool_get_##name(rgpy_Pool *self, void *closure)                                               \
    {                                                                                                              \
        (void)closure;                                                                                             \
        if (pool_usable(self))                                                                                     \
            return NULL;                                                                                           \
        return (expr);                                                                                             \
    }

POOL_GETTER(num_envs, PyLong_FromSize_t(self->n))
POOL_GETTER(batch_size, PyLong_FromSize_t(self->batch))
POOL_GETTER(num_threads, PyLong_FromUnsignedLong(self->popts.num_threads))
POOL_GETTER(obs_size, PyLong_FromSize_t(self->obs_size))
POOL_GETTER(action_length, PyLong_FromSize_t(self->act_len))
POOL_GETTER(players, PyLong_FromUnsignedLong(self->players))
POOL_GETTER(autoreset, PyLong_FromLong((long)self->popts.autoreset))
POOL_GETTER(seed, PyLong_FromUnsignedLongLong(self->seed))
POOL_GETTER(in_flight, PyLong_FromSize_t(self->n_inflight))

static PyObject *Pool_get_obs_shape(rgpy_Pool *self, void *closure)
{
    (void)closure;
    if (pool_usable(self))
        return NULL;
    PyObject *t = PyTuple_New(self->obs_nd);
    for (int i = 0; t && i < self->obs_nd; i++) {
        PyObject *v = PyLong_FromSsize_t((Py_ssize_t)self->obs_dims[i]);
        if (!v)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *Pool_get_closed(rgpy_Pool *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->pool == NULL);
}

static PyObject *Pool_get_interrupted(rgpy_Pool *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->interrupted);
}

static PyObject *Pool_get_multi_rewards(rgpy_Pool *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->multi_rewards);
}

static int Pool_set_multi_rewards(rgpy_Pool *self, PyObject *value, void *closure)
{
    (void)closure;
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete multi_rewards");
        return -1;
    }
    int v = PyObject_IsTrue(value);
    if (v < 0)
        return -1;
    self->multi_rewards = v;
    return 0;
}

#define GETTER(name, doc) {#name, (getter)Pool_get_##name, NULL, doc, NULL}

static PyGetSetDef Pool_getset[] = {
    GETTER(num_envs, "number of environments"),
    GETTER(batch_size, "rows per recv()"),
    GETTER(num_threads, "worker threads asked for (0: one per online CPU, at most num_envs)"),
    GETTER(obs_size, "bytes of one environment's observation"),
    GETTER(obs_shape, "one environment's observation shape"),
    GETTER(action_length, "integers per action"),
    GETTER(players, "players per environment"),
    GETTER(autoreset, "0 NEXT_STEP, 1 SAME_STEP, 2 DISABLED"),
    GETTER(seed, "the seed the pool was created with (env i first resets with seed + i)"),
    GETTER(in_flight, "asynchronous steps sent and not received"),
    GETTER(closed, "whether close() was called"),
    GETTER(interrupted, "whether a signal (Ctrl-C) ended a wait for the workers: only close() is allowed then"),
    {"multi_rewards", (getter)Pool_get_multi_rewards, (setter)Pool_set_multi_rewards,
     "rewards of every player (num, players) instead of player 1's (num,)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyObject *Pool_set_wait_slice(rgpy_Pool *self, PyObject *arg)
{
    long ms = PyLong_AsLong(arg);
    if (ms == -1 && PyErr_Occurred())
        return NULL;
    if (ms < 0 || ms > 60000) {
        PyErr_SetString(PyExc_ValueError, "the wait slice must be 0..60000 ms");
        return NULL;
    }
    self->slice_ms = (unsigned)ms;
    Py_RETURN_NONE;
}

static PyMethodDef Pool_methods[] = {
    {"reset", (PyCFunction)(void (*)(void))Pool_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(seed=None, ids=None) -> (obs, infos)"},
    {"step", (PyCFunction)Pool_step, METH_O,
     "step(actions) -> (obs, rewards, terminated, truncated, infos, final_obs, has_final)"},
    {"send", (PyCFunction)(void (*)(void))Pool_send, METH_VARARGS | METH_KEYWORDS,
     "send(actions, ids): queue one step per listed environment"},
    {"recv", (PyCFunction)Pool_recv, METH_NOARGS,
     "recv() -> (obs, rewards, terminated, truncated, infos, final_obs, has_final, env_ids)"},
    {"episode_steps", (PyCFunction)Pool_episode_steps, METH_NOARGS, "episode_steps() -> list of int"},
    {"elapsed_steps", (PyCFunction)Pool_elapsed_steps, METH_O,
     "elapsed_steps(ids) -> int32 array of the steps since each listed environment's last reset"},
    {"describe", (PyCFunction)Pool_describe, METH_O, "describe(i) -> dict describing environment i"},
    {"record_dir", (PyCFunction)Pool_record_dir, METH_VARARGS,
     "record_dir(folder): every environment's episodes as movies, environment i into folder/env-<i>"},
    {"stop_record", (PyCFunction)Pool_stop_record, METH_NOARGS, "stop_record(): writes the movies being recorded"},
    {"movie_info", (PyCFunction)Pool_movie_info, METH_O, "movie_info(i) -> None or dict of environment i's recording"},
    {"close", (PyCFunction)Pool_close, METH_NOARGS, "close() stops the workers and frees everything; idempotent"},
    {"_set_wait_slice", (PyCFunction)Pool_set_wait_slice, METH_O,
     "_set_wait_slice(ms): waits check for signals every ms (default 20; 0: never, the caller runs lane 0, Ctrl-C "
     "waits for the step); takes effect when the pool is next created (a reset with a new seed)"},
    {NULL, NULL, 0, NULL}};

static PyMemberDef Pool_members[] = {
    {"__weaklistoffset__", RGPY_T_PYSSIZET, offsetof(rgpy_Pool, weakrefs), RGPY_READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot Pool_slots[] = {
    {Py_tp_doc, "Pool(envs, num_envs, *, num_threads=0, batch_size=0, autoreset=0, seed=0, grayscale=False, "
                "resize=None, frame_stack=0, reward_clip=0.0, log=None): N environments stepped by worker threads "
                "(the C rg_pool); envs is a dict of Env's keyword arguments, or a list of one per environment. Use "
                "retrogym.make_vec() instead."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, Pool_init},
    {Py_tp_dealloc, Pool_dealloc},
    {Py_tp_traverse, Pool_traverse},
    {Py_tp_clear, Pool_clear},
    {Py_tp_members, Pool_members},
    {Py_tp_getset, Pool_getset},
    {Py_tp_methods, Pool_methods},
    {0, NULL}};

PyType_Spec rgpy_pool_spec = {"retrogym._retrogym.Pool", sizeof(rgpy_Pool), 0, RGPY_TPFLAGS | Py_TPFLAGS_HAVE_GC,
                              Pool_slots};

/* The Pool type: one rg_pool (include/retrogym/pool.h), N environments stepped by worker threads, behind a Python
 * object; this file holds its life (creation, close, the GC) and the waits for its workers, the other pool_*.c files
 * the rest (pool.h). Every call that waits for the workers or writes movies (create, reset, step, recv, close,
 * record_dir, stop_record) runs without the GIL. The Python front is python/retrogym/vector.py. */
#include "pool.h"

#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

/* Finishes a pool call left pending (RG_POOL_PENDING: its work was not done within slice_ms): waits slice by slice
 * without the GIL, and between slices runs the signal handlers with the GIL. When one raises (KeyboardInterrupt),
 * the pool is marked interrupted (only close() is allowed: a worker may be stuck in a core and may still write into
 * the pool's buffers and `hold`, and may log through this object: both are therefore kept alive for good) and
 * RGPY_INTERRUPTED is returned. */
int rgpy_pool_finish_pending(rgpy_Pool *self, int rc, char *msg, rg_pool_batch *b, PyObject *hold)
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

int rgpy_pool_usable(rgpy_Pool *self)
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
    if (pool_shape(self) || rgpy_pool_make_info_keys(self)) {
        pool_release(self);
        return -1;
    }
    return 0;
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
    if (self->pool || self->env_dicts) {
        PyErr_SetString(PyExc_RuntimeError, "Pool.__init__ called twice");
        return -1;
    }
    /* Types only: the values are checked by rg_pool_create (RG_EINVAL, raised as retrogym.InvalidArgument) */
    unsigned long long u_envs, u_threads, u_batch, u_stack, u_timeout, u_h = 0, u_w = 0;
    if (rgpy_unsigned_opt(num_envs, "num_envs", SIZE_MAX, &u_envs) ||
        rgpy_unsigned_opt(threads, "num_threads", UINT_MAX, &u_threads) ||
        rgpy_unsigned_opt(batch, "batch_size", SIZE_MAX, &u_batch) ||
        rgpy_unsigned_opt(stack, "frame_stack", UINT_MAX, &u_stack) ||
        rgpy_unsigned_opt(timeout_ms, "worker_timeout_ms", UINT_MAX, &u_timeout))
        return -1;
    unsigned rh = 0, rw = 0;
    if (resize != Py_None) {
        Py_ssize_t h, w;
        if (!PyTuple_Check(resize) || !PyArg_ParseTuple(resize, "nn", &h, &w)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "resize must be (height, width) or None, not %R", resize);
            return -1;
        }
        if (h < 1 || w < 1) {
            PyErr_Format(PyExc_ValueError, "resize must be (height, width) of positive sizes, not %R", resize);
            return -1;
        }
        if (rgpy_unsigned_opt(h, "resize height", UINT_MAX, &u_h) || rgpy_unsigned_opt(w, "resize width", UINT_MAX, &u_w))
            return -1;
        rh = (unsigned)u_h;
        rw = (unsigned)u_w;
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
    po.num_envs = (size_t)u_envs;
    po.num_threads = (unsigned)u_threads;
    po.batch_size = (size_t)u_batch;
    po.autoreset = (rg_autoreset_mode)autoreset;
    po.grayscale = gray;
    po.resize_height = rh;
    po.resize_width = rw;
    po.frame_stack = (unsigned)u_stack;
    po.reward_clip = (float)clip;
    po.isolation = processes ? RG_POOL_PROCESSES : RG_POOL_THREADS;
    po.worker_timeout_ms = (unsigned)u_timeout;
    self->popts = po;
    self->slice_ms = RGPY_WAIT_SLICE_MS;
    self->batch = u_batch ? (size_t)u_batch : (size_t)u_envs;
    if (pool_open(self, seed_value)) /* C checks the options: nothing sized by them is allocated before */
        return -1;
    if (!(self->inflight = PyMem_Calloc(self->n, 1))) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
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

static PyMemberDef Pool_members[] = {
    {"__weaklistoffset__", RGPY_T_PYSSIZET, offsetof(rgpy_Pool, weakrefs), RGPY_READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot Pool_slots[] = {
    {Py_tp_doc, "Pool(envs, num_envs, *, num_threads=0, batch_size=0, autoreset=0, seed=None, grayscale=False, "
                "resize=None, frame_stack=0, reward_clip=0.0, log=None, processes=False, worker_timeout_ms=0): N "
                "environments stepped by worker threads or processes "
                "(the C rg_pool); envs is a dict of Env's keyword arguments, or a list of one per environment. Use "
                "retrogym.make_vec() instead."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, Pool_init},
    {Py_tp_dealloc, Pool_dealloc},
    {Py_tp_traverse, Pool_traverse},
    {Py_tp_clear, Pool_clear},
    {Py_tp_members, Pool_members},
    {Py_tp_getset, rgpy_pool_getset},
    {0, NULL}};

/* Without Py_tp_methods: module.c adds the tables of pool_type.c, pool_step.c, pool_attrs.c and pool_record.c. */
PyType_Spec rgpy_pool_spec = {"retrogym._retrogym.Pool", sizeof(rgpy_Pool), 0, RGPY_TPFLAGS | Py_TPFLAGS_HAVE_GC,
                              Pool_slots};

PyMethodDef rgpy_pool_base_methods[] = {
    {"close", (PyCFunction)Pool_close, METH_NOARGS, "close() stops the workers and frees everything; idempotent"},
    {NULL, NULL, 0, NULL}};

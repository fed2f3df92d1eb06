/* Pool: resets and steps (reset, step, send/recv), and the steps since each environment's reset. Every wait for
 * the workers runs without the GIL; each result is a set of new arrays the caller owns (pool_batch.c). */
#include "pool.h"

#include <string.h>

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

/* reset(seed=None, ids=None) -> (obs, infos): every env (rows in env order) or the given ones (rows in the given
 * order; the infos' arrays are indexed by env id either way). A seed makes env i start from seed + i: the pool's
 * environments are reseeded in place (rg_pool_seed), unless the pool was just created with that seed and never
 * reset. */
static PyObject *Pool_reset(rgpy_Pool *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"seed", "ids", NULL};
    PyObject *seed = Py_None, *ids_obj = Py_None;
    int seeded;
    uint64_t value;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", kw, &seed, &ids_obj) ||
        rgpy_parse_seed(seed, &seeded, &value) || rgpy_pool_usable(self))
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
    rc = rgpy_pool_finish_pending(self, rc, msg, &b, NULL);
    if (rc == RGPY_INTERRUPTED)
        return NULL;
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    self->fresh = 0;
    self->reset_done = 1;
    PyObject *obs = rgpy_pool_new_obs(self, b.obs, b.count);
    PyObject *infos = obs ? rgpy_pool_new_infos(self, &b, self->n, 1, 0) : NULL;
    if (!infos) {
        Py_XDECREF(obs);
        return NULL;
    }
    return Py_BuildValue("(NN)", obs, infos);
}

static int check_stepping(rgpy_Pool *self)
{
    if (rgpy_pool_usable(self))
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
    PyObject *obs = rgpy_pool_new_obs(self, NULL, self->n);
    rg_pool_batch b;
    int rc = RG_ENOMEM;
    char msg[RGPY_MSG] = "";
    const int64_t *act = PyArray_DATA(a);
    if (obs) {
        uint8_t *dst = PyArray_DATA((PyArrayObject *)obs);
        RGPY_NOGIL(self, rc, msg, rg_pool_step_into(self->pool, act, dst, &b));
        rc = rgpy_pool_finish_pending(self, rc, msg, &b, obs);
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
    return rgpy_pool_batch_result(self, &b, 0, obs);
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
    if (rgpy_pool_usable(self))
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
    rc = rgpy_pool_finish_pending(self, rc, msg, &b, NULL);
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
    return rgpy_pool_batch_result(self, &b, 1, NULL);
}

/* episode_steps() -> list of the steps since each env's last reset (no step may be in flight). */
static PyObject *Pool_episode_steps(rgpy_Pool *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_pool_usable(self))
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
    if (rgpy_pool_usable(self))
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

PyMethodDef rgpy_pool_step_methods[] = {
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
    {NULL, NULL, 0, NULL}};

/* Pool: the results of a reset or step as new arrays and Gymnasium's vector info dicts, filled from the pool's
 * batch buffers with one copy each (never views into them). */
#include "pool.h"

#include <string.h>

/* The info columns' keys, name and "_name" for each, built once per pool. */
int rgpy_pool_make_info_keys(rgpy_Pool *self)
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

/* A new (count, *obs_shape) uint8 array holding `count` observations copied from src (NULL: left to be filled). */
PyObject *rgpy_pool_new_obs(rgpy_Pool *self, const uint8_t *src, size_t count)
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
PyObject *rgpy_pool_new_infos(rgpy_Pool *self, const rg_pool_batch *b, size_t len, int by_id, int final)
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
    PyObject *fin = rgpy_pool_new_infos(self, b, b->count, 0, 1);
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
PyObject *rgpy_pool_batch_result(rgpy_Pool *self, const rg_pool_batch *b, int by_row, PyObject *obs_ready)
{
    size_t count = b->count;
    int any_final = 0;
    if (self->popts.autoreset == RG_AUTORESET_SAME_STEP && b->has_final)
        for (size_t k = 0; k < count && !any_final; k++)
            any_final = b->has_final[k] != 0;
    PyObject *obs = obs_ready ? obs_ready : rgpy_pool_new_obs(self, b->obs, count); /* obs_ready: a reference we take */
    PyObject *rew = new_rewards(self, b->rewards, count);
    PyObject *term = new_flags(b->terminated, count);
    PyObject *trunc = new_flags(b->truncated, count);
    PyObject *infos = rgpy_pool_new_infos(self, b, by_row ? count : self->n, !by_row, 0);
    PyObject *fin = any_final ? rgpy_pool_new_obs(self, b->final_obs, count) : (Py_INCREF(Py_None), Py_None);
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

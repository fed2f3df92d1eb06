/* Memory search for env.data (include/retrogym/search.h, docs/search.md): a set of named searches held in a capsule
 * by retrogym.gamedata.EnvData, run over an Env's memory. Module functions search_*. */
#include "ext.h"

#include <retrogym/search.h>

#define CAPSULE_NAME "retrogym.searchset"

static void set_destroy(PyObject *cap)
{
    rg_searchset_free(PyCapsule_GetPointer(cap, CAPSULE_NAME));
}

static rg_searchset *set_of(PyObject *cap)
{
    return PyCapsule_GetPointer(cap, CAPSULE_NAME); /* sets a Python error when it is not ours */
}

/* search_set_new() -> capsule */
static PyObject *search_set_new(PyObject *mod, PyObject *noargs)
{
    (void)mod, (void)noargs;
    rg_searchset *set;
    int rc = rg_searchset_create(&set);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    PyObject *cap = PyCapsule_New(set, CAPSULE_NAME, set_destroy);
    if (!cap)
        rg_searchset_free(set);
    return cap;
}

/* The gamedata of `env`, an Env of this module (`mod`, whose state holds the type). */
static rg_gamedata *env_gamedata(PyObject *mod, PyObject *env)
{
    if (!PyObject_TypeCheck(env, rgpy_module_state(mod)->env_type)) {
        PyErr_SetString(PyExc_TypeError, "expected a retrogym Env");
        return NULL;
    }
    if (rgpy_env_usable((rgpy_Env *)env))
        return NULL;
    return rg_env_gamedata(((rgpy_Env *)env)->env);
}

/* search_value(set, env, name, value) */
static PyObject *search_value(PyObject *mod, PyObject *args)
{
    PyObject *cap, *env;
    const char *name;
    long long value;
    if (!PyArg_ParseTuple(args, "OOsL", &cap, &env, &name, &value))
        return NULL;
    rg_searchset *set = set_of(cap);
    rg_gamedata *gd = set ? env_gamedata(mod, env) : NULL;
    if (!gd)
        return NULL;
    int rc = rg_search_value(set, name, gd, value);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* search_delta(set, env, name, op, ref) */
static PyObject *search_delta(PyObject *mod, PyObject *args)
{
    PyObject *cap, *env;
    const char *name, *opname;
    long long ref;
    if (!PyArg_ParseTuple(args, "OOssL", &cap, &env, &name, &opname, &ref))
        return NULL;
    rg_searchset *set = set_of(cap);
    rg_gamedata *gd = set ? env_gamedata(mod, env) : NULL;
    if (!gd)
        return NULL;
    rg_op op;
    if (rg_op_parse(opname, &op) != RG_OK || op == RG_OP_NOOP)
        return PyErr_Format(PyExc_ValueError, "unknown delta search operation %R", PyTuple_GET_ITEM(args, 3));
    int rc = rg_search_delta(set, name, gd, op, ref);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static PyObject *key_error(const char *name)
{
    PyObject *key = PyUnicode_FromString(name);
    if (key) {
        PyErr_SetObject(PyExc_KeyError, key);
        Py_DECREF(key);
    }
    return NULL;
}

/* search_remove(set, name); KeyError when there is none */
static PyObject *search_remove(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *cap;
    const char *name;
    if (!PyArg_ParseTuple(args, "Os", &cap, &name))
        return NULL;
    rg_searchset *set = set_of(cap);
    if (!set)
        return NULL;
    if (rg_searchset_remove(set, name) != RG_OK)
        return key_error(name);
    Py_RETURN_NONE;
}

/* search_names(set) -> [names] */
static PyObject *search_names(PyObject *mod, PyObject *cap)
{
    (void)mod;
    rg_searchset *set = set_of(cap);
    if (!set)
        return NULL;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < rg_searchset_count(set); i++) {
        PyObject *s = PyUnicode_FromString(rg_searchset_name_at(set, i));
        if (!s || PyList_Append(list, s)) {
            Py_XDECREF(s);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(s);
    }
    return list;
}

static PyObject *result_tuple(const rg_search_result *r)
{
    return Py_BuildValue("(KsLLL)", (unsigned long long)r->address, r->type.repr, (long long)r->mult,
                         (long long)r->div, (long long)r->bias);
}

/* search_info(set, name) -> dict(count, rounds, memory, types, unique, first); KeyError when there is none */
static PyObject *search_info(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *cap;
    const char *name;
    if (!PyArg_ParseTuple(args, "Os", &cap, &name))
        return NULL;
    rg_searchset *set = set_of(cap);
    if (!set)
        return NULL;
    uint64_t count;
    if (rg_search_result_count(set, name, &count) != RG_OK)
        return key_error(name);
    unsigned rounds = 0;
    size_t memory = 0, nt = 0;
    int unique = 0;
    rg_search_result first;
    const char *types[64];
    rg_search_rounds(set, name, &rounds);
    rg_search_memory(set, name, &memory);
    rg_search_unique(set, name, &unique, &first);
    rg_search_types(set, name, types, 64, &nt);
    PyObject *tl = PyList_New(0);
    for (size_t i = 0; tl && i < nt && i < 64; i++) {
        PyObject *s = PyUnicode_FromString(types[i]);
        if (!s || PyList_Append(tl, s))
            Py_CLEAR(tl);
        Py_XDECREF(s);
    }
    if (!tl)
        return NULL;
    PyObject *firsto = count ? result_tuple(&first) : (Py_INCREF(Py_None), Py_None);
    if (!firsto) {
        Py_DECREF(tl);
        return NULL;
    }
    return Py_BuildValue("{s:K,s:I,s:n,s:N,s:O,s:N}", "count", (unsigned long long)count, "rounds", rounds, "memory",
                         (Py_ssize_t)memory, "types", tl, "unique", unique ? Py_True : Py_False, "first", firsto);
}

/* search_results(set, name, first, cap) -> [(address, type, mult, div, bias)] in the search's order */
static PyObject *search_results(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *cap;
    const char *name;
    unsigned long long first;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OsKn", &cap, &name, &first, &n))
        return NULL;
    rg_searchset *set = set_of(cap);
    if (!set)
        return NULL;
    if (n < 0)
        return PyErr_Format(PyExc_ValueError, "negative count");
    if (rg_search_result_count(set, name, NULL) != RG_OK)
        return key_error(name);
    PyObject *list = PyList_New(0);
    rg_search_result buf[256];
    while (list && n > 0) {
        size_t got = 0;
        rg_search_results(set, name, first, buf, (size_t)(n < 256 ? n : 256), &got);
        for (size_t i = 0; i < got && list; i++) {
            PyObject *t = result_tuple(&buf[i]);
            if (!t || PyList_Append(list, t))
                Py_CLEAR(list);
            Py_XDECREF(t);
        }
        if (got == 0)
            break;
        first += got;
        n -= (Py_ssize_t)got;
    }
    return list;
}

/* search_save(set, path), search_load(set, path) */
static PyObject *search_save(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *cap, *path;
    if (!PyArg_ParseTuple(args, "OO&", &cap, PyUnicode_FSConverter, &path))
        return NULL;
    rg_searchset *set = set_of(cap);
    int rc = set ? rg_searchset_save_file(set, PyBytes_AS_STRING(path)) : RG_OK;
    Py_DECREF(path);
    if (!set)
        return NULL;
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static PyObject *search_load(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *cap, *path;
    if (!PyArg_ParseTuple(args, "OO&", &cap, PyUnicode_FSConverter, &path))
        return NULL;
    rg_searchset *set = set_of(cap);
    int rc = set ? rg_searchset_load_file(set, PyBytes_AS_STRING(path)) : RG_OK;
    Py_DECREF(path);
    if (!set)
        return NULL;
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* search_default_types() -> [the 44 types] */
static PyObject *search_default_types(PyObject *mod, PyObject *noargs)
{
    (void)mod, (void)noargs;
    size_t n = rg_search_default_type_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(rg_search_default_type(i));
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    return list;
}

PyMethodDef rgpy_search_methods[] = {
    {"search_set_new", search_set_new, METH_NOARGS, "A new empty set of named memory searches."},
    {"search_value", search_value, METH_VARARGS, "search_value(set, env, name, value)"},
    {"search_delta", search_delta, METH_VARARGS, "search_delta(set, env, name, op, ref)"},
    {"search_remove", search_remove, METH_VARARGS, "search_remove(set, name)"},
    {"search_names", search_names, METH_O, "search_names(set) -> names"},
    {"search_info", search_info, METH_VARARGS, "search_info(set, name) -> dict"},
    {"search_results", search_results, METH_VARARGS, "search_results(set, name, first, n) -> list"},
    {"search_save", search_save, METH_VARARGS, "search_save(set, path)"},
    {"search_load", search_load, METH_VARARGS, "search_load(set, path)"},
    {"search_default_types", search_default_types, METH_NOARGS, "The 44 default search types."},
    {NULL, NULL, 0, NULL},
};

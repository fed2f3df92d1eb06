/* Helpers shared by the Env, Pool and Emu types: forwarding log messages to Python, reading a seed, core options,
 * trimming bytes. */
#include "ext.h"

#include <string.h>

static void forward(PyObject *log_fn, int log_on, rg_log_level level, const char *message)
{
    if (log_on && log_fn) {
        rgpy_exc saved;
        RGPY_EXC_SAVE(saved);
        PyObject *text = PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace");
        PyObject *r = text ? PyObject_CallFunction(log_fn, "iO", (int)level, text) : NULL;
        Py_XDECREF(text);
        if (r)
            Py_DECREF(r);
        else
            PyErr_Clear();
        RGPY_EXC_RESTORE(saved);
    }
}

int rgpy_gil_enter(PyInterpreterState *interp, rgpy_gil *g)
{
    g->own = NULL;
    g->state = PyGILState_UNLOCKED; /* set for real below; initialised so that no path reads it unset */
    if (interp && interp != PyInterpreterState_Main()) {
        /* The calling thread has no attached thread state here (it released the GIL, or is a pool worker). */
        if (!(g->own = PyThreadState_New(interp)))
            return -1;
        PyEval_RestoreThread(g->own);
        return 0;
    }
    g->state = PyGILState_Ensure();
    return 0;
}

void rgpy_gil_leave(rgpy_gil *g)
{
    if (g->own) {
        PyThreadState_Clear(g->own);
        PyThreadState_DeleteCurrent();
        g->own = NULL;
    } else {
        PyGILState_Release(g->state);
    }
}

void rgpy_forward_log(PyInterpreterState *interp, PyObject *log_fn, int log_on, rg_log_level level,
                      const char *message)
{
    rgpy_gil g;
    if (rgpy_gil_enter(interp, &g))
        return;
    forward(log_fn, log_on, level, message);
    rgpy_gil_leave(&g);
}

int rgpy_parse_seed(PyObject *seed, int *seeded, uint64_t *value)
{
    *seeded = 0;
    *value = 0;
    if (!seed || seed == Py_None)
        return 0;
    if (PyBool_Check(seed) || !PyIndex_Check(seed)) {
        PyErr_Format(PyExc_TypeError, "seed must be an int or None, not %.100s", Py_TYPE(seed)->tp_name);
        return -1;
    }
    PyObject *i = PyNumber_Index(seed);
    if (!i)
        return -1;
    unsigned long long v = PyLong_AsUnsignedLongLongMask(i); /* any int: its low 64 bits */
    Py_DECREF(i);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *seeded = 1;
    *value = v;
    return 0;
}

int rgpy_unsigned_opt(long long v, const char *name, unsigned long long max, unsigned long long *out)
{
    if (v < 0) {
        PyErr_Format(PyExc_ValueError, "%s must not be negative, not %lld", name, v);
        return -1;
    }
    *out = (unsigned long long)v > max ? max : (unsigned long long)v;
    return 0;
}

/* Core options as a list of (key, value) str pairs kept alive while the environment or emulator is created. */
int rgpy_core_options(PyObject *obj, PyObject **items, rg_core_option **opts, size_t *n)
{
    *items = NULL;
    *opts = NULL;
    *n = 0;
    if (!obj || obj == Py_None)
        return 0;
    if (!PyDict_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "core_options must be a dict of str to str");
        return -1;
    }
    if (!(*items = PyDict_Items(obj)))
        return -1;
    Py_ssize_t count = PyList_GET_SIZE(*items);
    if (!(*opts = PyMem_Calloc((size_t)count + 1, sizeof **opts))) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *pair = PyList_GET_ITEM(*items, i);
        PyObject *k = PyTuple_GET_ITEM(pair, 0), *v = PyTuple_GET_ITEM(pair, 1);
        if (!PyUnicode_Check(k) || !PyUnicode_Check(v)) {
            PyErr_SetString(PyExc_TypeError, "core_options must be a dict of str to str");
            return -1;
        }
        if (!((*opts)[i].key = PyUnicode_AsUTF8(k)) || !((*opts)[i].value = PyUnicode_AsUTF8(v)))
            return -1;
    }
    *n = (size_t)count;
    return 0;
}

PyObject *rgpy_bytes_trim(PyObject *bytes, size_t len)
{
    if ((size_t)PyBytes_GET_SIZE(bytes) == len)
        return bytes;
    PyObject *out = PyBytes_FromStringAndSize(PyBytes_AS_STRING(bytes), (Py_ssize_t)len);
    Py_DECREF(bytes);
    return out;
}

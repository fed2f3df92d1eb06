/* Helpers shared by the Env and Pool types: forwarding log messages to Python, reading a seed. */
#include "ext.h"

#include <string.h>

void rgpy_forward_log(PyObject *log_fn, int log_on, rg_log_level level, const char *message)
{
    PyGILState_STATE g = PyGILState_Ensure();
    if (log_on && log_fn) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyObject *text = PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace");
        PyObject *r = text ? PyObject_CallFunction(log_fn, "iO", (int)level, text) : NULL;
        Py_XDECREF(text);
        if (r)
            Py_DECREF(r);
        else
            PyErr_Clear();
        PyErr_Restore(type, value, tb);
    }
    PyGILState_Release(g);
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

/* rg error codes (include/retrogym/error.h) to Python exceptions: the one table of the package. Each code raises its
 * class of retrogym/errors.py (retrogym.Error and its subclasses, found by the code's name in errors.BY_NAME), each of
 * which also subclasses the builtin given here, the one the code raised before the hierarchy (and still raises if
 * retrogym.errors cannot be imported, e.g. at interpreter exit). The exception carries the C message and two
 * attributes, `rg_error` ("RG_ENOTFOUND") and `rg_code` (-3). */
#include "ext.h"

#include <string.h>

PyObject *rgpy_exception_for(int code)
{
    switch (code) {
    case RG_ENOMEM: return PyExc_MemoryError;
    case RG_EINVAL: return PyExc_ValueError;          /* bad argument */
    case RG_ENOTFOUND: return PyExc_FileNotFoundError; /* game, ROM, state, scenario, core, system */
    case RG_EIO: return PyExc_OSError;
    case RG_EUNSUPPORTED: return PyExc_NotImplementedError; /* a core without a feature (a RuntimeError) */
    case RG_ECORE: return PyExc_RuntimeError;         /* the core refused or failed */
    case RG_ESTATE: return PyExc_ValueError;          /* a state that does not fit */
    case RG_EMISUSE: return PyExc_RuntimeError;       /* wrong call order */
    case RG_ERANGE: return PyExc_ValueError;          /* an action id, address or frame out of range */
    case RG_ECORRUPT: return PyExc_ValueError;        /* malformed data, scenario, state or snapshot */
    case RG_ETOOBIG: return PyExc_ValueError;
    case RG_EBUFFER: return PyExc_ValueError;         /* an output buffer too small */
    case RG_ETIMEOUT: return PyExc_ValueError;        /* a script over its budget (the class is a TimeoutError too) */
    default: return PyExc_RuntimeError;
    }
}

/* A new reference to retrogym.errors.BY_NAME[rg_error_name(code)], or NULL (no error set) when there is none.
 * Called with no exception set. */
static PyObject *hierarchy_class(int code)
{
    PyObject *cls = NULL, *mod = PyImport_ImportModule("retrogym.errors");
    PyObject *table = mod ? PyObject_GetAttrString(mod, "BY_NAME") : NULL;
    if (table && PyDict_Check(table)) {
        cls = PyDict_GetItemString(table, rg_error_name(code)); /* borrowed */
        PyTypeObject *builtin = (PyTypeObject *)rgpy_exception_for(code);
        if (cls && PyType_Check(cls) && PyType_IsSubtype((PyTypeObject *)cls, builtin))
            Py_INCREF(cls);
        else
            cls = NULL;
    }
    Py_XDECREF(table);
    Py_XDECREF(mod);
    PyErr_Clear();
    return cls;
}

PyObject *rgpy_raise_msg(int code, const char *message)
{
    if (!message || !message[0])
        message = rg_strerror(code);
    /* copied first: message may be the thread's rg_error_last(), which the import of retrogym.errors could replace */
    PyObject *text = PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace");
    if (!text)
        return NULL;
    PyObject *type = hierarchy_class(code);
    if (!type) {
        type = rgpy_exception_for(code);
        Py_INCREF(type);
    }
    PyObject *exc = PyObject_CallOneArg(type, text);
    Py_DECREF(text);
    if (!exc) {
        Py_DECREF(type);
        return NULL;
    }
    PyObject *name = PyUnicode_FromString(rg_error_name(code));
    PyObject *num = PyLong_FromLong(code);
    if (name && num && PyObject_SetAttrString(exc, "rg_error", name) == 0 &&
        PyObject_SetAttrString(exc, "rg_code", num) == 0)
        PyErr_SetObject(type, exc);
    Py_XDECREF(name);
    Py_XDECREF(num);
    Py_DECREF(exc);
    Py_DECREF(type);
    return NULL;
}

PyObject *rgpy_raise(int code)
{
    return rgpy_raise_msg(code, rg_error_last());
}

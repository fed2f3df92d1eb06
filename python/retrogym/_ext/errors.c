/* rg error codes (include/retrogym/error.h) to Python exceptions: the one table of the package. The exception
 * carries the C message and two attributes, `rg_error` ("RG_ENOTFOUND") and `rg_code` (-3). */
#include "ext.h"

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
    case RG_ERANGE: return PyExc_ValueError;          /* an action id, address or budget out of range */
    case RG_ECORRUPT: return PyExc_ValueError;        /* malformed data, scenario, state or snapshot */
    case RG_ETOOBIG: return PyExc_ValueError;
    default: return PyExc_RuntimeError;
    }
}

PyObject *rgpy_raise_msg(int code, const char *message)
{
    if (!message || !message[0])
        message = rg_strerror(code);
    PyObject *type = rgpy_exception_for(code);
    PyObject *exc = PyObject_CallFunction(type, "s", message);
    if (!exc)
        return NULL;
    PyObject *name = PyUnicode_FromString(rg_error_name(code));
    PyObject *num = PyLong_FromLong(code);
    if (name && num && PyObject_SetAttrString(exc, "rg_error", name) == 0 &&
        PyObject_SetAttrString(exc, "rg_code", num) == 0)
        PyErr_SetObject(type, exc);
    Py_XDECREF(name);
    Py_XDECREF(num);
    Py_DECREF(exc);
    return NULL;
}

PyObject *rgpy_raise(int code)
{
    return rgpy_raise_msg(code, rg_error_last());
}

/* Reading and writing an rg_emu from Python, shared by the Emu type (RetroEmulator) and the Env's raw emulator
 * (env.em, env.get_ram(), env.get_screen()). The callers check their object is usable first. */
#include "ext.h"

#include <string.h>

/* The screen's size once the core has produced a frame: 0, or -1 with the exception set (RuntimeError(no_frame)
 * before the first frame). */
static int screen_dims(rg_emu *emu, unsigned *w, unsigned *h, const char *no_frame)
{
    rg_frame f;
    int rc = rg_emu_frame(emu, &f);
    if (rc == RG_OK)
        rc = rg_emu_screen_size(emu, w, h);
    if (rc != RG_OK) {
        rgpy_raise(rc);
        return -1;
    }
    if (!f.data || !*w || !*h) {
        PyErr_Format(PyExc_RuntimeError, "%s", no_frame);
        return -1;
    }
    return 0;
}

PyObject *rgpy_emu_screen(rg_emu *emu, const char *no_frame)
{
    unsigned w = 0, h = 0;
    int rc;
    if (screen_dims(emu, &w, &h, no_frame))
        return NULL;
    npy_intp dims[3] = {h, w, 3};
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(3, dims, NPY_UINT8);
    if (!out)
        return NULL;
    if ((rc = rg_emu_screen_rgb24(emu, PyArray_DATA(out), (size_t)PyArray_NBYTES(out))) != RG_OK) {
        Py_DECREF(out);
        return rgpy_raise(rc);
    }
    return (PyObject *)out;
}

PyObject *rgpy_emu_screen_gray(rg_emu *emu, PyObject *out, const char *no_frame)
{
    unsigned w = 0, h = 0;
    int rc;
    if (screen_dims(emu, &w, &h, no_frame))
        return NULL;
    PyArrayObject *arr;
    if (out && out != Py_None) {
        if (!PyArray_Check(out) || PyArray_TYPE((PyArrayObject *)out) != NPY_UINT8 ||
            PyArray_NDIM((PyArrayObject *)out) != 2 || PyArray_DIM((PyArrayObject *)out, 0) != (npy_intp)h ||
            PyArray_DIM((PyArrayObject *)out, 1) != (npy_intp)w || !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)out) ||
            !PyArray_ISWRITEABLE((PyArrayObject *)out))
            return PyErr_Format(PyExc_ValueError, "out must be a writable C-contiguous uint8 array of shape (%u, %u)",
                                h, w);
        arr = (PyArrayObject *)out;
        Py_INCREF(arr);
    } else {
        npy_intp dims[2] = {h, w};
        if (!(arr = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_UINT8)))
            return NULL;
    }
    if ((rc = rg_emu_screen_gray(emu, PyArray_DATA(arr), (size_t)PyArray_NBYTES(arr))) != RG_OK) {
        Py_DECREF(arr);
        return rgpy_raise(rc);
    }
    return (PyObject *)arr;
}

PyObject *rgpy_emu_ram(rg_emu *emu)
{
    npy_intp n = (npy_intp)rg_emu_ram_size(emu);
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_UINT8);
    if (!out)
        return NULL;
    int rc = rg_emu_ram_copy(emu, PyArray_DATA(out), (size_t)n);
    if (rc != RG_OK) {
        Py_DECREF(out);
        return rgpy_raise(rc);
    }
    return (PyObject *)out;
}

PyObject *rgpy_emu_save_ram(rg_emu *emu)
{
    uint8_t *data = NULL;
    size_t size = 0;
    int rc = rg_emu_save_ram(emu, &data, &size);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    npy_intp n = (npy_intp)size;
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_UINT8);
    if (out && size)
        memcpy(PyArray_DATA(out), data, size);
    return (PyObject *)out;
}

PyObject *rgpy_emu_set_save_ram(rg_emu *emu, PyObject *src)
{
    uint8_t *data = NULL;
    size_t size = 0;
    Py_buffer buf;
    if (PyObject_GetBuffer(src, &buf, PyBUF_C_CONTIGUOUS))
        return NULL;
    int rc = rg_emu_save_ram(emu, &data, &size);
    if (rc != RG_OK) {
        PyBuffer_Release(&buf);
        return rgpy_raise(rc);
    }
    if (buf.itemsize != 1) {
        PyBuffer_Release(&buf);
        return PyErr_Format(PyExc_ValueError, "set_save_ram takes bytes or a uint8 array; nothing was written");
    }
    if ((size_t)buf.len != size) {
        Py_ssize_t len = buf.len;
        PyBuffer_Release(&buf);
        if (!size)
            return PyErr_Format(PyExc_ValueError, "this game has no save RAM: set_save_ram takes 0 bytes, not %zd",
                                len);
        return PyErr_Format(PyExc_ValueError, "the save RAM is %zu bytes, not %zd; nothing was written", size, len);
    }
    if (size)
        memcpy(data, buf.buf, size);
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
}

PyObject *rgpy_emu_get_state(rg_emu *emu, int *busy)
{
    size_t size = 0, written = 0;
    int rc = rg_emu_state_size(emu, &size);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out)
        return NULL;
    char msg[RGPY_MSG] = "";
    char *dst = PyBytes_AS_STRING(out); /* a new object no other thread sees yet */
    RGPY_NOGIL_FLAG(*busy, rc, msg, rg_emu_state_save(emu, dst, size, &written));
    if (rc != RG_OK) {
        Py_DECREF(out);
        return rgpy_raise_msg(rc, msg);
    }
    return rgpy_bytes_trim(out, written);
}

PyObject *rgpy_emu_set_state(rg_emu *emu, int *busy, Py_buffer *buf)
{
    int rc;
    char msg[RGPY_MSG] = "";
    RGPY_NOGIL_FLAG(*busy, rc, msg, rg_emu_state_load(emu, buf->buf, (size_t)buf->len));
    PyBuffer_Release(buf);
    if (rc == RG_ESTATE)
        Py_RETURN_FALSE;
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_TRUE;
}

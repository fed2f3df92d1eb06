/* Pool: recording movies (rg_pool_record_dir: environment i into folder/env-<i>, a movie per episode). */
#include "pool.h"

#include <string.h>

static int check_idle(rgpy_Pool *self)
{
    if (rgpy_pool_usable(self))
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
    Py_ssize_t i = check_idle(self) ? -1 : rgpy_pool_env_index(self, arg);
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

PyMethodDef rgpy_pool_record_methods[] = {
    {"record_dir", (PyCFunction)Pool_record_dir, METH_VARARGS,
     "record_dir(folder): every environment's episodes as movies, environment i into folder/env-<i>"},
    {"stop_record", (PyCFunction)Pool_stop_record, METH_NOARGS, "stop_record(): writes the movies being recorded"},
    {"movie_info", (PyCFunction)Pool_movie_info, METH_O, "movie_info(i) -> None or dict of environment i's recording"},
    {NULL, NULL, 0, NULL}};

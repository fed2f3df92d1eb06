/* Recording movies (Env methods over rg_env_record_*, include/retrogym/env.h): into a folder one movie per episode,
 * into one file, stop, and what is being recorded. Writing a movie runs without the GIL. */
#include "ext.h"

/* record_dir(folder, first_id=0) */
static PyObject *Env_record_dir(rgpy_Env *self, PyObject *args)
{
    PyObject *path;
    unsigned long long first = 0;
    if (!PyArg_ParseTuple(args, "O&|K", PyUnicode_FSConverter, &path, &first))
        return NULL;
    if (rgpy_env_usable(self)) {
        Py_DECREF(path);
        return NULL;
    }
    int rc;
    char msg[RGPY_MSG] = "";
    const char *dir = PyBytes_AS_STRING(path);
    RGPY_NOGIL(self, rc, msg, rg_env_record_dir(self->env, dir, first));
    Py_DECREF(path);
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

/* record_movie(path) */
static PyObject *Env_record_movie(rgpy_Env *self, PyObject *args)
{
    PyObject *path;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path))
        return NULL;
    if (rgpy_env_usable(self)) {
        Py_DECREF(path);
        return NULL;
    }
    int rc;
    char msg[RGPY_MSG] = "";
    const char *file = PyBytes_AS_STRING(path);
    RGPY_NOGIL(self, rc, msg, rg_env_record_movie(self->env, file));
    Py_DECREF(path);
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

static PyObject *Env_stop_record(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    RGPY_NOGIL(self, rc, msg, rg_env_record_stop(self->env));
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

static PyObject *path_or_none(const char *path)
{
    if (!path)
        Py_RETURN_NONE;
    return PyUnicode_DecodeFSDefault(path);
}

/* movie_info() -> None when not recording, else {"path": file or None (a folder waiting for the next reset),
 * "folder": str or None, "movie_id": next number in the folder, "active": a movie is open, "frames", "players",
 * "game", "system"} */
static PyObject *Env_movie_info(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    const char *path = rg_env_movie_path(self->env), *folder = rg_env_record_folder(self->env);
    if (!path && !folder)
        Py_RETURN_NONE;
    const rg_movie *m = rg_env_movie(self->env);
    return Py_BuildValue("{s:N,s:N,s:K,s:N,s:K,s:I,s:s,s:s}", "path", path_or_none(path), "folder",
                         path_or_none(folder), "movie_id", (unsigned long long)rg_env_movie_id(self->env), "active",
                         PyBool_FromLong(m != NULL), "frames",
                         (unsigned long long)(m ? rg_movie_frame_count(m) : 0), "players",
                         rg_env_players(self->env), "game", rg_env_game(self->env), "system",
                         rg_env_system(self->env)->name);
}

/* movie_state() -> the start state of the movie being recorded (b'' for power-on), None when none is open */
static PyObject *Env_movie_state(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    const rg_movie *m = rg_env_movie(self->env);
    if (!m)
        Py_RETURN_NONE;
    const uint8_t *data;
    size_t size;
    rg_movie_state(m, &data, &size);
    return PyBytes_FromStringAndSize(size ? (const char *)data : "", (Py_ssize_t)size);
}

PyMethodDef rgpy_env_movie_methods[] = {
    {"record_dir", (PyCFunction)Env_record_dir, METH_VARARGS,
     "record_dir(folder, first_id=0): a movie per episode, <game>-<state>-<NNNNNN>.bk2"},
    {"record_movie", (PyCFunction)Env_record_movie, METH_VARARGS, "record_movie(path): one episode into path"},
    {"stop_record", (PyCFunction)Env_stop_record, METH_NOARGS, "stop_record(): writes the movie being recorded"},
    {"movie_info", (PyCFunction)Env_movie_info, METH_NOARGS, "movie_info() -> dict or None"},
    {"movie_state", (PyCFunction)Env_movie_state, METH_NOARGS, "movie_state() -> bytes or None"},
    {NULL, NULL, 0, NULL}};

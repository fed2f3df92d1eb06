/* Episodes (Env methods): reset, step, the current observation, action decoding and the info dict. The emulator
 * runs without the GIL; every observation is a fresh array the caller owns. */
#include "ext.h"

PyArrayObject *rgpy_action_array(PyObject *action)
{
    /* Any integer-like input: a Python int, a NumPy scalar, a 0-d or 1-d array, a sequence. Values are cast to
     * int64 the way int() would (MultiBinary floats 0.0/1.0 work as in Gym Retro). */
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(action, NPY_INT64, 0, 1,
                                                         NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED |
                                                             NPY_ARRAY_FORCECAST);
    if (!a && PyErr_ExceptionMatches(PyExc_ValueError)) {
        rgpy_exc saved;
        RGPY_EXC_SAVE(saved);
        RGPY_EXC_DISCARD(saved);
        PyErr_Format(PyExc_ValueError, "an action must be an integer or a 1-d sequence of integers, not %R", action);
    }
    return a;
}

PyObject *rgpy_env_info(rgpy_Env *self)
{
    PyObject *info = PyDict_New();
    size_t n = rg_env_info_count(self->env);
    for (size_t i = 0; info && i < n; i++) {
        const char *name;
        int64_t value;
        if (rg_env_info_at(self->env, i, &name, &value) != RG_OK)
            continue; /* a variable whose bytes are not mapped: not readable, left out (as Gym Retro does) */
        PyObject *v = PyLong_FromLongLong(value);
        if (!v || PyDict_SetItemString(info, name, v))
            Py_CLEAR(info);
        Py_XDECREF(v);
    }
    return info;
}


/* reset(seed=None) -> (obs, info) */
static PyObject *Env_reset(rgpy_Env *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"seed", NULL};
    PyObject *seed = Py_None;
    int seeded;
    uint64_t value;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &seed) || rgpy_parse_seed(seed, &seeded, &value) ||
        rgpy_env_usable(self))
        return NULL;
    PyArrayObject *obs = rgpy_env_new_obs(self);
    if (!obs)
        return NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    uint8_t *data = PyArray_DATA(obs);
    RGPY_NOGIL(self, rc, msg, rg_env_reset(self->env, seeded, value, data, self->obs_size));
    if (rc != RG_OK) {
        Py_DECREF(obs);
        return rgpy_raise_msg(rc, msg);
    }
    PyObject *info = rgpy_env_info(self);
    if (!info) {
        Py_DECREF(obs);
        return NULL;
    }
    return Py_BuildValue("(NN)", obs, info);
}

/* step(action) -> (obs, rewards (a float per player), terminated, truncated, info) */
static PyObject *Env_step(rgpy_Env *self, PyObject *action)
{
    if (rgpy_env_usable(self))
        return NULL;
    PyArrayObject *a = rgpy_action_array(action);
    if (!a)
        return NULL;
    PyArrayObject *obs = rgpy_env_new_obs(self);
    if (!obs) {
        Py_DECREF(a);
        return NULL;
    }
    rg_step_result r;
    int rc;
    char msg[RGPY_MSG] = "";
    const int64_t *act = PyArray_DATA(a);
    size_t n = (size_t)PyArray_SIZE(a);
    uint8_t *data = PyArray_DATA(obs);
    RGPY_NOGIL(self, rc, msg, rg_env_step(self->env, act, n, data, self->obs_size, &r));
    Py_DECREF(a);
    if (rc != RG_OK) {
        Py_DECREF(obs);
        return rgpy_raise_msg(rc, msg);
    }
    unsigned players = rg_env_players(self->env);
    PyObject *rewards = PyTuple_New(players);
    for (unsigned p = 0; rewards && p < players; p++) {
        PyObject *v = PyFloat_FromDouble((double)r.rewards[p]);
        if (!v)
            Py_CLEAR(rewards);
        else
            PyTuple_SET_ITEM(rewards, p, v);
    }
    PyObject *info = rewards ? rgpy_env_info(self) : NULL;
    if (!info) {
        Py_XDECREF(rewards);
        Py_DECREF(obs);
        return NULL;
    }
    return Py_BuildValue("(NNNNN)", obs, rewards, PyBool_FromLong(r.terminated), PyBool_FromLong(r.truncated), info);
}

/* observe() -> the current observation again (no emulation) */
static PyObject *Env_observe(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    PyArrayObject *obs = rgpy_env_new_obs(self);
    if (!obs)
        return NULL;
    int rc = rg_env_observe(self->env, PyArray_DATA(obs), self->obs_size);
    if (rc != RG_OK) {
        Py_DECREF(obs);
        return rgpy_raise(rc);
    }
    return (PyObject *)obs;
}

/* decode_action(action) -> [buttons of player 1, ...] as masks (bit i = joypad id i), decoded and filtered exactly
 * as step() does. */
static PyObject *Env_decode_action(rgpy_Env *self, PyObject *action)
{
    if (rgpy_env_usable(self))
        return NULL;
    PyArrayObject *a = rgpy_action_array(action);
    if (!a)
        return NULL;
    uint16_t buttons[RG_SCENARIO_MAX_PLAYERS];
    int rc = rg_env_decode_action(self->env, PyArray_DATA(a), (size_t)PyArray_SIZE(a), buttons);
    Py_DECREF(a);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    unsigned players = rg_env_players(self->env);
    PyObject *out = PyList_New(players);
    for (unsigned p = 0; out && p < players; p++) {
        PyObject *v = PyLong_FromUnsignedLong(buttons[p]);
        if (!v)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, p, v);
    }
    return out;
}

static PyObject *Env_info(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    return rgpy_env_info(self);
}

PyMethodDef rgpy_env_episode_methods[] = {
    {"reset", (PyCFunction)(void (*)(void))Env_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(seed=None) -> (obs, info); a seed reseeds the environment's random generator, None continues it"},
    {"step", (PyCFunction)Env_step, METH_O, "step(action) -> (obs, rewards, terminated, truncated, info)"},
    {"observe", (PyCFunction)Env_observe, METH_NOARGS, "observe() -> the current observation (a new array)"},
    {"decode_action", (PyCFunction)Env_decode_action, METH_O,
     "decode_action(action) -> list of button masks, one per player"},
    {"info", (PyCFunction)Env_info, METH_NOARGS, "info() -> dict of the game's variables"},
    {NULL, NULL, 0, NULL}};

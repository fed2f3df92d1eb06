/* Pool: its attributes (the getters), describe(i) and the wait slice. */
#include "pool.h"

static PyObject *str_or_none(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

/* Environment index i of arg, checked; -1 with an IndexError set otherwise. */
Py_ssize_t rgpy_pool_env_index(rgpy_Pool *self, PyObject *arg)
{
    Py_ssize_t i = PyNumber_AsSsize_t(arg, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred())
        return -1;
    if (i < 0 || (size_t)i >= self->n) {
        PyErr_Format(PyExc_IndexError, "environment %zd is not in [0, %zu)", i, self->n);
        return -1;
    }
    return i;
}

/* describe(i) -> dict: environment i's game, system, buttons, action groups and counts (for the spaces). */
static PyObject *Pool_describe(rgpy_Pool *self, PyObject *arg)
{
    Py_ssize_t i = rgpy_pool_usable(self) ? -1 : rgpy_pool_env_index(self, arg);
    if (i < 0)
        return NULL;
    rg_env *env = rg_pool_env(self->pool, (size_t)i);
    rg_emu *emu = rg_env_emu(env);
    return Py_BuildValue("{s:s,s:s,s:s,s:I,s:I,s:N,s:N,s:i,s:n,s:K,s:N,s:d}", "game", rg_env_game(env), "system",
                         rg_env_system(env)->name, "state_name", rg_env_state_name(env), "players",
                         rg_env_players(env), "num_buttons", rg_env_num_buttons(env), "buttons",
                         rgpy_env_buttons(env), "button_combos", rgpy_env_button_combos(env), "action_mode",
                         (int)rg_env_action_mode(env), "action_length", (Py_ssize_t)rg_env_action_length(env),
                         "discrete_count", (unsigned long long)rg_env_discrete_count(env), "core",
                         str_or_none(rg_emu_core_name(emu)), "fps", rg_emu_fps(emu));
}

#define POOL_GETTER(name, expr)                                                                                    \
    static PyObject *Pool_get_##name(rgpy_Pool *self, void *closure)                                               \
    {                                                                                                              \
        (void)closure;                                                                                             \
        if (rgpy_pool_usable(self))                                                                                \
            return NULL;                                                                                           \
        return (expr);                                                                                             \
    }

POOL_GETTER(num_envs, PyLong_FromSize_t(self->n))
POOL_GETTER(batch_size, PyLong_FromSize_t(self->batch))
POOL_GETTER(num_threads, PyLong_FromUnsignedLong(self->popts.num_threads))
POOL_GETTER(obs_size, PyLong_FromSize_t(self->obs_size))
POOL_GETTER(action_length, PyLong_FromSize_t(self->act_len))
POOL_GETTER(players, PyLong_FromUnsignedLong(self->players))
POOL_GETTER(autoreset, PyLong_FromLong((long)self->popts.autoreset))
POOL_GETTER(seed, PyLong_FromUnsignedLongLong(self->seed))
POOL_GETTER(in_flight, PyLong_FromSize_t(self->n_inflight))

static PyObject *Pool_get_obs_shape(rgpy_Pool *self, void *closure)
{
    (void)closure;
    if (rgpy_pool_usable(self))
        return NULL;
    PyObject *t = PyTuple_New(self->obs_nd);
    for (int i = 0; t && i < self->obs_nd; i++) {
        PyObject *v = PyLong_FromSsize_t((Py_ssize_t)self->obs_dims[i]);
        if (!v)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *Pool_get_closed(rgpy_Pool *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->pool == NULL);
}

static PyObject *Pool_get_interrupted(rgpy_Pool *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->interrupted);
}

static PyObject *Pool_get_multi_rewards(rgpy_Pool *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->multi_rewards);
}

static int Pool_set_multi_rewards(rgpy_Pool *self, PyObject *value, void *closure)
{
    (void)closure;
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete multi_rewards");
        return -1;
    }
    int v = PyObject_IsTrue(value);
    if (v < 0)
        return -1;
    self->multi_rewards = v;
    return 0;
}

#define GETTER(name, doc) {#name, (getter)Pool_get_##name, NULL, doc, NULL}

PyGetSetDef rgpy_pool_getset[] = {
    GETTER(num_envs, "number of environments"),
    GETTER(batch_size, "rows per recv()"),
    GETTER(num_threads, "worker threads asked for (0: one per online CPU, at most num_envs)"),
    GETTER(obs_size, "bytes of one environment's observation"),
    GETTER(obs_shape, "one environment's observation shape"),
    GETTER(action_length, "integers per action"),
    GETTER(players, "players per environment"),
    GETTER(autoreset, "0 NEXT_STEP, 1 SAME_STEP, 2 DISABLED"),
    GETTER(seed, "the last seed, given at creation or to reset() (env i starts from seed + i)"),
    GETTER(in_flight, "asynchronous steps sent and not received"),
    GETTER(closed, "whether close() was called"),
    GETTER(interrupted, "whether a signal (Ctrl-C) ended a wait for the workers: only close() is allowed then"),
    {"multi_rewards", (getter)Pool_get_multi_rewards, (setter)Pool_set_multi_rewards,
     "rewards of every player (num, players) instead of player 1's (num,)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyObject *Pool_set_wait_slice(rgpy_Pool *self, PyObject *arg)
{
    long ms = PyLong_AsLong(arg);
    if (ms == -1 && PyErr_Occurred())
        return NULL;
    if (ms < 0 || ms > 60000) {
        PyErr_SetString(PyExc_ValueError, "the wait slice must be 0..60000 ms");
        return NULL;
    }
    self->slice_ms = (unsigned)ms;
    Py_RETURN_NONE;
}

PyMethodDef rgpy_pool_attr_methods[] = {
    {"describe", (PyCFunction)Pool_describe, METH_O, "describe(i) -> dict describing environment i"},
    {"_set_wait_slice", (PyCFunction)Pool_set_wait_slice, METH_O,
     "_set_wait_slice(ms): later waits for the workers check for signals every ms (default 20; 0: one wait until "
     "the work is done, so Ctrl-C waits for the step); the pool's own limit stays the 20 ms it was created with"},
    {NULL, NULL, 0, NULL}};

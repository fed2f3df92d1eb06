/* The Env type: one rg_env (include/retrogym/env.h) behind a Python object. Creation, close, and the read-only
 * description of the environment (spaces, buttons, action groups). Episodes are in env_episode.c; variables,
 * memory, states and the emulator in env_data.c. */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

int rgpy_env_usable(rgpy_Env *self)
{
    if (!self->env) {
        PyErr_SetString(PyExc_RuntimeError, "the environment is closed");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the environment is in use by another thread (one environment is driven by one thread at a "
                        "time; make one environment per thread)");
        return -1;
    }
    return 0;
}

PyArrayObject *rgpy_env_new_obs(rgpy_Env *self)
{
    return (PyArrayObject *)PyArray_SimpleNew(self->obs_nd, self->obs_dims, NPY_UINT8);
}

/* Core and library messages go to the Python callable given at creation (the package sends them to `logging`). */
static void env_log(rg_log_level level, const char *message, void *user)
{
    rgpy_Env *self = user;
    rgpy_forward_log(self->interp, self->log_fn, self->log_on, level, message);
}

/* reset_sequence: a sequence of button masks (ints in 0..65535), one per frame. */
static int reset_sequence(PyObject *seq, uint16_t **out, size_t *n)
{
    PyObject *fast = PySequence_Fast(seq, "reset_sequence must be a sequence of button masks (ints) or None");
    if (!fast)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast); /* its limit is rg_env_create's */
    *out = PyMem_Malloc((size_t)(count ? count : 1) * sizeof **out);
    if (!*out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v > 0xFFFF) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "reset_sequence[%zd] = %ld is not a button mask (0..65535)", i, v);
            return -1;
        }
        (*out)[i] = (uint16_t)v;
    }
    *n = (size_t)count;
    Py_DECREF(fast);
    return 0;
}

int rgpy_env_opts_parse(PyObject *args, PyObject *kwargs, rgpy_env_opts *out)
{
    static char *kw[] = {"game", "state", "scenario", "info", "actions", "obs", "players", "data_root",
                         "custom_paths", "integrations", "core", "core_options", "frameskip", "sticky_prob",
                         "max_pool", "noop_max", "max_episode_steps", "log", "log_level", "rom",
                         "reset_sequence", NULL};
    const char *game, *state = NULL, *scenario = NULL, *info = NULL, *core = NULL, *rom = NULL;
    int actions = RG_ACTIONS_FILTERED, obs = RG_OBS_IMAGE, players = 1, integrations = 0, frameskip = 1;
    int max_pool = 0, noop_max = 0, log_level = RG_LOG_WARN;
    long long max_steps = 0;
    double sticky = 0.0;
    PyObject *root = Py_None, *custom = Py_None, *copts = Py_None, *log = Py_None, *reset_seq = Py_None;
    memset(out, 0, sizeof *out);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|zzziiiOOizOidpiLOizO", kw, &game, &state, &scenario, &info,
                                     &actions, &obs, &players, &root, &custom, &integrations, &core, &copts,
                                     &frameskip, &sticky, &max_pool, &noop_max, &max_steps, &log, &log_level,
                                     &rom, &reset_seq))
        return -1;
    /* Types only: the values are checked by rg_env_create (RG_EINVAL, raised as retrogym.InvalidArgument) */
    unsigned long long u_players, u_frameskip, u_noop, u_steps;
    if (rgpy_unsigned_opt(players, "players", UINT_MAX, &u_players) ||
        rgpy_unsigned_opt(frameskip, "frameskip", UINT_MAX, &u_frameskip) ||
        rgpy_unsigned_opt(noop_max, "noop_max", UINT_MAX, &u_noop) ||
        rgpy_unsigned_opt(max_steps, "max_episode_steps", UINT64_MAX, &u_steps))
        return -1;
    if (log != Py_None && !PyCallable_Check(log)) {
        PyErr_SetString(PyExc_TypeError, "log must be callable or None");
        return -1;
    }
    if (rgpy_core_options(copts, &out->items, &out->copts, &out->n_copts) ||
        rgpy_datapaths_build(root, custom, &out->dp)) {
        rgpy_env_opts_release(out);
        return -1;
    }
    out->log = log == Py_None ? NULL : log;
    size_t n_seq = 0;
    if (reset_seq != Py_None && reset_sequence(reset_seq, &out->reset_seq, &n_seq)) {
        rgpy_env_opts_release(out);
        return -1;
    }

    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = game;
    o.state = state;
    o.scenario = scenario;
    o.info = info;
    o.actions = (rg_action_mode)actions;
    o.obs = (rg_obs_mode)obs;
    o.players = (unsigned)u_players;
    o.paths = out->dp;
    o.integrations = (unsigned)integrations;
    o.core = core;
    o.core_options = out->copts;
    o.n_core_options = out->n_copts;
    o.frameskip = (unsigned)u_frameskip;
    o.sticky_prob = sticky;
    o.max_pool = max_pool;
    o.noop_max = (unsigned)u_noop;
    o.max_episode_steps = (uint64_t)u_steps;
    o.log_level = (rg_log_level)log_level;
    o.rom = rom;
    o.reset_sequence = out->reset_seq;
    o.n_reset_sequence = n_seq;
    out->o = o;
    return 0;
}

void rgpy_env_opts_release(rgpy_env_opts *p)
{
    rg_integration_paths_free(p->dp);
    Py_XDECREF(p->items);
    PyMem_Free(p->copts);
    PyMem_Free(p->reset_seq);
    memset(p, 0, sizeof *p);
}

static int Env_init(rgpy_Env *self, PyObject *args, PyObject *kwargs)
{
    rgpy_env_opts eo;
    if (rgpy_env_opts_parse(args, kwargs, &eo))
        return -1;
    if (self->env) {
        rgpy_env_opts_release(&eo);
        PyErr_SetString(PyExc_RuntimeError, "Env.__init__ called twice");
        return -1;
    }
    if (eo.log) {
        Py_INCREF(eo.log);
        Py_XSETREF(self->log_fn, eo.log);
    }
    self->log_on = 1;
    self->interp = PyInterpreterState_Get();
    rg_env_options o = eo.o;
    o.log = self->log_fn ? env_log : NULL;
    o.log_user = self;
    int obs = (int)o.obs;

    rg_env *env = NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    RGPY_NOGIL(self, rc, msg, rg_env_create(&env, &o));
    rgpy_env_opts_release(&eo);
    if (rc != RG_OK) {
        self->log_on = 0;
        rgpy_raise_msg(rc, msg);
        return -1;
    }
    self->env = env;
    self->obs_size = rg_env_obs_size(env);
    if (obs == RG_OBS_RAM) {
        self->obs_nd = 1;
        self->obs_dims[0] = (npy_intp)self->obs_size;
    } else {
        unsigned h, w, c;
        rg_env_obs_shape(env, &h, &w, &c);
        self->obs_nd = 3;
        self->obs_dims[0] = h;
        self->obs_dims[1] = w;
        self->obs_dims[2] = c;
    }
    return 0;
}

/* Frees the environment without the GIL (a core unload and a temporary folder removal can take a while). */
static void env_release(rgpy_Env *self)
{
    rg_env *env = self->env;
    self->env = NULL;
    self->log_on = 0;
    if (!env)
        return;
    Py_BEGIN_ALLOW_THREADS
    rg_env_free(env);
    Py_END_ALLOW_THREADS
}

static PyObject *Env_close(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot close the environment while another thread is using it");
        return NULL;
    }
    env_release(self);
    Py_RETURN_NONE;
}

static int Env_traverse(rgpy_Env *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self)); /* a heap type: its instances hold it */
    Py_VISIT(self->log_fn);
    return 0;
}

static int Env_clear(rgpy_Env *self)
{
    self->log_on = 0;
    Py_CLEAR(self->log_fn);
    return 0;
}

static void Env_dealloc(rgpy_Env *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakrefs)
        PyObject_ClearWeakRefs((PyObject *)self);
    env_release(self);
    Env_clear(self);
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* ---- description ---- */

#define ENV_GETTER(name, expr)                                                                                     \
    static PyObject *Env_get_##name(rgpy_Env *self, void *closure)                                                 \
    {                                                                                                              \
        (void)closure;                                                                                             \
        if (rgpy_env_usable(self))                                                                                 \
            return NULL;                                                                                           \
        rg_env *env = self->env;                                                                                   \
        return (expr);                                                                                             \
    }

static PyObject *str_or_none(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

ENV_GETTER(game, PyUnicode_FromString(rg_env_game(env)))
ENV_GETTER(system, PyUnicode_FromString(rg_env_system(env)->name))
ENV_GETTER(state_name, PyUnicode_FromString(rg_env_state_name(env)))
ENV_GETTER(players, PyLong_FromUnsignedLong(rg_env_players(env)))
ENV_GETTER(num_buttons, PyLong_FromUnsignedLong(rg_env_num_buttons(env)))
ENV_GETTER(action_mode, PyLong_FromLong((long)rg_env_action_mode(env)))
ENV_GETTER(action_length, PyLong_FromSize_t(rg_env_action_length(env)))
ENV_GETTER(discrete_count, PyLong_FromUnsignedLongLong(rg_env_discrete_count(env)))
ENV_GETTER(obs_size, PyLong_FromSize_t(rg_env_obs_size(env)))
ENV_GETTER(episode_steps, PyLong_FromUnsignedLongLong(rg_env_episode_steps(env)))
ENV_GETTER(core, str_or_none(rg_emu_core_name(rg_env_emu(env))))
ENV_GETTER(core_library, str_or_none(rg_emu_core_library(rg_env_emu(env))))
ENV_GETTER(core_version, str_or_none(rg_emu_core_version(rg_env_emu(env))))
ENV_GETTER(fps, PyFloat_FromDouble(rg_emu_fps(rg_env_emu(env))))

static PyObject *Env_get_obs_shape(rgpy_Env *self, void *closure)
{
    (void)closure;
    if (rgpy_env_usable(self))
        return NULL;
    return self->obs_nd == 1 ? Py_BuildValue("(n)", (Py_ssize_t)self->obs_dims[0])
                             : Py_BuildValue("(nnn)", (Py_ssize_t)self->obs_dims[0], (Py_ssize_t)self->obs_dims[1],
                                             (Py_ssize_t)self->obs_dims[2]);
}

/* The system's button names, None for unused indices (Gym Retro's env.buttons). */
PyObject *rgpy_env_buttons(const rg_env *env)
{
    unsigned n = rg_env_num_buttons(env);
    PyObject *out = PyList_New(n);
    for (unsigned i = 0; out && i < n; i++) {
        const char *name = rg_env_button_name(env, i);
        PyObject *v = name ? PyUnicode_FromString(name) : (Py_INCREF(Py_None), Py_None);
        if (!v)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* The action groups in force, as lists of button masks (Gym Retro's env.button_combos / data.valid_actions()). */
PyObject *rgpy_env_button_combos(const rg_env *env)
{
    const rg_actionset *as = rg_env_actionset(env);
    size_t ng = rg_actionset_group_count(as);
    PyObject *out = PyList_New((Py_ssize_t)ng);
    for (size_t g = 0; out && g < ng; g++) {
        size_t nc = rg_actionset_combo_count(as, g);
        PyObject *group = PyList_New((Py_ssize_t)nc);
        for (size_t c = 0; group && c < nc; c++) {
            PyObject *v = PyLong_FromUnsignedLong(rg_actionset_combo(as, g, c));
            if (!v)
                Py_CLEAR(group);
            else
                PyList_SET_ITEM(group, (Py_ssize_t)c, v);
        }
        if (!group)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, (Py_ssize_t)g, group);
    }
    return out;
}

static PyObject *Env_get_buttons(rgpy_Env *self, void *closure)
{
    (void)closure;
    return rgpy_env_usable(self) ? NULL : rgpy_env_buttons(self->env);
}

static PyObject *Env_get_button_combos(rgpy_Env *self, void *closure)
{
    (void)closure;
    return rgpy_env_usable(self) ? NULL : rgpy_env_button_combos(self->env);
}

static PyObject *Env_get_closed(rgpy_Env *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->env == NULL);
}

#define GETTER(name, doc) {#name, (getter)Env_get_##name, NULL, doc, NULL}

static PyGetSetDef Env_getset[] = {
    GETTER(game, "integration name"),
    GETTER(system, "system name (\"Nes\")"),
    GETTER(state_name, "start state in use (\"\" for power-on)"),
    GETTER(players, "number of players"),
    GETTER(num_buttons, "buttons per player"),
    GETTER(buttons, "button names per joypad id (None: unused)"),
    GETTER(button_combos, "action groups: lists of button masks"),
    GETTER(action_mode, "0 ALL, 1 FILTERED, 2 DISCRETE, 3 MULTI_DISCRETE"),
    GETTER(action_length, "integers per action"),
    GETTER(discrete_count, "DISCRETE actions for all players"),
    GETTER(obs_shape, "observation shape"),
    GETTER(obs_size, "observation bytes"),
    GETTER(episode_steps, "steps since the last reset"),
    GETTER(core, "core name"),
    GETTER(core_library, "core's library name"),
    GETTER(core_version, "core's library version"),
    GETTER(fps, "frames per second of the core"),
    GETTER(closed, "whether close() was called"),
    {NULL, NULL, NULL, NULL, NULL}};

/* start_state() -> the raw core state later resets load (bytes), or None for a power-on start. */
static PyObject *Env_start_state(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    const void *data;
    size_t len;
    int rc = rg_env_start_state(self->env, &data, &len);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    if (!data)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize(data, (Py_ssize_t)len);
}

/* set_start_state_data(bytes or None): a raw core state as the start of later resets; None or b"": power-on. */
static PyObject *Env_set_start_state_data(rgpy_Env *self, PyObject *arg)
{
    if (rgpy_env_usable(self))
        return NULL;
    Py_buffer buf = {0};
    if (arg != Py_None && PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE))
        return NULL;
    /* the state is tried on the core (a load inside a snapshot of the environment): without the GIL */
    int rc;
    char msg[RGPY_MSG] = "";
    rg_env *env = self->env;
    const void *data = arg == Py_None ? NULL : buf.buf;
    size_t len = arg == Py_None ? 0 : (size_t)buf.len;
    RGPY_NOGIL(self, rc, msg, rg_env_set_start_state_data(env, data, len));
    if (arg != Py_None)
        PyBuffer_Release(&buf);
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

PyMethodDef rgpy_env_base_methods[] = {
    {"close", (PyCFunction)Env_close, METH_NOARGS, "close() frees the emulator and everything else; idempotent"},
    {"start_state", (PyCFunction)Env_start_state, METH_NOARGS, "start_state() -> raw start state bytes or None"},
    {"set_start_state_data", (PyCFunction)Env_set_start_state_data, METH_O,
     "set_start_state_data(bytes or None): the start state of later resets (a raw core state)"},
    {NULL, NULL, 0, NULL}};

static PyMemberDef Env_members[] = {
    {"__weaklistoffset__", RGPY_T_PYSSIZET, offsetof(rgpy_Env, weakrefs), RGPY_READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

/* Without Py_tp_methods: module.c adds the methods of env_type.c, env_episode.c, env_data.c and env_movie.c. */
static PyType_Slot Env_slots[] = {
    {Py_tp_doc, "Env(game, ...): one retrogym environment (the C rg_env). Use retrogym.make() instead."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, Env_init},
    {Py_tp_dealloc, Env_dealloc},
    {Py_tp_traverse, Env_traverse},
    {Py_tp_clear, Env_clear},
    {Py_tp_members, Env_members},
    {Py_tp_getset, Env_getset},
    {0, NULL}};

PyType_Spec rgpy_env_spec = {"retrogym._retrogym.Env", sizeof(rgpy_Env), 0, RGPY_TPFLAGS | Py_TPFLAGS_HAVE_GC,
                             Env_slots};

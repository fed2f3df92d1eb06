/* The extension module retrogym._retrogym: the Env, Pool, Movie and Emu types, the data functions, constants. The
 * Python files of the package (the .py files beside it) build the Gymnasium API on top of it. Multi-phase
 * initialisation (PEP 489): PyInit__retrogym returns the definition and module_exec fills each module object with
 * its own heap types, kept in the module's state (ext.h's rgpy_state). */
#define RGPY_MODULE_C
#include "ext.h"

static PyObject *mod_version(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    return PyUnicode_FromString(rg_version());
}

static PyObject *mod_error_name(PyObject *mod, PyObject *args)
{
    (void)mod;
    int code;
    if (!PyArg_ParseTuple(args, "i", &code))
        return NULL;
    return PyUnicode_FromString(rg_error_name(code));
}

/* raise_error(code, message): raises what an rg error code maps to (for the package's own checks and tests). */
static PyObject *mod_raise_error(PyObject *mod, PyObject *args)
{
    (void)mod;
    int code;
    const char *message;
    if (!PyArg_ParseTuple(args, "is", &code, &message))
        return NULL;
    return rgpy_raise_msg(code, message);
}

static PyMethodDef module_methods[] = {
    {"version", mod_version, METH_NOARGS, "version() -> the C library's version"},
    {"error_name", mod_error_name, METH_VARARGS, "error_name(code) -> \"RG_E...\""},
    {"raise_error", mod_raise_error, METH_VARARGS, "raise_error(code, message): raise as the C layer would"},
    {NULL, NULL, 0, NULL}};

/* The Env and Pool types' methods live in several files each; each type's tables are joined once per module object,
 * before the type is made. The joined table lives in the module's state and is freed with the module, which
 * outlives the type (a heap type holds a reference to its module). `parts` ends with NULL. */
static PyMethodDef *join_methods(PyMethodDef *const *parts)
{
    size_t n = 0;
    for (size_t p = 0; parts[p]; p++)
        for (PyMethodDef *m = parts[p]; m->ml_name; m++)
            n++;
    PyMethodDef *all = PyMem_Calloc(n + 1, sizeof *all);
    if (!all)
        return NULL;
    size_t i = 0;
    for (size_t p = 0; parts[p]; p++)
        for (PyMethodDef *m = parts[p]; m->ml_name; m++)
            all[i++] = *m;
    return all;
}

/* A heap type of this module from a file's spec, with `methods` added as its Py_tp_methods when not NULL; added to
 * the module under its short name and kept (a new reference) in *out. */
static int add_type(PyObject *m, PyType_Spec *spec, PyMethodDef *methods, PyTypeObject **out)
{
    PyType_Slot slots[24];
    size_t n = 0;
    for (const PyType_Slot *s = spec->slots; s->slot; s++) {
        if (n + 2 >= sizeof slots / sizeof *slots) {
            PyErr_Format(PyExc_SystemError, "%s: too many type slots", spec->name);
            return -1;
        }
        slots[n++] = *s;
    }
    if (methods)
        slots[n++] = (PyType_Slot){Py_tp_methods, methods};
    slots[n] = (PyType_Slot){0, NULL};
    PyType_Spec full = *spec;
    full.slots = slots;
    PyObject *type = PyType_FromModuleAndSpec(m, &full, NULL);
    if (!type)
        return -1;
    *out = (PyTypeObject *)type;
    return PyModule_AddType(m, *out); /* its own reference */
}

static int add_int(PyObject *m, const char *name, long value)
{
    return PyModule_AddIntConstant(m, name, value);
}

/* Py_mod_exec: fills a new module object (each import in each interpreter makes one). */
static int module_exec(PyObject *m)
{
    rgpy_state *st = rgpy_module_state(m);
    /* NumPy's C-API table: one per process (NumPy loads once per process), read-only once imported. */
#ifdef NPY_2_0_API_VERSION
    if (PyArray_ImportNumPyAPI() < 0)
#else
    if (_import_array() < 0)
#endif
        return -1;
    static PyMethodDef *const env_parts[] = {rgpy_env_base_methods, rgpy_env_episode_methods, rgpy_env_data_methods,
                                             rgpy_env_movie_methods, NULL};
    static PyMethodDef *const pool_parts[] = {rgpy_pool_base_methods, rgpy_pool_step_methods, rgpy_pool_attr_methods,
                                              rgpy_pool_record_methods, NULL};
    if (!(st->env_methods = join_methods(env_parts)) || !(st->pool_methods = join_methods(pool_parts))) {
        PyErr_NoMemory();
        return -1;
    }
    if (add_type(m, &rgpy_emu_spec, NULL, &st->emu_type) ||
        add_type(m, &rgpy_env_spec, st->env_methods, &st->env_type) ||
        add_type(m, &rgpy_movie_spec, NULL, &st->movie_type) ||
        add_type(m, &rgpy_pool_spec, st->pool_methods, &st->pool_type))
        return -1;
    if (PyModule_AddFunctions(m, rgpy_data_methods) || PyModule_AddFunctions(m, rgpy_validate_methods) ||
        PyModule_AddFunctions(m, rgpy_search_methods))
        return -1;
    if (add_int(m, "AUTORESET_NEXT_STEP", RG_AUTORESET_NEXT_STEP) ||
        add_int(m, "AUTORESET_SAME_STEP", RG_AUTORESET_SAME_STEP) ||
        add_int(m, "AUTORESET_DISABLED", RG_AUTORESET_DISABLED))
        return -1;
    if (add_int(m, "ACTIONS_ALL", RG_ACTIONS_ALL) || add_int(m, "ACTIONS_FILTERED", RG_ACTIONS_FILTERED) ||
        add_int(m, "ACTIONS_DISCRETE", RG_ACTIONS_DISCRETE) ||
        add_int(m, "ACTIONS_MULTI_DISCRETE", RG_ACTIONS_MULTI_DISCRETE) || add_int(m, "OBS_IMAGE", RG_OBS_IMAGE) ||
        add_int(m, "OBS_RAM", RG_OBS_RAM) || add_int(m, "MAX_PLAYERS", RG_SCENARIO_MAX_PLAYERS) ||
        add_int(m, "LOG_DEBUG", RG_LOG_DEBUG) || add_int(m, "LOG_INFO", RG_LOG_INFO) ||
        add_int(m, "LOG_WARN", RG_LOG_WARN) || add_int(m, "LOG_ERROR", RG_LOG_ERROR) ||
        add_int(m, "LOG_NONE", RG_LOG_NONE) || add_int(m, "INTEGRATIONS_ALL", RG_INTEGRATIONS_ALL) ||
        PyModule_AddStringConstant(m, "DATA_PATH_ENV", RG_INTEGRATION_PATH_ENV))
        return -1;
    /* the option limits rg_env_create and rg_pool_create check (env.h, pool.h): for messages and tests */
    if (add_int(m, "ENV_MAX_FRAMESKIP", RG_ENV_MAX_FRAMESKIP) ||
        add_int(m, "ENV_MAX_RESET_SEQUENCE", RG_ENV_MAX_RESET_SEQUENCE) ||
        add_int(m, "POOL_MAX_NUM_ENVS", RG_POOL_MAX_NUM_ENVS) || add_int(m, "POOL_MAX_THREADS", RG_POOL_MAX_THREADS) ||
        add_int(m, "POOL_MAX_FRAME_STACK", RG_POOL_MAX_FRAME_STACK) ||
        add_int(m, "POOL_MAX_RESIZE", RG_POOL_MAX_RESIZE) ||
        add_int(m, "POOL_MAX_WORKER_TIMEOUT_MS", RG_POOL_MAX_WORKER_TIMEOUT_MS))
        return -1;
    static const int codes[] = {RG_ENOMEM, RG_EINVAL, RG_ENOTFOUND, RG_EIO, RG_EUNSUPPORTED, RG_ECORE,
                                RG_ESTATE, RG_EMISUSE, RG_ERANGE, RG_ECORRUPT, RG_ETOOBIG, RG_EBUFFER,
                                RG_ETIMEOUT};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (add_int(m, rg_error_name(codes[i]), codes[i]))
            return -1;
    return 0;
}

/* The state holds the types, each of which holds the module: a cycle the GC breaks through these two. */
static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
    rgpy_state *st = rgpy_module_state(m);
    if (st) {
        Py_VISIT(st->env_type);
        Py_VISIT(st->pool_type);
        Py_VISIT(st->movie_type);
        Py_VISIT(st->emu_type);
    }
    return 0;
}

static int module_clear(PyObject *m)
{
    rgpy_state *st = rgpy_module_state(m);
    if (st) {
        Py_CLEAR(st->env_type);
        Py_CLEAR(st->pool_type);
        Py_CLEAR(st->movie_type);
        Py_CLEAR(st->emu_type);
    }
    return 0;
}

static void module_free(void *m)
{
    module_clear((PyObject *)m);
    rgpy_state *st = rgpy_module_state((PyObject *)m);
    if (st) {
        PyMem_Free(st->env_methods);
        PyMem_Free(st->pool_methods);
        st->env_methods = st->pool_methods = NULL;
    }
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, (void *)module_exec},
#ifdef Py_mod_multiple_interpreters
    /* NumPy, which every array goes through, loads once per process and supports no interpreter of its own GIL. */
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_SUPPORTED},
#endif
#ifdef Py_mod_gil
    /* Free-threaded builds: this module still needs the GIL (docs/python.md says what lifting it would take). */
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "_retrogym",
                                        "retrogym's C core: environments, vectorized pools and integration data",
                                        sizeof(rgpy_state),
                                        module_methods,
                                        module_slots,
                                        module_traverse,
                                        module_clear,
                                        module_free};

PyMODINIT_FUNC PyInit__retrogym(void);

PyMODINIT_FUNC PyInit__retrogym(void)
{
    return PyModuleDef_Init(&module_def);
}

/* The extension module retrogym._retrogym: the Env, Pool and Movie types, the data functions, constants. The Python
 * files of the package (the .py files beside it) build the Gymnasium API on top of it. */
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

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "_retrogym",
                                        "retrogym's C core: environments, vectorized pools and integration data",
                                        -1,
                                        module_methods,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL};

/* The Env type's methods live in three files; they are joined here once, before the type is readied. */
static PyMethodDef *join_methods(void)
{
    PyMethodDef *parts[] = {rgpy_env_base_methods, rgpy_env_episode_methods, rgpy_env_data_methods,
                            rgpy_env_movie_methods};
    size_t n = 0;
    for (size_t p = 0; p < sizeof parts / sizeof *parts; p++)
        for (PyMethodDef *m = parts[p]; m->ml_name; m++)
            n++;
    /* Lives as long as the type, i.e. the process: never freed. */
    PyMethodDef *all = PyMem_RawCalloc(n + 1, sizeof *all);
    if (!all)
        return NULL;
    size_t i = 0;
    for (size_t p = 0; p < sizeof parts / sizeof *parts; p++)
        for (PyMethodDef *m = parts[p]; m->ml_name; m++)
            all[i++] = *m;
    return all;
}

static int add_int(PyObject *m, const char *name, long value)
{
    return PyModule_AddIntConstant(m, name, value);
}

PyMODINIT_FUNC PyInit__retrogym(void);

PyMODINIT_FUNC PyInit__retrogym(void)
{
    import_array();
    if (!rgpy_EnvType.tp_methods && !(rgpy_EnvType.tp_methods = join_methods()))
        return PyErr_NoMemory();
    if (PyType_Ready(&rgpy_EnvType) < 0 || PyType_Ready(&rgpy_PoolType) < 0 || PyType_Ready(&rgpy_MovieType) < 0 ||
        PyType_Ready(&rgpy_EmuType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (PyModule_AddFunctions(m, rgpy_data_methods) || PyModule_AddFunctions(m, rgpy_validate_methods) ||
        PyModule_AddFunctions(m, rgpy_search_methods))
        goto fail;
    Py_INCREF(&rgpy_EmuType);
    if (PyModule_AddObject(m, "Emu", (PyObject *)&rgpy_EmuType)) {
        Py_DECREF(&rgpy_EmuType);
        goto fail;
    }
    Py_INCREF(&rgpy_EnvType);
    if (PyModule_AddObject(m, "Env", (PyObject *)&rgpy_EnvType)) {
        Py_DECREF(&rgpy_EnvType);
        goto fail;
    }
    Py_INCREF(&rgpy_MovieType);
    if (PyModule_AddObject(m, "Movie", (PyObject *)&rgpy_MovieType)) {
        Py_DECREF(&rgpy_MovieType);
        goto fail;
    }
    Py_INCREF(&rgpy_PoolType);
    if (PyModule_AddObject(m, "Pool", (PyObject *)&rgpy_PoolType)) {
        Py_DECREF(&rgpy_PoolType);
        goto fail;
    }
    if (add_int(m, "AUTORESET_NEXT_STEP", RG_AUTORESET_NEXT_STEP) ||
        add_int(m, "AUTORESET_SAME_STEP", RG_AUTORESET_SAME_STEP) ||
        add_int(m, "AUTORESET_DISABLED", RG_AUTORESET_DISABLED))
        goto fail;
    if (add_int(m, "ACTIONS_ALL", RG_ACTIONS_ALL) || add_int(m, "ACTIONS_FILTERED", RG_ACTIONS_FILTERED) ||
        add_int(m, "ACTIONS_DISCRETE", RG_ACTIONS_DISCRETE) ||
        add_int(m, "ACTIONS_MULTI_DISCRETE", RG_ACTIONS_MULTI_DISCRETE) || add_int(m, "OBS_IMAGE", RG_OBS_IMAGE) ||
        add_int(m, "OBS_RAM", RG_OBS_RAM) || add_int(m, "MAX_PLAYERS", RG_SCENARIO_MAX_PLAYERS) ||
        add_int(m, "LOG_DEBUG", RG_LOG_DEBUG) || add_int(m, "LOG_INFO", RG_LOG_INFO) ||
        add_int(m, "LOG_WARN", RG_LOG_WARN) || add_int(m, "LOG_ERROR", RG_LOG_ERROR) ||
        add_int(m, "LOG_NONE", RG_LOG_NONE) || add_int(m, "INTEGRATIONS_ALL", RG_INTEGRATIONS_ALL) ||
        PyModule_AddStringConstant(m, "DATA_PATH_ENV", RG_DATA_PATH_ENV))
        goto fail;
    static const int codes[] = {RG_ENOMEM, RG_EINVAL, RG_ENOTFOUND, RG_EIO, RG_EUNSUPPORTED, RG_ECORE,
                                RG_ESTATE, RG_EMISUSE, RG_ERANGE, RG_ECORRUPT, RG_ETOOBIG};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (add_int(m, rg_error_name(codes[i]), codes[i]))
            goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}

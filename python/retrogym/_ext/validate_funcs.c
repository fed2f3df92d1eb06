/* The integration validators (rg_validate_*, include/retrogym/integration.h) for retrogym.testing.tools. */
#include "ext.h"

#include <string.h>

/* A list of (file, "error" | "warning", message) from the findings, which it frees. */
static PyObject *diags_to_list(rg_integration_diags *d)
{
    size_t n = rg_integration_diags_count(d);
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; out && i < n; i++) {
        const rg_integration_diag *g = rg_integration_diags_at(d, i);
        PyObject *t = Py_BuildValue("(sss)", g->file ? g->file : "",
                                    g->severity == RG_INTEGRATION_SEVERITY_ERROR ? "error" : "warning", g->message);
        if (!t)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, (Py_ssize_t)i, t);
    }
    rg_integration_diags_free(d);
    return out;
}

/* validate(check, root, custom, game, flags, scenario=None) -> [(file, severity, message)]; check is one of
 * "data", "scenario", "default_state", "missing", "hash", "rom", "game". */
static PyObject *py_validate(PyObject *self, PyObject *args)
{
    (void)self;
    const char *check, *game, *scenario = NULL;
    PyObject *root, *custom;
    int flags;
    if (!PyArg_ParseTuple(args, "sOOzi|z", &check, &root, &custom, &game, &flags, &scenario))
        return NULL;
    if (flags < 0 || flags > RG_INTEGRATIONS_ALL)
        return PyErr_Format(PyExc_ValueError, "integration flags %d are not in 0..%d", flags, RG_INTEGRATIONS_ALL);
    if (!game && strcmp(check, "missing") != 0)
        return PyErr_Format(PyExc_ValueError, "check %s needs a game", check);
    rg_integration_paths *dp = NULL;
    rg_integration_diags *d = NULL;
    if (rgpy_datapaths_build(root, custom, &dp))
        return NULL;
    int rc = rg_integration_diags_create(&d);
    unsigned f = (unsigned)flags;
    if (rc != RG_OK) {
    } else if (strcmp(check, "data") == 0) {
        rc = rg_integration_validate_data(dp, game, f, d);
    } else if (strcmp(check, "scenario") == 0) {
        rc = rg_integration_validate_scenario(dp, game, scenario ? scenario : "scenario", f, d);
    } else if (strcmp(check, "default_state") == 0) {
        rc = rg_integration_validate_default_state(dp, game, f, d);
    } else if (strcmp(check, "missing") == 0) {
        rc = rg_integration_validate_missing(dp, f, d);
    } else if (strcmp(check, "hash") == 0) {
        rc = rg_integration_validate_hash(dp, game, f, d);
    } else if (strcmp(check, "rom") == 0) {
        rc = rg_integration_validate_rom(dp, game, f, d);
    } else if (strcmp(check, "game") == 0) {
        rc = rg_integration_validate_game(dp, game, f, d);
    } else {
        rg_integration_diags_free(d);
        rg_integration_paths_free(dp);
        return PyErr_Format(PyExc_ValueError, "unknown check %s", check);
    }
    rg_integration_paths_free(dp);
    if (rc != RG_OK) {
        rg_integration_diags_free(d);
        return rgpy_raise(rc);
    }
    return diags_to_list(d);
}

/* validate_dir(path) -> [(file, severity, message)] for one game folder. */
static PyObject *py_validate_dir(PyObject *self, PyObject *arg)
{
    (void)self;
    PyObject *bytes;
    if (!PyUnicode_FSConverter(arg, &bytes))
        return NULL;
    rg_integration_diags *d = NULL;
    int rc = rg_integration_diags_create(&d);
    if (rc == RG_OK)
        rc = rg_integration_validate_dir(PyBytes_AS_STRING(bytes), d);
    Py_DECREF(bytes);
    if (rc != RG_OK) {
        rg_integration_diags_free(d);
        return rgpy_raise(rc);
    }
    return diags_to_list(d);
}

/* Warnings of a loader as a list of str. */
static PyObject *warning_list(size_t n, const char *(*at)(const void *, size_t), const void *obj)
{
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; out && i < n; i++) {
        PyObject *s = PyUnicode_FromString(at(obj, i));
        if (!s)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, (Py_ssize_t)i, s);
    }
    return out;
}

static const char *gd_warning(const void *gd, size_t i)
{
    return rg_gamedata_warning(gd, i);
}

static const char *sc_warning(const void *sc, size_t i)
{
    return rg_scenario_warning(sc, i);
}

/* load_check(kind, path, data_path=None) -> [warning]: loads one integration file the way an environment does,
 * without a ROM: "data" (data.json), "scenario" (scenario file, its variables from data_path, and its Lua scripts
 * loaded and their top level run, as at a reset), "metadata" (metadata.json), "rom.sha". Raises on a refusal. */
static PyObject *py_load_check(PyObject *self, PyObject *args)
{
    (void)self;
    const char *kind, *path, *data_path = NULL;
    if (!PyArg_ParseTuple(args, "ss|z", &kind, &path, &data_path))
        return NULL;
    int rc;
    PyObject *out = NULL;
    if (strcmp(kind, "data") == 0 || strcmp(kind, "scenario") == 0) {
        rg_gamedata *gd = NULL;
        rg_scenario *sc = NULL;
        int is_scen = kind[0] == 's';
        rc = rg_gamedata_create(&gd);
        if (rc == RG_OK && (!is_scen || data_path))
            rc = rg_gamedata_load_file(gd, is_scen ? data_path : path, 0);
        if (rc == RG_OK && is_scen && (rc = rg_scenario_create(&sc)) == RG_OK &&
            (rc = rg_scenario_load_file(sc, path, 0)) == RG_OK)
            rc = rg_scenario_reset(sc, gd);
        if (rc == RG_OK)
            out = is_scen ? warning_list(rg_scenario_warning_count(sc), sc_warning, sc)
                          : warning_list(rg_gamedata_warning_count(gd), gd_warning, gd);
        else
            rgpy_raise(rc);
        rg_scenario_free(sc);
        rg_gamedata_free(gd);
        return out;
    }
    if (strcmp(kind, "metadata") == 0) {
        rg_integration_metadata *m = NULL;
        if ((rc = rg_integration_metadata_load(&m, path)) != RG_OK)
            return rgpy_raise(rc);
        rg_integration_metadata_free(m);
        return PyList_New(0);
    }
    if (strcmp(kind, "rom.sha") == 0) {
        rg_strlist *list = NULL;
        if ((rc = rg_integration_romsha_load(path, &list)) != RG_OK)
            return rgpy_raise(rc);
        size_t n = rg_strlist_count(list);
        rg_strlist_free(list);
        return n ? PyList_New(0) : Py_BuildValue("[s]", "no SHA-1 listed");
    }
    return PyErr_Format(PyExc_ValueError, "unknown kind %s", kind);
}

PyMethodDef rgpy_validate_methods[] = {
    {"load_check", py_load_check, METH_VARARGS, "load_check(kind, path, data_path=None) -> [warning]"},
    {"validate", py_validate, METH_VARARGS,
     "validate(check, root, custom, game, flags, scenario=None) -> [(file, severity, message)]"},
    {"validate_dir", py_validate_dir, METH_O, "validate_dir(path) -> [(file, severity, message)]"},
    {NULL, NULL, 0, NULL}};

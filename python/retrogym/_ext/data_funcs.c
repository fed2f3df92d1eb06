/* Module functions over integration data (include/retrogym/integration.h) and the system table. The package keeps
 * the data root, custom paths and default integrations in Python (retrogym/data.py) and passes them to every call,
 * so the extension holds no process-wide state. */
#include "ext.h"

#include <stdlib.h>

/* A handle over a sequence of (path, origin) pairs, origin an int of rg_integration_origin (retrogym/data.py's roots). */
static int build_roots(PyObject *roots, rg_integration_paths **out)
{
    PyObject *seq = PySequence_Fast(roots, "data roots must be a str, None or a sequence of (path, origin)");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const char **paths = PyMem_Calloc((size_t)n + 1, sizeof *paths);
    rg_integration_origin *origins = PyMem_Calloc((size_t)n + 1, sizeof *origins);
    int ret = -1;
    if (!paths || !origins) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        const char *p;
        int origin;
        if (!PyArg_ParseTuple(item, "si", &p, &origin))
            goto done;
        paths[i] = p;
        origins[i] = (rg_integration_origin)origin;
    }
    int rc = rg_integration_paths_create_roots(out, paths, origins, (size_t)n);
    if (rc != RG_OK)
        rgpy_raise(rc);
    else
        ret = 0;
done:
    PyMem_Free(paths);
    PyMem_Free(origins);
    Py_DECREF(seq);
    return ret;
}

int rgpy_datapaths_build(PyObject *root, PyObject *custom, rg_integration_paths **out)
{
    *out = NULL;
    const char *r = NULL;
    rg_integration_paths *dp;
    int rc;
    if (root && root != Py_None && !PyUnicode_Check(root)) {
        if (build_roots(root, &dp))
            return -1;
    } else {
        if (root && root != Py_None && !(r = PyUnicode_AsUTF8(root)))
            return -1;
        rc = rg_integration_paths_create(&dp, r);
        if (rc != RG_OK) {
            rgpy_raise(rc);
            return -1;
        }
    }
    if (custom && custom != Py_None) {
        PyObject *seq = PySequence_Fast(custom, "custom paths must be a sequence of str");
        if (!seq) {
            rg_integration_paths_free(dp);
            return -1;
        }
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
            const char *p = PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
            if (!p) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "custom paths must be str");
                Py_DECREF(seq);
                rg_integration_paths_free(dp);
                return -1;
            }
            if ((rc = rg_integration_paths_add_custom_path(dp, p)) != RG_OK) {
                rgpy_raise(rc);
                Py_DECREF(seq);
                rg_integration_paths_free(dp);
                return -1;
            }
        }
        Py_DECREF(seq);
    }
    *out = dp;
    return 0;
}

PyObject *rgpy_strlist_to_list(rg_strlist *list)
{
    size_t n = rg_strlist_count(list);
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; out && i < n; i++) {
        PyObject *s = PyUnicode_DecodeFSDefault(rg_strlist_at(list, i));
        if (!s) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, s);
    }
    rg_strlist_free(list);
    return out;
}

static int check_flags(long flags, unsigned *out)
{
    if (flags < 0 || flags > RG_INTEGRATIONS_ALL) {
        PyErr_Format(PyExc_ValueError, "integration flags %ld are not in 0..%d", flags, RG_INTEGRATIONS_ALL);
        return -1;
    }
    *out = (unsigned)flags;
    return 0;
}

/* The arguments most functions share, root, custom paths and flags (already resolved by the package), as a
 * data-paths handle and checked flags; 0, or -1 with an exception set. */
static int open_paths(PyObject *root, PyObject *custom, long flags, unsigned *f, rg_integration_paths **dp)
{
    return check_flags(flags, f) || rgpy_datapaths_build(root, custom, dp) ? -1 : 0;
}

/* Parses (root, custom, flags). */
static int parse_paths(PyObject *args, unsigned *f, rg_integration_paths **dp)
{
    PyObject *root, *custom;
    long flags;
    if (!PyArg_ParseTuple(args, "OOl", &root, &custom, &flags))
        return -1;
    return open_paths(root, custom, flags, f, dp);
}

/* Parses (root, custom, game, flags). */
static int parse_game_paths(PyObject *args, const char **game, unsigned *f, rg_integration_paths **dp)
{
    PyObject *root, *custom;
    long flags;
    if (!PyArg_ParseTuple(args, "OOsl", &root, &custom, game, &flags))
        return -1;
    return open_paths(root, custom, flags, f, dp);
}

/* Appends item to list and drops the caller's reference (item NULL: a failure already raised); 0 or -1. */
static int append_new(PyObject *list, PyObject *item)
{
    int ret = !item || PyList_Append(list, item) ? -1 : 0;
    Py_XDECREF(item);
    return ret;
}

/* data_dirs and list_games: (root, custom, flags) -> [str]. */
static PyObject *paths_list(PyObject *args, int (*fn)(const rg_integration_paths *, unsigned, rg_strlist **))
{
    unsigned f;
    rg_integration_paths *dp;
    if (parse_paths(args, &f, &dp))
        return NULL;
    rg_strlist *list;
    int rc = fn(dp, f, &list);
    rg_integration_paths_free(dp);
    return rc == RG_OK ? rgpy_strlist_to_list(list) : rgpy_raise(rc);
}

static PyObject *data_dirs(PyObject *mod, PyObject *args)
{
    (void)mod;
    return paths_list(args, rg_integration_paths_dirs);
}

static PyObject *data_root(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *root;
    rg_integration_paths *dp;
    if (!PyArg_ParseTuple(args, "O", &root) || rgpy_datapaths_build(root, NULL, &dp))
        return NULL;
    PyObject *out = PyUnicode_DecodeFSDefault(rg_integration_paths_root(dp));
    rg_integration_paths_free(dp);
    return out;
}

static PyObject *data_list_games(PyObject *mod, PyObject *args)
{
    (void)mod;
    return paths_list(args, rg_integration_list_games);
}

/* list_states and list_scenarios: (root, custom, game, flags). */
static PyObject *game_list(PyObject *args, int (*fn)(const rg_integration_paths *, const char *, unsigned, rg_strlist **))
{
    const char *game;
    unsigned f;
    rg_integration_paths *dp;
    if (parse_game_paths(args, &game, &f, &dp))
        return NULL;
    rg_strlist *list;
    int rc = fn(dp, game, f, &list);
    rg_integration_paths_free(dp);
    return rc == RG_OK ? rgpy_strlist_to_list(list) : rgpy_raise(rc);
}

static PyObject *data_list_states(PyObject *mod, PyObject *args)
{
    (void)mod;
    return game_list(args, rg_integration_list_states);
}

static PyObject *data_list_scenarios(PyObject *mod, PyObject *args)
{
    (void)mod;
    return game_list(args, rg_integration_list_scenarios);
}

/* A found path as str (freeing it); RG_ENOTFOUND gives None when missing_is_none, any other failure raises. */
static PyObject *path_result(int rc, char *path, int missing_is_none)
{
    if (rc == RG_ENOTFOUND && missing_is_none)
        Py_RETURN_NONE;
    if (rc != RG_OK)
        return rgpy_raise(rc);
    PyObject *out = PyUnicode_DecodeFSDefault(path);
    free(path);
    return out;
}

/* rom_path and game_folder: (root, custom, game, flags) -> str; not found raises. */
static PyObject *game_path(PyObject *args, int (*fn)(const rg_integration_paths *, const char *, unsigned, char **))
{
    const char *game;
    unsigned f;
    rg_integration_paths *dp;
    if (parse_game_paths(args, &game, &f, &dp))
        return NULL;
    char *path = NULL;
    int rc = fn(dp, game, f, &path);
    rg_integration_paths_free(dp);
    return path_result(rc, path, 0);
}

/* file_path(root, custom, game, file, flags) -> str or None. */
static PyObject *data_file_path(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *root, *custom;
    const char *game, *file;
    long flags;
    unsigned f;
    rg_integration_paths *dp;
    if (!PyArg_ParseTuple(args, "OOssl", &root, &custom, &game, &file, &flags) ||
        open_paths(root, custom, flags, &f, &dp))
        return NULL;
    char *path = NULL;
    int rc = rg_integration_file_path(dp, game, file, f, &path);
    rg_integration_paths_free(dp);
    return path_result(rc, path, 1);
}

/* rom_path(root, custom, game, flags) -> str; FileNotFoundError "No romfiles found for game". */
static PyObject *data_rom_path(PyObject *mod, PyObject *args)
{
    (void)mod;
    return game_path(args, rg_integration_rom_path);
}

/* default_state(root, custom, game, players, flags) -> str or None. */
static PyObject *data_default_state(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *root, *custom;
    const char *game;
    int players;
    long flags;
    unsigned f;
    rg_integration_paths *dp;
    if (!PyArg_ParseTuple(args, "OOsil", &root, &custom, &game, &players, &flags) || check_flags(flags, &f))
        return NULL;
    if (players < 1)
        return PyErr_Format(PyExc_ValueError, "players must be at least 1, not %d", players);
    if (rgpy_datapaths_build(root, custom, &dp))
        return NULL;
    char *state = NULL;
    int rc = rg_integration_default_state(dp, game, (unsigned)players, f, &state);
    rg_integration_paths_free(dp);
    if (rc == RG_ENOTFOUND)
        Py_RETURN_NONE;
    if (rc != RG_OK)
        return rgpy_raise(rc);
    PyObject *out = PyUnicode_FromString(state);
    free(state);
    return out;
}

static PyObject *system_dict(const rg_system_info *s)
{
    PyObject *ext = PyList_New(0), *cores = PyList_New(0), *buttons = PyList_New(0), *actions = PyList_New(0);
    PyObject *out = NULL;
    if (!ext || !cores || !buttons || !actions)
        goto done;
    for (size_t i = 0; i < s->n_extensions; i++) {
        PyObject *v = PyUnicode_FromFormat(".%s", s->extensions[i]);
        if (append_new(ext, v))
            goto done;
    }
    for (size_t i = 0; i < s->n_cores; i++) {
        PyObject *v = PyUnicode_FromString(s->cores[i]);
        if (append_new(cores, v))
            goto done;
    }
    for (unsigned i = 0; i < s->n_buttons && i < RG_MAX_BUTTONS; i++) {
        PyObject *v = s->buttons[i] ? PyUnicode_FromString(s->buttons[i]) : (Py_INCREF(Py_None), Py_None);
        if (append_new(buttons, v))
            goto done;
    }
    for (size_t g = 0; g < s->n_actions; g++) { /* each group: its combos as lists of button names */
        PyObject *group = PyList_New(0);
        if (append_new(actions, group))
            goto done;
        for (size_t c = 0; c < s->actions[g].n_combos; c++) {
            PyObject *combo = PyList_New(0);
            if (append_new(group, combo))
                goto done;
            for (unsigned b = 0; b < RG_MAX_BUTTONS; b++) {
                if (!(s->actions[g].combos[c] & (1u << b)))
                    continue;
                PyObject *v = PyUnicode_FromString(s->buttons[b] ? s->buttons[b] : "");
                if (append_new(combo, v))
                    goto done;
            }
        }
    }
    out = Py_BuildValue("{s:s,s:s,s:O,s:O,s:O,s:O,s:K}", "name", s->name, "title", s->title ? s->title : "",
                        "extensions", ext, "cores", cores, "buttons", buttons, "actions", actions, "rambase",
                        (unsigned long long)s->ram_base);
done:
    Py_XDECREF(ext);
    Py_XDECREF(cores);
    Py_XDECREF(buttons);
    Py_XDECREF(actions);
    return out;
}

/* systems() -> {name: {"name", "title", "extensions", "cores", "buttons", "actions", "rambase"}} */
static PyObject *data_systems(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    PyObject *out = PyDict_New();
    for (size_t i = 0; out && i < rg_system_count(); i++) {
        const rg_system_info *s = rg_system_at(i);
        PyObject *d = system_dict(s);
        if (!d || PyDict_SetItemString(out, s->name, d)) {
            Py_XDECREF(d);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(d);
    }
    return out;
}

/* system_for_path(path) -> system name, from the ROM's extension. */
static PyObject *data_system_for_path(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path))
        return NULL;
    const rg_system_info *s;
    int rc = rg_system_for_path(&s, path);
    return rc == RG_OK ? PyUnicode_FromString(s->name) : rgpy_raise(rc);
}

/* game_system(game) -> system name, from the game's -<System> suffix. */
static PyObject *data_game_system(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *game;
    if (!PyArg_ParseTuple(args, "s", &game))
        return NULL;
    const rg_system_info *s;
    int rc = rg_integration_game_system(game, &s);
    return rc == RG_OK ? PyUnicode_FromString(s->name) : rgpy_raise(rc);
}

/* cores() -> [{"name", "path", "library_name", "library_version", "extensions"}] of the installed cores. */
static PyObject *data_cores(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    rg_core_list *list;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = rg_core_list_create(&list);
    Py_END_ALLOW_THREADS
    if (rc != RG_OK)
        return rgpy_raise(rc);
    PyObject *out = PyList_New(0);
    for (size_t i = 0; out && i < rg_core_list_count(list); i++) {
        const rg_core_info *c = rg_core_list_at(list, i);
        PyObject *d = Py_BuildValue("{s:s,s:s,s:s,s:s,s:s}", "name", c->name, "path", c->path, "library_name",
                                    c->library_name ? c->library_name : "", "library_version",
                                    c->library_version ? c->library_version : "", "extensions",
                                    c->extensions ? c->extensions : "");
        if (append_new(out, d))
            Py_CLEAR(out);
    }
    rg_core_list_free(list);
    return out;
}

/* core_path(name) -> the shared object a core name resolves to; FileNotFoundError lists the folders searched. */
static PyObject *data_core_path(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *name;
    if (!PyArg_ParseTuple(args, "s", &name))
        return NULL;
    char buf[4096];
    int rc = rg_core_resolve(name, buf, sizeof buf);
    return rc == RG_OK ? PyUnicode_DecodeFSDefault(buf) : rgpy_raise(rc);
}

/* Collects import messages into a list while the import runs (GIL released; the callbacks take it back). */
typedef struct import_ctx {
    PyObject *warnings;
    PyObject *imported;
    PyObject *near;
    int failed;
    PyInterpreterState *interp; /* the caller's: the callbacks run on its thread without the GIL */
} import_ctx;

static void import_append(PyObject *list, PyObject *item, import_ctx *ctx)
{
    if (append_new(list, item))
        ctx->failed = 1;
}

static void on_import_warning(const char *message, void *user)
{
    import_ctx *ctx = user;
    rgpy_gil g;
    if (rgpy_gil_enter(ctx->interp, &g)) {
        ctx->failed = 1;
        return;
    }
    import_append(ctx->warnings, PyUnicode_DecodeFSDefault(message), ctx);
    PyErr_Clear();
    rgpy_gil_leave(&g);
}

static void on_imported(const char *game, const char *path, void *user)
{
    import_ctx *ctx = user;
    rgpy_gil g;
    if (rgpy_gil_enter(ctx->interp, &g)) {
        ctx->failed = 1;
        return;
    }
    import_append(ctx->imported, Py_BuildValue("(sN)", game, PyUnicode_DecodeFSDefault(path)), ctx);
    PyErr_Clear();
    rgpy_gil_leave(&g);
}

static void on_near(const char *game, const char *candidate, const char *sha1, void *user)
{
    import_ctx *ctx = user;
    rgpy_gil g;
    if (rgpy_gil_enter(ctx->interp, &g)) {
        ctx->failed = 1;
        return;
    }
    import_append(ctx->near, Py_BuildValue("(sNs)", game, PyUnicode_DecodeFSDefault(candidate), sha1), ctx);
    PyErr_Clear();
    rgpy_gil_leave(&g);
}

/* import_roms(root, custom, paths[, force]) -> {"imported": [(game, path)], "warnings": [...], "near": [(game,
 * candidate, sha1)], counts...}. */
static PyObject *data_import_roms(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *root, *custom, *paths;
    const char *force = NULL;
    rg_integration_paths *dp;
    if (!PyArg_ParseTuple(args, "OOO|z", &root, &custom, &paths, &force))
        return NULL;
    PyObject *seq = PySequence_Fast(paths, "paths must be a sequence of str");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const char **cpaths = PyMem_Calloc((size_t)n + 1, sizeof *cpaths);
    import_ctx ctx = {PyList_New(0), PyList_New(0), PyList_New(0), 0, PyInterpreterState_Get()};
    PyObject *out = NULL;
    if (!cpaths || !ctx.warnings || !ctx.imported || !ctx.near)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyUnicode_Check(item) || !(cpaths[i] = PyUnicode_AsUTF8(item))) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "paths must be str");
            goto done;
        }
    }
    if (rgpy_datapaths_build(root, custom, &dp))
        goto done;
    rg_integration_import_options o = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    o.warning = on_import_warning;
    o.imported = on_imported;
    o.near = on_near;
    o.force_game = force;
    o.user = &ctx;
    rg_integration_import_report rep = {0};
    int rc;
    char msg[RGPY_MSG] = "";
    Py_BEGIN_ALLOW_THREADS
    rc = rg_integration_import(dp, cpaths, (size_t)n, &o, &rep);
    if (rc != RG_OK)
        snprintf(msg, sizeof msg, "%s", rg_error_last());
    Py_END_ALLOW_THREADS
    rg_integration_paths_free(dp);
    if (ctx.failed) {
        PyErr_NoMemory();
        goto done;
    }
    if (rc != RG_OK) {
        rgpy_raise_msg(rc, msg);
        goto done;
    }
    out = Py_BuildValue("{s:O,s:O,s:O,s:n,s:n,s:n,s:n,s:n,s:n}", "imported", ctx.imported, "warnings",
                        ctx.warnings, "near", ctx.near, "known", (Py_ssize_t)rep.known, "files",
                        (Py_ssize_t)rep.files, "scanned", (Py_ssize_t)rep.scanned, "skipped",
                        (Py_ssize_t)rep.skipped, "games", (Py_ssize_t)rep.imported, "forced",
                        (Py_ssize_t)rep.forced);
done:
    Py_XDECREF(ctx.warnings);
    Py_XDECREF(ctx.imported);
    Py_XDECREF(ctx.near);
    PyMem_Free(cpaths);
    Py_DECREF(seq);
    return out;
}

/* data_roots(root) -> [(path, origin name)] of the handle built from root (None, str or pairs). */
static PyObject *data_roots(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *root;
    rg_integration_paths *dp;
    if (!PyArg_ParseTuple(args, "O", &root) || rgpy_datapaths_build(root, NULL, &dp))
        return NULL;
    PyObject *out = PyList_New(0);
    for (size_t i = 0; out && i < rg_integration_paths_root_count(dp); i++) {
        PyObject *t = Py_BuildValue("(Ns)", PyUnicode_DecodeFSDefault(rg_integration_paths_root_at(dp, i)),
                                    rg_integration_origin_name(rg_integration_paths_root_origin(dp, i)));
        if (append_new(out, t))
            Py_CLEAR(out);
    }
    rg_integration_paths_free(dp);
    return out;
}

static PyObject *data_user_root(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    char buf[4096];
    int rc = rg_integration_user_root(buf, sizeof buf);
    return rc == RG_OK ? PyUnicode_DecodeFSDefault(buf) : rgpy_raise(rc);
}

/* game_folder(root, custom, game, flags) -> the folder's name ("Airstriker-Genesis" -> "Airstriker-Genesis-v0"). */
static PyObject *data_game_folder(PyObject *mod, PyObject *args)
{
    (void)mod;
    return game_path(args, rg_integration_game_folder);
}

static PyObject *str_or_none(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_DecodeFSDefault(s);
}

/* library(root, custom, flags) -> [{"game", "system", "integration", "root", "origin", "rom", "state", "core",
 * "core_path", "core_origin", "hint"}]. */
static PyObject *data_library(PyObject *mod, PyObject *args)
{
    (void)mod;
    unsigned f;
    rg_integration_paths *dp;
    if (parse_paths(args, &f, &dp))
        return NULL;
    rg_integration_library *lib;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = rg_integration_library_create(dp, f, &lib);
    Py_END_ALLOW_THREADS
    rg_integration_paths_free(dp);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    PyObject *out = PyList_New(0);
    for (size_t i = 0; out && i < rg_integration_library_count(lib); i++) {
        const rg_integration_library_game *g = rg_integration_library_at(lib, i);
        PyObject *d = Py_BuildValue("{s:s,s:s,s:N,s:N,s:s,s:N,s:N,s:N,s:N,s:N,s:N}", "game", g->game, "system",
                                    g->system, "integration", str_or_none(g->integration), "root",
                                    str_or_none(g->root), "origin", rg_integration_origin_name(g->origin), "rom",
                                    str_or_none(g->rom), "state", str_or_none(g->state), "core",
                                    str_or_none(g->core), "core_path", str_or_none(g->core_path), "core_origin",
                                    str_or_none(g->core_origin), "hint", str_or_none(g->hint));
        if (append_new(out, d))
            Py_CLEAR(out);
    }
    rg_integration_library_free(lib);
    return out;
}

static PyObject *data_core_origin(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path))
        return NULL;
    return PyUnicode_FromString(rg_core_origin(path));
}

static PyObject *data_core_install_hint(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *system;
    if (!PyArg_ParseTuple(args, "s", &system))
        return NULL;
    const rg_system_info *s;
    int rc = rg_system_find(&s, system);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    char buf[256];
    rc = rg_core_install_hint(s->cores, s->n_cores, buf, sizeof buf);
    return rc == RG_OK ? PyUnicode_FromString(buf) : rgpy_raise(rc);
}

PyMethodDef rgpy_data_methods[] = {
    {"data_dirs", data_dirs, METH_VARARGS, "data_dirs(root, custom, flags) -> folders searched, in order"},
    {"data_root", data_root, METH_VARARGS, "data_root(root) -> the data root a handle would use"},
    {"list_games", data_list_games, METH_VARARGS, "list_games(root, custom, flags) -> sorted game names"},
    {"list_states", data_list_states, METH_VARARGS, "list_states(root, custom, game, flags) -> state names"},
    {"list_scenarios", data_list_scenarios, METH_VARARGS, "list_scenarios(root, custom, game, flags) -> names"},
    {"file_path", data_file_path, METH_VARARGS, "file_path(root, custom, game, file, flags) -> path or None"},
    {"rom_path", data_rom_path, METH_VARARGS, "rom_path(root, custom, game, flags) -> path of the game's ROM"},
    {"default_state", data_default_state, METH_VARARGS,
     "default_state(root, custom, game, players, flags) -> state name or None"},
    {"systems", data_systems, METH_NOARGS, "systems() -> {name: description}"},
    {"system_for_path", data_system_for_path, METH_VARARGS, "system_for_path(path) -> system of a ROM file"},
    {"game_system", data_game_system, METH_VARARGS, "game_system(game) -> system of a game from its suffix"},
    {"cores", data_cores, METH_NOARGS, "cores() -> the libretro cores found"},
    {"core_path", data_core_path, METH_VARARGS, "core_path(name) -> shared object of a core"},
    {"import_roms", data_import_roms, METH_VARARGS, "import_roms(root, custom, paths[, force]) -> report dict"},
    {"data_roots", data_roots, METH_VARARGS, "data_roots(root) -> [(path, origin name)] a handle would use"},
    {"user_root", data_user_root, METH_NOARGS, "user_root() -> the user's writable data root"},
    {"game_folder", data_game_folder, METH_VARARGS, "game_folder(root, custom, game, flags) -> folder name"},
    {"library", data_library, METH_VARARGS, "library(root, custom, flags) -> [dict] of every integration"},
    {"core_origin", data_core_origin, METH_VARARGS, "core_origin(path) -> where a core file comes from"},
    {"core_install_hint", data_core_install_hint, METH_VARARGS,
     "core_install_hint(system) -> the command that installs a core for it"},
    {NULL, NULL, 0, NULL}};

/* Declarations shared by the files of the extension module retrogym._retrogym. The module uses multi-phase
 * initialisation (PEP 489): its types are heap types made per module object from the PyType_Spec of each file, and
 * kept in the module's state (rgpy_state); no file holds a static type or other mutable global (docs/python.md, "The
 * extension module"). */
#ifndef RGPY_EXT_H
#define RGPY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* One NumPy C-API table for the whole module: module.c imports it, the other files use it. */
#define PY_ARRAY_UNIQUE_SYMBOL rgpy_ARRAY_API
#ifndef RGPY_MODULE_C
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <retrogym/retrogym.h>

/* Members named in a PyType_Spec (the weak-reference list's offset): Py_T_* names from 3.12, structmember.h's
 * before. */
#if PY_VERSION_HEX >= 0x030C0000
#define RGPY_T_PYSSIZET Py_T_PYSSIZET
#define RGPY_READONLY Py_READONLY
#else
#include <structmember.h>
#define RGPY_T_PYSSIZET T_PYSSIZET
#define RGPY_READONLY READONLY
#endif

/* Flags of every type: immutable like a static type (3.10+: attributes of the class cannot be set). */
#ifdef Py_TPFLAGS_IMMUTABLETYPE
#define RGPY_TPFLAGS (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE)
#else
#define RGPY_TPFLAGS Py_TPFLAGS_DEFAULT
#endif

/* Setting the pending exception aside around a call that may raise, and putting it back (PyErr_Fetch and
 * PyErr_Restore are deprecated from 3.12, which has PyErr_GetRaisedException). */
#if PY_VERSION_HEX >= 0x030C0000
typedef struct rgpy_exc { PyObject *exc; } rgpy_exc;
#define RGPY_EXC_SAVE(s) ((s).exc = PyErr_GetRaisedException())
#define RGPY_EXC_RESTORE(s) PyErr_SetRaisedException((s).exc)
#define RGPY_EXC_DISCARD(s) Py_XDECREF((s).exc)
#else
typedef struct rgpy_exc { PyObject *type, *value, *tb; } rgpy_exc;
#define RGPY_EXC_SAVE(s) PyErr_Fetch(&(s).type, &(s).value, &(s).tb)
#define RGPY_EXC_RESTORE(s) PyErr_Restore((s).type, (s).value, (s).tb)
#define RGPY_EXC_DISCARD(s) (Py_XDECREF((s).type), Py_XDECREF((s).value), Py_XDECREF((s).tb))
#endif

/* ---- module.c: the module's state, one per module object (so one per interpreter that imports it) ---- */

typedef struct rgpy_state {
    PyTypeObject *env_type, *pool_type, *movie_type, *emu_type;
    PyMethodDef *env_methods;  /* the Env type's methods, joined from four files (PyMem; freed with the module) */
    PyMethodDef *pool_methods; /* the Pool type's, likewise */
} rgpy_state;

/** The state of a module object made from the module's definition. */
static inline rgpy_state *rgpy_module_state(PyObject *module)
{
    return (rgpy_state *)PyModule_GetState(module);
}

/* ---- errors.c: rg error codes to Python exceptions, in one place ---- */

/** Raises the exception for an rg error code with the calling thread's rg_error_last() message; returns NULL. */
PyObject *rgpy_raise(int code);
/** The same with a message already taken (for calls made without the GIL, where the message was copied). */
PyObject *rgpy_raise_msg(int code, const char *message);
/** The exception class an rg error code maps to (borrowed). */
PyObject *rgpy_exception_for(int code);

/* ---- data_funcs.c: data roots, listing, systems ---- */

/**
 * Builds a data-paths handle from a root (None: $RETROGYM_DATA_PATH or the library's default) and a sequence of
 * custom paths. Returns 0, or -1 with a Python exception set.
 */
int rgpy_datapaths_build(PyObject *root, PyObject *custom, rg_integration_paths **out);
/** A list of str from an rg_strlist (which it frees). */
PyObject *rgpy_strlist_to_list(rg_strlist *list);
extern PyMethodDef rgpy_data_methods[];

/* ---- env_type.c, env_episode.c, env_data.c: the Env type ---- */

typedef struct rgpy_Env {
    PyObject_HEAD
    rg_env *env;        /* NULL once closed */
    int busy;           /* a call without the GIL is running on this env (on some thread) */
    int obs_nd;         /* 3 (image) or 1 (RAM) */
    npy_intp obs_dims[3];
    size_t obs_size;
    PyObject *log_fn;   /* callable(level, message) or NULL */
    int log_on;         /* messages are forwarded while this is set */
    PyInterpreterState *interp; /* the interpreter log_fn belongs to */
    PyObject *weakrefs;
} rgpy_Env;

extern PyType_Spec rgpy_env_spec; /* its methods are added by module.c from the four tables below */
extern PyMethodDef rgpy_env_base_methods[];
extern PyMethodDef rgpy_env_episode_methods[];
extern PyMethodDef rgpy_env_data_methods[];

/**
 * Checks the env is open and not in use by a call running without the GIL; returns 0, or -1 with RuntimeError set.
 * Every method that touches self->env calls it first.
 */
int rgpy_env_usable(rgpy_Env *self);
/** A fresh uint8 array of the observation's shape. */
PyArrayObject *rgpy_env_new_obs(rgpy_Env *self);
/** The info dict: every readable data.json variable and every custom variable, as ints. */
PyObject *rgpy_env_info(rgpy_Env *self);
/** An action (int, sequence or array) as a C-contiguous int64 array (new reference) or NULL. */
PyArrayObject *rgpy_action_array(PyObject *action);

/** Environment options parsed from Env's arguments, with what keeps their pointers valid (the strings point into
 * the argument objects, which the caller keeps alive until the environment is created). */
typedef struct rgpy_env_opts {
    rg_env_options o;      /* log and log_user left unset */
    PyObject *items;       /* core option pairs */
    rg_core_option *copts;
    size_t n_copts;
    rg_integration_paths *dp;
    PyObject *log;         /* borrowed: the `log` argument, NULL when None */
    uint16_t *reset_seq;   /* reset_sequence's button masks (PyMem), NULL when none */
} rgpy_env_opts;
/** Parses Env's arguments (game, state=..., ..., log_level=...); 0, or -1 with an exception set. */
int rgpy_env_opts_parse(PyObject *args, PyObject *kwargs, rgpy_env_opts *out);
void rgpy_env_opts_release(rgpy_env_opts *p);
/** The system's button names (None for unused ids), and the action groups as lists of button masks. */
PyObject *rgpy_env_buttons(const rg_env *env);
PyObject *rgpy_env_button_combos(const rg_env *env);

/* ---- env_movie.c: recording movies (Env methods); movie_type.c: the Movie type ---- */

extern PyMethodDef rgpy_env_movie_methods[];
extern PyType_Spec rgpy_movie_spec;

/* ---- pool_type.c, pool_step.c, pool_batch.c, pool_attrs.c, pool_record.c: the Pool type (include/retrogym/pool.h;
 * their shared declarations are in pool.h) ---- */

extern PyType_Spec rgpy_pool_spec; /* its methods are added by module.c from the tables of pool.h */
extern PyMethodDef rgpy_pool_base_methods[];
extern PyMethodDef rgpy_pool_step_methods[];
extern PyMethodDef rgpy_pool_attr_methods[];
extern PyMethodDef rgpy_pool_record_methods[];

/* ---- emu_type.c: the Emu type (a standalone rg_emu); validate_funcs.c: the integration validators ---- */

extern PyType_Spec rgpy_emu_spec;
extern PyMethodDef rgpy_validate_methods[];
/* search_funcs.c: memory search (search_* module functions, docs/search.md) */
extern PyMethodDef rgpy_search_methods[];

/* ---- emu_access.c: an rg_emu's screen, RAM and state for Emu and Env (the caller checks it is usable) ---- */

/** The screen as a new (H, W, 3) uint8 array (rg_emu_screen_rgb24); RuntimeError(no_frame) before a frame. */
PyObject *rgpy_emu_screen(rg_emu *emu, const char *no_frame);
/** The screen as ALE's grayscale (rg_emu_screen_gray) into `out` (a C-contiguous (H, W) uint8 array; returned with a
 *  new reference) or, when out is NULL or None, a new (H, W) array. */
PyObject *rgpy_emu_screen_gray(rg_emu *emu, PyObject *out, const char *no_frame);
/** Every memory block, ascending by base, as a new uint8 array. */
PyObject *rgpy_emu_ram(rg_emu *emu);
/** The cartridge's backup RAM (rg_emu_save_ram) as a new uint8 array, empty when the game has none. */
PyObject *rgpy_emu_save_ram(rg_emu *emu);
/** Copies a bytes-like object of exactly the backup RAM's size into it: None, or ValueError (nothing written). */
PyObject *rgpy_emu_set_save_ram(rg_emu *emu, PyObject *src);
/** The core's raw serialized state as bytes; the core serializes without the GIL, with *busy set meanwhile (the
 * caller's busy flag). */
PyObject *rgpy_emu_get_state(rg_emu *emu, int *busy);
/** Loads a raw state (without the GIL, *busy set) and releases buf: True, or False when the core refuses it
 * (nothing changes then). */
PyObject *rgpy_emu_set_state(rg_emu *emu, int *busy, Py_buffer *buf);

/* Runs `stmt` without the GIL, with self marked busy; `msg` (a char[RGPY_MSG]) receives the error message when
 * rc != RG_OK, read on the same thread right after the call. */
#define RGPY_MSG 1024
#define RGPY_NOGIL(self, rc, msg, stmt) RGPY_NOGIL_FLAG((self)->busy, rc, msg, stmt)
/* The same with the busy flag named (an int lvalue). */
#define RGPY_NOGIL_FLAG(busy, rc, msg, stmt)                                                                       \
    do {                                                                                                           \
        (busy) = 1;                                                                                                \
        Py_BEGIN_ALLOW_THREADS                                                                                     \
        (rc) = (stmt);                                                                                             \
        if ((rc) != RG_OK)                                                                                         \
            snprintf((msg), RGPY_MSG, "%s", rg_error_last());                                                      \
        Py_END_ALLOW_THREADS                                                                                       \
        (busy) = 0;                                                                                                \
    } while (0)

/* common.c */
/** `bytes` (a new reference, stolen) cut to its first `len` bytes: itself when that is its size, else a copy (the
 * public API has no resize in place). NULL with an exception set on failure. */
PyObject *rgpy_bytes_trim(PyObject *bytes, size_t len);
/** Takes the GIL on a thread without an attached thread state (a callback from C code running without the GIL, on
 * the calling thread or a worker), for `interp`: PyGILState_Ensure for the main interpreter (which is all the
 * PyGILState API serves), a temporary thread state of its own for a subinterpreter. 0, or -1 when no thread state
 * could be made (the GIL is not taken then). rgpy_gil_leave undoes it. */
typedef struct rgpy_gil {
    PyGILState_STATE state;
    PyThreadState *own;
} rgpy_gil;
int rgpy_gil_enter(PyInterpreterState *interp, rgpy_gil *g);
void rgpy_gil_leave(rgpy_gil *g);
/** Calls log_fn(level, message) from any thread, with or without the GIL, in `interp` (the interpreter that made the
 * object logging: PyGILState_Ensure serves the main interpreter only, so a subinterpreter's messages are forwarded
 * on a thread state of its own). Exceptions of log_fn are dropped. */
void rgpy_forward_log(PyInterpreterState *interp, PyObject *log_fn, int log_on, rg_log_level level,
                      const char *message);
int rgpy_parse_seed(PyObject *seed, int *seeded, uint64_t *value);
/* A Python int given for an unsigned C option field: a negative value raises ValueError naming the option (it has no C
 * representation); a value over max is passed as max, for the C library to refuse against its own named limit (the
 * one validation of option limits is in C). */
int rgpy_unsigned_opt(long long v, const char *name, unsigned long long max, unsigned long long *out);
/** A dict of str to str (or None) as rg_core_option pairs: *items (a new list) keeps the strings alive, *opts is
 * PyMem memory; the caller frees both, also on failure. */
int rgpy_core_options(PyObject *obj, PyObject **items, rg_core_option **opts, size_t *n);

#endif

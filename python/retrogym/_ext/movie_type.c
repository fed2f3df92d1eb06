/* The Movie type: one rg_movie (include/retrogym/movie.h) with stable-retro's Movie methods (docs/formats.md,
 * "Movies"): Movie(path, record=False, players=1), step, get_key, set_key, get_state, set_state, players, get_game,
 * configure, close, plus a context manager and a few readers of our own. A movie being recorded is written by
 * close(), by the end of a `with` block, or when the object goes away (as stable-retro writes it at destruction). */
#include "ext.h"

#include <string.h>

typedef struct rgpy_Movie {
    PyObject_HEAD
    rg_movie *m;     /* NULL before __init__ */
    PyObject *path;  /* str */
} rgpy_Movie;

static int movie_ready(rgpy_Movie *self)
{
    if (!self->m) {
        PyErr_SetString(PyExc_RuntimeError, "the movie was not initialized");
        return -1;
    }
    return 0;
}

static int Movie_init(rgpy_Movie *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"path", "record", "players", NULL};
    PyObject *path_obj;
    int record = 0, players = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|pi", kw, PyUnicode_FSConverter, &path_obj, &record,
                                     &players))
        return -1;
    if (self->m) {
        Py_DECREF(path_obj);
        PyErr_SetString(PyExc_RuntimeError, "Movie.__init__ called twice");
        return -1;
    }
    const char *path = PyBytes_AS_STRING(path_obj);
    if (!record)
        players = 1;
    else if (players < 1 || players > RG_MOVIE_MAX_PLAYERS) {
        Py_DECREF(path_obj);
        PyErr_Format(PyExc_ValueError, "players must be 1..%d, not %d", RG_MOVIE_MAX_PLAYERS, players);
        return -1;
    }
    rg_movie *m = NULL;
    int rc = record ? rg_movie_open_write(&m, path, NULL, NULL, (unsigned)players) : rg_movie_open_read(&m, path);
    if (rc != RG_OK) {
        Py_DECREF(path_obj);
        rgpy_raise(rc);
        return -1;
    }
    self->m = m;
    self->path = PyUnicode_DecodeFSDefault(path);
    Py_DECREF(path_obj);
    return self->path ? 0 : -1;
}

/* Writing a movie nobody closed, at destruction: a failure can only be reported as a warning. */
static void Movie_dealloc(rgpy_Movie *self)
{
    if (self->m) {
        if (rg_movie_is_writing(self->m)) {
            rgpy_exc saved;
            RGPY_EXC_SAVE(saved);
            if (rg_movie_close(self->m) != RG_OK &&
                PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "a movie was not written: %s", rg_error_last()) < 0)
                PyErr_WriteUnraisable((PyObject *)self);
            RGPY_EXC_RESTORE(saved);
        }
        rg_movie_free(self->m);
    }
    Py_XDECREF(self->path);
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp); /* a heap type: each instance holds a reference to it */
}

static int check_player(rgpy_Movie *self, int player)
{
    if (player < 0 || (unsigned)player >= rg_movie_players(self->m)) {
        PyErr_Format(PyExc_ValueError, "player %d is out of range (the movie has %u)", player,
                     rg_movie_players(self->m));
        return -1;
    }
    return 0;
}

/* step() -> bool: reading, the next frame becomes current (False at the end); writing, the buttons set since the
 * last step become a frame. */
static PyObject *Movie_step(rgpy_Movie *self, PyObject *unused)
{
    (void)unused;
    if (movie_ready(self))
        return NULL;
    int rc = rg_movie_step(self->m);
    if (rc < 0)
        return rgpy_raise(rc);
    return PyBool_FromLong(rc == 1);
}

static PyObject *Movie_get_key(rgpy_Movie *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"button", "player", NULL};
    int button, player = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|i", kw, &button, &player) || movie_ready(self) ||
        check_player(self, player))
        return NULL;
    if (button < 0 || button >= RG_MAX_BUTTONS)
        return PyErr_Format(PyExc_ValueError, "button %d is out of range (0..%d)", button, RG_MAX_BUTTONS - 1);
    return PyBool_FromLong(rg_movie_get_key(self->m, (unsigned)button, (unsigned)player));
}

static PyObject *Movie_set_key(rgpy_Movie *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"button", "pressed", "player", NULL};
    int button, pressed, player = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ip|i", kw, &button, &pressed, &player) || movie_ready(self) ||
        check_player(self, player))
        return NULL;
    if (button < 0 || button >= RG_MAX_BUTTONS)
        return PyErr_Format(PyExc_ValueError, "button %d is out of range (0..%d)", button, RG_MAX_BUTTONS - 1);
    int rc = rg_movie_set_key(self->m, (unsigned)button, pressed, (unsigned)player);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* get_buttons(player=0) -> mask of the current frame (reading) or the next one (writing); bit i = button i */
static PyObject *Movie_get_buttons(rgpy_Movie *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"player", NULL};
    int player = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|i", kw, &player) || movie_ready(self) ||
        check_player(self, player))
        return NULL;
    return PyLong_FromUnsignedLong(rg_movie_buttons(self->m, (unsigned)player));
}

static PyObject *Movie_set_buttons(rgpy_Movie *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"mask", "player", NULL};
    unsigned long mask;
    int player = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "k|i", kw, &mask, &player) || movie_ready(self) ||
        check_player(self, player))
        return NULL;
    if (mask > 0xFFFF)
        return PyErr_Format(PyExc_ValueError, "a button mask has 16 bits, not 0x%lx", mask);
    int rc = rg_movie_set_buttons(self->m, (unsigned)player, (uint16_t)mask);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* frame_buttons(frame, player=0) -> mask of any frame, without moving the cursor */
static PyObject *Movie_frame_buttons(rgpy_Movie *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"frame", "player", NULL};
    unsigned long long frame;
    int player = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "K|i", kw, &frame, &player) || movie_ready(self) ||
        check_player(self, player))
        return NULL;
    uint16_t mask;
    int rc = rg_movie_frame_buttons(self->m, frame, (unsigned)player, &mask);
    if (rc != RG_OK)
        return rc == RG_ERANGE ? PyErr_Format(PyExc_IndexError, "the movie has no frame %llu", frame)
                               : rgpy_raise(rc);
    return PyLong_FromUnsignedLong(mask);
}

static PyObject *Movie_get_state(rgpy_Movie *self, PyObject *unused)
{
    (void)unused;
    if (movie_ready(self))
        return NULL;
    const uint8_t *data;
    size_t size;
    rg_movie_state(self->m, &data, &size);
    return PyBytes_FromStringAndSize(size ? (const char *)data : "", (Py_ssize_t)size);
}

static PyObject *Movie_set_state(rgpy_Movie *self, PyObject *arg)
{
    if (movie_ready(self))
        return NULL;
    Py_buffer buf;
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE) < 0)
        return NULL;
    int rc = rg_movie_set_state(self->m, buf.buf, (size_t)buf.len);
    PyBuffer_Release(&buf);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static PyObject *Movie_get_game(rgpy_Movie *self, PyObject *unused)
{
    (void)unused;
    if (movie_ready(self))
        return NULL;
    return PyUnicode_FromString(rg_movie_game(self->m));
}

/* The system name of configure's `emulator`: a str, or an object with a `system` attribute (RetroEnv), or one whose
 * `_c` has it (env.em). */
static PyObject *system_of(PyObject *obj)
{
    if (PyUnicode_Check(obj)) {
        Py_INCREF(obj);
        return obj;
    }
    PyObject *sys = PyObject_GetAttrString(obj, "system");
    if (!sys && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        PyObject *inner = PyObject_GetAttrString(obj, "_c");
        if (inner) {
            sys = PyObject_GetAttrString(inner, "system");
            Py_DECREF(inner);
        }
    }
    if (sys && !PyUnicode_Check(sys))
        Py_CLEAR(sys);
    if (!sys) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "configure(game, emulator): emulator must be a system name, an environment or "
                                      "its env.em, not %R",
                     obj);
    }
    return sys;
}

/* configure(game, emulator): the game name and the system of a movie being recorded, before its first frame */
static PyObject *Movie_configure(rgpy_Movie *self, PyObject *args)
{
    const char *game;
    PyObject *emulator;
    if (!PyArg_ParseTuple(args, "sO", &game, &emulator) || movie_ready(self))
        return NULL;
    PyObject *sys = system_of(emulator);
    if (!sys)
        return NULL;
    const char *name = PyUnicode_AsUTF8(sys);
    int rc = name ? rg_movie_configure(self->m, name, game) : RG_OK;
    Py_DECREF(sys);
    if (!name)
        return NULL;
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static PyObject *Movie_close(rgpy_Movie *self, PyObject *unused)
{
    (void)unused;
    if (movie_ready(self))
        return NULL;
    int rc = rg_movie_close(self->m);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static PyObject *Movie_save(rgpy_Movie *self, PyObject *args)
{
    PyObject *path_obj;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
        return NULL;
    if (movie_ready(self)) {
        Py_DECREF(path_obj);
        return NULL;
    }
    int rc = rg_movie_save(self->m, PyBytes_AS_STRING(path_obj));
    Py_DECREF(path_obj);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static PyObject *Movie_header(rgpy_Movie *self, PyObject *args)
{
    const char *key;
    if (!PyArg_ParseTuple(args, "s", &key) || movie_ready(self))
        return NULL;
    const char *v = rg_movie_header(self->m, key);
    if (!v)
        Py_RETURN_NONE;
    return PyUnicode_FromString(v);
}

static PyObject *Movie_enter(rgpy_Movie *self, PyObject *unused)
{
    (void)unused;
    if (movie_ready(self))
        return NULL;
    Py_INCREF(self);
    return (PyObject *)self;
}

/* A `with` block closes (writes) the movie, except when it ends with an exception: then a movie being recorded is
 * written anyway, but a failure to write does not hide the first exception. */
static PyObject *Movie_exit(rgpy_Movie *self, PyObject *args)
{
    PyObject *type = Py_None, *value = Py_None, *tb = Py_None;
    if (!PyArg_UnpackTuple(args, "__exit__", 0, 3, &type, &value, &tb) || movie_ready(self))
        return NULL;
    int rc = rg_movie_close(self->m);
    if (rc != RG_OK && type == Py_None)
        return rgpy_raise(rc);
    Py_RETURN_FALSE;
}

static PyObject *Movie_repr(rgpy_Movie *self)
{
    if (!self->m)
        return PyUnicode_FromString("<Movie (uninitialized)>");
    const rg_system_info *sys = rg_movie_system(self->m);
    return PyUnicode_FromFormat("<Movie %R %s %s, %u player(s), %llu frames%s>", self->path,
                                sys ? sys->name : "(no system)", rg_movie_game(self->m), rg_movie_players(self->m),
                                (unsigned long long)rg_movie_frame_count(self->m),
                                rg_movie_is_writing(self->m) ? ", recording" : "");
}

#define MOVIE_GETTER(name, expr)                                                                                   \
    static PyObject *Movie_get_##name(rgpy_Movie *self, void *closure)                                             \
    {                                                                                                              \
        (void)closure;                                                                                             \
        if (movie_ready(self))                                                                                     \
            return NULL;                                                                                           \
        rg_movie *m = self->m;                                                                                     \
        return (expr);                                                                                             \
    }

static PyObject *system_name(const rg_system_info *sys)
{
    if (!sys)
        Py_RETURN_NONE;
    return PyUnicode_FromString(sys->name);
}

MOVIE_GETTER(players, PyLong_FromUnsignedLong(rg_movie_players(m)))
MOVIE_GETTER(system, system_name(rg_movie_system(m)))
MOVIE_GETTER(frame_count, PyLong_FromUnsignedLongLong(rg_movie_frame_count(m)))
MOVIE_GETTER(position, PyLong_FromUnsignedLongLong(rg_movie_position(m)))
MOVIE_GETTER(recording, PyBool_FromLong(rg_movie_is_writing(m)))
MOVIE_GETTER(format, PyUnicode_FromString(rg_movie_format_of(m) == RG_MOVIE_FM2 ? "fm2" : "bk2"))

static PyObject *Movie_get_path(rgpy_Movie *self, void *closure)
{
    (void)closure;
    if (movie_ready(self))
        return NULL;
    Py_INCREF(self->path);
    return self->path;
}

static PyGetSetDef Movie_getset[] = {
    {"players", (getter)Movie_get_players, NULL, "number of players", NULL},
    {"system", (getter)Movie_get_system, NULL, "system name (\"Nes\"); None while a recording is not configured",
     NULL},
    {"frame_count", (getter)Movie_get_frame_count, NULL, "frames: all of them when reading, so far when recording",
     NULL},
    {"position", (getter)Movie_get_position, NULL, "frames stepped over so far", NULL},
    {"recording", (getter)Movie_get_recording, NULL, "True for a movie opened with record=True", NULL},
    {"format", (getter)Movie_get_format, NULL, "\"bk2\" or \"fm2\" (the file read)", NULL},
    {"path", (getter)Movie_get_path, NULL, "the file", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

#define KW METH_VARARGS | METH_KEYWORDS
#define CF(f) (PyCFunction)(void (*)(void))(f)

static PyMethodDef Movie_methods[] = {
    {"step", (PyCFunction)Movie_step, METH_NOARGS,
     "step() -> bool: reading, makes the next frame current (False at the end); recording, appends a frame with "
     "the buttons set since the last step"},
    {"get_key", CF(Movie_get_key), KW, "get_key(button, player=0) -> bool: button (joypad id) pressed"},
    {"set_key", CF(Movie_set_key), KW, "set_key(button, pressed, player=0)"},
    {"get_buttons", CF(Movie_get_buttons), KW, "get_buttons(player=0) -> mask (bit i = button i)"},
    {"set_buttons", CF(Movie_set_buttons), KW, "set_buttons(mask, player=0)"},
    {"frame_buttons", CF(Movie_frame_buttons), KW, "frame_buttons(frame, player=0) -> mask of any frame"},
    {"get_state", (PyCFunction)Movie_get_state, METH_NOARGS,
     "get_state() -> bytes: the start state (Core.bin, the core's raw state); b'' for a power-on start"},
    {"set_state", (PyCFunction)Movie_set_state, METH_O, "set_state(bytes): the start state written with the movie"},
    {"get_game", (PyCFunction)Movie_get_game, METH_NOARGS, "get_game() -> the game name (\"\" when none)"},
    {"configure", (PyCFunction)Movie_configure, METH_VARARGS,
     "configure(game, emulator): game name and system of a movie being recorded (emulator: an environment, its "
     "env.em, or a system name)"},
    {"close", (PyCFunction)Movie_close, METH_NOARGS, "close(): writes a movie being recorded; idempotent"},
    {"save", (PyCFunction)Movie_save, METH_VARARGS, "save(path): writes the movie as it is now as a .bk2"},
    {"header", (PyCFunction)Movie_header, METH_VARARGS, "header(key) -> a Header.txt value or None"},
    {"__enter__", (PyCFunction)Movie_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)Movie_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyType_Slot Movie_slots[] = {
    {Py_tp_doc, "Movie(path, record=False, players=1): a replay in stable-retro's .bk2 format (also reads BizHawk .bk2 "
                "and FCEUX .fm2). Reading: step() through the frames and get_key() their buttons. Recording: "
                "configure(game, env), set_state(), set_key() then step() per frame, close() writes the file."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, Movie_init},
    {Py_tp_dealloc, Movie_dealloc},
    {Py_tp_repr, Movie_repr},
    {Py_tp_methods, Movie_methods},
    {Py_tp_getset, Movie_getset},
    {0, NULL}};

PyType_Spec rgpy_movie_spec = {"retrogym._retrogym.Movie", sizeof(rgpy_Movie), 0, RGPY_TPFLAGS, Movie_slots};

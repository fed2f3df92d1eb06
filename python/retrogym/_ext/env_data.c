/* The game's data behind an Env: data.json variables and custom variables (env.data[...]), the scenario's reward
 * and done, memory and RAM, the full screen, the start state, clone/restore of the whole environment, and the raw
 * emulator (Gym Retro's env.em). */
#include "ext.h"

#include <math.h>
#include <stdlib.h>

/* A custom variable's value as Python sees it: bool, int when integral, else float, None for nil. */
static PyObject *value_to_py(rg_value v)
{
    switch (v.kind) {
    case RG_VALUE_BOOL: return PyBool_FromLong(v.number != 0.0);
    case RG_VALUE_NUMBER:
        if (isfinite(v.number) && v.number == floor(v.number) && fabs(v.number) < 9.0e15)
            return PyLong_FromLongLong((long long)v.number);
        return PyFloat_FromDouble(v.number);
    default: Py_RETURN_NONE;
    }
}

/* lookup_value(name): a data.json variable's value, else a custom variable's; KeyError(name) when neither. */
static PyObject *Env_lookup_value(rgpy_Env *self, PyObject *args)
{
    const char *name;
    if (!PyArg_ParseTuple(args, "s", &name) || rgpy_env_usable(self))
        return NULL;
    rg_gamedata *gd = rg_env_gamedata(self->env);
    int64_t value;
    int rc = rg_gamedata_get(gd, name, &value);
    if (rc == RG_OK)
        return PyLong_FromLongLong(value);
    if (rc != RG_ENOTFOUND)
        return rgpy_raise(rc);
    rg_value cv;
    if (rg_gamedata_custom_get(gd, name, &cv) == RG_OK)
        return value_to_py(cv);
    PyObject *key = PyUnicode_FromString(name);
    if (key) {
        PyErr_SetObject(PyExc_KeyError, key);
        Py_DECREF(key);
    }
    return NULL;
}

/* set_value(name, value): writes a data.json variable into memory, or sets a custom variable (until reset). */
static PyObject *Env_set_value(rgpy_Env *self, PyObject *args)
{
    const char *name;
    PyObject *value;
    if (!PyArg_ParseTuple(args, "sO", &name, &value) || rgpy_env_usable(self))
        return NULL;
    rg_gamedata *gd = rg_env_gamedata(self->env);
    rg_variable var;
    int rc;
    if (rg_gamedata_find_variable(gd, name, &var) == RG_OK) {
        if (PyFloat_Check(value))
            value = PyNumber_Long(value); /* int(value), as Gym Retro's int conversion does */
        else if (PyIndex_Check(value))
            value = PyNumber_Index(value);
        else
            return PyErr_Format(PyExc_TypeError, "variable %s takes an int, not %.100s", name, Py_TYPE(value)->tp_name);
        if (!value)
            return NULL;
        long long v = PyLong_AsLongLong(value);
        Py_DECREF(value);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        rc = rg_gamedata_set(gd, name, (int64_t)v);
    } else {
        rg_value cv = {RG_VALUE_NUMBER, 0.0};
        if (value == Py_None) {
            cv.kind = RG_VALUE_NIL;
        } else if (PyBool_Check(value)) {
            cv.kind = RG_VALUE_BOOL;
            cv.number = value == Py_True;
        } else if (PyFloat_Check(value) || PyIndex_Check(value)) {
            cv.number = PyFloat_AsDouble(value);
            if (cv.number == -1.0 && PyErr_Occurred())
                return NULL;
        } else {
            return PyErr_Format(PyExc_TypeError, "custom variable %s takes a number, bool or None, not %.100s", name,
                                Py_TYPE(value)->tp_name);
        }
        rc = rg_gamedata_custom_set(gd, name, cv);
    }
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* delta(name): the variable's change between the last two updates. */
static PyObject *Env_delta(rgpy_Env *self, PyObject *args)
{
    const char *name;
    if (!PyArg_ParseTuple(args, "s", &name) || rgpy_env_usable(self))
        return NULL;
    int64_t d;
    int rc = rg_gamedata_delta(rg_env_gamedata(self->env), name, &d);
    if (rc == RG_ENOTFOUND) {
        PyObject *key = PyUnicode_FromString(name);
        if (key) {
            PyErr_SetObject(PyExc_KeyError, key);
            Py_DECREF(key);
        }
        return NULL;
    }
    return rc == RG_OK ? PyLong_FromLongLong(d) : rgpy_raise(rc);
}

/* variables() -> {name: {"address": int, "type": str[, "mask": int]}} of data.json */
static PyObject *Env_variables(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    rg_gamedata *gd = rg_env_gamedata(self->env);
    PyObject *out = PyDict_New();
    size_t n = rg_gamedata_variable_count(gd);
    for (size_t i = 0; out && i < n; i++) {
        rg_variable v;
        if (rg_gamedata_variable_at(gd, i, &v) != RG_OK)
            continue;
        PyObject *d = v.mask == RG_MASK_ALL
                          ? Py_BuildValue("{s:K,s:s}", "address", (unsigned long long)v.address, "type", v.type.repr)
                          : Py_BuildValue("{s:K,s:s,s:K}", "address", (unsigned long long)v.address, "type",
                                          v.type.repr, "mask", (unsigned long long)v.mask);
        if (!d || PyDict_SetItemString(out, v.name, d))
            Py_CLEAR(out);
        Py_XDECREF(d);
    }
    return out;
}

/* set_variable(name, address, type, mask=None), remove_variable(name): edit the data.json variables in memory. */
static PyObject *Env_set_variable(rgpy_Env *self, PyObject *args)
{
    const char *name, *type;
    unsigned long long address;
    PyObject *mask = Py_None;
    if (!PyArg_ParseTuple(args, "sKs|O", &name, &address, &type, &mask) || rgpy_env_usable(self))
        return NULL;
    uint64_t m = RG_MASK_ALL;
    if (mask != Py_None) {
        m = PyLong_AsUnsignedLongLongMask(mask);
        if (m == (uint64_t)-1 && PyErr_Occurred())
            return NULL;
    }
    int rc = rg_gamedata_set_variable(rg_env_gamedata(self->env), name, address, type, m);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static PyObject *Env_remove_variable(rgpy_Env *self, PyObject *args)
{
    const char *name;
    if (!PyArg_ParseTuple(args, "s", &name) || rgpy_env_usable(self))
        return NULL;
    int rc = rg_gamedata_remove_variable(rg_env_gamedata(self->env), name);
    if (rc == RG_ENOTFOUND) {
        PyObject *key = PyUnicode_FromString(name);
        if (key) {
            PyErr_SetObject(PyExc_KeyError, key);
            Py_DECREF(key);
        }
        return NULL;
    }
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static int player_arg(PyObject *args, unsigned *player)
{
    int p = 0;
    if (!PyArg_ParseTuple(args, "|i", &p))
        return -1;
    if (p < 0 || p >= RG_SCENARIO_MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "player %d is not in 0..%d", p, RG_SCENARIO_MAX_PLAYERS - 1);
        return -1;
    }
    *player = (unsigned)p;
    return 0;
}

static PyObject *Env_current_reward(rgpy_Env *self, PyObject *args)
{
    unsigned p;
    if (player_arg(args, &p) || rgpy_env_usable(self))
        return NULL;
    return PyFloat_FromDouble(rg_scenario_reward(rg_env_scenario(self->env), p));
}

static PyObject *Env_total_reward(rgpy_Env *self, PyObject *args)
{
    unsigned p;
    if (player_arg(args, &p) || rgpy_env_usable(self))
        return NULL;
    return PyFloat_FromDouble(rg_scenario_total_reward(rg_env_scenario(self->env), p));
}

static PyObject *Env_is_done(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    return PyBool_FromLong(rg_scenario_done(rg_env_scenario(self->env)));
}

static PyObject *Env_crop_info(rgpy_Env *self, PyObject *args)
{
    unsigned p, c[4];
    if (player_arg(args, &p) || rgpy_env_usable(self))
        return NULL;
    rg_scenario_crop(rg_env_scenario(self->env), p, c);
    return Py_BuildValue("(IIII)", c[0], c[1], c[2], c[3]);
}

/* filter_action(mask) -> the mask FILTERED keeps (Gym Retro's data.filter_action). */
static PyObject *Env_filter_action(rgpy_Env *self, PyObject *arg)
{
    if (rgpy_env_usable(self))
        return NULL;
    unsigned long v = PyLong_AsUnsignedLongMask(arg);
    if (v == (unsigned long)-1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromUnsignedLong(rg_actionset_filter(rg_env_actionset(self->env), (uint32_t)v));
}

/* scenario_reset(), update_ram(): Gym Retro's data.reset() and data.update_ram() (one scenario update). */
static PyObject *Env_scenario_reset(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    int rc = rg_scenario_reset(rg_env_scenario(self->env), rg_env_gamedata(self->env));
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

static PyObject *Env_update_ram(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    int rc = rg_scenario_update(rg_env_scenario(self->env), rg_env_gamedata(self->env));
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* ---- memory ---- */

/* read_memory(address, length) -> bytes, as the emulated CPU sees them; IndexError where nothing is mapped. */
static PyObject *Env_read_memory(rgpy_Env *self, PyObject *args)
{
    unsigned long long addr;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "Kn", &addr, &len) || rgpy_env_usable(self))
        return NULL;
    if (len < 0)
        return PyErr_Format(PyExc_ValueError, "length %zd is negative", len);
    PyObject *out = PyBytes_FromStringAndSize(NULL, len);
    if (!out)
        return NULL;
    int rc = rg_emu_mem_read(rg_env_emu(self->env), addr, PyBytes_AS_STRING(out), (size_t)len);
    if (rc != RG_OK) {
        Py_DECREF(out);
        if (rc == RG_ERANGE)
            return PyErr_Format(PyExc_IndexError, "%s", rg_error_last());
        return rgpy_raise(rc);
    }
    return out;
}

static PyObject *Env_write_memory(rgpy_Env *self, PyObject *args)
{
    unsigned long long addr;
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "Ky*", &addr, &buf))
        return NULL;
    if (rgpy_env_usable(self)) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    int rc = rg_emu_mem_write(rg_env_emu(self->env), addr, buf.buf, (size_t)buf.len);
    PyBuffer_Release(&buf);
    if (rc == RG_ERANGE)
        return PyErr_Format(PyExc_IndexError, "%s", rg_error_last());
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* memory_blocks() -> {base address: bytes} (copies), Gym Retro's data.memory.blocks. */
static PyObject *Env_memory_blocks(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    const rg_mem_block *blocks;
    size_t n;
    int rc = rg_emu_mem_blocks(rg_env_emu(self->env), &blocks, &n);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    PyObject *out = PyDict_New();
    for (size_t i = 0; out && i < n; i++) {
        PyObject *k = PyLong_FromUnsignedLongLong(blocks[i].base);
        PyObject *v = PyBytes_FromStringAndSize((const char *)blocks[i].data, (Py_ssize_t)blocks[i].size);
        if (!k || !v || PyDict_SetItem(out, k, v))
            Py_CLEAR(out);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    return out;
}

/* get_ram() -> uint8 array of every memory block, ascending by address (a new array). */
static PyObject *Env_get_ram(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    return rgpy_emu_ram(rg_env_emu(self->env));
}

/* get_screen() -> the whole screen, uncropped, as a new (H, W, 3) uint8 array (rg_emu_screen_rgb24: the size
 * stable-retro observes, fixed for the env's life). */
static PyObject *Env_get_screen(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    return rgpy_emu_screen(rg_env_emu(self->env), "the core has not produced a frame yet");
}

/* get_screen_gray(out=None) -> the screen of get_screen() as ALE's grayscale, (H, W) uint8, written into `out` when
 * given (ale_py's getScreenGrayscale). */
static PyObject *Env_get_screen_gray(rgpy_Env *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"out", NULL};
    PyObject *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:get_screen_gray", kw, &out))
        return NULL;
    if (rgpy_env_usable(self))
        return NULL;
    return rgpy_emu_screen_gray(rg_env_emu(self->env), out, "the core has not produced a frame yet");
}

/* ---- states ---- */

/* clone_state() -> bytes: a snapshot of the whole environment (emulator, scenario, random generator, step count). */
static PyObject *Env_clone_state(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    size_t size = 0, written = 0;
    int rc = rg_env_clone_size(self->env, &size);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out)
        return NULL;
    char msg[RGPY_MSG] = "";
    char *dst = PyBytes_AS_STRING(out);
    RGPY_NOGIL(self, rc, msg, rg_env_clone(self->env, dst, size, &written));
    if (rc != RG_OK) {
        Py_DECREF(out);
        return rgpy_raise_msg(rc, msg);
    }
    return rgpy_bytes_trim(out, written);
}

/* restore_state(snapshot): puts the environment back where clone_state() was taken. */
static PyObject *Env_restore_state(rgpy_Env *self, PyObject *args)
{
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf))
        return NULL;
    if (rgpy_env_usable(self)) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    int rc;
    char msg[RGPY_MSG] = "";
    const void *src = buf.buf;
    size_t len = (size_t)buf.len;
    RGPY_NOGIL(self, rc, msg, rg_env_restore(self->env, src, len));
    PyBuffer_Release(&buf);
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

/* set_start_state(name): the start state of later resets ("" for power-on). */
static PyObject *Env_set_start_state(rgpy_Env *self, PyObject *args)
{
    const char *state;
    if (!PyArg_ParseTuple(args, "s", &state) || rgpy_env_usable(self))
        return NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    RGPY_NOGIL(self, rc, msg, rg_env_set_start_state(self->env, state));
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

/* ---- the emulator itself (Gym Retro's env.em) ---- */

/* emu_get_state() -> bytes: the core's raw serialized state (not gzip). */
static PyObject *Env_emu_get_state(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    return rgpy_emu_get_state(rg_env_emu(self->env), &self->busy);
}

/* emu_set_state(bytes) -> bool (False when the core refuses it, as Gym Retro's em.set_state). */
static PyObject *Env_emu_set_state(rgpy_Env *self, PyObject *args)
{
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf))
        return NULL;
    if (rgpy_env_usable(self)) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    return rgpy_emu_set_state(rg_env_emu(self->env), &self->busy, &buf);
}

/* emu_get_save_ram() -> the cartridge's backup RAM as a new uint8 array (empty when the game has none). */
static PyObject *Env_emu_get_save_ram(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    return rgpy_emu_save_ram(rg_env_emu(self->env));
}

/* emu_set_save_ram(data): the backup RAM's bytes, exactly its size (ValueError otherwise, nothing written). */
static PyObject *Env_emu_set_save_ram(rgpy_Env *self, PyObject *arg)
{
    if (rgpy_env_usable(self))
        return NULL;
    return rgpy_emu_set_save_ram(rg_env_emu(self->env), arg);
}

/* emu_step(): one frame with the buttons held (no scenario update). */
static PyObject *Env_emu_step(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    rg_emu *emu = rg_env_emu(self->env);
    RGPY_NOGIL(self, rc, msg, rg_emu_run(emu));
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

/* emu_set_buttons(mask, player=0) */
static PyObject *Env_emu_set_buttons(rgpy_Env *self, PyObject *args)
{
    unsigned long mask;
    int player = 0;
    if (!PyArg_ParseTuple(args, "k|i", &mask, &player) || rgpy_env_usable(self))
        return NULL;
    if (player < 0 || player >= RG_MAX_PORTS || mask > 0xFFFF)
        return PyErr_Format(PyExc_ValueError, "player must be 0..%d and the mask 16 bits", RG_MAX_PORTS - 1);
    int rc = rg_emu_set_buttons(rg_env_emu(self->env), (unsigned)player, (uint16_t)mask);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* emu_info() -> {"fps", "sample_rate", "resolution": (w, h), "frame": frames run since load} */
static PyObject *Env_emu_info(rgpy_Env *self, PyObject *unused)
{
    (void)unused;
    if (rgpy_env_usable(self))
        return NULL;
    rg_emu *emu = rg_env_emu(self->env);
    unsigned w = 0, h = 0; /* the screen's size (fixed at load, as stable-retro's get_resolution) */
    if (rg_emu_screen_size(emu, &w, &h) != RG_OK)
        w = h = 0;
    return Py_BuildValue("{s:d,s:d,s:(II),s:K}", "fps", rg_emu_fps(emu), "sample_rate", rg_emu_sample_rate(emu),
                         "resolution", w, h, "frame", (unsigned long long)rg_emu_frame_count(emu));
}

PyMethodDef rgpy_env_data_methods[] = {
    {"lookup_value", (PyCFunction)Env_lookup_value, METH_VARARGS, "lookup_value(name) -> value (KeyError if none)"},
    {"set_value", (PyCFunction)Env_set_value, METH_VARARGS, "set_value(name, value): memory or custom variable"},
    {"delta", (PyCFunction)Env_delta, METH_VARARGS, "delta(name) -> change between the last two updates"},
    {"variables", (PyCFunction)Env_variables, METH_NOARGS, "variables() -> data.json variables"},
    {"set_variable", (PyCFunction)Env_set_variable, METH_VARARGS, "set_variable(name, address, type, mask=None)"},
    {"remove_variable", (PyCFunction)Env_remove_variable, METH_VARARGS, "remove_variable(name)"},
    {"current_reward", (PyCFunction)Env_current_reward, METH_VARARGS, "current_reward(player=0) -> last reward"},
    {"total_reward", (PyCFunction)Env_total_reward, METH_VARARGS, "total_reward(player=0) -> reward since reset"},
    {"is_done", (PyCFunction)Env_is_done, METH_NOARGS, "is_done() -> the scenario's done flag"},
    {"crop_info", (PyCFunction)Env_crop_info, METH_VARARGS, "crop_info(player=0) -> (x, y, w, h)"},
    {"filter_action", (PyCFunction)Env_filter_action, METH_O, "filter_action(mask) -> mask FILTERED keeps"},
    {"scenario_reset", (PyCFunction)Env_scenario_reset, METH_NOARGS, "scenario_reset(): rewards and scripts anew"},
    {"update_ram", (PyCFunction)Env_update_ram, METH_NOARGS, "update_ram(): one scenario update (reward, done)"},
    {"read_memory", (PyCFunction)Env_read_memory, METH_VARARGS, "read_memory(address, length) -> bytes"},
    {"write_memory", (PyCFunction)Env_write_memory, METH_VARARGS, "write_memory(address, data)"},
    {"memory_blocks", (PyCFunction)Env_memory_blocks, METH_NOARGS, "memory_blocks() -> {base: bytes}"},
    {"get_ram", (PyCFunction)Env_get_ram, METH_NOARGS, "get_ram() -> uint8 array of all memory blocks"},
    {"get_screen", (PyCFunction)Env_get_screen, METH_NOARGS, "get_screen() -> whole frame (H, W, 3) uint8"},
    {"get_screen_gray", (PyCFunction)(void (*)(void))Env_get_screen_gray, METH_VARARGS | METH_KEYWORDS,
     "get_screen_gray(out=None) -> whole frame as ALE's grayscale (H, W) uint8, into out when given"},
    {"clone_state", (PyCFunction)Env_clone_state, METH_NOARGS, "clone_state() -> bytes of the whole environment"},
    {"restore_state", (PyCFunction)Env_restore_state, METH_VARARGS, "restore_state(snapshot)"},
    {"set_start_state", (PyCFunction)Env_set_start_state, METH_VARARGS, "set_start_state(name or path, '' = none)"},
    {"emu_get_state", (PyCFunction)Env_emu_get_state, METH_NOARGS, "emu_get_state() -> raw core state"},
    {"emu_set_state", (PyCFunction)Env_emu_set_state, METH_VARARGS, "emu_set_state(bytes) -> bool"},
    {"emu_get_save_ram", (PyCFunction)Env_emu_get_save_ram, METH_NOARGS, "emu_get_save_ram() -> backup RAM (uint8)"},
    {"emu_set_save_ram", (PyCFunction)Env_emu_set_save_ram, METH_O, "emu_set_save_ram(data): backup RAM, its size"},
    {"emu_step", (PyCFunction)Env_emu_step, METH_NOARGS, "emu_step(): one frame, no scenario update"},
    {"emu_set_buttons", (PyCFunction)Env_emu_set_buttons, METH_VARARGS, "emu_set_buttons(mask, player=0)"},
    {"emu_info", (PyCFunction)Env_emu_info, METH_NOARGS, "emu_info() -> fps, sample rate, resolution, frame"},
    {NULL, NULL, 0, NULL}};

/* The Emu type: one rg_emu (include/retrogym/emu.h) on its own, for stable-retro's `RetroEmulator(rom_path)`
 * (python/retrogym/emulator.py). Any number may live in one process. Frames run without the GIL. */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

typedef struct rgpy_Emu {
    PyObject_HEAD
    rg_emu *emu;  /* NULL once closed */
    int busy;     /* a frame is running without the GIL */
} rgpy_Emu;

static int emu_usable(rgpy_Emu *self)
{
    if (!self->emu) {
        PyErr_SetString(PyExc_RuntimeError, "the emulator is closed");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the emulator is in use by another thread");
        return -1;
    }
    return 0;
}

static int Emu_init(rgpy_Emu *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"rom", "core", NULL};
    PyObject *rom_obj;
    const char *core = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|z", kw, PyUnicode_FSConverter, &rom_obj, &core))
        return -1;
    if (self->emu) {
        Py_DECREF(rom_obj);
        PyErr_SetString(PyExc_RuntimeError, "Emu.__init__ called twice");
        return -1;
    }
    rg_emu_options eo = RG_EMU_OPTIONS_INIT;
    eo.core = core;
    eo.capture_audio = 1; /* stable-retro's get_audio() */
    rg_emu *emu = NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    const char *rom = PyBytes_AS_STRING(rom_obj);
    RGPY_NOGIL(self, rc, msg, rg_emu_open(&emu, rom, &eo));
    Py_DECREF(rom_obj);
    if (rc != RG_OK) {
        rgpy_raise_msg(rc, msg);
        return -1;
    }
    self->emu = emu;
    return 0;
}

static void emu_release(rgpy_Emu *self)
{
    rg_emu *emu = self->emu;
    self->emu = NULL;
    if (!emu)
        return;
    Py_BEGIN_ALLOW_THREADS
    rg_emu_free(emu);
    Py_END_ALLOW_THREADS
}

static void Emu_dealloc(rgpy_Emu *self)
{
    emu_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Emu_close(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot close the emulator while another thread is using it");
        return NULL;
    }
    emu_release(self);
    Py_RETURN_NONE;
}

/* run(): one frame with the buttons held. */
static PyObject *Emu_run(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    rg_emu *emu = self->emu;
    RGPY_NOGIL(self, rc, msg, rg_emu_run(emu));
    if (rc != RG_OK)
        return rgpy_raise_msg(rc, msg);
    Py_RETURN_NONE;
}

/* set_buttons(mask, port): bit i = joypad id i. */
static PyObject *Emu_set_buttons(rgpy_Emu *self, PyObject *args)
{
    unsigned long mask;
    unsigned port;
    if (!PyArg_ParseTuple(args, "kI", &mask, &port) || emu_usable(self))
        return NULL;
    if (mask > 0xffff)
        return PyErr_Format(PyExc_ValueError, "a button mask has 16 bits, not %lu", mask);
    int rc = rg_emu_set_buttons(self->emu, port, (uint16_t)mask);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    Py_RETURN_NONE;
}

/* screen() -> the last frame as a new (H, W, 3) uint8 array, read at the screen's size as stable-retro reads it
 * (rg_emu_screen_rgb24). */
static PyObject *Emu_screen(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    return rgpy_emu_screen(self->emu, "the core has not produced a frame yet (call step() first)");
}

/* resolution() -> (width, height) of the screen (rg_emu_screen_size: fixed at load, as stable-retro's); (0, 0)
 * before the first frame of a core that reports no geometry. */
static PyObject *Emu_resolution(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    unsigned w = 0, h = 0;
    int rc = rg_emu_screen_size(self->emu, &w, &h);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    return Py_BuildValue("(II)", w, h);
}

/* ram() -> every memory block, ascending by base, as a new uint8 array. */
static PyObject *Emu_ram(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    return rgpy_emu_ram(self->emu);
}

/* get_state() -> the core's raw serialized state as bytes. */
static PyObject *Emu_get_state(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    return rgpy_emu_get_state(self->emu);
}

/* set_state(bytes) -> True, or False when the core refuses the state (nothing changes then). */
static PyObject *Emu_set_state(rgpy_Emu *self, PyObject *arg)
{
    Py_buffer buf;
    if (emu_usable(self) || PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE))
        return NULL;
    return rgpy_emu_set_state(self->emu, &buf);
}

/* audio() -> the last frame's audio as a new (frames, 2) int16 array. */
static PyObject *Emu_audio(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    const int16_t *samples = NULL;
    size_t frames = 0;
    int rc = rg_emu_audio(self->emu, &samples, &frames);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    npy_intp dims[2] = {(npy_intp)frames, 2};
    PyArrayObject *out = (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_INT16);
    if (!out)
        return NULL;
    if (frames)
        memcpy(PyArray_DATA(out), samples, frames * 2 * sizeof *samples);
    return (PyObject *)out;
}

/* info() -> dict: system, core, fps, sample_rate, frame. */
static PyObject *Emu_info(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    const char *core = rg_emu_core_name(self->emu);
    return Py_BuildValue("{s:s,s:s,s:d,s:d,s:K}", "system", rg_emu_system(self->emu)->name, "core", core ? core : "",
                         "fps", rg_emu_fps(self->emu), "sample_rate", rg_emu_sample_rate(self->emu), "frame",
                         (unsigned long long)rg_emu_frame_count(self->emu));
}

static PyObject *Emu_get_closed(rgpy_Emu *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->emu == NULL);
}

static PyMethodDef Emu_methods[] = {
    {"close", (PyCFunction)Emu_close, METH_NOARGS, "close() unloads the game and the core; idempotent"},
    {"run", (PyCFunction)Emu_run, METH_NOARGS, "run() runs one frame"},
    {"set_buttons", (PyCFunction)Emu_set_buttons, METH_VARARGS, "set_buttons(mask, port): bit i = joypad id i"},
    {"screen", (PyCFunction)Emu_screen, METH_NOARGS, "screen() -> (H, W, 3) uint8 array of the last frame"},
    {"resolution", (PyCFunction)Emu_resolution, METH_NOARGS, "resolution() -> (width, height) of the last frame"},
    {"ram", (PyCFunction)Emu_ram, METH_NOARGS, "ram() -> every memory block, concatenated"},
    {"get_state", (PyCFunction)Emu_get_state, METH_NOARGS, "get_state() -> raw core state (bytes)"},
    {"set_state", (PyCFunction)Emu_set_state, METH_O, "set_state(bytes) -> False when the core refuses it"},
    {"audio", (PyCFunction)Emu_audio, METH_NOARGS, "audio() -> (frames, 2) int16 array of the last frame"},
    {"info", (PyCFunction)Emu_info, METH_NOARGS, "info() -> dict of system, core, fps, sample_rate, frame"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Emu_getset[] = {{"closed", (getter)Emu_get_closed, NULL, "whether close() was called", NULL},
                                   {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject rgpy_EmuType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "retrogym._retrogym.Emu",
    .tp_doc = "Emu(rom, core=None): one emulator instance (rg_emu). Use retrogym.RetroEmulator instead.",
    .tp_basicsize = sizeof(rgpy_Emu),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Emu_init,
    .tp_dealloc = (destructor)Emu_dealloc,
    .tp_methods = Emu_methods,
    .tp_getset = Emu_getset,
};

/* The Emu type: one rg_emu (include/retrogym/emu.h) on its own, for stable-retro's `RetroEmulator(rom_path)`
 * (python/retrogym/emulator.py). Any number may live in one process. Frames run without the GIL. */
#include "ext.h"

#include <stdlib.h>
#include <string.h>

typedef struct rgpy_Emu {
    PyObject_HEAD
    rg_emu *emu;    /* NULL once closed */
    int busy;       /* a frame is running without the GIL */
    Py_ssize_t views; /* live ram_view() arrays (each holds a reference to this object) */
    rg_emu *doomed; /* closed while views were alive: freed when the last view goes */
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
    static char *kw[] = {"rom", "core", "core_options", "capture_audio", NULL};
    PyObject *rom_obj, *copts_obj = NULL, *items = NULL;
    const char *core = NULL;
    int capture_audio = 1; /* stable-retro's get_audio() */
    rg_core_option *copts = NULL;
    size_t n_copts = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|zOp", kw, PyUnicode_FSConverter, &rom_obj, &core, &copts_obj,
                                     &capture_audio))
        return -1;
    if (self->emu || self->doomed) {
        Py_DECREF(rom_obj);
        PyErr_SetString(PyExc_RuntimeError, "Emu.__init__ called twice");
        return -1;
    }
    if (rgpy_core_options(copts_obj, &items, &copts, &n_copts)) {
        Py_XDECREF(items);
        PyMem_Free(copts);
        Py_DECREF(rom_obj);
        return -1;
    }
    rg_emu_options eo = RG_EMU_OPTIONS_INIT;
    eo.core = core;
    eo.core_options = copts;
    eo.n_core_options = n_copts;
    eo.capture_audio = capture_audio;
    rg_emu *emu = NULL;
    int rc;
    char msg[RGPY_MSG] = "";
    const char *rom = PyBytes_AS_STRING(rom_obj);
    RGPY_NOGIL(self, rc, msg, rg_emu_open(&emu, rom, &eo));
    Py_DECREF(rom_obj);
    Py_XDECREF(items);
    PyMem_Free(copts);
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
    if (self->views > 0) { /* ram_view() arrays still point into the core: free it when the last one goes */
        self->doomed = emu;
        return;
    }
    Py_BEGIN_ALLOW_THREADS
    rg_emu_free(emu);
    Py_END_ALLOW_THREADS
}

static void Emu_dealloc(rgpy_Emu *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    emu_release(self); /* no view is alive here: each holds a reference */
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp); /* a heap type: each instance holds a reference to it */
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

/* ram_view(address, size): a writable uint8 array over the core's own memory, no copy. The capsule that is the
 * array's base holds a reference to the Emu and counts the view; close() while views live defers the unload to the
 * last view's end, so a view never points into freed memory (after close() it reads the unloaded core's last
 * values). */
static void emu_view_gone(PyObject *capsule)
{
    rgpy_Emu *self = PyCapsule_GetContext(capsule);
    if (--self->views == 0 && self->doomed) {
        rg_emu *emu = self->doomed;
        self->doomed = NULL;
        rg_emu_free(emu);
    }
    Py_DECREF(self);
}

static PyObject *Emu_ram_view(rgpy_Emu *self, PyObject *args)
{
    unsigned long long addr;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "Kn", &addr, &size) || emu_usable(self))
        return NULL;
    const rg_mem_block *blocks = NULL;
    size_t count = 0;
    int rc = rg_emu_mem_blocks(self->emu, &blocks, &count);
    if (rc != RG_OK)
        return rgpy_raise(rc);
    /* the block holding addr, and the run of following blocks that continue it both in addresses and in the
     * core's memory (a core may describe one RAM array as several map entries) */
    size_t i = 0;
    while (i < count && !(addr >= blocks[i].base && addr - blocks[i].base < blocks[i].size))
        i++;
    uint8_t *data = i < count && blocks[i].data ? blocks[i].data + (addr - blocks[i].base) : NULL;
    size_t avail = data ? blocks[i].size - (size_t)(addr - blocks[i].base) : 0;
    for (size_t j = i + 1; data && j < count && avail < (size_t)size; j++) {
        const rg_mem_block *p = &blocks[j - 1], *q = &blocks[j];
        if (q->base != p->base + p->size || q->data != p->data + p->size)
            break;
        avail += q->size;
    }
    if (size <= 0 || !data || (size_t)size > avail)
        return PyErr_Format(PyExc_ValueError, "no memory of the core holds %zd contiguous bytes at %llu", size, addr);
    PyObject *capsule = PyCapsule_New(data, "retrogym.ram_view", emu_view_gone);
    if (!capsule)
        return NULL;
    if (PyCapsule_SetContext(capsule, self)) {
        PyCapsule_SetDestructor(capsule, NULL);
        Py_DECREF(capsule);
        return NULL;
    }
    Py_INCREF(self);
    self->views++;
    npy_intp n = (npy_intp)size;
    PyObject *arr = PyArray_SimpleNewFromData(1, &n, NPY_UINT8, data);
    if (!arr) {
        Py_DECREF(capsule);
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)arr, capsule)) { /* steals capsule, also on failure */
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

/* get_state() -> the core's raw serialized state as bytes. */
static PyObject *Emu_get_state(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    return rgpy_emu_get_state(self->emu, &self->busy);
}

/* set_state(bytes) -> True, or False when the core refuses the state (nothing changes then). */
static PyObject *Emu_set_state(rgpy_Emu *self, PyObject *arg)
{
    Py_buffer buf;
    if (emu_usable(self) || PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE))
        return NULL;
    return rgpy_emu_set_state(self->emu, &self->busy, &buf);
}

/* get_save_ram() -> the cartridge's backup RAM as a new uint8 array (empty when the game has none). */
static PyObject *Emu_get_save_ram(rgpy_Emu *self, PyObject *unused)
{
    (void)unused;
    if (emu_usable(self))
        return NULL;
    return rgpy_emu_save_ram(self->emu);
}

/* set_save_ram(data): the backup RAM's bytes, exactly its size (ValueError otherwise, nothing written). */
static PyObject *Emu_set_save_ram(rgpy_Emu *self, PyObject *arg)
{
    if (emu_usable(self))
        return NULL;
    return rgpy_emu_set_save_ram(self->emu, arg);
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
    {"ram_view", (PyCFunction)Emu_ram_view, METH_VARARGS,
     "ram_view(address, size) -> writable uint8 array over the core's memory at address (no copy)"},
    {"get_state", (PyCFunction)Emu_get_state, METH_NOARGS, "get_state() -> raw core state (bytes)"},
    {"set_state", (PyCFunction)Emu_set_state, METH_O, "set_state(bytes) -> False when the core refuses it"},
    {"get_save_ram", (PyCFunction)Emu_get_save_ram, METH_NOARGS, "get_save_ram() -> uint8 array of the backup RAM"},
    {"set_save_ram", (PyCFunction)Emu_set_save_ram, METH_O, "set_save_ram(data): the backup RAM, exactly its size"},
    {"audio", (PyCFunction)Emu_audio, METH_NOARGS, "audio() -> (frames, 2) int16 array of the last frame"},
    {"info", (PyCFunction)Emu_info, METH_NOARGS, "info() -> dict of system, core, fps, sample_rate, frame"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Emu_getset[] = {{"closed", (getter)Emu_get_closed, NULL, "whether close() was called", NULL},
                                   {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot Emu_slots[] = {
    {Py_tp_doc, "Emu(rom, core=None, core_options=None, capture_audio=True): one emulator instance (rg_emu). Use "
                "retrogym.RetroEmulator instead."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, Emu_init},
    {Py_tp_dealloc, Emu_dealloc},
    {Py_tp_methods, Emu_methods},
    {Py_tp_getset, Emu_getset},
    {0, NULL}};

PyType_Spec rgpy_emu_spec = {"retrogym._retrogym.Emu", sizeof(rgpy_Emu), 0, RGPY_TPFLAGS, Emu_slots};

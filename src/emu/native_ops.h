/* The core ops (core_iface.h) that our NES, SMS/GG and Genesis cores (src/cores/<system>/<system>_core.c) share
 * whole: names, snapshot size and saving, teardown; and the parts of the others they do alike: a snapshot's header
 * checked and its state copied into the core's scratch copy, a frame's mono audio handed out, the buffers of an open
 * and its failure, options that are not theirs. Each such core's struct begins with an rg__native_core, through which
 * these reach its ROM, buffers and state. Header-only, as native_glue.h, so that the standalone libretro builds of
 * the cores (libretro_export/CMakeLists.txt) need no further source. */
#ifndef RG_SRC_EMU_NATIVE_OPS_H
#define RG_SRC_EMU_NATIVE_OPS_H

#include "emu/native_glue.h"
#include "retrogym/version.h"

/* What a core is: its name and library name (rg__core_ops.name, .library_name), its snapshots' header (magic,
 * version), the size of the plain-data state after it, and the core named with its article in errors ("a nes"). */
typedef struct rg__native_kind {
    const char *name;
    const char *library;
    const char *magic;
    uint32_t version;
    size_t state_size;
    const char *what;
} rg__native_kind;

/* The first member of each of these cores' structs: what the shared ops reach. */
typedef struct rg__native_core {
    const rg__native_kind *kind;
    rg__core_io *io;     /* the emulator's I/O block (NULL while a failed open frees the core) */
    uint8_t *rom;        /* the core's copy of the ROM */
    uint64_t rom_hash;   /* rg__native_rom_hash of the ROM as given: ties snapshots to it */
    const void *st;      /* the machine's plain-data state (kind->state_size bytes): what a snapshot holds */
    void *scratch;       /* kind->state_size bytes: a loaded state is checked here before it becomes the machine's, so
                          * that a load allocates nothing */
    void *fb;            /* the framebuffer the machine draws into */
    int16_t **abuf;      /* the machine's own audio buffer, freed with the core; NULL: none */
} rg__native_core;

/* A zeroed core of `size` bytes (its struct begins with an rg__native_core) of this kind on this I/O block; NULL
 * after an error. */
static inline void *rg__native_new(size_t size, const rg__native_kind *kind, rg__core_io *io)
{
    rg__native_core *n = calloc(1, size);
    if (!n) {
        rg__error(RG_ENOMEM, "out of memory");
        return NULL;
    }
    n->kind = kind;
    n->io = io;
    return n;
}

static inline const char *rg__native_name(void *core)
{
    return ((const rg__native_core *)core)->kind->name;
}

static inline const char *rg__native_library(void *core)
{
    return ((const rg__native_core *)core)->kind->library;
}

static inline const char *rg__native_version(void *core)
{
    (void)core;
    return RG_VERSION_STRING;
}

static inline int rg__native_state_size(void *core, size_t *out)
{
    *out = sizeof(rg__native_state_header) + ((const rg__native_core *)core)->kind->state_size;
    return RG_OK;
}

static inline int rg__native_snapshot(void *core, void *dst, size_t cap)
{
    const rg__native_core *n = core;
    const rg__native_kind *k = n->kind;
    return rg__native_state_save(dst, cap, k->magic, k->version, n->rom_hash, n->st, k->state_size, k->what);
}

/* The shared part of loading one of our own snapshots: its header checked against this core, version and ROM, then
 * its state copied into n->scratch, where the core checks it field by field before taking it. */
static inline int rg__native_snapshot_read(rg__native_core *n, const void *src, size_t len)
{
    const rg__native_kind *k = n->kind;
    int rc = rg__native_state_header_check(src, len, k->magic, k->version, n->rom_hash, k->state_size, k->what);
    if (rc == RG_OK)
        memcpy(n->scratch, (const uint8_t *)src + sizeof(rg__native_state_header), k->state_size);
    return rc;
}

/* Frees the core and all it owns, after the I/O block forgets what it published. */
static inline void rg__native_destroy(void *core)
{
    rg__native_core *n = core;
    if (n) {
        rg__native_io_detach(n->io);
        free(n->abuf ? *n->abuf : NULL);
        void *owned[] = {n->scratch, n->fb, n->rom};
        for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
            free(owned[i]);
        free(n);
    }
}

/* The buffers an open allocates, zeroed: the ROM copy (rom_bytes), the framebuffer (fb_bytes) and the scratch state.
 * RG_ENOMEM when one is missing, naming the ROM's size (`size`); the open then ends with rg__native_open_failed. */
static inline int rg__native_buffers(rg__native_core *n, size_t rom_bytes, size_t fb_bytes, size_t size)
{
    n->rom = calloc(1, rom_bytes);
    n->fb = calloc(1, fb_bytes);
    n->scratch = malloc(n->kind->state_size);
    return n->rom && n->fb && n->scratch ? RG_OK
                                         : rg__error(RG_ENOMEM, "out of memory loading a %zu-byte ROM", size);
}

/* Ends an open that failed with rc: the core freed without touching the I/O block. */
static inline int rg__native_open_failed(rg__native_core *n, int rc)
{
    n->io = NULL;
    rg__native_destroy(n);
    return rc;
}

/* Logs (debug) each core option given to a core that takes none; `tag` starts the line ("sms"). */
static inline void rg__native_options_ignored(rg__core_io *io, const rg_emu_options *o, const char *tag)
{
    size_t n = o ? o->n_core_options : 0;
    for (size_t i = 0; i < n; i++)
        if (o->core_options[i].key)
            rg__log(&io->log, RG_LOG_DEBUG, "%s: option %s is not ours; ignored", tag, o->core_options[i].key);
}

/* Publishes the picture: width x height pixels in `format` at data, rows `pitch` bytes apart. */
static inline void rg__native_publish_frame(rg__core_io *io, const void *data, unsigned width, unsigned height,
                                            size_t pitch, rg_pixel_format format)
{
    rg_frame f = {data, width, height, pitch, format};
    io->video = f;
}

/* Publishes the core's memory: its map (mem, n; NULL, 0: none) and its system RAM. */
static inline void rg__native_publish_memory(rg__core_io *io, rg__mem_desc *mem, size_t n, uint8_t *ram, size_t size)
{
    io->mem = mem, io->n_mem = n;
    io->system_ram = ram, io->system_ram_size = size;
    io->mem_generation++;
}

/* The start of a frame on a machine with two one-byte joypads: the libretro buttons of ports 0 and 1 through the
 * core's pad mapping, and whether the frame is drawn and its audio observed. */
static inline void rg__native_frame_in(const rg__core_io *io, uint8_t (*pad)(uint16_t), uint8_t pads[2], uint8_t *video,
                                       uint8_t *audio)
{
    pads[0] = pad(io->buttons[0]);
    pads[1] = pad(io->buttons[1]);
    *video = io->video_enabled != 0;
    *audio = io->audio_enabled && io->capture_audio;
}

/* A frame's audio for a machine that makes mono samples: the alen samples of abuf published when audio was observed
 * (`observed`), none otherwise; a failure of the machine to keep its samples (*aerr) logged as `tag` and cleared. */
static inline int rg__native_mono_frame(rg__core_io *io, int observed, const int16_t *abuf, size_t alen, int *aerr,
                                        const char *tag)
{
    io->audio_frames = 0;
    if (observed && alen && rg__native_publish_audio(io, abuf, alen) != RG_OK)
        return RG_ENOMEM;
    if (*aerr)
        rg__log(&io->log, RG_LOG_ERROR, "%s: out of memory producing audio; samples dropped", tag);
    *aerr = 0;
    return RG_OK;
}

#endif

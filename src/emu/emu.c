/* The emulator instance (public API of emu.h) over the internal core interface. */
#include "retrogym/emu.h"

#include "retrogym/core.h"

#include "addrspace.h"
#include "core_iface.h"
#include "emu_index.h"
#include "emu_redraw.h"
#include "host/lr_host.h"
#include "native.h"
#include "screen.h"
#include "state_file.h"
#include "video_convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_ROM (64u << 20)
#define MAX_STATE_FILE (256u << 20)

struct rg_emu {
    rg__core_io io;
    void *core;
    const rg__core_ops *ops;
    const rg_system_info *system;
    rg__addrspace space;
    unsigned space_generation;
    uint64_t frames;
    rg__screen screen;     /* the observed screen's size, fixed for the instance's life (screen.h) */
    uint8_t *backup;       /* the state before a load, to roll back when the core refuses half-way */
    size_t backup_cap;
    /* redrawing a frame that ran undrawn (emu_redraw.h) */
    int skips_video;       /* the core skips drawing frames run with video disabled (our own cores) */
    uint8_t *mark;         /* the marked state ... */
    uint8_t *aside;        /* ... and the state kept aside while the frames since the mark run again */
    size_t redraw_size;    /* their size; 0 until reserved */
    uint64_t mark_frames, aside_frames;
    uint64_t changes;      /* changes to the machine other than by running frames: resets, state loads, writes */
};

static int sync_space(rg_emu *emu)
{
    if (emu->space_generation == emu->io.mem_generation)
        return RG_OK;
    emu->space_generation = emu->io.mem_generation;
    return rg__addrspace_build(&emu->space, &emu->io, emu->system);
}

static int pick_system(const rg_system_info **sys, const char *rom_path, const rg_emu_options *o)
{
    if (o->system)
        return rg_system_find(sys, o->system);
    return rg_system_for_path(sys, rom_path);
}

static int check_rom(const rg_system_info *sys, const char *path, const uint8_t *rom, size_t size)
{
    if (size == 0)
        return rg__error(RG_EINVAL, "ROM %s is empty", path);
    if (size < sys->min_rom_size)
        return rg__error(RG_ECORRUPT, "ROM %s is %zu bytes; a %s ROM has at least %zu", path, size, sys->name,
                         sys->min_rom_size);
    if (sys->rom_magic_len && (size < sys->rom_magic_len || memcmp(rom, sys->rom_magic, sys->rom_magic_len) != 0))
        return rg__error(RG_ECORRUPT, "ROM %s lacks the %s file signature", path, sys->name);
    return RG_OK;
}

/* The core: a built-in one (*native set) or a libretro shared object (its path). */
static int pick_core(char *path, size_t cap, const rg__native_core **native, const rg_system_info *sys,
                     const rg_emu_options *o)
{
    *native = NULL;
    if (o->core) {
        if ((*native = rg__native_find(o->core)) != NULL)
            return RG_OK;
        return rg_core_resolve(o->core, path, cap);
    }
    char tried[512] = "";
    for (size_t i = 0; i < sys->n_cores; i++) {
        if ((*native = rg__native_find(sys->cores[i])) != NULL)
            return RG_OK;
        if (rg_core_resolve(sys->cores[i], path, cap) == RG_OK)
            return RG_OK;
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", sys->cores[i]);
    }
    char hint[256];
    rg_core_install_hint(sys->cores, sys->n_cores, hint, sizeof hint);
    return rg__error(RG_ENOTFOUND, "no core for %s on this machine (tried %s): %s", sys->name, tried, hint);
}

int rg_emu_open(rg_emu **out, const char *rom_path, const rg_emu_options *opts)
{
    static const rg_emu_options defaults = RG_EMU_OPTIONS_INIT;
    if (!out || !rom_path)
        return rg__error(RG_EINVAL, "rg_emu_open: NULL argument");
    *out = NULL;
    const rg_emu_options *o = opts ? opts : &defaults;
    if (o->version < RG_EMU_OPTIONS_VERSION_OLDEST || o->version > RG_EMU_OPTIONS_VERSION)
        return rg__error(RG_EINVAL, "rg_emu_options.version is %u; this library accepts %d..%d (start from "
                         "RG_EMU_OPTIONS_INIT or rg_emu_options_init)", o->version, RG_EMU_OPTIONS_VERSION_OLDEST,
                         RG_EMU_OPTIONS_VERSION);
    if (o->log_level < RG_LOG_DEBUG || o->log_level > RG_LOG_NONE)
        return rg__error(RG_EINVAL, "invalid log level %d", (int)o->log_level);
    const rg_system_info *sys;
    int rc = pick_system(&sys, rom_path, o);
    if (rc != RG_OK)
        return rc;
    uint8_t *rom;
    size_t rom_size;
    rc = rg__read_file(rom_path, o->max_rom_size ? o->max_rom_size : DEFAULT_MAX_ROM, &rom, &rom_size);
    if (rc != RG_OK)
        return rg__error_context(rc, "cannot read the ROM");
    rc = check_rom(sys, rom_path, rom, rom_size);
    char core_path[4096] = "";
    const rg__native_core *native = NULL;
    if (rc == RG_OK)
        rc = pick_core(core_path, sizeof core_path, &native, sys, o);
    if (rc == RG_OK && native && strcmp(native->system, sys->name) != 0)
        rc = rg__error(RG_EINVAL, "the built-in core %s emulates %s, not %s", native->name, native->system,
                       sys->name);
    rg_emu *emu = rc == RG_OK ? calloc(1, sizeof *emu) : NULL;
    if (rc == RG_OK && !emu)
        rc = rg__error(RG_ENOMEM, "out of memory");
    if (rc != RG_OK) {
        free(rom);
        return rc;
    }
    emu->system = sys;
    emu->skips_video = native != NULL;
    emu->io.log.fn = o->log;
    emu->io.log.user = o->log_user;
    emu->io.log.level = o->log_level;
    emu->io.capture_audio = o->capture_audio;
    emu->io.audio_enabled = 1;
    emu->io.video_enabled = 1;
    /* Copier headers (512 bytes before a SNES dump) are dropped: not every core skips them (bsnes-mercury does
     * not, and shows a black screen). */
    size_t skip = sys->copier_header && rom_size > sys->copier_header && rom_size % 1024 == sys->copier_header
                      ? sys->copier_header
                      : 0;
    rg__core_open_args args = {core_path, rom_path, rom + skip, rom_size - skip, o, sys, &emu->io};
    rc = native ? native->open(&emu->core, &emu->ops, &args) : rg__libretro_open(&emu->core, &emu->ops, &args);
    free(rom);
    if (rc == RG_OK)
        rc = sync_space(emu);
    if (rc != RG_OK) {
        rg_emu_free(emu);
        return rc;
    }
    rg__screen_decide(&emu->screen, &emu->io, emu->ops->library_name(emu->core), rom_path);
    *out = emu;
    return RG_OK;
}

void rg_emu_free(rg_emu *emu)
{
    if (!emu)
        return;
    if (emu->ops)
        emu->ops->destroy(emu->core);
    rg__addrspace_free(&emu->space);
    free(emu->io.audio);
    free(emu->backup);
    free(emu->mark);
    free(emu->aside);
    free(emu);
}

int rg_emu_run(rg_emu *emu)
{
    if (!emu)
        return rg__error(RG_EINVAL, "rg_emu_run: NULL emulator");
    int rc = emu->ops->run_frame(emu->core);
    if (rc != RG_OK)
        return rc;
    emu->frames++;
    rg__screen_settle(&emu->screen, &emu->io.video);
    if (emu->io.mem_generation != emu->space_generation)
        return sync_space(emu);
    return RG_OK;
}

int rg_emu_set_buttons(rg_emu *emu, unsigned port, uint16_t mask)
{
    if (!emu || port >= RG_MAX_PORTS)
        return rg__error(RG_EINVAL, "rg_emu_set_buttons: port %u is not in 0..%d", port, RG_MAX_PORTS - 1);
    /* Only the buttons the console has: cores map the spare RetroPad ids to extras such as nestopia's turbo
     * A/B on X/Y, whose phase is not in save states and would break determinism. */
    emu->io.buttons[port] = mask & emu->system->button_mask;
    return RG_OK;
}

uint16_t rg_emu_buttons(const rg_emu *emu, unsigned port)
{
    return emu && port < RG_MAX_PORTS ? emu->io.buttons[port] : 0;
}

int rg_emu_reset(rg_emu *emu)
{
    if (!emu)
        return rg__error(RG_EINVAL, "rg_emu_reset: NULL emulator");
    emu->changes++;
    int rc = emu->ops->reset_power_on(emu->core);
    if (rc == RG_OK) {
        emu->frames = 0;
        rc = sync_space(emu);
    }
    return rc;
}

int rg_emu_soft_reset(rg_emu *emu)
{
    if (!emu)
        return rg__error(RG_EINVAL, "rg_emu_soft_reset: NULL emulator");
    emu->changes++;
    return emu->ops->reset_soft(emu->core);
}

int rg_emu_set_av_enable(rg_emu *emu, int video, int audio)
{
    if (!emu)
        return rg__error(RG_EINVAL, "rg_emu_set_av_enable: NULL emulator");
    emu->io.video_enabled = video != 0;
    emu->io.audio_enabled = audio != 0;
    return RG_OK;
}

uint64_t rg_emu_frame_count(const rg_emu *emu)
{
    return emu ? emu->frames : 0;
}

int rg_emu_frame(const rg_emu *emu, rg_frame *out)
{
    if (!emu || !out)
        return rg__error(RG_EINVAL, "rg_emu_frame: NULL argument");
    /* a core painting palette indices leaves its XRGB8888 pixels to be written when asked for: the handle is the
     * caller's own (not a const object), only this accessor's signature is const */
    rg__io_video_fresh((rg__core_io *)&emu->io);
    *out = emu->io.video;
    return RG_OK;
}

const rg__index_frame *rg__emu_index_frame(const rg_emu *emu, rg_frame *geometry)
{
    *geometry = emu->io.video;
    return emu->io.index.data && emu->io.video.data ? &emu->io.index : NULL;
}

int rg_emu_frame_rgb24(const rg_emu *emu, uint8_t *dst, size_t cap)
{
    if (!emu || !dst)
        return rg__error(RG_EINVAL, "rg_emu_frame_rgb24: NULL argument");
    const rg_frame *f = &emu->io.video;
    if (!f->data)
        return rg__error(RG_EMISUSE, "no frame yet: run the emulator first");
    size_t need = (size_t)f->width * f->height * 3;
    if (cap < need)
        return rg__error(RG_EBUFFER, "a %ux%u RGB24 frame needs %zu bytes, the buffer has %zu", f->width, f->height,
                         need, cap);
    if (emu->io.index.data) { /* the frame whole: a screen of its size */
        const rg__screen whole = {f->width, f->height};
        rg__screen_rgb24_index(&whole, f, &emu->io.index, dst);
        return RG_OK;
    }
    rg__convert_rgb24(f, dst);
    return RG_OK;
}

int rg_emu_screen_size(const rg_emu *emu, unsigned *width, unsigned *height)
{
    if (!emu || !width || !height)
        return rg__error(RG_EINVAL, "rg_emu_screen_size: NULL argument");
    *width = emu->screen.width;
    *height = emu->screen.height;
    return RG_OK;
}

int rg_emu_screen_rgb24(const rg_emu *emu, uint8_t *dst, size_t cap)
{
    if (!emu || !dst)
        return rg__error(RG_EINVAL, "rg_emu_screen_rgb24: NULL argument");
    const rg_frame *f = &emu->io.video;
    if (!f->data || !emu->screen.width)
        return rg__error(RG_EMISUSE, "no frame yet: run the emulator first");
    size_t need = (size_t)emu->screen.width * emu->screen.height * 3;
    if (cap < need)
        return rg__error(RG_EBUFFER, "a %ux%u RGB24 screen needs %zu bytes, the buffer has %zu", emu->screen.width,
                         emu->screen.height, need, cap);
    if (emu->io.index.data)
        rg__screen_rgb24_index(&emu->screen, f, &emu->io.index, dst);
    else
        rg__screen_rgb24(&emu->screen, f, dst);
    return RG_OK;
}

int rg_emu_screen_gray(const rg_emu *emu, uint8_t *dst, size_t cap)
{
    if (!emu || !dst)
        return rg__error(RG_EINVAL, "rg_emu_screen_gray: NULL argument");
    const rg_frame *f = &emu->io.video;
    if (!f->data || !emu->screen.width)
        return rg__error(RG_EMISUSE, "no frame yet: run the emulator first");
    size_t need = (size_t)emu->screen.width * emu->screen.height;
    if (cap < need)
        return rg__error(RG_EBUFFER, "a %ux%u gray screen needs %zu bytes, the buffer has %zu", emu->screen.width,
                         emu->screen.height, need, cap);
    if (emu->io.index.data)
        rg__screen_gray_index(&emu->screen, f, &emu->io.index, dst);
    else
        rg__screen_gray(&emu->screen, f, dst);
    return RG_OK;
}

double rg_emu_fps(const rg_emu *emu)
{
    return emu ? emu->io.fps : 0.0;
}

double rg_emu_sample_rate(const rg_emu *emu)
{
    return emu ? emu->io.sample_rate : 0.0;
}

int rg_emu_audio(const rg_emu *emu, const int16_t **samples, size_t *frames)
{
    if (!emu || !samples || !frames)
        return rg__error(RG_EINVAL, "rg_emu_audio: NULL argument");
    *samples = emu->io.audio;
    *frames = emu->io.audio_frames;
    return RG_OK;
}

int rg_emu_mem_blocks(const rg_emu *emu, const rg_mem_block **blocks, size_t *count)
{
    if (!emu || !blocks || !count)
        return rg__error(RG_EINVAL, "rg_emu_mem_blocks: NULL argument");
    *blocks = emu->space.blocks;
    *count = emu->space.n;
    return RG_OK;
}

int rg_emu_mem_read(const rg_emu *emu, uint64_t addr, void *dst, size_t len)
{
    if (!emu || (!dst && len))
        return rg__error(RG_EINVAL, "rg_emu_mem_read: NULL argument");
    return rg__addrspace_read(&emu->space, addr, dst, len);
}

int rg_emu_mem_write(rg_emu *emu, uint64_t addr, const void *src, size_t len)
{
    if (!emu || (!src && len))
        return rg__error(RG_EINVAL, "rg_emu_mem_write: NULL argument");
    int rc = rg__addrspace_write(&emu->space, addr, src, len);
    if (rc == RG_OK)
        emu->changes++;
    return rc;
}

int rg_emu_save_ram(rg_emu *emu, uint8_t **data, size_t *size)
{
    if (!emu || !data || !size)
        return rg__error(RG_EINVAL, "rg_emu_save_ram: NULL argument");
    *data = emu->io.save_ram_size ? emu->io.save_ram : NULL;
    *size = *data ? emu->io.save_ram_size : 0;
    return RG_OK;
}

size_t rg_emu_ram_size(const rg_emu *emu)
{
    return emu ? emu->space.total : 0;
}

int rg_emu_ram_copy(const rg_emu *emu, uint8_t *dst, size_t cap)
{
    if (!emu || !dst)
        return rg__error(RG_EINVAL, "rg_emu_ram_copy: NULL argument");
    if (cap < emu->space.total)
        return rg__error(RG_EBUFFER, "RAM is %zu bytes, the buffer has %zu", emu->space.total, cap);
    for (size_t i = 0; i < emu->space.n; i++) {
        memcpy(dst, emu->space.blocks[i].data, emu->space.blocks[i].size);
        dst += emu->space.blocks[i].size;
    }
    return RG_OK;
}

int rg_emu_state_size(rg_emu *emu, size_t *out)
{
    if (!emu || !out)
        return rg__error(RG_EINVAL, "rg_emu_state_size: NULL argument");
    return emu->ops->state_size(emu->core, out);
}

int rg_emu_state_save(rg_emu *emu, void *dst, size_t cap, size_t *written)
{
    if (!emu || !dst)
        return rg__error(RG_EINVAL, "rg_emu_state_save: NULL argument");
    size_t size;
    int rc = emu->ops->state_size(emu->core, &size);
    if (rc == RG_OK)
        rc = emu->ops->state_save(emu->core, dst, cap);
    if (written)
        *written = rc == RG_OK ? size : 0;
    return rc;
}

int rg_emu_state_load(rg_emu *emu, const void *src, size_t len)
{
    if (!emu)
        return rg__error(RG_EINVAL, "rg_emu_state_load: NULL emulator");
    if (!src || len == 0)
        return rg__error(RG_ESTATE, "the state is empty");
    emu->changes++;
    /* Cores apply a state piece by piece and may refuse it half-way (nestopia does), leaving a mixed machine.
     * Keep the current state so a refused load changes nothing. */
    size_t size;
    int rc = emu->ops->state_size(emu->core, &size);
    if (rc != RG_OK)
        return rc;
    if (emu->backup_cap < size) {
        uint8_t *p = realloc(emu->backup, size);
        if (!p)
            return rg__error(RG_ENOMEM, "out of memory loading a state");
        emu->backup = p;
        emu->backup_cap = size;
    }
    if (emu->ops->state_save(emu->core, emu->backup, size) != RG_OK)
        return rg__error_context(RG_ESTATE, "cannot keep the current state before loading");
    rc = emu->ops->state_load(emu->core, src, len);
    if (rc != RG_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", rg_error_last());
        if (emu->ops->state_load(emu->core, emu->backup, size) != RG_OK)
            return rg__error(RG_ECORE, "%s; restoring the previous state failed too", why);
        (void)sync_space(emu);
        return rg__error(rc, "%s", why);
    }
    return sync_space(emu); /* a core reloaded before the load (Stella) has new memory */
}

int rg_emu_state_save_file(rg_emu *emu, const char *path)
{
    if (!emu || !path)
        return rg__error(RG_EINVAL, "rg_emu_state_save_file: NULL argument");
    size_t size;
    int rc = rg_emu_state_size(emu, &size);
    if (rc != RG_OK)
        return rc;
    uint8_t *raw = malloc(size);
    if (!raw)
        return rg__error(RG_ENOMEM, "out of memory saving a state of %zu bytes", size);
    rc = rg_emu_state_save(emu, raw, size, &size);
    uint8_t *gz = NULL;
    size_t gz_size = 0;
    if (rc == RG_OK)
        rc = rg__gzip_compress(raw, size, &gz, &gz_size);
    free(raw);
    if (rc == RG_OK)
        rc = rg__write_file_atomic(path, gz, gz_size);
    free(gz);
    return rc;
}

int rg__emu_state_read_file(rg_emu *emu, const char *path, uint8_t **data, size_t *size, int *gzipped)
{
    *data = NULL;
    *size = 0;
    *gzipped = 0;
    size_t limit;
    int rc = rg_emu_state_size(emu, &limit);
    if (rc != RG_OK)
        return rc;
    uint8_t *file;
    size_t file_size;
    rc = rg__read_file(path, MAX_STATE_FILE, &file, &file_size);
    if (rc != RG_OK)
        return rg__error_context(rc, "cannot read the state");
    if (!rg__is_gzip(file, file_size)) {
        *data = file;
        *size = file_size;
        return RG_OK;
    }
    *gzipped = 1;
    /* Bounded (a gzip bomb stops here) with room to spare: files saved by other builds of a core can be larger
     * than its own states (stable-retro's Atari states hold 512 bytes where its Stella asks for 481; its Genesis
     * Plus GX states, which our SMS and Genesis cores convert, are 1,036,288 bytes). */
    rc = rg__gzip_decompress(file, file_size, limit * 2 + (2u << 20), data, size);
    free(file);
    return rc == RG_OK ? RG_OK : rg__error_context(RG_ESTATE, "state %s", path);
}

int rg_emu_state_load_file(rg_emu *emu, const char *path)
{
    if (!emu || !path)
        return rg__error(RG_EINVAL, "rg_emu_state_load_file: NULL argument");
    uint8_t *raw;
    size_t raw_size;
    int gzipped;
    int rc = rg__emu_state_read_file(emu, path, &raw, &raw_size, &gzipped);
    if (rc != RG_OK)
        return rc;
    rc = rg_emu_state_load(emu, raw, raw_size);
    free(raw);
    if (rc == RG_OK)
        return RG_OK;
    return gzipped ? rg__error_context(rc, "state %s", path)
                   : rg__error_context(rc, "%s (read as an uncompressed state)", path);
}

const rg_system_info *rg_emu_system(const rg_emu *emu)
{
    return emu ? emu->system : NULL;
}

const char *rg_emu_core_name(const rg_emu *emu)
{
    return emu ? emu->ops->name(emu->core) : "";
}

const char *rg_emu_core_library(const rg_emu *emu)
{
    return emu ? emu->ops->library_name(emu->core) : "";
}

const char *rg_emu_core_version(const rg_emu *emu)
{
    return emu ? emu->ops->library_version(emu->core) : "";
}

/* --- redrawing a frame that ran undrawn (emu_redraw.h) */

int rg__emu_redraw_reserve(rg_emu *emu)
{
    if (!emu->skips_video || emu->redraw_size)
        return RG_OK;
    size_t size;
    int rc = emu->ops->state_size(emu->core, &size);
    if (rc != RG_OK)
        return rc;
    emu->mark = malloc(size ? size : 1);
    emu->aside = malloc(size ? size : 1);
    if (!emu->mark || !emu->aside) {
        free(emu->mark);
        free(emu->aside);
        emu->mark = emu->aside = NULL;
        return rg__error(RG_ENOMEM, "out of memory keeping states for redraws");
    }
    emu->redraw_size = size;
    return RG_OK;
}

int rg__emu_redraw_able(const rg_emu *emu)
{
    return emu->redraw_size != 0;
}

int rg__emu_mark(rg_emu *emu)
{
    if (!emu->redraw_size)
        return rg__error(RG_EMISUSE, "no room reserved for a mark");
    int rc = emu->ops->state_save(emu->core, emu->mark, emu->redraw_size);
    if (rc == RG_OK)
        emu->mark_frames = emu->frames;
    return rc;
}

int rg__emu_rewind(rg_emu *emu)
{
    if (!emu->redraw_size)
        return rg__error(RG_EMISUSE, "no room reserved for a mark");
    int rc = emu->ops->state_save(emu->core, emu->aside, emu->redraw_size);
    if (rc != RG_OK)
        return rc;
    emu->aside_frames = emu->frames;
    if ((rc = emu->ops->state_load(emu->core, emu->mark, emu->redraw_size)) != RG_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", rg_error_last());
        if (emu->ops->state_load(emu->core, emu->aside, emu->redraw_size) != RG_OK)
            return rg__error(RG_ECORE, "redrawing a frame: %s; going back failed too", why);
        (void)sync_space(emu);
        return rg__error(rc, "redrawing a frame: %s", why);
    }
    emu->frames = emu->mark_frames;
    return sync_space(emu);
}

int rg__emu_rewind_end(rg_emu *emu, int exact)
{
    int rc = exact ? RG_OK : emu->ops->state_load(emu->core, emu->aside, emu->redraw_size);
    emu->frames = emu->aside_frames;
    int src = sync_space(emu);
    return rc != RG_OK ? rc : src;
}

uint64_t rg__emu_changes(const rg_emu *emu)
{
    return emu->changes;
}

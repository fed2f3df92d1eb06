/* The NES core behind the internal core interface (src/emu/core_iface.h): input, frames (FCEUmm's palette and crop,
 * RGB565 as FCEUmm's libretro build gives them), audio, the memory map, and snapshots (a header plus a copy of the
 * machine state, checked field by field when loaded). */
#include "cores/nes/nes_core.h"
#include "cores/nes/mapper.h"
#include "cores/nes/nes_fceumm_state.h"

#include "emu/core_iface.h"
#include "emu/native_glue.h"
#include "retrogym/version.h"

#include <stdlib.h>
#include <string.h>

#define STATE_MAGIC "RGNESST"
#define STATE_VERSION 2u /* 2: the cartridge counts CPU cycles (clock_cycle) and has chip RAM */
#define FB_PIXELS ((size_t)RG__NES_WIDTH * RG__NES_HEIGHT)
/* NTSC: 236250000 / 11 Hz master clock / 4 per dot, 341 x 262 - 0.5 dots per frame */
#define NES_FPS (39375000.0 / 655171.0)

typedef struct nes_core {
    rg__nes_machine m;
    rg__core_io *io;
    uint8_t *rom;
    size_t rom_size;
    uint64_t rom_hash;
    uint16_t *fb;        /* the machine's framebuffer, drawn in RGB565 (m.rgb = palette); the picture handed out is
                          * its 240 x 224 window, or all of it (full_frame) */
    uint16_t palette[512];
    rg__mem_desc mem[2];
    uint8_t full_frame; /* hand out the whole 256 x 240 picture (option fceumm_overscan=disabled, as FCEUmm) */
    rg__nes_state *scratch; /* a loaded state is checked here before it becomes the machine's: no allocation then */
} nes_core;

/* libretro joypad bits (B Y SELECT START UP DOWN LEFT RIGHT A ...) to the NES pad byte (A B SELECT START UP DOWN
 * LEFT RIGHT, bit 0 = A). */
static uint8_t pad_byte(uint16_t b)
{
    return (uint8_t)(((b >> 8) & 1u) | (b & 1u) << 1 | (b & 0xFCu));
}

static void publish_video(nes_core *c)
{
    rg_frame *f = &c->io->video;
    if (c->full_frame) {
        f->data = c->fb;
        f->width = RG__NES_WIDTH;
        f->height = RG__NES_HEIGHT;
    } else {
        f->data = c->fb + (size_t)RG__NES_VIEW_Y * RG__NES_WIDTH + RG__NES_VIEW_X;
        f->width = RG__NES_VIEW_W;
        f->height = RG__NES_VIEW_H;
    }
    f->pitch = RG__NES_WIDTH * sizeof(uint16_t);
    f->format = RG_PIXEL_RGB565;
}

static void publish_memory(nes_core *c)
{
    rg__core_io *io = c->io;
    memset(c->mem, 0, sizeof c->mem);
    c->mem[0].ptr = c->m.st.ram;
    c->mem[0].start = 0;
    c->mem[0].len = sizeof c->m.st.ram;
    size_t n = 1;
    if (c->m.info.prg_ram_size) {
        c->mem[1].ptr = c->m.st.cart.prg_ram;
        c->mem[1].start = 0x6000;
        c->mem[1].len = 0x2000;
        n = 2;
    }
    io->mem = c->mem;
    io->n_mem = n;
    io->system_ram = c->m.st.ram;
    io->system_ram_size = sizeof c->m.st.ram;
    io->mem_generation++;
}

static void power_on(nes_core *c)
{
    c->m.audio = 0; /* no samples in the reset sequence, as at the first boot: a power-on reset replays boot exactly */
    rg__nes_power_on(&c->m);
    for (size_t i = 0; i < FB_PIXELS; i++)
        c->fb[i] = c->palette[0]; /* palette value 0 until a frame is drawn */
    publish_video(c);
    publish_memory(c);
}

/* --- core ops */

static int run_frame(void *core)
{
    nes_core *c = core;
    rg__core_io *io = c->io;
    c->m.buttons[0] = pad_byte(io->buttons[0]);
    c->m.buttons[1] = pad_byte(io->buttons[1]);
    c->m.video = io->video_enabled != 0;
    c->m.audio = io->audio_enabled && io->capture_audio;
    rg__nes_run_frame(&c->m);
    publish_video(c);
    io->audio_frames = 0;
    if (c->m.audio && c->m.alen && rg__native_publish_audio(io, c->m.abuf, c->m.alen) != RG_OK)
        return RG_ENOMEM;
    if (c->m.aerr) {
        c->m.aerr = 0;
        rg__log(&io->log, RG_LOG_ERROR, "nes: out of memory producing audio; samples dropped");
    }
    return RG_OK;
}

static int reset_power_on(void *core)
{
    power_on(core);
    return RG_OK;
}

static int reset_soft(void *core)
{
    rg__nes_soft_reset(&((nes_core *)core)->m);
    return RG_OK;
}

static int state_size(void *core, size_t *out)
{
    (void)core;
    *out = sizeof(rg__native_state_header) + sizeof(rg__nes_state);
    return RG_OK;
}

static int state_save(void *core, void *dst, size_t cap)
{
    nes_core *c = core;
    return rg__native_state_save(dst, cap, STATE_MAGIC, STATE_VERSION, c->rom_hash, &c->m.st, sizeof c->m.st,
                                 "a nes");
}

static int state_load(void *core, const void *src, size_t len)
{
    nes_core *c = core;
    if (rg__nes_fceumm_sniff(src, len)) /* an FCEUmm state (stable-retro's start states), converted */
        return rg__nes_fceumm_load(&c->m, src, len);
    int hrc = rg__native_state_header_check(src, len, STATE_MAGIC, STATE_VERSION, c->rom_hash, sizeof(rg__nes_state),
                                            "a nes");
    if (hrc != RG_OK)
        return hrc;
    rg__nes_state *st = c->scratch;
    memcpy(st, (const uint8_t *)src + sizeof(rg__native_state_header), sizeof *st);
    int rc = rg__nes_state_check(st, &c->m);
    if (rc == RG_OK) {
        c->m.st = *st;
        rg__nes_cart_sync(&c->m);
        rg__nes_ppu_sync(&c->m);
        rg__nes_apu_run(&c->m, c->m.st.cycles);
        c->m.frame_done = 0;
    }
    return rc;
}

static const char *core_name(void *core)
{
    (void)core;
    return "nes";
}

static const char *core_library(void *core)
{
    (void)core;
    return "retrogym NES";
}

static const char *core_version(void *core)
{
    (void)core;
    return RG_VERSION_STRING;
}

static void destroy(void *core)
{
    nes_core *c = core;
    if (!c)
        return;
    rg__native_io_detach(c->io);
    free(c->m.abuf);
    free(c->scratch);
    free(c->fb);
    free(c->rom);
    free(c);
}

static const rg__core_ops nes_ops = {
    run_frame, reset_power_on, reset_soft, state_size, state_save, state_load,
    core_name, core_library, core_version, destroy,
};

int rg__nes_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args)
{
    *core = NULL;
    nes_core *c = calloc(1, sizeof *c);
    if (!c)
        return rg__error(RG_ENOMEM, "out of memory");
    c->io = args->io;
    const rg_emu_options *o = args->opts;
    for (size_t i = 0; o && i < o->n_core_options; i++) {
        const char *key = o->core_options[i].key, *value = o->core_options[i].value;
        if (!key)
            continue;
        /* FCEUmm's option, with FCEUmm's meaning: "disabled" sends the whole picture instead of its 240 x 224
         * default (nes-py's screen; retrogym.nes_py passes it to every NES core) */
        if (strcmp(key, "fceumm_overscan") == 0 && value && (strcmp(value, "disabled") == 0 ||
                                                             strcmp(value, "enabled") == 0))
            c->full_frame = strcmp(value, "disabled") == 0;
        else
            rg__log(&c->io->log, RG_LOG_DEBUG, "nes: option %s=%s is not ours; ignored", key, value ? value : "");
    }
    int rc = RG_OK;
    c->rom = malloc(args->rom_size ? args->rom_size : 1);
    c->fb = calloc(FB_PIXELS, sizeof *c->fb);
    c->scratch = malloc(sizeof *c->scratch);
    if (!c->rom || !c->fb || !c->scratch)
        rc = rg__error(RG_ENOMEM, "out of memory loading a %zu-byte ROM", args->rom_size);
    if (rc == RG_OK) {
        memcpy(c->rom, args->rom, args->rom_size);
        c->rom_size = args->rom_size;
        c->rom_hash = rg__native_rom_hash(c->rom, c->rom_size);
        rc = rg__nes_cart_parse(c->rom, c->rom_size, &c->m.info, &c->m.prg, &c->m.prg_size, &c->m.chr,
                                &c->m.chr_size);
    }
    if (rc != RG_OK) {
        c->io = NULL;
        destroy(c);
        return rc;
    }
    rg__nes_palette_build(c->palette);
    c->m.fb = c->fb;
    c->m.rgb = c->palette;
    c->io->fps = NES_FPS;
    c->io->sample_rate = RG__NES_APU_RATE;
    power_on(c);
    rg__log(&c->io->log, RG_LOG_DEBUG, "nes: mapper %u (%s), %zu KiB PRG, %zu KiB CHR%s, %s mirroring%s",
            c->m.info.mapper, c->m.mapper->name, c->m.prg_size / 1024, c->m.chr_size / 1024,
            c->m.chr ? "" : " (RAM)", c->m.info.mirroring == 2 ? "four-screen" : c->m.info.mirroring ? "vertical" :
            "horizontal", c->m.info.battery ? ", battery" : "");
    *core = c;
    *ops = &nes_ops;
    return RG_OK;
}

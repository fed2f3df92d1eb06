/* The NES core behind the internal core interface (src/emu/core_iface.h): input, frames (FCEUmm's palette and crop,
 * RGB565 as FCEUmm's libretro build gives them), audio, the memory map, and snapshots (a header plus a copy of the
 * machine state, checked field by field when loaded). */
#include "cores/nes/nes_core.h"
#include "cores/nes/mapper.h"
#include "cores/nes/nes_fceumm_state.h"

#include "emu/core_iface.h"
#include "emu/native_ops.h"

#include <stdlib.h>
#include <string.h>

#define FB_PIXELS ((size_t)RG__NES_WIDTH * RG__NES_HEIGHT)
/* NTSC: 236250000 / 11 Hz master clock / 4 per dot, 341 x 262 - 0.5 dots per frame */
#define NES_FPS (39375000.0 / 655171.0)

typedef struct nes_core {
    rg__native_core base; /* the framebuffer (m.fb) is drawn in RGB565 (m.rgb = palette); the picture handed out is
                           * its 240 x 224 window, or all of it (full_frame) */
    rg__nes_machine m;
    size_t rom_size;
    uint16_t palette[512];
    rg__mem_desc mem[2];
    uint8_t full_frame; /* hand out the whole 256 x 240 picture (option fceumm_overscan=disabled, as FCEUmm) */
} nes_core;

static const rg__native_kind nes_kind = {
    "nes", "retrogym NES", "RGNESST", 2u /* 2: the cartridge counts CPU cycles (clock_cycle) and has chip RAM */,
    sizeof(rg__nes_state), "a nes",
};

/* libretro joypad bits (B Y SELECT START UP DOWN LEFT RIGHT A ...) to the NES pad byte (A B SELECT START UP DOWN
 * LEFT RIGHT, bit 0 = A). */
static uint8_t pad_byte(uint16_t b)
{
    return (uint8_t)(((b >> 8) & 1u) | (b & 1u) << 1 | (b & 0xFCu));
}

static void publish_video(nes_core *c)
{
    const uint16_t *fb = c->m.fb;
    size_t pitch = RG__NES_WIDTH * sizeof(uint16_t);
    if (c->full_frame)
        rg__native_publish_frame(c->base.io, fb, RG__NES_WIDTH, RG__NES_HEIGHT, pitch, RG_PIXEL_RGB565);
    else
        rg__native_publish_frame(c->base.io, fb + (size_t)RG__NES_VIEW_Y * RG__NES_WIDTH + RG__NES_VIEW_X,
                                 RG__NES_VIEW_W, RG__NES_VIEW_H, pitch, RG_PIXEL_RGB565);
}

static void publish_memory(nes_core *c)
{
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
    rg__native_publish_memory(c->base.io, c->mem, n, c->m.st.ram, sizeof c->m.st.ram);
}

static int power_on(void *core)
{
    nes_core *c = core;
    c->m.audio = 0; /* no samples in the reset sequence, as at the first boot: a power-on reset replays boot exactly */
    rg__nes_power_on(&c->m);
    for (size_t i = 0; i < FB_PIXELS; i++)
        c->m.fb[i] = c->palette[0]; /* palette value 0 until a frame is drawn */
    publish_video(c);
    publish_memory(c);
    return RG_OK;
}

/* --- core ops */

static int run_frame(void *core)
{
    nes_core *c = core;
    rg__native_frame_in(c->base.io, pad_byte, c->m.buttons, &c->m.video, &c->m.audio);
    rg__nes_run_frame(&c->m);
    publish_video(c);
    return rg__native_mono_frame(c->base.io, c->m.audio, c->m.abuf, c->m.alen, &c->m.aerr, "nes");
}

static int reset_soft(void *core)
{
    rg__nes_soft_reset(&((nes_core *)core)->m);
    return RG_OK;
}

static int state_load(void *core, const void *src, size_t len)
{
    nes_core *c = core;
    if (rg__nes_fceumm_sniff(src, len)) /* an FCEUmm state (stable-retro's start states), converted */
        return rg__nes_fceumm_load(&c->m, src, len);
    rg__nes_state *st = c->base.scratch;
    int rc = rg__native_snapshot_read(&c->base, src, len);
    if (rc == RG_OK)
        rc = rg__nes_state_check(st, &c->m);
    if (rc == RG_OK) {
        c->m.st = *st;
        rg__nes_cart_sync(&c->m);
        rg__nes_ppu_sync(&c->m);
        rg__nes_apu_run(&c->m, c->m.st.cycles);
        c->m.frame_done = 0;
    }
    return rc;
}

static const rg__core_ops nes_ops = {
    run_frame, power_on, reset_soft, rg__native_state_size, rg__native_snapshot, state_load,
    rg__native_name, rg__native_library, rg__native_version, rg__native_destroy,
};

int rg__nes_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args)
{
    *core = NULL;
    nes_core *c = rg__native_new(sizeof *c, &nes_kind, args->io);
    if (!c)
        return RG_ENOMEM;
    c->base.st = &c->m.st;
    c->base.abuf = &c->m.abuf;
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
            rg__log(&c->base.io->log, RG_LOG_DEBUG, "nes: option %s=%s is not ours; ignored", key, value ? value : "");
    }
    int rc = rg__native_buffers(&c->base, args->rom_size ? args->rom_size : 1, FB_PIXELS * sizeof *c->m.fb,
                                args->rom_size);
    if (rc == RG_OK) {
        uint8_t *rom = c->base.rom;
        memcpy(rom, args->rom, args->rom_size);
        c->rom_size = args->rom_size;
        c->base.rom_hash = rg__native_rom_hash(rom, c->rom_size);
        rc = rg__nes_cart_parse(rom, c->rom_size, &c->m.info, &c->m.prg, &c->m.prg_size, &c->m.chr, &c->m.chr_size);
    }
    if (rc != RG_OK)
        return rg__native_open_failed(&c->base, rc);
    rg__nes_palette_build(c->palette);
    c->m.fb = c->base.fb;
    c->m.rgb = c->palette;
    c->base.io->fps = NES_FPS;
    c->base.io->sample_rate = RG__NES_APU_RATE;
    power_on(c);
    rg__log(&c->base.io->log, RG_LOG_DEBUG, "nes: mapper %u (%s), %zu KiB PRG, %zu KiB CHR%s, %s mirroring%s",
            c->m.info.mapper, c->m.mapper->name, c->m.prg_size / 1024, c->m.chr_size / 1024,
            c->m.chr ? "" : " (RAM)", c->m.info.mirroring == 2 ? "four-screen" : c->m.info.mirroring ? "vertical" :
            "horizontal", c->m.info.battery ? ", battery" : "");
    *core = c;
    *ops = &nes_ops;
    return RG_OK;
}

/* The Master System / Game Gear core behind the internal core interface (src/emu/core_iface.h): input, frames
 * (RGB565: SMS 256x192, GG 160x144), audio, the memory map (the 8 KiB of system RAM, at $C000 through the systems
 * file's ram_base), and snapshots (a header plus a copy of the machine state, checked field by field when loaded). */
#include "cores/sms/sms.h"
#include "cores/sms/sms_core.h"
#include "cores/sms/sms_gpgx_state.h"
#include "cores/gpgx_state/gpgx_state.h"

#include "emu/core_iface.h"
#include "emu/native_ops.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FB_PIXELS ((size_t)RG__SMS_WIDTH * RG__SMS_HEIGHT)
#define SMS_FPS (RG__SMS_CLOCK / RG__SMS_FRAME_T)
#define ROM_MAX (4u << 20)

typedef struct sms_core {
    rg__native_core base;  /* the VDP draws RGB565 into the framebuffer (m.fb); the frame is its window (vx, vy, vw,
                            * vh) */
    rg__sms_machine m;
    size_t rom_size;
    unsigned vw, vh, vx, vy;
} sms_core;

/* the Master System and the Game Gear: one core under two names */
static const rg__native_kind sms_kinds[2] = {
    {"sms", "retrogym SMS", "RGSMSST", 2u, sizeof(rg__sms_state), "an sms"},
    {"gamegear", "retrogym Game Gear", "RGSMSST", 2u, sizeof(rg__sms_state), "an sms"},
};

/* libretro joypad bits (B 0, START 3, UP 4, DOWN 5, LEFT 6, RIGHT 7, A 8) to the pad byte (up, down, left, right,
 * button 1 = B, button 2 = A). */
static uint8_t pad_byte(uint16_t b)
{
    return (uint8_t)(((b >> 4) & 0x0Fu) | (b & 1u) << 4 | ((b >> 8) & 1u) << 5);
}

static void publish_video(sms_core *c)
{
    rg__native_publish_frame(c->base.io, c->m.fb + (size_t)c->vy * RG__SMS_WIDTH + c->vx, c->vw, c->vh,
                             RG__SMS_WIDTH * sizeof(uint16_t), RG_PIXEL_RGB565);
}

static int power_on(void *core)
{
    sms_core *c = core;
    rg__sms_power_on(&c->m);
    memset(c->m.fb, 0, FB_PIXELS * sizeof *c->m.fb);
    publish_video(c);
    rg__native_publish_memory(c->base.io, NULL, 0, c->m.st.ram, sizeof c->m.st.ram);
    return RG_OK;
}

/* --- core ops */

static int run_frame(void *core)
{
    sms_core *c = core;
    c->m.start = (uint8_t)((c->base.io->buttons[0] >> 3) & 1u); /* pause (SMS) / start (GG) */
    rg__native_frame_in(c->base.io, pad_byte, c->m.buttons, &c->m.video, &c->m.audio);
    rg__sms_run_frame(&c->m);
    publish_video(c);
    return rg__native_mono_frame(c->base.io, c->m.audio, c->m.abuf, c->m.alen, &c->m.aerr, "sms");
}

static int reset_soft(void *core)
{
    /* the SMS reset button restarts the CPU; nothing else is touched */
    sms_core *c = core;
    rg_z80 *cpu = &c->m.st.cpu;
    cpu->pc = 0;
    cpu->iff1 = cpu->iff2 = 0;
    cpu->im = 1;
    cpu->halted = 0;
    cpu->ei = 0;
    return RG_OK;
}

static int state_load(void *core, const void *src, size_t len)
{
    sms_core *c = core;
    if (rg__gpgx_sniff(src, len)) /* a Genesis Plus GX state (stable-retro's start states), converted */
        return rg__sms_gpgx_load(&c->m, src, len);
    rg__sms_state *st = c->base.scratch;
    int rc = rg__native_snapshot_read(&c->base, src, len);
    if (rc == RG_OK)
        rc = rg__sms_state_check(st, &c->m);
    if (rc == RG_OK)
        c->m.st = *st;
    return rc;
}

static const rg__core_ops sms_ops = {
    run_frame, power_on, reset_soft, rg__native_state_size, rg__native_snapshot, state_load,
    rg__native_name, rg__native_library, rg__native_version, rg__native_destroy,
};

static int is_gg(const rg__core_open_args *args)
{
    if (args->system && args->system->name)
        return strcasecmp(args->system->name, "GameGear") == 0;
    const char *p = args->rom_path ? strrchr(args->rom_path, '.') : NULL;
    return p && strcasecmp(p, ".gg") == 0;
}

int rg__sms_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args)
{
    *core = NULL;
    const uint8_t *rom = args->rom;
    size_t size = args->rom_size;
    /* a 512-byte copier header in front of whole KiB */
    if (size % 1024u == 512u) {
        rom += 512;
        size -= 512;
    }
    if (size < 1024u || size > ROM_MAX || size % 1024u != 0)
        return rg__error(RG_EINVAL, "an SMS/GG ROM is a whole number of KiB from 1 KiB to 4 MiB (optionally after "
                         "a 512-byte header); this one is %zu bytes", args->rom_size);
    int gg = is_gg(args);
    sms_core *c = rg__native_new(sizeof *c, &sms_kinds[gg], args->io);
    if (!c)
        return RG_ENOMEM;
    c->m.gg = (uint8_t)gg;
    c->base.st = &c->m.st;
    c->base.abuf = &c->m.abuf;
    rg__native_options_ignored(c->base.io, args->opts, "sms");
    /* whole 16 KiB pages (a smaller ROM repeats); up to 48 KiB without a mapper: three pages, 0 past the end */
    int plain = size <= 0xC000u && rg__sms_detect_mapper(rom, size) == RG__SMS_MAPPER_SEGA;
    size_t padded = plain ? 0xC000u : (size + 0x3FFFu) & ~(size_t)0x3FFF;
    int rc = rg__native_buffers(&c->base, padded, FB_PIXELS * sizeof *c->m.fb, size);
    if (rc != RG_OK)
        return rg__native_open_failed(&c->base, rc);
    for (size_t i = 0; i < padded && (i == 0 || !plain); i += size)
        memcpy(c->base.rom + i, rom, padded - i < size ? padded - i : size);
    c->rom_size = size;
    c->base.rom_hash = rg__native_rom_hash(rom, size);
    c->m.rom = c->base.rom;
    c->m.rom_size = padded;
    c->m.pages = (unsigned)(padded / 0x4000u);
    c->m.mapper = (uint8_t)(plain ? RG__SMS_MAPPER_NONE : rg__sms_detect_mapper(c->base.rom, padded));
    c->m.fb = c->base.fb;
    if (c->m.gg) {
        c->vw = RG__GG_W, c->vh = RG__GG_H, c->vx = RG__GG_X, c->vy = RG__GG_Y;
    } else {
        c->vw = RG__SMS_WIDTH, c->vh = RG__SMS_HEIGHT, c->vx = 0, c->vy = 0;
    }
    c->base.io->fps = SMS_FPS;
    c->base.io->sample_rate = RG__SMS_RATE;
    power_on(c);
    rg__log(&c->base.io->log, RG_LOG_DEBUG, "sms: %s, %zu KiB, %s mapper", c->m.gg ? "Game Gear" : "Master System",
            size / 1024, c->m.mapper == RG__SMS_MAPPER_CODEMASTERS ? "Codemasters" : c->m.mapper == RG__SMS_MAPPER_NONE ? "no" : "Sega");
    *core = c;
    *ops = &sms_ops;
    return RG_OK;
}

/* The Master System / Game Gear core behind the internal core interface (src/emu/core_iface.h): input, frames
 * (RGB565: SMS 256x192, GG 160x144), audio, the memory map (the 8 KiB of system RAM, at $C000 through the systems
 * file's ram_base), and snapshots (a header plus a copy of the machine state, checked field by field when loaded). */
#include "cores/sms/sms.h"
#include "cores/sms/sms_core.h"
#include "cores/sms/sms_gpgx_state.h"
#include "cores/gpgx_state/gpgx_state.h"

#include "emu/core_iface.h"
#include "emu/native_glue.h"
#include "retrogym/version.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define STATE_MAGIC "RGSMSST"
#define STATE_VERSION 2u
#define FB_PIXELS ((size_t)RG__SMS_WIDTH * RG__SMS_HEIGHT)
#define SMS_FPS (RG__SMS_CLOCK / RG__SMS_FRAME_T)
#define ROM_MAX (4u << 20)

typedef struct sms_core {
    rg__sms_machine m;
    rg__core_io *io;
    uint8_t *rom;
    size_t rom_size;
    uint64_t rom_hash;
    uint16_t *fb;          /* the VDP draws RGB565 into it; the frame is its window (vx, vy, vw, vh) */
    unsigned vw, vh, vx, vy;
    rg__sms_state *scratch; /* a loaded state is checked here before it becomes the machine's */
} sms_core;

/* libretro joypad bits (B 0, START 3, UP 4, DOWN 5, LEFT 6, RIGHT 7, A 8) to the pad byte (up, down, left, right,
 * button 1 = B, button 2 = A). */
static uint8_t pad_byte(uint16_t b)
{
    return (uint8_t)(((b >> 4) & 0x0Fu) | (b & 1u) << 4 | ((b >> 8) & 1u) << 5);
}

static void publish_video(sms_core *c)
{
    rg_frame *f = &c->io->video;
    f->data = c->fb + (size_t)c->vy * RG__SMS_WIDTH + c->vx;
    f->width = c->vw;
    f->height = c->vh;
    f->pitch = RG__SMS_WIDTH * sizeof(uint16_t);
    f->format = RG_PIXEL_RGB565;
}

static void publish_memory(sms_core *c)
{
    rg__core_io *io = c->io;
    io->mem = NULL;
    io->n_mem = 0;
    io->system_ram = c->m.st.ram;
    io->system_ram_size = sizeof c->m.st.ram;
    io->mem_generation++;
}

static void power_on(sms_core *c)
{
    rg__sms_power_on(&c->m);
    memset(c->fb, 0, FB_PIXELS * sizeof *c->fb);
    publish_video(c);
    publish_memory(c);
}

/* --- core ops */

static int run_frame(void *core)
{
    sms_core *c = core;
    rg__core_io *io = c->io;
    c->m.buttons[0] = pad_byte(io->buttons[0]);
    c->m.buttons[1] = pad_byte(io->buttons[1]);
    c->m.start = (uint8_t)((io->buttons[0] >> 3) & 1u);
    c->m.video = io->video_enabled != 0;
    c->m.audio = io->audio_enabled && io->capture_audio;
    rg__sms_run_frame(&c->m);
    publish_video(c);
    io->audio_frames = 0;
    if (c->m.audio && c->m.alen && rg__native_publish_audio(io, c->m.abuf, c->m.alen) != RG_OK)
        return RG_ENOMEM;
    if (c->m.aerr) {
        c->m.aerr = 0;
        rg__log(&io->log, RG_LOG_ERROR, "sms: out of memory producing audio; samples dropped");
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

static int state_size(void *core, size_t *out)
{
    (void)core;
    *out = sizeof(rg__native_state_header) + sizeof(rg__sms_state);
    return RG_OK;
}

static int state_save(void *core, void *dst, size_t cap)
{
    sms_core *c = core;
    return rg__native_state_save(dst, cap, STATE_MAGIC, STATE_VERSION, c->rom_hash, &c->m.st, sizeof c->m.st,
                                 "an sms");
}

static int state_load(void *core, const void *src, size_t len)
{
    sms_core *c = core;
    if (rg__gpgx_sniff(src, len)) /* a Genesis Plus GX state (stable-retro's start states), converted */
        return rg__sms_gpgx_load(&c->m, src, len);
    int hrc = rg__native_state_header_check(src, len, STATE_MAGIC, STATE_VERSION, c->rom_hash, sizeof(rg__sms_state),
                                            "an sms");
    if (hrc != RG_OK)
        return hrc;
    rg__sms_state *st = c->scratch; /* checked here before it becomes the machine's: no allocation */
    memcpy(st, (const uint8_t *)src + sizeof(rg__native_state_header), sizeof *st);
    int rc = rg__sms_state_check(st, &c->m);
    if (rc == RG_OK)
        c->m.st = *st;
    return rc;
}

static const char *core_name(void *core)
{
    return ((sms_core *)core)->m.gg ? "gamegear" : "sms";
}

static const char *core_library(void *core)
{
    return ((sms_core *)core)->m.gg ? "retrogym Game Gear" : "retrogym SMS";
}

static const char *core_version(void *core)
{
    (void)core;
    return RG_VERSION_STRING;
}

static void destroy(void *core)
{
    sms_core *c = core;
    if (!c)
        return;
    rg__native_io_detach(c->io);
    free(c->m.abuf);
    free(c->scratch);
    free(c->fb);
    free(c->rom);
    free(c);
}

static const rg__core_ops sms_ops = {
    run_frame, reset_power_on, reset_soft, state_size, state_save, state_load,
    core_name, core_library, core_version, destroy,
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
    sms_core *c = calloc(1, sizeof *c);
    if (!c)
        return rg__error(RG_ENOMEM, "out of memory");
    c->io = args->io;
    const rg_emu_options *o = args->opts;
    for (size_t i = 0; o && i < o->n_core_options; i++)
        if (o->core_options[i].key)
            rg__log(&c->io->log, RG_LOG_DEBUG, "sms: option %s is not ours; ignored", o->core_options[i].key);
    /* whole 16 KiB pages (a smaller ROM repeats); up to 48 KiB without a mapper: three pages, 0 past the end */
    int plain = size <= 0xC000u && rg__sms_detect_mapper(rom, size) == RG__SMS_MAPPER_SEGA;
    size_t padded = plain ? 0xC000u : (size + 0x3FFFu) & ~(size_t)0x3FFF;
    c->rom = calloc(1, padded);
    c->fb = calloc(FB_PIXELS, sizeof *c->fb);
    c->scratch = malloc(sizeof *c->scratch);
    if (!c->rom || !c->fb || !c->scratch) {
        c->io = NULL;
        destroy(c);
        return rg__error(RG_ENOMEM, "out of memory loading a %zu-byte ROM", size);
    }
    for (size_t i = 0; i < padded && (i == 0 || !plain); i += size)
        memcpy(c->rom + i, rom, padded - i < size ? padded - i : size);
    c->rom_size = size;
    c->rom_hash = rg__native_rom_hash(rom, size);
    c->m.rom = c->rom;
    c->m.rom_size = padded;
    c->m.pages = (unsigned)(padded / 0x4000u);
    c->m.gg = (uint8_t)is_gg(args);
    c->m.mapper = (uint8_t)(plain ? RG__SMS_MAPPER_NONE : rg__sms_detect_mapper(c->rom, padded));
    c->m.fb = c->fb;
    if (c->m.gg) {
        c->vw = RG__GG_W, c->vh = RG__GG_H, c->vx = RG__GG_X, c->vy = RG__GG_Y;
    } else {
        c->vw = RG__SMS_WIDTH, c->vh = RG__SMS_HEIGHT, c->vx = 0, c->vy = 0;
    }
    c->io->fps = SMS_FPS;
    c->io->sample_rate = RG__SMS_RATE;
    power_on(c);
    rg__log(&c->io->log, RG_LOG_DEBUG, "sms: %s, %zu KiB, %s mapper", c->m.gg ? "Game Gear" : "Master System",
            size / 1024, c->m.mapper == RG__SMS_MAPPER_CODEMASTERS ? "Codemasters" : c->m.mapper == RG__SMS_MAPPER_NONE ? "no" : "Sega");
    *core = c;
    *ops = &sms_ops;
    return RG_OK;
}

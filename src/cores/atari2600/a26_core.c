/* The Atari 2600 core behind the internal core interface (src/emu/core_iface.h): options, input, frames,
 * audio and snapshots (a header plus a copy of the machine state). */
#include "cores/atari2600/a26_core.h"
#include "cores/atari2600/a26.h"
#include "cores/atari2600/a26_props.h"

#include "emu/core_iface.h"
#include "emu/native_glue.h"
#include "retrogym/version.h"

#include <stdlib.h>
#include <string.h>

#include <nettle/md5.h>

#define A26_YSTART 34
#define A26_YSTART_MAX 64
#define A26_HEIGHT_MIN 210
#define A26_HEIGHT_MIN_50HZ 250
#define A26_HEIGHT_MAX 256
#define A26_DETECT_FRAMES 60
#define STATE_MAGIC "RGA26ST"
#define STATE_VERSION 1u
#define FB_PIXELS ((size_t)RG__A26_WIDTH * RG__A26_MAX_HEIGHT)

typedef struct a26_core {
    rg__a26_machine m;
    rg__core_io *io;
    uint8_t *rom;
    size_t rom_size;
    uint64_t rom_hash;
    uint32_t *fb;        /* the machine's two framebuffers (with the wide painter: the first one is the XRGB8888
                          * frame written from the indices when someone asks, rg__io_video_fresh) */
    uint8_t *fb8;        /* the wide painter's two frames of palette indices */
    uint32_t palette[256]; /* the indices' colours: the palette, then the colour-loss one (or the palette again) */
    uint8_t gray[256];     /* ... and their grays */
    rg__a26_cart_type cart_type;
    rg__a26_format format;  /* as given or detected: never AUTO once open */
    int detected;           /* the format came from Stella's 60-frame detection run */
    int swap_ports;
    int swap_paddles;
    rg__a26_controller controller[2];
    int32_t ystart, height;
    uint8_t switches;       /* SWCHB with no console button pressed */
    uint8_t paint_scalar;   /* atari2600_paint=scalar: the baseline drawing (tia_render.c's baseline instance, no
                             * AVX-512 painter) even where the CPU has more */
    uint8_t paint_avx2;     /* atari2600_paint=avx2: the AVX2 instance where the CPU has AVX2, never the AVX-512
                             * painter (for tests) */
    uint8_t paint_wide;     /* atari2600_paint=wide: the AVX-512 painter wherever the CPU has AVX-512 F/BW, also
                             * without VBMI (its indices then go through the scalar lookups: for tests) */
} a26_core;

/* Paddles on port p, as Stella's libretro core drives them from joypads (measured against it): joypad 2p+k (the
 * pair swapped for some cartridges) turns knob k with RIGHT/LEFT and the other knob with DOWN/UP; the IAXIS types
 * exchange the two knobs, IAXDR also the directions. B is knob k's button (SWCHA bit 7/6 left port, 3/2 right). */
static uint8_t read_paddles(a26_core *c, int p)
{
    rg__a26_controller type = c->controller[p];
    uint8_t dec[2] = {0, 0}, inc[2] = {0, 0}, pins = 0x0F;
    for (int k = 0; k < 2; k++) {
        uint16_t b = c->io->buttons[2 * p + (c->swap_paddles ? 1 - k : k)];
        int swapaxis = type != RG__A26_PADDLES, swapdir = type == RG__A26_PADDLES_IAXDR;
        int h = swapaxis ? 1 - k : k, v = 1 - h;
        int right = (b >> 7) & 1u, left = (b >> 6) & 1u, down = (b >> 5) & 1u, up = (b >> 4) & 1u;
        /* RIGHT and DOWN lower the resistance (the reading comes sooner), reversed by IAXDR */
        dec[h] |= (uint8_t)(swapdir ? left : right);
        inc[h] |= (uint8_t)(swapdir ? right : left);
        dec[v] |= (uint8_t)(swapdir ? up : down);
        inc[v] |= (uint8_t)(swapdir ? down : up);
        if (b & 1u)
            pins &= (uint8_t)~(8u >> k);
    }
    rg__a26_paddles_update(&c->m.st.paddles[p], dec, inc);
    return pins;
}

/* libretro joypad ids: B = fire, SELECT/START = the console's Select and Reset switches (port 0), then UP DOWN
 * LEFT RIGHT. */
static void read_inputs(a26_core *c)
{
    rg__a26_inputs *in = &c->m.in;
    uint16_t b0 = c->io->buttons[0], b1 = c->io->buttons[1];
    uint16_t j[2] = {c->swap_ports ? b1 : b0, c->swap_ports ? b0 : b1};
    uint8_t nib[2];
    for (int p = 0; p < 2; p++) {
        in->fire[p] = 0x80;
        if (c->controller[p] != RG__A26_JOYSTICK) {
            nib[p] = read_paddles(c, p);
        } else {
            /* directions pull SWCHA pins low: up/down/left/right in bits 4-7 (player 0), 0-3 (player 1) */
            nib[p] = (uint8_t)(~(j[p] >> 4) & 15u);
            if (j[p] & 1u)
                in->fire[p] = 0;
        }
    }
    in->swcha = (uint8_t)(nib[0] << 4 | nib[1]);
    in->swchb = (uint8_t)(c->switches & ~((b0 >> 3 & 1u) | (b0 >> 2 & 1u) << 1));
}

static void publish_video(a26_core *c)
{
    rg_frame *f = &c->io->video;
    f->data = c->m.wide_paint ? c->fb : c->m.fb;
    f->width = RG__A26_WIDTH;
    f->height = (unsigned)c->m.height;
    f->pitch = RG__A26_WIDTH * sizeof(uint32_t);
    f->format = RG_PIXEL_XRGB8888;
    rg__index_frame *ix = &c->io->index;
    if (c->m.wide_paint) {
        ix->data = c->m.fb8;
        ix->pitch = RG__A26_WIDTH;
        ix->palette = c->palette;
        ix->gray = c->gray;
        ix->xrgb = c->fb;
        c->io->video_stale = 1;
    } else {
        memset(ix, 0, sizeof *ix);
        c->io->video_stale = 0;
    }
}

static int is_50hz(rg__a26_format f)
{
    return f == RG__A26_FORMAT_PAL || f == RG__A26_FORMAT_NTSC50 || f == RG__A26_FORMAT_SECAM;
}

static void set_timing(a26_core *c, rg__a26_machine *m, rg__a26_format f)
{
    int hz50 = is_50hz(f), pal_colours = f == RG__A26_FORMAT_PAL || f == RG__A26_FORMAT_PAL60 ||
                                         f == RG__A26_FORMAT_SECAM;
    int32_t height = c->height;
    if (hz50 && height < A26_HEIGHT_MIN_50HZ)
        height = A26_HEIGHT_MIN_50HZ;
    rg__a26_set_timing(m, hz50, pal_colours, c->ystart, height);
    if (!c->fb8)
        return;
    for (unsigned i = 0; i < 128; i++) { /* the index frame's palette (the wide painter's) */
        c->palette[i] = m->palette[i];
        c->palette[i + RG__A26_LOSS] = m->palette_loss ? m->palette_loss[i] : m->palette[i];
    }
    rg__index_gray_table(c->palette, c->gray);
}

/* Stella's NTSC/PAL detection: 60 frames from power-on; PAL when at least 25 of them have PAL length. */
static int detect_format(a26_core *c)
{
    rg__a26_machine *m = malloc(sizeof *m);
    if (!m)
        return rg__error(RG_ENOMEM, "out of memory");
    *m = c->m;
    m->video = 0;
    m->audio = 0;
    m->abuf = NULL;
    m->alen = m->acap = 0;
    set_timing(c, m, RG__A26_FORMAT_NTSC);
    rg__a26_power_on(m, 0);
    for (int i = 0; i < A26_DETECT_FRAMES; i++)
        rg__a26_run_frame(m);
    c->format = m->st.tia.pal_frames * 60u >= m->st.tia.frames * 25u ? RG__A26_FORMAT_PAL : RG__A26_FORMAT_NTSC;
    c->detected = 1;
    free(m->abuf);
    free(m);
    return RG_OK;
}

static int power_on(a26_core *c)
{
    set_timing(c, &c->m, c->format);
    /* the detection run reset the machine once before: Stella's generator is that much further on */
    rg__a26_power_on(&c->m, c->detected);
    memset(c->fb, 0, 2 * FB_PIXELS * sizeof *c->fb);
    c->m.fb = c->fb;
    c->m.fb_prev = c->fb + FB_PIXELS;
    if (c->fb8) {
        memset(c->fb8, 0, 2 * FB_PIXELS);
        c->m.fb8 = c->fb8;
        c->m.fb8_prev = c->fb8 + FB_PIXELS;
    }
    c->io->fps = is_50hz(c->format) ? 50.0 : 60.0;
    c->io->sample_rate = (is_50hz(c->format) ? 3546894.0 : 3579545.0) / 114.0;
    c->io->system_ram = c->m.st.ram;
    c->io->system_ram_size = sizeof c->m.st.ram;
    c->io->mem_generation++;
    publish_video(c);
    return RG_OK;
}

/* --- core ops */

static int run_frame(void *core)
{
    a26_core *c = core;
    rg__core_io *io = c->io;
    read_inputs(c);
    c->m.video = io->video_enabled != 0;
    c->m.audio = io->audio_enabled && io->capture_audio;
    rg__a26_run_frame(&c->m);
    if (c->m.wide_paint) {
        io->index.data = c->m.fb8;
        io->video_stale = 1;
    } else {
        io->video.data = c->m.fb;
    }
    io->audio_frames = 0;
    if (c->m.audio && c->m.alen && rg__native_publish_audio(io, c->m.abuf, c->m.alen) != RG_OK)
        return RG_ENOMEM;
    if (c->m.aerr) {
        c->m.aerr = 0;
        rg__log(&io->log, RG_LOG_ERROR, "atari2600: out of memory producing audio; samples dropped");
    }
    return RG_OK;
}

static int reset_power_on(void *core)
{
    return power_on(core);
}

static int reset_soft(void *core)
{
    rg__a26_soft_reset(&((a26_core *)core)->m);
    return RG_OK;
}

static int state_size(void *core, size_t *out)
{
    (void)core;
    *out = sizeof(rg__native_state_header) + sizeof(rg__a26_state);
    return RG_OK;
}

static int state_save(void *core, void *dst, size_t cap)
{
    a26_core *c = core;
    rg__a26_state st = c->m.st;
    rg__tia_drop_cache(&st.tia);
    return rg__native_state_save(dst, cap, STATE_MAGIC, STATE_VERSION, c->rom_hash, &st, sizeof st, "an atari2600");
}

/* A Stella 3.9.3 state (stable-retro's Atari integrations start from them). Stella is reloaded before one is loaded,
 * so what it does not save comes from a fresh power-on of this ROM. */
static int state_load_stella(a26_core *c, const void *src, size_t len)
{
    rg__a26_machine fresh = c->m;
    rg__a26_state st;
    rg__a26_power_on(&fresh, c->detected);
    int rc = rg__a26_stella_state_read(src, len, &fresh.st, c->rom, c->rom_size, &st);
    if (rc != RG_OK)
        return rc;
    c->m.st = st;
    c->m.tia_clock = st.tia.last_update;
    return RG_OK;
}

static int state_load(void *core, const void *src, size_t len)
{
    a26_core *c = core;
    if (rg__a26_stella_state_sniff(src, len))
        return state_load_stella(c, src, len);
    int hrc = rg__native_state_header_check(src, len, STATE_MAGIC, STATE_VERSION, c->rom_hash, sizeof(rg__a26_state),
                                            "an atari2600");
    if (hrc != RG_OK)
        return hrc;
    rg__a26_state st;
    memcpy(&st, (const uint8_t *)src + sizeof(rg__native_state_header), sizeof st);
    if (st.cart.type != c->m.st.cart.type)
        return rg__error(RG_ESTATE, "the atari2600 state has another cartridge layout");
    int rc = rg__a26_state_check(&st, c->rom, c->rom_size);
    if (rc != RG_OK)
        return rc;
    rg__tia_drop_cache(&st.tia);
    c->m.st = st;
    /* the clock the run's end draws up to belongs to the state left behind: everything up to the loaded state's
     * last update is drawn already */
    c->m.tia_clock = st.tia.last_update;
    return RG_OK;
}

static const char *core_name(void *core)
{
    (void)core;
    return "atari2600";
}

static const char *core_library(void *core)
{
    (void)core;
    return "retrogym Atari 2600";
}

static const char *core_version(void *core)
{
    (void)core;
    return RG_VERSION_STRING;
}

static void destroy(void *core)
{
    a26_core *c = core;
    if (!c)
        return;
    rg__native_io_detach(c->io);
    free(c->m.abuf);
    free(c->fb);
    free(c->fb8);
    free(c->rom);
    free(c);
}

static const rg__core_ops a26_ops = {
    run_frame, reset_power_on, reset_soft, state_size, state_save, state_load,
    core_name, core_library, core_version, destroy,
};

/* --- options */

static int option_is(const char *value, const char *a)
{
    for (; *a; a++, value++) {
        int ch = (unsigned char)*value;
        if (ch >= 'A' && ch <= 'Z')
            ch += 'a' - 'A';
        if (ch != *a)
            return 0;
    }
    return *value == '\0';
}

static int apply_option(a26_core *c, const rg_core_option *o, int *cart_given, int *region, int *diff_given)
{
    const char *k = o->key, *v = o->value ? o->value : "";
    if (strcmp(k, "atari2600_cart_type") == 0) {
        if (option_is(v, "auto"))
            return RG_OK;
        *cart_given = 1;
        return rg__a26_cart_type_from_name(v, &c->cart_type);
    }
    if (strcmp(k, "atari2600_left_difficulty") == 0 || strcmp(k, "atari2600_right_difficulty") == 0) {
        uint8_t bit = k[10] == 'l' ? 0x40 : 0x80;
        if (!option_is(v, "a") && !option_is(v, "b"))
            return rg__error(RG_EINVAL, "%s must be A or B, not '%s'", k, v);
        c->switches = option_is(v, "a") ? (uint8_t)(c->switches | bit) : (uint8_t)(c->switches & ~bit);
        *diff_given |= bit;
        return RG_OK;
    }
    if (strcmp(k, "atari2600_tv") == 0) {
        if (!option_is(v, "color") && !option_is(v, "bw"))
            return rg__error(RG_EINVAL, "atari2600_tv must be color or bw, not '%s'", v);
        c->switches = option_is(v, "color") ? (uint8_t)(c->switches | 0x08) : (uint8_t)(c->switches & ~0x08);
        return RG_OK;
    }
    if (strcmp(k, "atari2600_region") == 0) {
        if (option_is(v, "auto"))
            *region = RG__A26_FORMAT_AUTO;
        else if (option_is(v, "ntsc"))
            *region = RG__A26_FORMAT_NTSC;
        else if (option_is(v, "pal"))
            *region = RG__A26_FORMAT_PAL;
        else
            return rg__error(RG_EINVAL, "atari2600_region must be auto, ntsc or pal, not '%s'", v);
        return RG_OK;
    }
    if (strcmp(k, "atari2600_paint") == 0) {
        if (!option_is(v, "auto") && !option_is(v, "scalar") && !option_is(v, "wide") && !option_is(v, "avx2"))
            return rg__error(RG_EINVAL, "atari2600_paint must be auto, scalar, avx2 or wide, not '%s'", v);
        c->paint_scalar = option_is(v, "scalar");
        c->paint_wide = option_is(v, "wide");
        c->paint_avx2 = option_is(v, "avx2");
        return RG_OK;
    }
    rg__log(&c->io->log, RG_LOG_DEBUG, "atari2600: option %s is not ours; ignored", k);
    return RG_OK;
}

/* The cartridge's own settings (a26_props.c), where the options leave them open. */
static void apply_props(a26_core *c, int region, int diff_given)
{
    rg__a26_props p;
    uint8_t md5[16];
    struct md5_ctx ctx;
    md5_init(&ctx);
    md5_update(&ctx, c->rom_size, c->rom);
    md5_digest(&ctx, sizeof md5, md5);
    int found = rg__a26_props_find(md5, &p);
    c->ystart = found && p.ystart >= 0 ? (p.ystart > A26_YSTART_MAX ? A26_YSTART_MAX : p.ystart) : A26_YSTART;
    c->height = found && p.height ? p.height : A26_HEIGHT_MIN;
    if (c->height < A26_HEIGHT_MIN)
        c->height = A26_HEIGHT_MIN;
    if (c->height > A26_HEIGHT_MAX)
        c->height = A26_HEIGHT_MAX;
    c->format = region != RG__A26_FORMAT_AUTO ? (rg__a26_format)region : found ? p.format : RG__A26_FORMAT_AUTO;
    if (!found)
        return;
    c->swap_ports = p.swap_ports;
    c->swap_paddles = p.swap_paddles;
    c->controller[0] = p.controller[0];
    c->controller[1] = p.controller[1];
    if (!(diff_given & 0x40) && p.left_a)
        c->switches |= 0x40;
    if (!(diff_given & 0x80) && p.right_a)
        c->switches |= 0x80;
}

int rg__a26_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args)
{
    *core = NULL;
    a26_core *c = calloc(1, sizeof *c);
    if (!c)
        return rg__error(RG_ENOMEM, "out of memory");
    c->io = args->io;
    c->switches = 0x3F; /* both difficulties B, colour, no button pressed */
    int rc = RG_OK, cart_given = 0, region = RG__A26_FORMAT_AUTO, diff_given = 0;
    const rg_emu_options *o = args->opts;
    for (size_t i = 0; o && i < o->n_core_options && rc == RG_OK; i++)
        if (o->core_options[i].key)
            rc = apply_option(c, &o->core_options[i], &cart_given, &region, &diff_given);
    if (rc == RG_OK && !cart_given)
        rc = rg__a26_cart_detect(args->rom, args->rom_size, &c->cart_type);
    if (rc == RG_OK) {
        c->rom = malloc(args->rom_size);
        c->fb = calloc(2 * FB_PIXELS, sizeof *c->fb);
        /* the wide painter's indices: only where it will run (the CPU has AVX-512 BW and VBMI, or BW when asked) */
        int wide = !c->paint_scalar && !c->paint_avx2 && rg__tia_wide_paint_supported() &&
                   (c->paint_wide || rg__index_simd());
        c->fb8 = wide ? calloc(2 * FB_PIXELS + 64, 1) : NULL; /* + a store's width past the last row */
        if (!c->rom || !c->fb || (wide && !c->fb8))
            rc = rg__error(RG_ENOMEM, "out of memory loading a %zu-byte ROM", args->rom_size);
    }
    if (rc == RG_OK) {
        memcpy(c->rom, args->rom, args->rom_size);
        c->rom_size = args->rom_size;
        c->rom_hash = rg__native_rom_hash(c->rom, c->rom_size);
        apply_props(c, region, diff_given);
        rc = rg__a26_cart_init(&c->m.st.cart, c->cart_type, c->rom, c->rom_size);
    }
    if (rc == RG_OK) {
        c->m.rom = c->rom;
        c->m.rom_size = c->rom_size;
        c->m.fb = c->fb;
        c->m.fb_prev = c->fb + FB_PIXELS;
        c->m.fb8 = c->fb8;
        c->m.fb8_prev = c->fb8 ? c->fb8 + FB_PIXELS : NULL;
        c->m.wide_paint = c->fb8 != NULL; /* allocated exactly where the wide painter runs */
        c->m.tia_avx2 = !c->paint_scalar && rg__tia_avx2_supported();
        c->m.in.swcha = 0xFF;
        c->m.in.swchb = c->switches;
        c->m.in.fire[0] = c->m.in.fire[1] = 0x80;
        for (int p = 0; p < 2; p++)
            c->m.paddle_port[p] = c->controller[p] != RG__A26_JOYSTICK;
        if (c->format == RG__A26_FORMAT_AUTO)
            rc = detect_format(c);
    }
    if (rc == RG_OK)
        rc = power_on(c);
    if (rc != RG_OK) {
        c->io = NULL;
        destroy(c);
        return rc;
    }
    rg__log(&c->io->log, RG_LOG_DEBUG, "atari2600: %zu-byte cartridge %s, format %d%s, lines %d-%d", c->rom_size,
            rg__a26_cart_type_name(c->cart_type), (int)c->format, c->detected ? " (detected)" : "", (int)c->ystart,
            (int)(c->ystart + c->m.height));
    *core = c;
    *ops = &a26_ops;
    return RG_OK;
}

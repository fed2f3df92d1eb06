/* The Genesis / Mega Drive core behind the internal core interface (src/emu/core_iface.h): input (two 3-button
 * pads), frames (XRGB8888, 320x224 in H40 and 256x224 in H32), 44,100 Hz stereo audio while observed (YM2612 and
 * PSG, docs/genesis.md "Audio"), the 64 KiB of work RAM as system RAM (the byte order Genesis Plus GX exposes), and snapshots (a header plus a copy of the machine state,
 * checked field by field when loaded). */
#include "cores/genesis/genesis.h"
#include "cores/genesis/genesis_core.h"
#include "cores/genesis/genesis_gpgx_state.h"
#include "cores/gpgx_state/gpgx_state.h"

#include "emu/core_iface.h"
#include "emu/native_ops.h"

#include <stdlib.h>
#include <string.h>

#define FB_PIXELS ((size_t)RG__GEN_WIDTH * RG__GEN_MAX_HEIGHT)
#define GEN_FPS (RG__GEN_MCLK / RG__GEN_FRAME_MCLK)

typedef struct gen_core {
    rg__native_core base;
    rg__gen_machine m;
} gen_core;

/* state versions: 4: the cartridge (backup RAM, slots) in the state; 5: the YM2612 and PSG synthesis (fm); 6: the
 * VDP's sprite table copy (vdp.sat); 7: the serial EEPROM (cart.eeprom) */
static const rg__native_kind gen_kind = {
    "genesis", "retrogym Genesis", "RGGENST", 7u, sizeof(rg__gen_state), "a genesis",
};

static void publish(gen_core *c)
{
    rg__native_publish_frame(c->base.io, c->m.fb, c->m.width, c->m.height, RG__GEN_WIDTH * sizeof(uint32_t),
                             RG_PIXEL_XRGB8888);
}

static int power_on(void *core)
{
    gen_core *c = core;
    rg__gen_power_on(&c->m);
    memset(c->m.fb, 0, FB_PIXELS * sizeof *c->m.fb);
    publish(c);
    rg__core_io *io = c->base.io;
    /* the backup RAM, when the cartridge has some (genesis_cart.c): 64 KiB as Genesis Plus GX exposes it */
    int saves = c->m.sram_on || c->m.eeprom.kind; /* a serial EEPROM's array is the same 64 KiB (genesis_eeprom.c) */
    io->save_ram = saves ? c->m.st.cart.sram : NULL;
    io->save_ram_size = saves ? sizeof c->m.st.cart.sram : 0;
    rg__native_publish_memory(io, NULL, 0, c->m.st.ram, sizeof c->m.st.ram);
    return RG_OK;
}

static int run_frame(void *core)
{
    gen_core *c = core;
    rg__core_io *io = c->base.io;
    c->m.pad[0] = io->buttons[0];
    c->m.pad[1] = io->buttons[1];
    c->m.video = io->video_enabled != 0;
    /* the YM2612 and PSG are synthesised only while someone keeps the samples (docs/genesis.md, "Audio") */
    c->m.audio = io->audio_enabled && io->capture_audio;
    if (c->m.audio)
        rg__gen_audio_begin(&c->m);
    rg__gen_run_frame(&c->m);
    publish(c);
    io->audio_frames = 0;
    if (c->m.audio) {
        rg__gen_audio_run_to(&c->m, rg__gen_frame_base(&c->m.st));
        if (c->m.alen && rg__native_publish_audio_stereo(io, c->m.abuf, c->m.alen) != RG_OK)
            return RG_ENOMEM;
    }
    return RG_OK;
}

static int reset_soft(void *core)
{
    rg__gen_reset_soft(&((gen_core *)core)->m);
    return RG_OK;
}

static int state_load(void *core, const void *src, size_t len)
{
    gen_core *c = core;
    if (rg__gpgx_sniff(src, len)) { /* a Genesis Plus GX state (stable-retro's start states), converted */
        int grc = rg__gen_gpgx_load(&c->m, src, len);
        if (grc == RG_OK) {
            rg__gen_cart_refresh(&c->m);
            publish(c);
        }
        return grc;
    }
    rg__gen_state *st = c->base.scratch;
    int rc = rg__native_snapshot_read(&c->base, src, len);
    if (rc == RG_OK)
        rc = rg__gen_state_check(st);
    if (rc == RG_OK)
        rc = rg__gen_cart_check(&c->m, &st->cart);
    if (rc == RG_OK) {
        c->m.st = *st;
        rg__gen_cart_refresh(&c->m);
        rg__gen_frame_size(&c->m);
        publish(c);
    }
    return rc;
}

/* the shared teardown, after the backup RAM published by power_on is forgotten too */
static void destroy(void *core)
{
    gen_core *c = core;
    rg__core_io *io = c ? c->base.io : NULL;
    if (io) {
        io->save_ram = NULL;
        io->save_ram_size = 0;
    }
    rg__native_destroy(core);
}

static const rg__core_ops gen_ops = {
    run_frame, power_on, reset_soft, rg__native_state_size, rg__native_snapshot, state_load,
    rg__native_name, rg__native_library, rg__native_version, destroy,
};

int rg__genesis_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args)
{
    *core = NULL;
    size_t size = args->rom_size;
    if (size < 512u || size > RG__GEN_CART_MAX)
        return rg__error(RG_EINVAL, "a Genesis ROM is from 512 bytes to 4 MiB (8 MiB with the SSF2 bank registers); "
                         "this one is %zu bytes", size);
    if (size % 16384u == 512u && args->rom[8] == 0xAA && args->rom[9] == 0xBB)
        return rg__error(RG_EINVAL, "this Genesis ROM is in the interleaved SMD format, which the genesis core "
                         "does not read yet; convert it to a plain .md/.bin image");
    size_t padded = 512u * 1024u;
    while (padded < size)
        padded *= 2u;
    gen_core *c = rg__native_new(sizeof *c, &gen_kind, args->io);
    if (!c)
        return RG_ENOMEM;
    c->base.st = &c->m.st;
    /* the screen an environment observes, as stable-retro fixes it for Genesis Plus GX and a Genesis game (src/emu/
     * screen.c): 320 x 224 whatever mode the game powers on in (power-on shows 256 x 192, mode 4) */
    c->base.io->base_width = RG__GEN_WIDTH;
    c->base.io->base_height = 224;
    int rc = rg__native_buffers(&c->base, padded, FB_PIXELS * sizeof *c->m.fb, size);
    if (rc != RG_OK)
        return rg__native_open_failed(&c->base, rc);
    /* a smaller ROM repeats, from its size rounded up to even (an odd last byte is padded with 0) */
    size_t even = size + (size & 1u);
    for (size_t i = 0; i < padded; i += even)
        memcpy(c->base.rom + i, args->rom, padded - i < size ? padded - i : size);
    c->base.rom_hash = rg__native_rom_hash(args->rom, size);
    c->m.rom = c->base.rom;
    c->m.rom_mask = (uint32_t)(padded - 1u);
    c->m.fb = c->base.fb;
    rc = rg__gen_cart_open(&c->m, args->rom, size);
    if (rc != RG_OK)
        return rg__native_open_failed(&c->base, rc);
    rg__native_options_ignored(c->base.io, args->opts, "genesis");
    c->base.io->sample_rate = 44100.0;
    power_on(c);
    c->base.io->fps = (c->m.st.region & 0x40u) ? RG__GEN_MCLK_PAL / (double)rg__gen_frame_mclk(&c->m.st) : GEN_FPS; /* PAL 49.70 */
    rg__log(&c->base.io->log, RG_LOG_DEBUG, "genesis: %zu KiB ROM", size / 1024);
    *core = c;
    *ops = &gen_ops;
    return RG_OK;
}

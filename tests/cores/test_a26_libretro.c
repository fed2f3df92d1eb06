/* The standalone libretro build of our Atari 2600 core (atari2600_libretro.so), loaded through our own libretro
 * host: it runs the test ROM by its contract, its frames, RAM and states equal the native core's frame for frame,
 * its options reach the core, and it exports nothing but the retro_* API. */
#include "test_support.h"

#include "cores/atari2600/a26_core.h"
#include "emu/core_iface.h"

#include <dlfcn.h>
#include <libretro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef A26_LIBRETRO
#error "A26_LIBRETRO must name the built atari2600_libretro.so"
#endif

#define FRAMES 300

/* The native core, driven the way the emulator layer drives a backend. */
typedef struct native {
    void *core;
    const rg__core_ops *ops;
    rg__core_io io;
} native;

static void native_open(native *n, const char *path)
{
    memset(n, 0, sizeof *n);
    uint8_t *rom;
    size_t size;
    assert_int_equal(rg__read_file(path, 1u << 20, &rom, &size), RG_OK);
    const rg_system_info *sys;
    assert_int_equal(rg_system_find(&sys, "Atari2600"), RG_OK);
    static const rg_emu_options opts = RG_EMU_OPTIONS_INIT;
    n->io.video_enabled = 1;
    n->io.audio_enabled = 1;
    n->io.capture_audio = 1; /* the shim always asks for samples (the sound generator's state depends on it) */
    rg__core_open_args args = {NULL, path, rom, size, &opts, sys, &n->io};
    int rc = rg__a26_open(&n->core, &n->ops, &args);
    free(rom);
    if (rc != RG_OK)
        fail_msg("native open: %s", rg_error_last());
}

static void native_free(native *n)
{
    n->ops->destroy(n->core);
    free(n->io.audio);
}

static rg_emu *hosted_open(const char *path, const rg_core_option *options, size_t n_options, int *rc_out)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = A26_LIBRETRO;
    o.log = test_quiet_log;
    o.core_options = options;
    o.n_core_options = n_options;
    rg_emu *emu = NULL;
    int rc = rg_emu_open(&emu, path, &o);
    if (rc_out)
        *rc_out = rc;
    else if (rc != RG_OK)
        fail_msg("open %s in %s: %s", path, A26_LIBRETRO, rg_error_last());
    return emu;
}

static uint8_t read_u8(const rg_emu *emu, uint64_t addr)
{
    uint8_t v = 0;
    if (rg_emu_mem_read(emu, addr, &v, 1) != RG_OK)
        fail_msg("read 0x%llx: %s", (unsigned long long)addr, rg_error_last());
    return v;
}

/* Inputs of frame f: a few held buttons changing every 5 frames on both ports (the console's buttons only). */
static uint16_t pad_of(unsigned f, unsigned port)
{
    uint32_t x = (f / 5 + 1) * 2654435761u + port * 40503u;
    return (uint16_t)((x >> 24) & 0xFD);
}

/* The test ROM by its manifest: signature, +1 counter, each button in RAM after the lag. */
static void runs_test_rom(void **state)
{
    (void)state;
    test_rom r;
    test_rom_get("Atari2600", &r);
    rg_emu *emu = hosted_open(r.path, NULL, 0, NULL);
    assert_string_equal(rg_emu_system(emu)->name, "Atari2600");
    assert_non_null(strstr(rg_emu_core_library(emu), "Atari 2600"));
    for (unsigned i = 0; i < r.warmup; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    uint8_t start = read_u8(emu, r.counter_addr);
    for (unsigned i = 1; i <= FRAMES; i++) {
        assert_int_equal(rg_emu_run(emu), RG_OK);
        uint8_t c = read_u8(emu, r.counter_addr);
        if (c != (uint8_t)(start + i))
            fail_msg("counter %u after %u frames, expected %u", c, i, (uint8_t)(start + i));
    }
    char sig[8];
    assert_int_equal(rg_emu_mem_read(emu, r.signature_addr, sig, 8), RG_OK);
    assert_memory_equal(sig, "HOMEBREW", 8);
    assert_int_equal(rg_emu_ram_size(emu), 128);
    rg_frame f;
    assert_int_equal(rg_emu_frame(emu, &f), RG_OK);
    assert_int_equal(f.width, 160);
    assert_int_equal(f.format, RG_PIXEL_XRGB8888);

    const rg_system_info *sys = rg_emu_system(emu);
    assert_int_equal(test_read_pad(emu, &r), 0);
    for (size_t b = 0; b < r.n_pad_bits; b++) {
        int id = rg_system_button_id(sys, r.pad_bits[b].button);
        assert_true(id >= 0);
        rg_emu_set_buttons(emu, 0, (uint16_t)(1u << id));
        for (unsigned i = 0; i < r.pad_lag; i++)
            rg_emu_run(emu);
        if (test_read_pad(emu, &r) != r.pad_bits[b].bits)
            fail_msg("holding %s gives pad 0x%x, expected 0x%x", r.pad_bits[b].button, test_read_pad(emu, &r),
                     r.pad_bits[b].bits);
        rg_emu_set_buttons(emu, 0, 0);
        for (unsigned i = 0; i < r.pad_lag; i++)
            rg_emu_run(emu);
        assert_int_equal(test_read_pad(emu, &r), 0);
    }
    rg_emu_free(emu);
}

static void same_frame(const rg_frame *a, const rg_frame *b, unsigned frame)
{
    if (a->width != b->width || a->height != b->height || a->format != b->format)
        fail_msg("frame %u: %ux%u/%d hosted vs %ux%u/%d native", frame, a->width, a->height, (int)a->format,
                 b->width, b->height, (int)b->format);
    assert_non_null(a->data);
    assert_non_null(b->data);
    size_t row = (size_t)a->width * 4;
    for (unsigned y = 0; y < a->height; y++)
        if (memcmp((const uint8_t *)a->data + y * a->pitch, (const uint8_t *)b->data + y * b->pitch, row) != 0)
            fail_msg("frame %u: row %u differs between the .so and the native core", frame, y);
}

static void same_ram(const rg_emu *emu, const native *n, unsigned frame)
{
    uint8_t ram[128];
    assert_int_equal(n->io.system_ram_size, 128);
    assert_int_equal(rg_emu_ram_copy(emu, ram, sizeof ram), RG_OK);
    if (memcmp(ram, n->io.system_ram, 128) != 0)
        fail_msg("frame %u: RAM differs between the .so and the native core", frame);
}

static void step_both(rg_emu *emu, native *n, unsigned f)
{
    for (unsigned port = 0; port < 2; port++) {
        rg_emu_set_buttons(emu, port, pad_of(f, port));
        n->io.buttons[port] = pad_of(f, port);
    }
    assert_int_equal(rg_emu_run(emu), RG_OK);
    assert_int_equal(n->ops->run_frame(n->core), RG_OK);
    rg_frame hf;
    assert_int_equal(rg_emu_frame(emu, &hf), RG_OK);
    rg__io_video_fresh(&n->io);
    same_frame(&hf, &n->io.video, f);
    same_ram(emu, n, f);
}

/* Frame for frame, the .so behind our host and the native core agree on pixels and RAM. */
static void equals_native(void **state)
{
    (void)state;
    test_rom r;
    test_rom_get("Atari2600", &r);
    rg_emu *emu = hosted_open(r.path, NULL, 0, NULL);
    native n;
    native_open(&n, r.path);
    assert_true(rg_emu_fps(emu) > 59.0 && rg_emu_fps(emu) < 61.0);
    assert_true(rg_emu_fps(emu) == n.io.fps);
    for (unsigned f = 0; f < FRAMES; f++)
        step_both(emu, &n, f);
    /* Power-on reset brings both back to the same start. */
    assert_int_equal(rg_emu_reset(emu), RG_OK);
    assert_int_equal(n.ops->reset_power_on(n.core), RG_OK);
    for (unsigned f = 0; f < 20; f++)
        step_both(emu, &n, f);
    native_free(&n);
    rg_emu_free(emu);
}

/* States: the .so's states are the native core's bytes; each side loads the other's and both go on alike; a
 * state restored in the .so replays the same frames. */
static void states_round_trip(void **state)
{
    (void)state;
    test_rom r;
    test_rom_get("Atari2600", &r);
    rg_emu *emu = hosted_open(r.path, NULL, 0, NULL);
    native n;
    native_open(&n, r.path);
    for (unsigned f = 0; f < 100; f++)
        step_both(emu, &n, f);

    size_t hs = 0, ns = 0;
    assert_int_equal(rg_emu_state_size(emu, &hs), RG_OK);
    assert_int_equal(n.ops->state_size(n.core, &ns), RG_OK);
    assert_int_equal(hs, ns);
    uint8_t *hstate = malloc(hs), *nstate = malloc(ns);
    assert_non_null(hstate);
    assert_non_null(nstate);
    size_t written = 0;
    assert_int_equal(rg_emu_state_save(emu, hstate, hs, &written), RG_OK);
    assert_int_equal(n.ops->state_save(n.core, nstate, ns), RG_OK);
    assert_memory_equal(hstate, nstate, hs);

    uint64_t ram_hash[60];
    for (unsigned f = 100; f < 160; f++) {
        step_both(emu, &n, f);
        ram_hash[f - 100] = test_ram_hash(emu);
    }
    /* Replay in the .so from its own state, and from the native one; the native core from the .so's. */
    assert_int_equal(rg_emu_state_load(emu, nstate, ns), RG_OK);
    assert_int_equal(n.ops->state_load(n.core, hstate, hs), RG_OK);
    for (unsigned f = 100; f < 160; f++) {
        step_both(emu, &n, f);
        if (test_ram_hash(emu) != ram_hash[f - 100])
            fail_msg("frame %u after the state load differs from the first run", f);
    }
    assert_int_equal(rg_emu_state_load(emu, hstate, hs), RG_OK);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    /* A truncated state is refused and changes nothing. */
    assert_int_not_equal(rg_emu_state_load(emu, hstate, hs / 2), RG_OK);
    free(hstate);
    free(nstate);
    native_free(&n);
    rg_emu_free(emu);
}

/* Core options reach the core through the libretro variables: forcing a layout the image cannot have fails the
 * load; the right one loads. */
static void options_reach_the_core(void **state)
{
    (void)state;
    test_rom r;
    test_rom_get("Atari2600", &r);
    int rc = RG_OK;
    rg_core_option bad = {"atari2600_cart_type", "F8"};
    rg_emu *emu = hosted_open(r.path, &bad, 1, &rc);
    assert_int_not_equal(rc, RG_OK);
    assert_null(emu);
    rg_core_option good = {"atari2600_cart_type", "4K"};
    emu = hosted_open(r.path, &good, 1, &rc);
    assert_int_equal(rc, RG_OK);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    rg_emu_free(emu);
}

/* Only the libretro API leaves the .so: a host that links the same sources cannot bind to its copies. */
static void exports_only_retro_api(void **state)
{
    (void)state;
    void *h = dlopen(A26_LIBRETRO, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        fail_msg("dlopen: %s", dlerror());
    static const char *const wanted[] = {"retro_api_version", "retro_init", "retro_run", "retro_load_game",
                                         "retro_serialize", "retro_get_memory_data", "retro_set_environment"};
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        if (!dlsym(h, wanted[i]))
            fail_msg("%s is not exported", wanted[i]);
    static const char *const hidden[] = {"rg__a26_open", "rg__error", "rg_error_last", "rg__a26_cart_detect",
                                         "rg__read_file"};
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
        if (dlsym(h, hidden[i]))
            fail_msg("%s leaks out of the .so", hidden[i]);
    unsigned (*api)(void) = (unsigned (*)(void))dlsym(h, "retro_api_version");
    assert_int_equal(api(), 1);
    dlclose(h);
}

/* A bare frontend (no retrogym host): the call order RetroArch uses, a game given by path only, a refused image. */
static unsigned bare_frames, bare_width;
static size_t bare_samples;
static bool bare_env(unsigned cmd, void *data)
{
    if (cmd == RETRO_ENVIRONMENT_SET_PIXEL_FORMAT)
        return *(const enum retro_pixel_format *)data == RETRO_PIXEL_FORMAT_XRGB8888;
    return false; /* no log, no variables, no dupe, no A/V flags: the core must cope */
}
static void bare_video(const void *data, unsigned w, unsigned h, size_t pitch)
{
    (void)h;
    (void)pitch;
    if (data) {
        bare_frames++;
        bare_width = w;
    }
}
static size_t bare_audio(const int16_t *data, size_t frames)
{
    (void)data;
    bare_samples += frames;
    return frames;
}
static void bare_poll(void)
{
}
static int16_t bare_input(unsigned port, unsigned device, unsigned index, unsigned id)
{
    (void)device;
    (void)index;
    return port == 0 && id == RETRO_DEVICE_ID_JOYPAD_RIGHT;
}

#define SYM(h, name) fn_##name = (__typeof__(fn_##name))dlsym(h, #name); assert_non_null(fn_##name)

static void bare_frontend(void **state)
{
    (void)state;
    test_rom r;
    test_rom_get("Atari2600", &r);
    void *h = dlopen(A26_LIBRETRO, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(h);
    void (*fn_retro_set_environment)(retro_environment_t);
    void (*fn_retro_set_video_refresh)(retro_video_refresh_t);
    void (*fn_retro_set_audio_sample_batch)(retro_audio_sample_batch_t);
    void (*fn_retro_set_input_poll)(retro_input_poll_t);
    void (*fn_retro_set_input_state)(retro_input_state_t);
    void (*fn_retro_init)(void);
    void (*fn_retro_deinit)(void);
    void (*fn_retro_get_system_info)(struct retro_system_info *);
    void (*fn_retro_get_system_av_info)(struct retro_system_av_info *);
    bool (*fn_retro_load_game)(const struct retro_game_info *);
    void (*fn_retro_unload_game)(void);
    void (*fn_retro_run)(void);
    void (*fn_retro_reset)(void);
    size_t (*fn_retro_serialize_size)(void);
    bool (*fn_retro_serialize)(void *, size_t);
    bool (*fn_retro_unserialize)(const void *, size_t);
    void *(*fn_retro_get_memory_data)(unsigned);
    size_t (*fn_retro_get_memory_size)(unsigned);
    SYM(h, retro_set_environment);
    SYM(h, retro_set_video_refresh);
    SYM(h, retro_set_audio_sample_batch);
    SYM(h, retro_set_input_poll);
    SYM(h, retro_set_input_state);
    SYM(h, retro_init);
    SYM(h, retro_deinit);
    SYM(h, retro_get_system_info);
    SYM(h, retro_get_system_av_info);
    SYM(h, retro_load_game);
    SYM(h, retro_unload_game);
    SYM(h, retro_run);
    SYM(h, retro_reset);
    SYM(h, retro_serialize_size);
    SYM(h, retro_serialize);
    SYM(h, retro_unserialize);
    SYM(h, retro_get_memory_data);
    SYM(h, retro_get_memory_size);

    fn_retro_set_environment(bare_env);
    fn_retro_set_video_refresh(bare_video);
    fn_retro_set_audio_sample_batch(bare_audio);
    fn_retro_set_input_poll(bare_poll);
    fn_retro_set_input_state(bare_input);
    fn_retro_init();
    struct retro_system_info info;
    fn_retro_get_system_info(&info);
    assert_string_equal(info.valid_extensions, "a26|bin");
    assert_false(info.need_fullpath);

    /* An image no layout fits is refused. */
    uint8_t junk[3000] = {0};
    struct retro_game_info bad = {"junk.a26", junk, sizeof junk, NULL};
    assert_false(fn_retro_load_game(&bad));
    assert_null(fn_retro_get_memory_data(RETRO_MEMORY_SYSTEM_RAM));

    struct retro_game_info game = {r.path, NULL, 0, NULL}; /* by path only */
    assert_true(fn_retro_load_game(&game));
    struct retro_system_av_info av;
    fn_retro_get_system_av_info(&av);
    assert_int_equal(av.geometry.base_width, 160);
    assert_true(av.timing.fps > 59.0 && av.timing.fps < 61.0);
    assert_true(av.timing.sample_rate > 0);
    for (int i = 0; i < 10; i++)
        fn_retro_run();
    assert_int_equal(bare_frames, 10);
    assert_int_equal(bare_width, 160);
    assert_true(bare_samples > 0);
    uint8_t *ram = fn_retro_get_memory_data(RETRO_MEMORY_SYSTEM_RAM);
    assert_non_null(ram);
    assert_int_equal(fn_retro_get_memory_size(RETRO_MEMORY_SYSTEM_RAM), 128);
    assert_memory_equal(ram + (r.signature_addr - 0x80), "HOMEBREW", 8);
    uint32_t right = 0;
    for (size_t b = 0; b < r.n_pad_bits; b++)
        if (strcmp(r.pad_bits[b].button, "RIGHT") == 0)
            right = r.pad_bits[b].bits;
    assert_int_not_equal(right, 0);
    assert_int_equal(ram[r.pad_addr - 0x80], right); /* the input callback holds RIGHT on port 0 */

    size_t n = fn_retro_serialize_size();
    assert_true(n > 128);
    uint8_t *st = malloc(n);
    assert_non_null(st);
    assert_true(fn_retro_serialize(st, n));
    uint8_t counter = ram[r.counter_addr - 0x80];
    fn_retro_run();
    assert_int_equal(ram[r.counter_addr - 0x80], (uint8_t)(counter + 1));
    assert_true(fn_retro_unserialize(st, n));
    assert_int_equal(ram[r.counter_addr - 0x80], counter);
    assert_false(fn_retro_unserialize(st, n - 1));
    fn_retro_reset();
    fn_retro_run();
    free(st);
    fn_retro_unload_game();
    assert_null(fn_retro_get_memory_data(RETRO_MEMORY_SYSTEM_RAM));
    fn_retro_deinit();
    dlclose(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_test_rom),          cmocka_unit_test(equals_native),
        cmocka_unit_test(states_round_trip),      cmocka_unit_test(options_reach_the_core),
        cmocka_unit_test(exports_only_retro_api), cmocka_unit_test(bare_frontend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

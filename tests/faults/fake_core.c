/* A small but real libretro core for the fault tests: every build implements the libretro API for a made-up
 * machine (2 KiB of RAM, a 64x48 XRGB8888 picture, a frame counter), and each build misbehaves in one way chosen by
 * a compile definition FAULT_<NAME> (tests/faults/tests.cmake builds one shared object per fault). Without a
 * FAULT_ definition it is a well-behaved core, the reference the others are compared with.
 *
 * The machine: RAM[0..1] holds the buttons of port 0 as last polled, RAM[4..7] the number of frames run (little
 * endian), RAM[16] what the environment callback answered to the calls FAULT_ENV_UNKNOWN makes (0: all refused).
 * The picture is a gradient shifted by the frame counter, so consecutive frames differ.
 *
 * FAULT_FRAME (environment variable): the number of retro_run calls after loading the game from which the run
 * faults act (default 0: the first). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <libretro.h>

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(FAULT_MEM_OVERSIZE) || defined(FAULT_MAP_OVERSIZE)
#define GUARDED_RAM 1
#include <sys/mman.h>
#endif

#define W 64
#define H 48
#define RAM_SIZE 2048
#define STATE_SIZE (RAM_SIZE + 8)

static retro_environment_t environ_cb;
static retro_video_refresh_t video_cb;
static retro_audio_sample_batch_t audio_batch_cb;
static retro_input_poll_t poll_cb;
static retro_input_state_t input_cb;

static uint8_t ram[RAM_SIZE];
#ifdef GUARDED_RAM
/* FAULT_MEM_OVERSIZE: the system and backup RAM the core shows is a page of its own (the machine's RAM copied to
 * its start after every frame) followed by an inaccessible page, and the core claims three pages of each: reading
 * past the first page faults, as reading stable-retro's mGBA's 256 KiB "system RAM" of a Game Boy game did. */
/* FAULT_MAP_OVERSIZE: the same page sent as a memory map's descriptor at address 0 claiming three pages, beside a
 * well-behaved descriptor at $10000 for the machine's RAM. */
static uint8_t *shown;
static size_t page;
#endif
static uint32_t picture[W * H];
static uint32_t frames;   /* part of the machine (and of its states) */
static long runs;         /* retro_run calls since the game was loaded; not in states, so loads do not rewind it */
static long fault_frame;

#define EXPORT __attribute__((visibility("default")))
#define API(ret, name, args) EXPORT ret name args; EXPORT ret name args

API(unsigned, retro_api_version, (void))
{
#ifdef FAULT_API_VERSION
    return RETRO_API_VERSION + 1;
#else
    return RETRO_API_VERSION;
#endif
}

API(void, retro_set_environment, (retro_environment_t cb)) { environ_cb = cb; }
API(void, retro_set_video_refresh, (retro_video_refresh_t cb)) { video_cb = cb; }
API(void, retro_set_audio_sample, (retro_audio_sample_t cb)) { (void)cb; }
API(void, retro_set_audio_sample_batch, (retro_audio_sample_batch_t cb)) { audio_batch_cb = cb; }
API(void, retro_set_input_poll, (retro_input_poll_t cb)) { poll_cb = cb; }
API(void, retro_set_input_state, (retro_input_state_t cb)) { input_cb = cb; }

API(void, retro_init, (void))
{
    const char *f = getenv("FAULT_FRAME");
    fault_frame = f ? strtol(f, NULL, 10) : 0;
}

API(void, retro_deinit, (void)) {}

API(void, retro_get_system_info, (struct retro_system_info *info))
{
    memset(info, 0, sizeof *info);
    info->library_name = "retrogym fault fixture";
    info->library_version = "1";
    info->valid_extensions = "nes|sfc|smc|gb|gbc|gba|md|bin|a26|pce|sms|gg";
}

API(void, retro_get_system_av_info, (struct retro_system_av_info *info))
{
    memset(info, 0, sizeof *info);
    info->geometry.base_width = info->geometry.max_width = W;
    info->geometry.base_height = info->geometry.max_height = H;
    info->timing.fps = 60.0;
    info->timing.sample_rate = 32000.0;
}

API(void, retro_set_controller_port_device, (unsigned port, unsigned device)) { (void)port, (void)device; }

API(void, retro_reset, (void))
{
    memset(ram, 0, sizeof ram);
    frames = 0;
}

API(bool, retro_load_game, (const struct retro_game_info *game))
{
#ifdef FAULT_LOAD_FAIL
    (void)game;
    return false;
#else
    if (!game || (!game->data && !game->path))
        return false;
    enum retro_pixel_format fmt = RETRO_PIXEL_FORMAT_XRGB8888;
    if (!environ_cb(RETRO_ENVIRONMENT_SET_PIXEL_FORMAT, &fmt))
        return false;
    memset(ram, 0, sizeof ram);
    frames = 0;
    runs = 0;
#ifdef GUARDED_RAM
    page = (size_t)sysconf(_SC_PAGESIZE);
    shown = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (shown == MAP_FAILED || mprotect(shown + page, page, PROT_NONE) != 0)
        return false;
    memset(shown, 0, page);
#endif
#ifdef FAULT_MAP_OVERSIZE
    struct retro_memory_descriptor desc[2] = {{.ptr = shown, .start = 0, .len = 3 * page},
                                              {.ptr = ram, .start = 0x10000, .len = RAM_SIZE}};
    struct retro_memory_map map = {desc, 2};
    environ_cb(RETRO_ENVIRONMENT_SET_MEMORY_MAPS, &map);
#endif
    return true;
#endif
}

API(bool, retro_load_game_special, (unsigned type, const struct retro_game_info *info, size_t num))
{
    (void)type, (void)info, (void)num;
    return false;
}

API(void, retro_unload_game, (void))
{
#ifdef GUARDED_RAM
    if (shown && shown != MAP_FAILED)
        munmap(shown, 2 * page);
    shown = NULL;
#endif
}
API(unsigned, retro_get_region, (void)) { return RETRO_REGION_NTSC; }

static void draw(void)
{
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++)
            picture[y * W + x] = ((x * 4 + frames) & 0xFF) << 16 | ((y * 5) & 0xFF) << 8 | (frames & 0xFF);
}

static void present(void)
{
#if defined(FAULT_VIDEO_NONE)
    /* never calls video_refresh */
#elif defined(FAULT_VIDEO_DUPE)
    /* one real frame, then only dupes (NULL data: "the previous frame again") */
    if (frames == 1)
        video_cb(picture, W, H, W * 4);
    else
        video_cb(NULL, W, H, W * 4);
#elif defined(FAULT_VIDEO_SHORT_PITCH)
    video_cb(picture, W, H, W); /* a pitch of a quarter row: rows would overlap */
#elif defined(FAULT_VIDEO_EMPTY)
    video_cb(picture, 0, 0, 0);
#else
    video_cb(picture, W, H, W * 4);
#endif
}

#ifdef FAULT_ENV_UNKNOWN
/* Commands no host knows, and commands the host knows given NULL data: each must be refused (false). */
static unsigned ask_odd_things(void)
{
    static const unsigned unknown[] = {0xFFFFu, 12345u | RETRO_ENVIRONMENT_EXPERIMENTAL,
                                       RETRO_ENVIRONMENT_PRIVATE | 7u, 0u};
    static const unsigned need_data[] = {
        RETRO_ENVIRONMENT_GET_CAN_DUPE,        RETRO_ENVIRONMENT_SET_PIXEL_FORMAT,
        RETRO_ENVIRONMENT_GET_SYSTEM_DIRECTORY, RETRO_ENVIRONMENT_GET_SAVE_DIRECTORY,
        RETRO_ENVIRONMENT_GET_VARIABLE,        RETRO_ENVIRONMENT_SET_VARIABLES,
        RETRO_ENVIRONMENT_GET_LOG_INTERFACE,   RETRO_ENVIRONMENT_SET_MEMORY_MAPS,
        RETRO_ENVIRONMENT_SET_SYSTEM_AV_INFO,  RETRO_ENVIRONMENT_SET_CORE_OPTIONS_V2_INTL,
        RETRO_ENVIRONMENT_SET_CORE_OPTIONS_INTL, RETRO_ENVIRONMENT_SET_MESSAGE,
        RETRO_ENVIRONMENT_GET_AUDIO_VIDEO_ENABLE, RETRO_ENVIRONMENT_SET_SERIALIZATION_QUIRKS,
    };
    unsigned accepted = 0;
    uint8_t junk[256];
    memset(junk, 0xA5, sizeof junk);
    for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
        accepted += environ_cb(unknown[i], junk);
        accepted += environ_cb(unknown[i], NULL);
    }
    for (size_t i = 0; i < sizeof need_data / sizeof *need_data; i++)
        accepted += environ_cb(need_data[i], NULL);
    /* Option blocks with their parts missing: any answer will do, as long as nothing is dereferenced. */
    struct retro_core_options_v2_intl v2 = {NULL, NULL};
    environ_cb(RETRO_ENVIRONMENT_SET_CORE_OPTIONS_V2_INTL, &v2);
    struct retro_core_options_intl v1 = {NULL, NULL};
    environ_cb(RETRO_ENVIRONMENT_SET_CORE_OPTIONS_INTL, &v1);
    struct retro_message msg = {NULL, 1};
    environ_cb(RETRO_ENVIRONMENT_SET_MESSAGE, &msg);
    return accepted;
}
#endif

API(void, retro_run, (void))
{
    poll_cb();
    uint16_t buttons = (uint16_t)input_cb(0, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_MASK);
    int at_fault = runs++ >= fault_frame;
    (void)at_fault;
#ifdef FAULT_RUN_SEGV
    if (at_fault) {
        volatile int *volatile nowhere = NULL;
        *nowhere = 1; /* a real invalid write, as a buggy core would do */
        raise(SIGSEGV); /* in case the write above were somehow allowed */
    }
#endif
#ifdef FAULT_RUN_ABORT
    if (at_fault)
        abort();
#endif
#ifdef FAULT_RUN_EXIT
    if (at_fault)
        exit(3); /* a core that ends the process it runs in */
#endif
#ifdef FAULT_RUN_SLOW
    if (at_fault) { /* a slow core: 2 ms per frame (tests/pool/test_pool_wait.c) */
        struct timespec slow = {0, 2000000};
        nanosleep(&slow, NULL);
    }
#endif
#ifdef FAULT_RUN_HANG
    while (at_fault)
        sleep(1); /* a core stuck in a loop that never returns */
#endif
#ifdef FAULT_SHUTDOWN
    if (at_fault)
        environ_cb(RETRO_ENVIRONMENT_SHUTDOWN, NULL);
#endif
#ifdef FAULT_ENV_UNKNOWN
    ram[16] = (uint8_t)ask_odd_things();
#endif
    frames++;
    ram[0] = (uint8_t)(buttons & 0xFF);
    ram[1] = (uint8_t)(buttons >> 8);
    memcpy(ram + 4, &frames, sizeof frames);
#ifdef GUARDED_RAM
    memcpy(shown, ram, RAM_SIZE);
#endif
#ifdef FAULT_VIDEO_DUPE
    if (frames == 1) /* a dupe stands for the last frame sent, whose buffer the core keeps as it was */
        draw();
#else
    draw();
#endif
    present();
    static int16_t silence[2 * 533];
    audio_batch_cb(silence, 533);
}

API(size_t, retro_serialize_size, (void))
{
#if defined(FAULT_SERSIZE_ZERO)
    return 0;
#elif defined(FAULT_SERSIZE_HUGE)
    return (size_t)1 << 62;
#elif defined(FAULT_SERSIZE_CHANGES)
    static unsigned calls;
    return STATE_SIZE + (calls++ & 1) * 64; /* a different answer on every other call */
#else
    return STATE_SIZE;
#endif
}

API(bool, retro_serialize, (void *data, size_t size))
{
#ifdef FAULT_SERIALIZE_FALSE
    (void)data, (void)size;
    return false;
#else
    if (size < STATE_SIZE)
        return false;
    memcpy(data, ram, RAM_SIZE);
    memcpy((uint8_t *)data + RAM_SIZE, &frames, sizeof frames);
    memset((uint8_t *)data + RAM_SIZE + sizeof frames, 0, size - RAM_SIZE - sizeof frames);
    return true;
#endif
}

#ifndef FAULT_MISSING_SYMBOL
API(bool, retro_unserialize, (const void *data, size_t size))
{
#ifdef FAULT_UNSERIALIZE_FALSE
    (void)data, (void)size;
    return false;
#else
    /* Any state is taken (the fault tests load other cores' start states into this one); a short one only in
     * part. */
    size_t n = size < RAM_SIZE ? size : RAM_SIZE;
    memcpy(ram, data, n);
    if (size >= STATE_SIZE)
        memcpy(&frames, (const uint8_t *)data + RAM_SIZE, sizeof frames);
    return true;
#endif
}
#endif

API(void, retro_cheat_reset, (void)) {}
API(void, retro_cheat_set, (unsigned index, bool enabled, const char *code)) { (void)index, (void)enabled, (void)code; }

API(void *, retro_get_memory_data, (unsigned id))
{
#ifdef FAULT_MEM_NULL
    (void)id;
    return NULL;
#elif defined(FAULT_MEM_OVERSIZE)
    return id == RETRO_MEMORY_SYSTEM_RAM || id == RETRO_MEMORY_SAVE_RAM ? shown : NULL;
#else
    return id == RETRO_MEMORY_SYSTEM_RAM ? ram : NULL;
#endif
}

API(size_t, retro_get_memory_size, (unsigned id))
{
#if defined(FAULT_MEM_NULL) || defined(FAULT_MEM_SIZE0)
    (void)id;
    return 0;
#elif defined(FAULT_MEM_OVERSIZE)
    return id == RETRO_MEMORY_SYSTEM_RAM || id == RETRO_MEMORY_SAVE_RAM ? 3 * page : 0;
#else
    return id == RETRO_MEMORY_SYSTEM_RAM ? RAM_SIZE : 0;
#endif
}

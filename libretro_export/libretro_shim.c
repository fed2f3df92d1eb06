/* A libretro front for retrogym's own cores: the retro_* API over the internal core interface
 * (src/emu/core_iface.h), so RetroArch (or any libretro frontend, our own host included) can run them.
 *
 * One core per build: the CMake target defines RG_SHIM_ATARI2600, RG_SHIM_NES, RG_SHIM_SMS or RG_SHIM_GENESIS and
 * links the core's sources. A libretro core has one instance per loaded copy of the .so, so the instance lives behind one static
 * pointer; every symbol but the retro_* API is hidden (-fvisibility=hidden), so the copy cannot clash with its
 * host's own symbols.
 *
 * The systems a core runs (name, extensions, buttons, RAM base...) are not written here: shim_systems.h is generated
 * at build time from systems/<name>.json (cmake/libretro_systems.cmake), the data the library embeds, as k_shim_systems
 * and SHIM_VALID_EXTENSIONS. */
#include <libretro.h>

#include "emu/core_iface.h"
#include "retrogym/version.h"
#include "shim_systems.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RG_API __attribute__((visibility("default")))

/* --- the core this build carries */

typedef struct shim_option {
    const char *key;
    const char *desc; /* libretro v0 variable: "Description; default|other|..." */
} shim_option;

typedef struct shim_core {
    const char *library_name;
    int (*open)(void **core, const rg__core_ops **ops, const rg__core_open_args *args);
    const shim_option *options;
    size_t n_options;
    const struct retro_input_descriptor *inputs;
    unsigned width, height, max_width, max_height; /* geometry before the first frame */
    unsigned n_ports;
} shim_core;

#if defined(RG_SHIM_ATARI2600)
#include "cores/atari2600/a26_core.h"

static const shim_option k_a26_options[] = {
    {"atari2600_cart_type", "Cartridge type; auto|2K|4K|F8|F8SC|F6|F6SC|F4|F4SC|FE|E0|3F|FA|E7|CV|UA"},
    {"atari2600_left_difficulty", "Left difficulty switch; B|A"},
    {"atari2600_right_difficulty", "Right difficulty switch; B|A"},
    {"atari2600_tv", "TV type switch; color|bw"},
    {"atari2600_region", "Region; auto|ntsc|pal"},
};
#define A26_PAD(port)                                                                           \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_B, "Fire"},                           \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_UP, "Up"},                            \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_DOWN, "Down"},                        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_LEFT, "Left"},                        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_RIGHT, "Right"},                      \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_SELECT, "Game Select switch"},        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_START, "Game Reset switch"}
static const struct retro_input_descriptor k_a26_inputs[] = {A26_PAD(0), A26_PAD(1), {0, 0, 0, 0, NULL}};
static const shim_core k_core = {
    "retrogym Atari 2600", rg__a26_open, k_a26_options, sizeof k_a26_options / sizeof k_a26_options[0], k_a26_inputs,
    160, 210, 160, 320, 2,
};
#elif defined(RG_SHIM_NES)
#include "cores/nes/nes_core.h"

#define NES_PAD(port)                                                                           \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_A, "A"},                              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_B, "B"},                              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_SELECT, "Select"},                    \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_START, "Start"},                      \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_UP, "Up"},                            \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_DOWN, "Down"},                        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_LEFT, "Left"},                        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_RIGHT, "Right"}
static const struct retro_input_descriptor k_nes_inputs[] = {NES_PAD(0), NES_PAD(1), {0, 0, 0, 0, NULL}};
static const shim_core k_core = {
    "retrogym NES", rg__nes_open, NULL, 0, k_nes_inputs, 240, 224, 256, 240, 2,
};
/* the core's frames are RGB565 (FCEUmm's colours as FCEUmm's libretro build gives them) */
#define SHIM_PIXEL_FORMAT RETRO_PIXEL_FORMAT_RGB565
#elif defined(RG_SHIM_SMS)
#include "cores/sms/sms_core.h"

/* two systems (Sms, GameGear): a game runs as the one whose extension its file name has (Game Gear mode for .gg) */
#define SMS_PAD(port)                                                                           \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_B, "Button 1"},                       \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_A, "Button 2"},                       \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_START, "Pause / Start"},              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_UP, "Up"},                            \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_DOWN, "Down"},                        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_LEFT, "Left"},                        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_RIGHT, "Right"}
static const struct retro_input_descriptor k_sms_inputs[] = {SMS_PAD(0), SMS_PAD(1), {0, 0, 0, 0, NULL}};
static const shim_core k_core = {
    "retrogym SMS/GG", rg__sms_open, NULL, 0, k_sms_inputs, 256, 192, 256, 192, 2,
};
/* the core's frames are RGB565 */
#define SHIM_PIXEL_FORMAT RETRO_PIXEL_FORMAT_RGB565
#elif defined(RG_SHIM_GENESIS)
#include "cores/genesis/genesis_core.h"

/* the libretro buttons as Genesis Plus GX maps them (docs/genesis.md, "I/O"); frames XRGB8888, 320 or 256 wide */
#define GEN_PAD(port)                                                                           \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_Y, "A"},                              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_B, "B"},                              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_A, "C"},                              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_L, "X"},                              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_X, "Y"},                              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_R, "Z"},                              \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_SELECT, "Mode"},                      \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_START, "Start"},                      \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_UP, "Up"},                            \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_DOWN, "Down"},                        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_LEFT, "Left"},                        \
    {port, RETRO_DEVICE_JOYPAD, 0, RETRO_DEVICE_ID_JOYPAD_RIGHT, "Right"}
static const struct retro_input_descriptor k_gen_inputs[] = {GEN_PAD(0), GEN_PAD(1), {0, 0, 0, 0, NULL}};
static const shim_core k_core = {
    "retrogym Genesis", rg__genesis_open, NULL, 0, k_gen_inputs, 320, 224, 320, 240, 2,
};
#else
#error "define the core this shim carries (RG_SHIM_ATARI2600, RG_SHIM_NES, RG_SHIM_SMS, RG_SHIM_GENESIS)"
#endif

#ifndef SHIM_PIXEL_FORMAT
#define SHIM_PIXEL_FORMAT RETRO_PIXEL_FORMAT_XRGB8888
#endif

/* --- frontend callbacks and the one instance */

static retro_environment_t g_env;
static retro_video_refresh_t g_video;
static retro_audio_sample_t g_audio_one;
static retro_audio_sample_batch_t g_audio;
static retro_input_poll_t g_poll;
static retro_input_state_t g_input;
static retro_log_printf_t g_log;

typedef struct shim_instance {
    void *core;
    const rg__core_ops *ops;
    rg__core_io io;
    rg_emu_options opts;
    rg_core_option values[16];
    char value_buf[16][64];
    const rg_system_info *system; /* of k_shim_systems, chosen by the game's file name */
    int can_dupe;
    unsigned last_w, last_h;
} shim_instance;

static shim_instance *g_inst;

static void shim_log_fn(rg_log_level level, const char *message, void *user)
{
    (void)user;
    if (!g_log)
        return;
    enum retro_log_level l = level == RG_LOG_DEBUG ? RETRO_LOG_DEBUG
                             : level == RG_LOG_INFO ? RETRO_LOG_INFO
                             : level == RG_LOG_WARN ? RETRO_LOG_WARN
                                                    : RETRO_LOG_ERROR;
    g_log(l, "%s\n", message);
}

static void shim_say(enum retro_log_level level, const char *fmt, ...)
{
    if (!g_log)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    g_log(level, "%s\n", buf);
}

RG_API unsigned retro_api_version(void)
{
    return RETRO_API_VERSION;
}

RG_API void retro_set_environment(retro_environment_t cb)
{
    g_env = cb;
    struct retro_variable vars[17];
    size_t n = k_core.n_options < 16 ? k_core.n_options : 16;
    for (size_t i = 0; i < n; i++) {
        vars[i].key = k_core.options[i].key;
        vars[i].value = k_core.options[i].desc;
    }
    vars[n].key = vars[n].value = NULL;
    cb(RETRO_ENVIRONMENT_SET_VARIABLES, vars);
    bool no_game = false;
    cb(RETRO_ENVIRONMENT_SET_SUPPORT_NO_GAME, &no_game);
    struct retro_log_callback logcb;
    if (cb(RETRO_ENVIRONMENT_GET_LOG_INTERFACE, &logcb))
        g_log = logcb.log;
}

RG_API void retro_set_video_refresh(retro_video_refresh_t cb)
{
    g_video = cb;
}

RG_API void retro_set_audio_sample(retro_audio_sample_t cb)
{
    g_audio_one = cb;
}

RG_API void retro_set_audio_sample_batch(retro_audio_sample_batch_t cb)
{
    g_audio = cb;
}

RG_API void retro_set_input_poll(retro_input_poll_t cb)
{
    g_poll = cb;
}

RG_API void retro_set_input_state(retro_input_state_t cb)
{
    g_input = cb;
}

RG_API void retro_init(void)
{
}

static void close_instance(void)
{
    if (!g_inst)
        return;
    if (g_inst->ops)
        g_inst->ops->destroy(g_inst->core);
    free(g_inst->io.audio);
    free(g_inst);
    g_inst = NULL;
}

RG_API void retro_deinit(void)
{
    close_instance();
}

RG_API void retro_get_system_info(struct retro_system_info *info)
{
    memset(info, 0, sizeof *info);
    info->library_name = k_core.library_name;
    info->library_version = RG_VERSION_STRING;
    info->valid_extensions = SHIM_VALID_EXTENSIONS;
    info->need_fullpath = false;
    info->block_extract = false;
}

RG_API void retro_get_system_av_info(struct retro_system_av_info *info)
{
    memset(info, 0, sizeof *info);
    unsigned w = k_core.width, h = k_core.height;
    double fps = 60.0, rate = 31440.0;
    if (g_inst) {
        if (g_inst->io.video.width && g_inst->io.video.height) {
            w = g_inst->io.video.width;
            h = g_inst->io.video.height;
        }
        if (g_inst->io.fps > 0)
            fps = g_inst->io.fps;
        if (g_inst->io.sample_rate > 0)
            rate = g_inst->io.sample_rate;
    }
    info->geometry.base_width = w;
    info->geometry.base_height = h;
    info->geometry.max_width = k_core.max_width > w ? k_core.max_width : w;
    info->geometry.max_height = k_core.max_height > h ? k_core.max_height : h;
    info->geometry.aspect_ratio = 4.0f / 3.0f;
    info->timing.fps = fps;
    info->timing.sample_rate = rate;
}

RG_API void retro_set_controller_port_device(unsigned port, unsigned device)
{
    (void)port;
    (void)device;
}

/* Reads the option values the frontend holds into inst->values (only keys it answers). */
static void read_options(shim_instance *inst)
{
    size_t n = 0;
    for (size_t i = 0; i < k_core.n_options && n < 16; i++) {
        struct retro_variable var = {k_core.options[i].key, NULL};
        if (!g_env(RETRO_ENVIRONMENT_GET_VARIABLE, &var) || !var.value)
            continue;
        snprintf(inst->value_buf[n], sizeof inst->value_buf[n], "%s", var.value);
        inst->values[n].key = k_core.options[i].key;
        inst->values[n].value = inst->value_buf[n];
        n++;
    }
    inst->opts.core_options = inst->values;
    inst->opts.n_core_options = n;
}

/* The system of k_shim_systems one of whose extensions the file name ends in (any case), else the first. */
static const rg_system_info *system_for(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    for (size_t i = 0; dot && i < SHIM_N_SYSTEMS; i++)
        for (size_t j = 0; j < k_shim_systems[i]->n_extensions; j++)
            if (strcasecmp(dot + 1, k_shim_systems[i]->extensions[j]) == 0)
                return k_shim_systems[i];
    return k_shim_systems[0];
}

static void send_memory_map(shim_instance *inst)
{
    if (inst->io.n_mem == 0)
        return;
    static struct retro_memory_descriptor descs[16];
    size_t n = inst->io.n_mem < 16 ? inst->io.n_mem : 16;
    for (size_t i = 0; i < n; i++) {
        const rg__mem_desc *m = &inst->io.mem[i];
        memset(&descs[i], 0, sizeof descs[i]);
        descs[i].flags = (m->flags & RG__MEMDESC_CONST) ? RETRO_MEMDESC_CONST : 0;
        descs[i].ptr = m->ptr;
        descs[i].start = (size_t)m->start;
        descs[i].select = (size_t)m->select;
        descs[i].len = (size_t)m->len;
    }
    struct retro_memory_map map = {descs, (unsigned)n};
    g_env(RETRO_ENVIRONMENT_SET_MEMORY_MAPS, &map);
}

RG_API bool retro_load_game(const struct retro_game_info *game)
{
    close_instance();
    if (!game || (!game->data && !game->path)) {
        shim_say(RETRO_LOG_ERROR, "%s: no game given", k_core.library_name);
        return false;
    }
    enum retro_pixel_format fmt = SHIM_PIXEL_FORMAT;
    if (!g_env(RETRO_ENVIRONMENT_SET_PIXEL_FORMAT, &fmt)) {
        shim_say(RETRO_LOG_ERROR, "%s: the frontend refuses the core's pixel format", k_core.library_name);
        return false;
    }
    g_env(RETRO_ENVIRONMENT_SET_INPUT_DESCRIPTORS, (void *)k_core.inputs);

    shim_instance *inst = calloc(1, sizeof *inst);
    if (!inst)
        return false;
    bool dupe = false;
    inst->can_dupe = g_env(RETRO_ENVIRONMENT_GET_CAN_DUPE, &dupe) && dupe;
    static const rg_emu_options defaults = RG_EMU_OPTIONS_INIT;
    inst->opts = defaults;
    inst->opts.log = shim_log_fn;
    inst->opts.log_level = RG_LOG_DEBUG;
    read_options(inst);
    inst->io.log.fn = shim_log_fn;
    inst->io.log.level = RG_LOG_DEBUG;
    inst->io.video_enabled = 1;
    inst->io.audio_enabled = 1;
    inst->io.capture_audio = 1;
    inst->system = system_for(game->path);

    uint8_t *owned = NULL;
    const uint8_t *rom = game->data;
    size_t size = game->size;
    int rc = RG_OK;
    if (!rom) {
        rc = rg__read_file(game->path, 64u << 20, &owned, &size);
        rom = owned;
    }
    if (rc == RG_OK) {
        rg__core_open_args args = {NULL, game->path ? game->path : "(memory)", rom, size, &inst->opts,
                                   inst->system, &inst->io};
        rc = k_core.open(&inst->core, &inst->ops, &args);
    }
    free(owned);
    if (rc != RG_OK) {
        shim_say(RETRO_LOG_ERROR, "%s: %s", k_core.library_name, rg_error_last());
        free(inst->io.audio);
        free(inst);
        return false;
    }
    g_inst = inst;
    send_memory_map(inst);
    return true;
}

RG_API bool retro_load_game_special(unsigned type, const struct retro_game_info *info, size_t num)
{
    (void)type;
    (void)info;
    (void)num;
    return false;
}

RG_API void retro_unload_game(void)
{
    close_instance();
}

RG_API unsigned retro_get_region(void)
{
    return g_inst && g_inst->io.fps > 0 && g_inst->io.fps < 55.0 ? RETRO_REGION_PAL : RETRO_REGION_NTSC;
}

RG_API void retro_reset(void)
{
    if (g_inst && g_inst->ops->reset_soft(g_inst->core) != RG_OK)
        shim_say(RETRO_LOG_ERROR, "%s: reset: %s", k_core.library_name, rg_error_last());
}

RG_API void retro_run(void)
{
    shim_instance *inst = g_inst;
    if (!inst)
        return;
    if (g_poll)
        g_poll();
    for (unsigned port = 0; port < k_core.n_ports && port < RG_MAX_PORTS; port++) {
        uint16_t mask = 0;
        for (unsigned id = 0; g_input && id < inst->system->n_buttons; id++)
            if (g_input(port, RETRO_DEVICE_JOYPAD, 0, id))
                mask |= (uint16_t)(1u << id);
        inst->io.buttons[port] = mask & inst->system->button_mask;
    }
    int av = 3;
    if (!g_env(RETRO_ENVIRONMENT_GET_AUDIO_VIDEO_ENABLE, &av))
        av = 3;
    inst->io.video_enabled = (av & 1) != 0;
    inst->io.audio_enabled = (av & 2) != 0;
    inst->io.audio_frames = 0;
    if (inst->ops->run_frame(inst->core) != RG_OK) {
        shim_say(RETRO_LOG_ERROR, "%s: %s", k_core.library_name, rg_error_last());
        return;
    }
    rg__io_video_fresh(&inst->io);
    const rg_frame *v = &inst->io.video;
    if (inst->io.video_enabled && v->data) {
        if (v->width != inst->last_w || v->height != inst->last_h) {
            struct retro_game_geometry geo = {v->width, v->height, k_core.max_width, k_core.max_height, 4.0f / 3.0f};
            if (geo.max_height < v->height)
                geo.max_height = v->height;
            g_env(RETRO_ENVIRONMENT_SET_GEOMETRY, &geo);
            inst->last_w = v->width;
            inst->last_h = v->height;
        }
        if (g_video)
            g_video(v->data, v->width, v->height, v->pitch);
    } else if (g_video && inst->can_dupe) {
        g_video(NULL, inst->last_w ? inst->last_w : k_core.width, inst->last_h ? inst->last_h : k_core.height, 0);
    }
    if (inst->io.audio_enabled && inst->io.audio && inst->io.audio_frames) {
        if (g_audio) {
            const int16_t *p = inst->io.audio;
            size_t left = inst->io.audio_frames;
            while (left > 0) {
                size_t done = g_audio(p, left);
                if (done == 0 || done > left)
                    break;
                p += 2 * done;
                left -= done;
            }
        } else if (g_audio_one) {
            for (size_t i = 0; i < inst->io.audio_frames; i++)
                g_audio_one(inst->io.audio[2 * i], inst->io.audio[2 * i + 1]);
        }
    }
}

RG_API size_t retro_serialize_size(void)
{
    size_t n = 0;
    if (!g_inst || g_inst->ops->state_size(g_inst->core, &n) != RG_OK)
        return 0;
    return n;
}

RG_API bool retro_serialize(void *data, size_t size)
{
    return g_inst && g_inst->ops->state_save(g_inst->core, data, size) == RG_OK;
}

RG_API bool retro_unserialize(const void *data, size_t size)
{
    if (!g_inst)
        return false;
    if (g_inst->ops->state_load(g_inst->core, data, size) != RG_OK) {
        shim_say(RETRO_LOG_ERROR, "%s: %s", k_core.library_name, rg_error_last());
        return false;
    }
    return true;
}

RG_API void retro_cheat_reset(void)
{
}

RG_API void retro_cheat_set(unsigned index, bool enabled, const char *code)
{
    (void)index;
    (void)enabled;
    (void)code;
}

RG_API void *retro_get_memory_data(unsigned id)
{
    if (g_inst && id == RETRO_MEMORY_SAVE_RAM) /* a cartridge's backup RAM (the Genesis core's), else none */
        return g_inst->io.save_ram_size ? g_inst->io.save_ram : NULL;
    if (!g_inst || id != RETRO_MEMORY_SYSTEM_RAM)
        return NULL;
    return g_inst->io.system_ram;
}

RG_API size_t retro_get_memory_size(unsigned id)
{
    if (g_inst && id == RETRO_MEMORY_SAVE_RAM)
        return g_inst->io.save_ram ? g_inst->io.save_ram_size : 0;
    if (!g_inst || id != RETRO_MEMORY_SYSTEM_RAM)
        return 0;
    return g_inst->io.system_ram_size;
}

/* A libretro core instance behind the internal core interface (emu/core_iface.h).
 *
 * Every call into the core is bracketed by ENTER/LEAVE, which set the thread-local current instance that the
 * core's callbacks (which carry no user pointer) are routed to. Cores call back synchronously on the calling
 * thread (docs/formats.md, "libretro hosting"), so this is enough for instances on many threads at once. */
#define _GNU_SOURCE
#include "lr_host.h"
#include "lr_internal.h"

#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

_Thread_local rg__lr *rg__lr_current;

#define ENTER(lr) rg__lr *saved_current_ = rg__lr_current; rg__lr_current = (lr)
#define LEAVE() rg__lr_current = saved_current_

static void video_refresh(const void *data, unsigned width, unsigned height, size_t pitch)
{
    rg__lr *lr = rg__lr_current;
    /* NULL is a dupe (GET_CAN_DUPE): the previous frame stands. A hardware frame is never requested. */
    if (!lr || !data || data == RETRO_HW_FRAME_BUFFER_VALID)
        return;
    size_t bpp = lr->pixel_format == RETRO_PIXEL_FORMAT_XRGB8888 ? 4 : 2;
    /* An empty frame, or rows shorter than the width, cannot be a picture: dropped like a dupe. */
    if (width == 0 || height == 0 || pitch < (size_t)width * bpp) {
        if (!lr->bad_frame_logged)
            rg__log(&lr->io->log, RG_LOG_ERROR, "[%s] video frame of %ux%u with a pitch of %zu bytes ignored",
                    lr->name, width, height, pitch);
        lr->bad_frame_logged = true;
        return;
    }
    rg_frame *f = &lr->io->video;
    f->data = data;
    f->width = width;
    f->height = height;
    f->pitch = pitch;
    switch (lr->pixel_format) {
    case RETRO_PIXEL_FORMAT_XRGB8888: f->format = RG_PIXEL_XRGB8888; break;
    case RETRO_PIXEL_FORMAT_RGB565: f->format = RG_PIXEL_RGB565; break;
    default: f->format = RG_PIXEL_0RGB1555; break;
    }
}

static void append_audio(rg__core_io *io, const int16_t *data, size_t frames)
{
    if (io->audio_frames + frames > io->audio_cap) {
        size_t cap = io->audio_cap ? io->audio_cap : 2048;
        while (cap < io->audio_frames + frames)
            cap *= 2;
        int16_t *p = realloc(io->audio, cap * 2 * sizeof *p);
        if (!p) {
            rg__log(&io->log, RG_LOG_ERROR, "out of memory keeping audio; samples dropped");
            return;
        }
        io->audio = p;
        io->audio_cap = cap;
    }
    memcpy(io->audio + io->audio_frames * 2, data, frames * 2 * sizeof *data);
    io->audio_frames += frames;
}

static size_t audio_sample_batch(const int16_t *data, size_t frames)
{
    rg__lr *lr = rg__lr_current;
    if (lr && lr->io->capture_audio && data)
        append_audio(lr->io, data, frames);
    return frames;
}

static void audio_sample(int16_t left, int16_t right)
{
    int16_t pair[2] = {left, right};
    audio_sample_batch(pair, 1);
}

static void input_poll(void) {}

static int16_t input_state(unsigned port, unsigned device, unsigned index, unsigned id)
{
    (void)index;
    rg__lr *lr = rg__lr_current;
    if (!lr || port >= RG_MAX_PORTS || (device & RETRO_DEVICE_MASK) != RETRO_DEVICE_JOYPAD)
        return 0;
    uint16_t mask = lr->io->buttons[port];
    if (id == RETRO_DEVICE_ID_JOYPAD_MASK)
        return (int16_t)mask;
    return id < 16 ? (int16_t)((mask >> id) & 1) : 0;
}

/* No core checks its callbacks for NULL (docs/formats.md, "libretro hosting"): all of them are installed before
 * retro_init. */
static void install_callbacks(rg__lr *lr)
{
    lr->api.set_environment(rg__lr_environment);
    lr->api.set_video_refresh(video_refresh);
    lr->api.set_audio_sample(audio_sample);
    lr->api.set_audio_sample_batch(audio_sample_batch);
    lr->api.set_input_poll(input_poll);
    lr->api.set_input_state(input_state);
}

static void refresh_system_ram(rg__lr *lr)
{
    lr->io->system_ram = lr->api.get_memory_data(RETRO_MEMORY_SYSTEM_RAM);
    lr->io->system_ram_size = lr->io->system_ram ? lr->api.get_memory_size(RETRO_MEMORY_SYSTEM_RAM) : 0;
    lr->io->save_ram = lr->api.get_memory_data(RETRO_MEMORY_SAVE_RAM);
    lr->io->save_ram_size = lr->io->save_ram ? lr->api.get_memory_size(RETRO_MEMORY_SAVE_RAM) : 0;
    size_t ok = rg__readable_prefix(lr->io->save_ram, lr->io->save_ram_size);
    if (ok < lr->io->save_ram_size) { /* a size larger than what the core allocated (the system RAM: addrspace.c) */
        rg__log(&lr->io->log, RG_LOG_WARN, "[%s] backup RAM of %zu bytes, of which only %zu are readable memory: cut",
                lr->name, lr->io->save_ram_size, ok);
        lr->io->save_ram_size = ok;
        if (!ok)
            lr->io->save_ram = NULL;
    }
    lr->io->mem_generation++;
}

static int load_game(rg__lr *lr)
{
    struct retro_game_info game = {lr->rom_path, lr->rom, lr->rom_size, NULL};
    /* Always give both path and data: beetle-pce-fast and gpgx need the path (need_fullpath). */
    if (!lr->api.load_game(&game))
        return rg__error(RG_ECORE, "core %s refused the ROM %s", lr->name, lr->rom_path);
    lr->game_loaded = true;
    struct retro_system_av_info av;
    memset(&av, 0, sizeof av);
    lr->api.get_system_av_info(&av); /* bsnes sets its pixel format from in here */
    if (av.timing.fps > 0)
        lr->io->fps = av.timing.fps;
    if (av.timing.sample_rate > 0)
        lr->io->sample_rate = av.timing.sample_rate;
    lr->io->base_width = av.geometry.base_width;
    lr->io->base_height = av.geometry.base_height;
    lr->api.set_controller_port_device(0, RETRO_DEVICE_JOYPAD);
    lr->api.set_controller_port_device(1, RETRO_DEVICE_JOYPAD);
    refresh_system_ram(lr);
    return RG_OK;
}

/* Stops the core and unloads its copy; everything the core pointed us at is forgotten. */
static void stop_core(rg__lr *lr)
{
    if (lr->api.dl) {
        ENTER(lr);
        if (lr->game_loaded)
            lr->api.unload_game();
        if (lr->initialized)
            lr->api.deinit();
        LEAVE();
        rg__lr_api_unload(&lr->api);
    }
    lr->game_loaded = false;
    lr->initialized = false;
    free(lr->io->mem);
    lr->io->mem = NULL;
    lr->io->n_mem = 0;
    lr->io->system_ram = NULL;
    lr->io->system_ram_size = 0;
    lr->io->save_ram = NULL;
    lr->io->save_ram_size = 0;
    lr->io->video.data = NULL;
    lr->io->mem_generation++;
}

static void destroy(void *core)
{
    rg__lr *lr = core;
    if (!lr)
        return;
    stop_core(lr);
    rg__lr_options_free(&lr->options);
    if (lr->tmp_dir) {
        rg__remove_tree(lr->tmp_dir);
        free(lr->tmp_dir);
    }
    if (lr->tmp_lock >= 0)
        close(lr->tmp_lock);
    free(lr->name);
    free(lr->core_path);
    free(lr->system_dir);
    free(lr->save_dir);
    free(lr->rom_path);
    free(lr->rom);
    free(lr->state_scratch);
    free(lr->boot_state);
    free(lr);
}

/* A core without its game (a power-on reset that failed half-way) or one that asked to shut down is not called. */
static int check_running(const rg__lr *lr)
{
    if (!lr->game_loaded)
        return rg__error(RG_ECORE, "core %s has no game loaded (its last power-on reset failed)", lr->name);
    if (lr->shutdown)
        return rg__error(RG_ECORE, "core %s has shut down (RETRO_ENVIRONMENT_SHUTDOWN); reset or reopen it",
                         lr->name);
    return RG_OK;
}

static int run_frame(void *core)
{
    rg__lr *lr = core;
    int rc = check_running(lr);
    if (rc != RG_OK)
        return rc;
    lr->io->audio_frames = 0;
    ENTER(lr);
    lr->api.run();
    LEAVE();
    return check_running(lr);
}

static int start_core(rg__lr *lr);

/* Cores that leak memory on every load (measured by the soak, docs/reliability.md: bsnes-mercury ~520 KiB) and whose
 * save state reproduces boot exactly, picture and audio included (the determinism suite and host_states check it):
 * they power on by loading the state saved right after their game loaded, once per instance, instead of a fresh
 * copy per episode. nestopia is not one of them: its first frame after a state load still shows pixels of the
 * previous episode, so it reloads (docs/determinism.md); its leak per load is avoided otherwise (lr_gamedb.c). */
static bool boots_from_state(const char *name)
{
    static const char *const names[] = {"bsnes_mercury_performance", "bsnes_mercury_balanced",
                                        "bsnes_mercury_accuracy"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static int state_size(void *core, size_t *out);
static int state_save(void *core, void *dst, size_t cap);
static int state_load(void *core, const void *src, size_t len);

/* Keeps the boot state of such a core (best effort: without it, power-on reloads the core as for any other). */
static void keep_boot_state(rg__lr *lr)
{
    free(lr->boot_state);
    lr->boot_state = NULL;
    lr->boot_size = 0;
    size_t size;
    if (!boots_from_state(lr->name) || state_size(lr, &size) != RG_OK)
        return;
    uint8_t *p = malloc(size);
    if (p && state_save(lr, p, size) == RG_OK) {
        lr->boot_state = p;
        lr->boot_size = size;
    } else {
        free(p);
    }
}

/* Empties the instance's own save folder: a battery save a core wrote there must not reach the next power-on. A
 * folder the caller gave is the caller's. */
static void clear_save_dir(rg__lr *lr)
{
    if (!lr->tmp_dir || strncmp(lr->save_dir, lr->tmp_dir, strlen(lr->tmp_dir)) != 0)
        return;
    rg__remove_tree(lr->save_dir);
    (void)mkdir(lr->save_dir, 0700);
}

/* Power-on from the boot state; RG_OK when done. */
static int boot_from_state(rg__lr *lr)
{
    if (!lr->boot_state || state_load(lr, lr->boot_state, lr->boot_size) != RG_OK)
        return RG_ECORE;
    lr->io->video.data = NULL; /* no frame has run since boot */
    lr->io->audio_frames = 0;
    return RG_OK;
}

/* A true power-on: the core's private copy is unloaded and loaded again. retro_reset is a soft reset for most
 * cores, and even unload+load or deinit+init leave state in some cores' statics (gambatte's frame phase: the
 * picture differs two frames later), so only a fresh image of the shared object reproduces boot for all (except
 * the cores of boots_from_state). */
static int reset_power_on(void *core)
{
    rg__lr *lr = core;
    clear_save_dir(lr);
    if (boot_from_state(lr) == RG_OK)
        return RG_OK;
    /* The fresh copy is loaded before the running one is stopped: when the core file has gone (deleted, upgraded
     * away, unreadable), the instance keeps running as it was. */
    rg__lr_api fresh;
    int rc = rg__lr_api_load(&fresh, lr->core_path, lr->tmp_dir);
    if (rc != RG_OK)
        return rg__error_context(rc, "power-on reset (the instance goes on without it)");
    stop_core(lr);
    lr->api = fresh;
    return start_core(lr);
}

static int reset_soft(void *core)
{
    rg__lr *lr = core;
    int rc = check_running(lr);
    if (rc != RG_OK)
        return rc;
    ENTER(lr);
    lr->api.reset();
    LEAVE();
    return RG_OK;
}

static int state_size(void *core, size_t *out)
{
    rg__lr *lr = core;
    *out = 0;
    int rc = check_running(lr);
    if (rc != RG_OK)
        return rc;
    ENTER(lr);
    size_t size = lr->api.serialize_size();
    LEAVE();
    lr->state_size_seen = size;
    if (size == 0)
        return rg__error(RG_EUNSUPPORTED, "core %s cannot make save states", lr->name);
    if (size > RG__LR_MAX_STATE)
        return rg__error(RG_ECORE, "core %s asks for a state of %zu bytes, over the limit of %zu", lr->name, size,
                         RG__LR_MAX_STATE);
    *out = size;
    return RG_OK;
}

static int state_save(void *core, void *dst, size_t cap)
{
    rg__lr *lr = core;
    size_t before = lr->state_size_seen, size;
    int rc = state_size(core, &size);
    if (rc != RG_OK)
        return rc;
    /* rg_emu_state_save asks for the size just before, and reports that many bytes written: a core whose answer
     * changes from one call to the next would make that a lie. */
    if (before != 0 && before != size)
        return rg__error(RG_ECORE, "core %s changed its state size between two calls (%zu, then %zu bytes)",
                         lr->name, before, size);
    if (cap < size)
        return rg__error(RG_EBUFFER, "a state of core %s needs %zu bytes, the buffer has %zu", lr->name, size, cap);
    /* Cores write fewer bytes than their size (Genesis Plus GX: its blocks, then nothing; mGBA leaves padding):
     * what they skip would be the caller's old bytes, so two saves of one moment would differ and a state would
     * carry heap contents. Zeros, as the states stable-retro ships have there. */
    memset(dst, 0, size);
    ENTER(lr);
    bool ok = lr->api.serialize(dst, size);
    LEAVE();
    if (!ok)
        return rg__error(RG_ECORE, "core %s failed to serialize", lr->name);
    return RG_OK;
}

/* The length of the length-prefixed (32-bit little-endian) string at p[0..avail), 0 when there is none. */
static size_t stella_string(const uint8_t *p, size_t avail)
{
    if (avail < 4)
        return 0;
    uint32_t n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    if (n == 0 || n > 64 || n > avail - 4)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (p[4 + i] < 0x20 || p[4 + i] > 0x7E)
            return 0;
    return 4 + n;
}

/* Stella throws a C++ exception out of retro_unserialize when it cannot parse a state, which ends the process (no C
 * caller can catch it). So it only gets states as long as its own that start like its own: the same version string
 * and cartridge type (the first two strings). Damage past them can still reach it. */
static int stella_state_check(rg__lr *lr, const uint8_t *src, size_t len, size_t size)
{
    if (strcmp(lr->library_name, "Stella") != 0)
        return RG_OK;
    if (len < size)
        return rg__error(RG_ESTATE, "the state is %zu bytes; Stella's are %zu", len, size);
    uint8_t *own = malloc(size);
    if (!own)
        return rg__error(RG_ENOMEM, "out of memory loading a state");
    ENTER(lr);
    bool ok = lr->api.serialize(own, size);
    LEAVE();
    size_t head = 0, a = ok ? stella_string(own, size) : 0, b = a ? stella_string(own + a, size - a) : 0;
    if (b)
        head = a + b;
    int rc = RG_OK;
    if (!ok)
        rc = rg__error(RG_ECORE, "core %s failed to serialize", lr->name);
    else if (head == 0 || memcmp(own, src, head) != 0)
        rc = rg__error(RG_ESTATE, "not a state of this Stella and cartridge type (its header differs)");
    free(own);
    return rc;
}

/* bsnes-mercury's states all have the size it asks for, and it crashes on a shorter one (it reads on past the
 * length it is given: 37-39 of 75 cut states in faults_damaged_states crashed it), so it gets none shorter. */
static int bsnes_state_check(const rg__lr *lr, size_t len, size_t size)
{
    if (strncmp(lr->library_name, "bsnes", 5) != 0 || len >= size)
        return RG_OK;
    return rg__error(RG_ESTATE, "the state is %zu bytes; %s's are %zu", len, lr->library_name, size);
}

static int state_load(void *core, const void *src, size_t len)
{
    rg__lr *lr = core;
    size_t size;
    if (len == 0 || !src)
        return rg__error(RG_ESTATE, "the state is empty");
    int rc = state_size(core, &size);
    if (rc != RG_OK)
        return rc;
    /* Longer states are passed whole, as Gym Retro does (other builds of a core may write more: stable-retro's
     * Atari states hold 512 bytes where its Stella asks for 481), up to a bound. */
    if (len > size * 2 + 65536)
        return rg__error(RG_ESTATE, "the state is %zu bytes; core %s takes %zu", len, lr->name, size);
    /* A shorter state is passed with its own length, from a buffer padded to the core's full size so a core
     * that ignores the length cannot read past it. */
    size_t room = len > size ? len : size;
    if (lr->state_scratch_size < room) {
        uint8_t *p = realloc(lr->state_scratch, room);
        if (!p)
            return rg__error(RG_ENOMEM, "out of memory loading a state");
        lr->state_scratch = p;
        lr->state_scratch_size = room;
    }
    if ((rc = stella_state_check(lr, src, len, size)) != RG_OK || (rc = bsnes_state_check(lr, len, size)) != RG_OK)
        return rc;
    memcpy(lr->state_scratch, src, len);
    memset(lr->state_scratch + len, 0, room - len);
    ENTER(lr);
    bool ok = lr->api.unserialize(lr->state_scratch, len);
    LEAVE();
    if (!ok)
        return rg__error(RG_ESTATE, "core %s refused the state (%zu bytes)", lr->name, len);
    return RG_OK;
}

static int start_core(rg__lr *lr)
{
    lr->pixel_format = RETRO_PIXEL_FORMAT_0RGB1555; /* libretro's default, until the core asks for another */
    lr->shutdown = false;
    lr->bad_frame_logged = false;
    lr->state_size_seen = 0;
    ENTER(lr);
    install_callbacks(lr);
    lr->api.init();
    lr->initialized = true;
    struct retro_system_info info;
    memset(&info, 0, sizeof info);
    lr->api.get_system_info(&info);
    snprintf(lr->library_name, sizeof lr->library_name, "%s", info.library_name ? info.library_name : lr->name);
    snprintf(lr->library_version, sizeof lr->library_version, "%s",
             info.library_version ? info.library_version : "");
    lr->need_fullpath = info.need_fullpath;
    rg__lr_write_game_db(lr);
    int rc = load_game(lr);
    LEAVE();
    if (rc == RG_OK)
        keep_boot_state(lr);
    return rc;
}

static const char *core_name(void *core) { return ((rg__lr *)core)->name; }
static const char *core_library(void *core) { return ((rg__lr *)core)->library_name; }
static const char *core_version(void *core) { return ((rg__lr *)core)->library_version; }

static const rg__core_ops lr_ops = {
    run_frame, reset_power_on, reset_soft, state_size, state_save, state_load,
    core_name, core_library, core_version, destroy,
};

static char *stem_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    const char *suffix = "_libretro.so";
    size_t sl = strlen(suffix);
    if (n > sl && strcmp(base + n - sl, suffix) == 0)
        n -= sl;
    else if (n > 3 && strcmp(base + n - 3, ".so") == 0)
        n -= 3;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, base, n);
        s[n] = '\0';
    }
    return s;
}

/* Once per process, the private folders of instances whose processes ended without removing them (killed,
 * crashed) go: their locks are free. A minute's age keeps folders being made out of reach. */
static pthread_once_t sweep_once = PTHREAD_ONCE_INIT;

static void sweep_stale_folders(void)
{
    rg__tempdir_sweep("retrogym", 60);
}

static int make_dir(char **out, const char *given, const char *tmp_dir, const char *leaf)
{
    int rc = RG_OK;
    if (given) {
        *out = rg__strdup(given, &rc);
        return rc;
    }
    *out = rg__asprintf("%s/%s", tmp_dir, leaf);
    if (!*out)
        return rg__error(RG_ENOMEM, "out of memory");
    if (mkdir(*out, 0700) != 0)
        return rg__error(RG_EIO, "cannot create %s", *out);
    return RG_OK;
}

static int setup(rg__lr *lr, const rg__core_open_args *a)
{
    int rc = RG_OK;
    if (!(lr->name = stem_of(a->core_path)) || !(lr->core_path = rg__strdup(a->core_path, &rc)) ||
        !(lr->rom_path = rg__strdup(a->rom_path, &rc)))
        return rc != RG_OK ? rc : rg__error(RG_ENOMEM, "out of memory");
    lr->rom = malloc(a->rom_size);
    if (!lr->rom)
        return rg__error(RG_ENOMEM, "out of memory copying the ROM (%zu bytes)", a->rom_size);
    memcpy(lr->rom, a->rom, a->rom_size);
    lr->rom_size = a->rom_size;
    if ((rc = rg__lr_options_set_overrides(&lr->options, a->opts->core_options, a->opts->n_core_options, a->system,
                                           lr->name)) != RG_OK)
        return rc;
    pthread_once(&sweep_once, sweep_stale_folders);
    if ((rc = rg__tempdir_create_locked(&lr->tmp_dir, &lr->tmp_lock, "retrogym")) != RG_OK ||
        (rc = make_dir(&lr->system_dir, a->opts->system_dir, lr->tmp_dir, "system")) != RG_OK ||
        (rc = make_dir(&lr->save_dir, a->opts->save_dir, lr->tmp_dir, "save")) != RG_OK)
        return rc;
    return rg__lr_api_load(&lr->api, a->core_path, lr->tmp_dir);
}

int rg__libretro_open(void **core, const rg__core_ops **ops, const rg__core_open_args *a)
{
    *core = NULL;
    rg__lr *lr = calloc(1, sizeof *lr);
    if (!lr)
        return rg__error(RG_ENOMEM, "out of memory");
    lr->tmp_lock = -1;
    lr->io = a->io;
    int rc = setup(lr, a);
    if (rc != RG_OK) {
        destroy(lr);
        return rc;
    }
    rc = start_core(lr);
    if (rc != RG_OK) {
        destroy(lr);
        return rc;
    }
    *core = lr;
    *ops = &lr_ops;
    return RG_OK;
}

/**
 * @file emu.h
 * An emulator instance: one ROM running in one core, headless.
 *
 * Any number of instances may live in one process, of the same core or of different cores; each libretro instance
 * runs in its own private copy of the core's shared object. One instance is used by one thread at a time; distinct
 * instances may be driven from distinct threads at once.
 *
 * Minimal loop:
 * @code
 *   rg_emu *emu;
 *   if (rg_emu_open(&emu, "game.nes", NULL) != RG_OK) { puts(rg_error_last()); return; }
 *   for (int i = 0; i < 600; i++) {
 *       rg_emu_set_buttons(emu, 0, 1u << 8);   // hold A (libretro joypad id 8)
 *       rg_emu_run(emu);
 *   }
 *   rg_emu_frame_rgb24(emu, pixels, sizeof pixels);
 *   rg_emu_free(emu);
 * @endcode
 */
#ifndef RETROGYM_EMU_H
#define RETROGYM_EMU_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "system.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_emu rg_emu;

/** Number of input ports (players). */
#define RG_MAX_PORTS 8

/** A core option override: key and value as the core declares them. */
typedef struct rg_core_option {
    const char *key;
    const char *value;
} rg_core_option;

/** The options layout this header declares. rg_emu_open accepts versions RG_EMU_OPTIONS_VERSION_OLDEST ..
 *  RG_EMU_OPTIONS_VERSION and refuses others with RG_EINVAL. */
#define RG_EMU_OPTIONS_VERSION 1
#define RG_EMU_OPTIONS_VERSION_OLDEST 1

/** Settings fixed at creation. Start from RG_EMU_OPTIONS_INIT or rg_emu_options_init(); NULL pointers and zeros mean
 *  "default". */
typedef struct rg_emu_options {
    unsigned version;             /**< RG_EMU_OPTIONS_VERSION */
    const char *core;             /**< core name ("nestopia") or path; NULL: the system's preference list */
    const char *system;           /**< system name ("Nes"); NULL: from the ROM's extension */
    const char *system_dir;       /**< BIOS folder given to the core; NULL: a private temporary folder */
    const char *save_dir;         /**< save folder given to the core; NULL: a private temporary folder */
    const rg_core_option *core_options; /**< overrides of the core's declared option defaults */
    size_t n_core_options;
    rg_log_fn log;                /**< receives retrogym's and the core's messages; NULL: dropped */
    void *log_user;
    rg_log_level log_level;       /**< messages below this level are dropped before formatting */
    int capture_audio;            /**< nonzero: keep each frame's audio (rg_emu_audio); else dropped at no cost */
    size_t max_rom_size;          /**< larger ROM files are refused; 0: 64 MiB */
} rg_emu_options;

/** The defaults, as an initialiser: `rg_emu_options o = RG_EMU_OPTIONS_INIT;` (fields not named are zero/NULL). */
#define RG_EMU_OPTIONS_INIT {.version = RG_EMU_OPTIONS_VERSION, .log_level = RG_LOG_WARN}

/** The same defaults set on an existing struct (also from C++ and bindings). Inline: it writes the struct as this
 *  header declares it. */
static inline void rg_emu_options_init(rg_emu_options *o)
{
    o->version = RG_EMU_OPTIONS_VERSION;
    o->core = NULL;
    o->system = NULL;
    o->system_dir = NULL;
    o->save_dir = NULL;
    o->core_options = NULL;
    o->n_core_options = 0;
    o->log = NULL;
    o->log_user = NULL;
    o->log_level = RG_LOG_WARN;
    o->capture_audio = 0;
    o->max_rom_size = 0;
}

/** Pixel formats a core may send. */
typedef enum {
    RG_PIXEL_0RGB1555 = 0,
    RG_PIXEL_XRGB8888 = 1,
    RG_PIXEL_RGB565 = 2
} rg_pixel_format;

/** The last frame as the core produced it (borrowed; valid until the next run, reset or free). */
typedef struct rg_frame {
    const void *data;   /**< NULL before the first frame */
    unsigned width;
    unsigned height;
    size_t pitch;       /**< bytes per row in data */
    rg_pixel_format format;
} rg_frame;

/** A block of emulated memory at an address of the instance's address space (borrowed, see rg_emu_mem_blocks). */
typedef struct rg_mem_block {
    uint64_t base;
    size_t size;
    uint8_t *data;      /**< the core's own memory, native byte order */
} rg_mem_block;

/**
 * Loads a ROM into a new instance.
 * The system comes from opts->system or the ROM's extension; the core from opts->core or the first core of the
 * system's preference list that is installed.
 * @return RG_OK; RG_EINVAL (bad options, empty ROM), RG_ENOTFOUND (ROM, core, or no system for the extension),
 *         RG_ETOOBIG (ROM over the limit), RG_ECORRUPT (ROM fails the system's sanity checks), RG_ECORE (the core
 *         cannot be loaded, lacks symbols, has another API version, or refuses the ROM), RG_EIO, RG_ENOMEM
 */
RG_API int rg_emu_open(rg_emu **out, const char *rom_path, const rg_emu_options *opts);

/** Unloads the game and the core and removes the instance's temporary files. NULL is allowed. */
RG_API void rg_emu_free(rg_emu *emu);

/** Runs one video frame with the current buttons. @return RG_OK or RG_EINVAL */
RG_API int rg_emu_run(rg_emu *emu);

/**
 * Sets the buttons held by a player from the next frame on: bit i = libretro joypad id i (see system.h).
 * Bits of ids the system has no button for are dropped (rg_system_info.button_mask).
 * @return RG_OK, RG_EINVAL (port >= RG_MAX_PORTS)
 */
RG_API int rg_emu_set_buttons(rg_emu *emu, unsigned port, uint16_t mask);

/** The buttons currently held by a player (0 for a bad port). */
RG_API uint16_t rg_emu_buttons(const rg_emu *emu, unsigned port);

/**
 * Power-on reset: the game is unloaded and loaded again, which reproduces boot exactly (a libretro retro_reset is
 * only a soft reset for most cores). Memory blocks obtained before are invalid afterwards.
 */
RG_API int rg_emu_reset(rg_emu *emu);

/** Soft reset (the console's reset button, retro_reset). */
RG_API int rg_emu_soft_reset(rg_emu *emu);

/** Asks the core to skip video and/or audio output on the next frames (honoured only by cores that ask). */
RG_API int rg_emu_set_av_enable(rg_emu *emu, int video, int audio);

/** Number of frames run since the ROM was loaded (reset to 0 by rg_emu_reset). */
RG_API uint64_t rg_emu_frame_count(const rg_emu *emu);

/** The last frame, borrowed (data is NULL before the first frame). */
RG_API int rg_emu_frame(const rg_emu *emu, rg_frame *out);

/**
 * The screen's size as stable-retro observes it, fixed for the instance's life: the geometry the core reported when
 * the game loaded, corrected as stable-retro corrects it (Genesis Plus GX by the ROM's extension, Stella's width,
 * the PCE core's size); for a core that reports none, its first frame's size. 0x0 before that first frame.
 */
RG_API int rg_emu_screen_size(const rg_emu *emu, unsigned *width, unsigned *height);

/**
 * The last frame read at the screen's size with the frame's pitch, as packed RGB24 (width*height*3 bytes): a frame
 * narrower than the screen shows the core's buffer beyond its width (stale columns of an earlier, wider mode, as in
 * stable-retro); beyond the pitch or below the frame's last row is black.
 * @return RG_OK, RG_EMISUSE before the first frame, RG_EBUFFER if cap is too small
 */
RG_API int rg_emu_screen_rgb24(const rg_emu *emu, uint8_t *dst, size_t cap);

/**
 * The screen of rg_emu_screen_rgb24 as ALE's grayscale, one byte a pixel (width*height bytes): each pixel's
 * (299 R + 587 G + 114 B + 500) / 1000 (ALE's grayscale of the NTSC palette; docs/compat.md).
 * @return RG_OK, RG_EMISUSE before the first frame, RG_EBUFFER if cap is too small
 */
RG_API int rg_emu_screen_gray(const rg_emu *emu, uint8_t *dst, size_t cap);

/**
 * Converts the last frame to packed RGB24 (width*height*3 bytes, rows top to bottom).
 * RGB565 and 0RGB1555 expand with plain shifts, no bit replication (as stable-retro does).
 * @return RG_OK, RG_EMISUSE before the first frame, RG_EBUFFER if cap < width*height*3
 */
RG_API int rg_emu_frame_rgb24(const rg_emu *emu, uint8_t *dst, size_t cap);

/** Frames per second and audio sample rate the core reports. */
RG_API double rg_emu_fps(const rg_emu *emu);
RG_API double rg_emu_sample_rate(const rg_emu *emu);

/**
 * The audio of the last frame as interleaved stereo int16 (frames = sample pairs), borrowed until the next run.
 * Empty unless the instance was opened with capture_audio.
 */
RG_API int rg_emu_audio(const rg_emu *emu, const int16_t **samples, size_t *frames);

/**
 * The memory blocks of the address space, ascending by base (docs/formats.md, "Address space"): the core's non-constant
 * memory-map descriptors, or SYSTEM_RAM at the system's RAM base. Borrowed until rg_emu_reset or rg_emu_free.
 */
RG_API int rg_emu_mem_blocks(const rg_emu *emu, const rg_mem_block **blocks, size_t *count);

/**
 * Reads len bytes at addr as the emulated CPU sees them (through the system's byte-order overlay).
 * @return RG_OK, RG_ERANGE when any byte is not mapped (the message gives the address)
 */
RG_API int rg_emu_mem_read(const rg_emu *emu, uint64_t addr, void *dst, size_t len);

/** Writes through the same view as rg_emu_mem_read. @return RG_OK, RG_ERANGE */
RG_API int rg_emu_mem_write(rg_emu *emu, uint64_t addr, const void *src, size_t len);

/** Total size of all memory blocks (the RAM observation length). */
RG_API size_t rg_emu_ram_size(const rg_emu *emu);

/** Copies all blocks, ascending by base, native byte order, into dst. @return RG_OK, RG_EBUFFER if cap is short */
RG_API int rg_emu_ram_copy(const rg_emu *emu, uint8_t *dst, size_t cap);

/**
 * The cartridge's backup RAM (battery-backed save RAM, libretro's RETRO_MEMORY_SAVE_RAM) as the core keeps it: read
 * it to keep a save, copy a save's bytes into it before running. Borrowed until rg_emu_reset or rg_emu_free. Not part
 * of the address space nor of RAM observations (stable-retro exposes neither). *data NULL and *size 0 when the core
 * exposes none. @return RG_OK, RG_EINVAL on NULL arguments
 */
RG_API int rg_emu_save_ram(rg_emu *emu, uint8_t **data, size_t *size);

/** Bytes a save state of the current moment needs (may change after the first frame for some cores). */
RG_API int rg_emu_state_size(rg_emu *emu, size_t *out);

/** Serializes the emulator into dst. @return RG_OK, RG_EBUFFER (cap too small), RG_EUNSUPPORTED, RG_ECORE */
RG_API int rg_emu_state_save(rg_emu *emu, void *dst, size_t cap, size_t *written);

/**
 * Restores a state made by rg_emu_state_save with the same core.
 * @return RG_OK, RG_ESTATE (empty, larger than the core's state size, or refused by the core)
 */
RG_API int rg_emu_state_load(rg_emu *emu, const void *src, size_t len);

/** Writes the current state as a gzip file (the `.state` format of Gym Retro integrations). */
RG_API int rg_emu_state_save_file(rg_emu *emu, const char *path);

/**
 * Loads a `.state` file: gzip (as Gym Retro writes them) or a raw uncompressed state.
 * @return RG_OK, RG_ENOTFOUND, RG_EIO, RG_ESTATE (corrupt or truncated gzip, or a state the core refuses)
 */
RG_API int rg_emu_state_load_file(rg_emu *emu, const char *path);

/** The instance's system. */
RG_API const rg_system_info *rg_emu_system(const rg_emu *emu);

/** Core name (stem), library name and version. Borrowed until rg_emu_free. */
RG_API const char *rg_emu_core_name(const rg_emu *emu);
RG_API const char *rg_emu_core_library(const rg_emu *emu);
RG_API const char *rg_emu_core_version(const rg_emu *emu);

#ifdef __cplusplus
}
#endif
#endif

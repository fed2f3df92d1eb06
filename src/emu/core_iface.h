/* The internal core interface: what any emulator backend (the libretro host, and later our own native cores)
 * provides to the emulator layer (src/emu/emu.c).
 *
 * The emulator layer owns an rg__core_io block that the backend fills: input is read from it, video, audio and
 * memory descriptors are written to it. The backend itself is an opaque object behind rg__core_ops. */
#ifndef RG_SRC_EMU_CORE_IFACE_H
#define RG_SRC_EMU_CORE_IFACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "index_frame.h"
#include "retrogym/emu.h"

/* One memory-map descriptor as a core declares it (libretro semantics: retro_memory_descriptor). */
typedef struct rg__mem_desc {
    uint64_t flags;
    uint8_t *ptr;     /* already advanced by the descriptor's offset */
    uint64_t start;
    uint64_t select;
    uint64_t len;
} rg__mem_desc;

#define RG__MEMDESC_CONST 1u

typedef struct rg__core_io {
    /* in: read by the backend */
    uint16_t buttons[RG_MAX_PORTS];
    int video_enabled;
    int audio_enabled;     /* the backend asks the core for audio only if set */
    int capture_audio;     /* keep samples in audio[] */
    rg__logger log;

    /* out: written by the backend */
    rg_frame video;
    /* A core that paints palette indices (index_frame.h; our Atari core where the CPU has AVX-512) sets index with
     * video, whose geometry it shares, and video_stale after every frame: video.data's XRGB8888 pixels are then
     * written from the indices only when someone needs them (rg__io_video_fresh); observations (RGB24, gray) are
     * made from the indices. index.data NULL: video.data is always current. */
    rg__index_frame index;
    int video_stale;
    int16_t *audio;        /* interleaved stereo */
    size_t audio_frames;
    size_t audio_cap;      /* in frames */
    double fps;
    double sample_rate;
    unsigned base_width;   /* the geometry the core reported once its game loaded (libretro av-info base size); */
    unsigned base_height;  /* 0 when it reported none (our own cores) */
    rg__mem_desc *mem;     /* memory map; NULL/0 when the core sends none */
    size_t n_mem;
    uint8_t *system_ram;   /* fallback when there is no map */
    size_t system_ram_size;
    uint8_t *save_ram;     /* the cartridge's battery-backed RAM (libretro's RETRO_MEMORY_SAVE_RAM); NULL/0: none. */
    size_t save_ram_size;  /* Not part of the address space: RAM observations stay what stable-retro's are */
    unsigned mem_generation; /* bumped whenever mem/system_ram change (load, reset, new map) */
} rg__core_io;

/* video.data's pixels brought up to date from the index frame where they are stale (every reader of video.data
 * outside the core calls this first). */
void rg__io_video_fresh(rg__core_io *io);

typedef struct rg__core_ops {
    int (*run_frame)(void *core);
    int (*reset_power_on)(void *core);
    int (*reset_soft)(void *core);
    int (*state_size)(void *core, size_t *out);
    int (*state_save)(void *core, void *dst, size_t cap);
    int (*state_load)(void *core, const void *src, size_t len);
    const char *(*name)(void *core);          /* "nestopia" */
    const char *(*library_name)(void *core);  /* "Nestopia" */
    const char *(*library_version)(void *core);
    void (*destroy)(void *core);
} rg__core_ops;

/* Parameters for opening a backend; the ROM bytes are borrowed for the call (the backend copies what it keeps). */
typedef struct rg__core_open_args {
    const char *core_path;   /* resolved shared object */
    const char *rom_path;
    const uint8_t *rom;
    size_t rom_size;
    const rg_emu_options *opts;
    const rg_system_info *system;
    rg__core_io *io;
} rg__core_open_args;

/* Each backend declares its open function (void **core, const rg__core_ops **ops, const rg__core_open_args *args)
 * in its own header: the libretro host in src/host/lr_host.h (rg__libretro_open), our own cores in
 * src/cores/<system>/<name>_core.h (rg__a26_open, rg__nes_open, rg__sms_open, rg__genesis_open). */

#endif

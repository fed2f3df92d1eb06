/* What every one of our own cores (src/cores/<system>/<system>_core.c) does the same way at the core interface
 * (core_iface.h): the ROM hash that ties a snapshot to its ROM, mono samples published as the interleaved stereo the
 * emulator layer reads, and the I/O block detached when the core goes. Header-only, so that the standalone libretro
 * builds of the cores (cores/CMakeLists.txt) need no further source. */
#ifndef RG_SRC_EMU_NATIVE_GLUE_H
#define RG_SRC_EMU_NATIVE_GLUE_H

#include <stdint.h>
#include <stdlib.h>

#include "emu/core_iface.h"

/* FNV-1a 64 of the ROM bytes (stored in our snapshots' headers). */
static inline uint64_t rg__native_rom_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

/* Publishes n mono samples as io->audio (each copied to both channels), growing it as needed. io->audio_frames is n
 * on success and 0 on RG_ENOMEM. */
static inline int rg__native_publish_audio(rg__core_io *io, const int16_t *mono, size_t n)
{
    io->audio_frames = 0;
    if (io->audio_cap < n) {
        int16_t *p = realloc(io->audio, n * 2 * sizeof *p);
        if (!p)
            return rg__error(RG_ENOMEM, "out of memory keeping audio");
        io->audio = p;
        io->audio_cap = n;
    }
    for (size_t i = 0; i < n; i++)
        io->audio[2 * i] = io->audio[2 * i + 1] = mono[i];
    io->audio_frames = n;
    return RG_OK;
}

/* Forgets what the core published (RAM, memory map, frame) before its memory is freed. */
static inline void rg__native_io_detach(rg__core_io *io)
{
    if (!io)
        return;
    io->system_ram = NULL;
    io->system_ram_size = 0;
    io->mem = NULL;
    io->n_mem = 0;
    io->video.data = NULL;
    io->mem_generation++;
}

#endif

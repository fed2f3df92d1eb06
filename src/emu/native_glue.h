/* What every one of our own cores (src/cores/<system>/<system>_core.c) does the same way at the core interface
 * (core_iface.h): the ROM hash that ties a snapshot to its ROM, mono samples published as the interleaved stereo the
 * emulator layer reads, and the I/O block detached when the core goes. Header-only, so that the standalone libretro
 * builds of the cores (libretro_export/CMakeLists.txt) need no further source. */
#ifndef RG_SRC_EMU_NATIVE_GLUE_H
#define RG_SRC_EMU_NATIVE_GLUE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/core_iface.h"

/* FNV-1a 64 of the ROM bytes (stored in our snapshots' headers). */
static inline uint64_t rg__native_rom_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

/* The header before the plain-data state in our cores' snapshots: magic (up to 7 characters, NUL padded), the
 * core's state version, sizeof its state struct, and the hash of the ROM the state was made with. */
typedef struct rg__native_state_header {
    char magic[8];
    uint32_t version;
    uint32_t size;
    uint64_t rom_hash;
} rg__native_state_header;

/* Writes a snapshot into dst: the header, then the n bytes of st. `what` names the core with its article in errors
 * ("a nes"). */
static inline int rg__native_state_save(void *dst, size_t cap, const char *magic, uint32_t version, uint64_t rom_hash,
                                        const void *st, size_t n, const char *what)
{
    rg__native_state_header h;
    if (cap < sizeof h + n)
        return rg__error(RG_EBUFFER, "%s state needs %zu bytes, the buffer has %zu", what, sizeof h + n, cap);
    memset(&h, 0, sizeof h);
    for (size_t i = 0; i + 1 < sizeof h.magic && magic[i]; i++)
        h.magic[i] = magic[i];
    h.version = version;
    h.size = (uint32_t)n;
    h.rom_hash = rom_hash;
    memcpy(dst, &h, sizeof h);
    memcpy((uint8_t *)dst + sizeof h, st, n);
    return RG_OK;
}

/* Checks that src (len bytes) is a snapshot of this core, version and ROM holding n bytes of state (`what` as for
 * rg__native_state_save). The state itself starts sizeof(rg__native_state_header) bytes in; the core checks it field
 * by field. */
static inline int rg__native_state_header_check(const void *src, size_t len, const char *magic, uint32_t version,
                                                uint64_t rom_hash, size_t n, const char *what)
{
    rg__native_state_header h;
    char want[sizeof h.magic] = {0};
    if (len != sizeof h + n)
        return rg__error(RG_ESTATE, "the state is %zu bytes; %s state is %zu", len, what, sizeof h + n);
    memcpy(&h, src, sizeof h);
    for (size_t i = 0; i + 1 < sizeof want && magic[i]; i++)
        want[i] = magic[i];
    if (memcmp(h.magic, want, sizeof want) != 0 || h.version != version || h.size != n)
        return rg__error(RG_ESTATE, "not %s state of this version", what);
    if (h.rom_hash != rom_hash) {
        const char *noun = strchr(what, ' ');
        return rg__error(RG_ESTATE, "the %s state was made with another ROM", noun ? noun + 1 : what);
    }
    return RG_OK;
}

/* Makes room for n stereo frames in io->audio (io->audio_frames 0 until the caller fills them). */
static inline int rg__native_audio_room(rg__core_io *io, size_t n)
{
    io->audio_frames = 0;
    if (io->audio_cap < n) {
        int16_t *p = realloc(io->audio, n * 2 * sizeof *p);
        if (!p)
            return rg__error(RG_ENOMEM, "out of memory keeping audio");
        io->audio = p;
        io->audio_cap = n;
    }
    return RG_OK;
}

/* Publishes n mono samples as io->audio (each copied to both channels), growing it as needed. io->audio_frames is n
 * on success and 0 on RG_ENOMEM. */
static inline int rg__native_publish_audio(rg__core_io *io, const int16_t *mono, size_t n)
{
    if (rg__native_audio_room(io, n) != RG_OK)
        return RG_ENOMEM;
    for (size_t i = 0; i < n; i++)
        io->audio[2 * i] = io->audio[2 * i + 1] = mono[i];
    io->audio_frames = n;
    return RG_OK;
}

/* Publishes n stereo frames (interleaved left, right) as io->audio, growing it as needed; io->audio_frames as for
 * rg__native_publish_audio. */
static inline int rg__native_publish_audio_stereo(rg__core_io *io, const int16_t *lr, size_t n)
{
    if (rg__native_audio_room(io, n) != RG_OK)
        return RG_ENOMEM;
    memcpy(io->audio, lr, n * 2 * sizeof *lr);
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
    memset(&io->index, 0, sizeof io->index);
    io->video_stale = 0;
    io->mem_generation++;
}

#endif

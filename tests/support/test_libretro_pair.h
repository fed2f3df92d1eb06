/* For the tests of our standalone libretro builds (<core>_libretro.so): one ROM run in the built-in core and in the
 * .so loaded through our libretro host, with the same scripted pad, compared frame for frame. */
#ifndef RG_TESTS_LIBRETRO_PAIR_H
#define RG_TESTS_LIBRETRO_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "retrogym/retrogym.h"

typedef struct test_libretro_pair {
    const char *core;         /* the built-in core ("genesis", "sms", "gamegear", "nes") */
    const char *system;       /* NULL: from the ROM's extension */
    const char *library;      /* path of the .so; its file name appears in failure messages */
    const char *core_library; /* the library name the .so must report (rg_emu_core_library) */
    rg_pixel_format format;   /* the .so's pixel format */
    unsigned frames;          /* frames compared from power-on */
    uint16_t pad_mask;        /* buttons held each frame: these bits of a hash of frame/6 */
    uint64_t ram_addr;        /* the RAM compared every frame */
    size_t ram_size;
    const char *ram_name;     /* its name in failure messages ("RAM", "work RAM") */
    int save_ram;             /* also compare rg_emu_save_ram after the frames and after the continuation */
    int ram_hash_after_load;  /* also compare test_ram_hash (every block) each frame after the state load */
    /* NULL, or called with the built-in core's RAM after the last frame (checks on what the ROM stored) */
    void (*check_ram)(const char *rom, const uint8_t *ram, size_t size);
} test_libretro_pair;

/* Runs rom in both for p->frames frames with the scripted pad: the .so reports p->core_library and p->format, the
 * frames have the same size and bytes and the RAM the same bytes every frame; then a state saved by the .so loads
 * into the built-in core and both go on alike for 30 frames (frame hashes). Fails the test otherwise. */
void test_libretro_pair_same(const char *rom, const test_libretro_pair *p);

#endif

/* A bare NES machine for tests: a ROM file loaded, powered on, run frame by frame through the machine's internal API
 * (src/cores/nes), no emulator layer in between. */
#ifndef RG_TESTS_CORES_NES_HARNESS_H
#define RG_TESTS_CORES_NES_HARNESS_H

#include "base/base.h"
#include "cores/nes/nes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nes_harness {
    rg__nes_machine *m;
    uint8_t *rom;
    size_t rom_size;
    uint16_t *fb;
} nes_harness;

static inline void nes_harness_free(nes_harness *h)
{
    if (h->m)
        free(h->m->abuf);
    free(h->m);
    free(h->rom);
    free(h->fb);
    memset(h, 0, sizeof *h);
}

/* 0 on success; otherwise the machine's error code (the message in rg_error_last) or RG_EIO/RG_ENOMEM. */
static inline int nes_harness_open_bytes(nes_harness *h, const uint8_t *bytes, size_t size)
{
    memset(h, 0, sizeof *h);
    h->rom = malloc(size ? size : 1);
    h->m = calloc(1, sizeof *h->m);
    h->fb = calloc((size_t)RG__NES_WIDTH * RG__NES_HEIGHT, sizeof *h->fb);
    if (!h->rom || !h->m || !h->fb) {
        nes_harness_free(h);
        return RG_ENOMEM;
    }
    memcpy(h->rom, bytes, size);
    h->rom_size = size;
    rg__nes_machine *m = h->m;
    int rc = rg__nes_cart_parse(h->rom, size, &m->info, &m->prg, &m->prg_size, &m->chr, &m->chr_size);
    if (rc != RG_OK) {
        nes_harness_free(h);
        return rc;
    }
    m->fb = h->fb;
    m->video = 1;
    rg__nes_power_on(m);
    return RG_OK;
}

static inline int nes_harness_open(nes_harness *h, const char *path)
{
    memset(h, 0, sizeof *h);
    FILE *f = fopen(path, "rb");
    if (!f)
        return RG_EIO;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                return RG_ENOMEM;
            }
            buf = p;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        if (n == 0)
            break;
        len += n;
    }
    fclose(f);
    int rc = nes_harness_open_bytes(h, buf, len);
    free(buf);
    return rc;
}

/* A CPU-visible byte of the cartridge's $6000-$7FFF window (0 when there is none). */
static inline uint8_t nes_harness_wram(const nes_harness *h, uint16_t addr)
{
    return h->m->prg_ram_map ? h->m->prg_ram_map[addr & 0x1FFFu] : 0;
}

#endif

/* Gzipped save-state files, the `.state` format of Gym Retro integrations (docs/formats.md,
 * "Save states and reload"). */
#ifndef RG_SRC_EMU_STATE_FILE_H
#define RG_SRC_EMU_STATE_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Compresses data as one gzip member. *out is freed with free(). */
int rg__gzip_compress(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);

/* Decompresses one complete gzip member of at most max_out bytes (more is RG_ETOOBIG: a bomb cannot blow up
 * memory). Corrupt, truncated or trailing data is RG_ECORRUPT. *out is freed with free(). */
int rg__gzip_decompress(const uint8_t *data, size_t size, size_t max_out, uint8_t **out, size_t *out_size);

/* True when data starts with the gzip magic. */
int rg__is_gzip(const uint8_t *data, size_t size);

struct rg_emu;

/* A state file (gzip or raw) as the core gets it, inflated with the bound rg_emu_state_load_file uses (twice the
 * core's state size plus 64 KiB): *data freed with free(); *gzipped tells which it was. */
int rg__emu_state_read_file(struct rg_emu *emu, const char *path, uint8_t **data, size_t *size, int *gzipped);

#endif

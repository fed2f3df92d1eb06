/* The address space of an emulator instance: blocks of core memory at emulated addresses, plus the system's
 * byte-order overlay (docs/formats.md, "Address space"). */
#ifndef RG_SRC_EMU_ADDRSPACE_H
#define RG_SRC_EMU_ADDRSPACE_H

#include "core_iface.h"

typedef struct rg__addrspace {
    rg_mem_block *blocks; /* ascending by base */
    size_t n, cap;
    size_t total;         /* sum of block sizes */
    unsigned word;        /* overlay word width when bytes are swapped inside words, else 1 */
    uint8_t *spare;       /* zero bytes of our own behind descriptors without memory (below) */
    size_t spare_cap;
} rg__addrspace;

/* Rebuilds the blocks from the core's memory map (non-const descriptors) or its SYSTEM_RAM at the system's base. A
 * non-const descriptor without a pointer (gambatte's cartridge RAM on a cartridge without any) becomes a block of
 * zero bytes of our own, writable, as stable-retro gives it. */
int rg__addrspace_build(rg__addrspace *as, const rg__core_io *io, const rg_system_info *sys);
/* Rebuilds the blocks from caller descriptors (the bytes stay the caller's); word > 1 swaps bytes in each word. */
int rg__addrspace_from_blocks(rg__addrspace *as, const rg_mem_block *blocks, size_t n, unsigned word);
int rg__addrspace_read(const rg__addrspace *as, uint64_t addr, void *dst, size_t len);
int rg__addrspace_write(const rg__addrspace *as, uint64_t addr, const void *src, size_t len);
void rg__addrspace_free(rg__addrspace *as);

#endif

#include "addrspace.h"

#include <stdlib.h>
#include <string.h>

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

static char resolve_endian(char e)
{
    if (e == '=')
        return host_is_little_endian() ? '<' : '>';
    return e;
}

/* Inserts or replaces (same base) a block, keeping ascending order. */
static int put_block(rg__addrspace *as, uint64_t base, size_t size, uint8_t *data)
{
    size_t i = 0;
    while (i < as->n && as->blocks[i].base < base)
        i++;
    if (i < as->n && as->blocks[i].base == base) {
        as->blocks[i].size = size;
        as->blocks[i].data = data;
        return RG_OK;
    }
    int rc = rg__reserve(&as->blocks, &as->cap, as->n + 1, sizeof *as->blocks);
    if (rc != RG_OK)
        return rc;
    memmove(as->blocks + i + 1, as->blocks + i, (as->n - i) * sizeof *as->blocks);
    as->blocks[i].base = base;
    as->blocks[i].size = size;
    as->blocks[i].data = data;
    as->n++;
    return RG_OK;
}

/* Warns of a block the core claims longer than the readable memory there (ok bytes) and says what is done. */
static void warn_unreadable(const rg__core_io *io, uint64_t base, size_t len, size_t ok)
{
    rg__log(&io->log, RG_LOG_WARN,
            "the core's memory block at 0x%llx claims %zu bytes but only %zu are readable memory: %s",
            (unsigned long long)base, len, ok, ok ? "cut to those" : "left out");
}

/* The blocks cut to what is readable memory of this process (one look at its mappings for all of them), those with
 * none left out: a core may report more than it allocated, and reading past its mapping would crash the process
 * (docs/reliability.md, "Faults"). */
static void cut_unreadable(rg__addrspace *as, const rg__core_io *io)
{
    enum { CHUNK = 64 };
    for (size_t first = 0; first < as->n; first += CHUNK) {
        size_t k = as->n - first < CHUNK ? as->n - first : CHUNK;
        const void *ptr[CHUNK];
        size_t len[CHUNK];
        for (size_t i = 0; i < k; i++) {
            ptr[i] = as->blocks[first + i].data;
            len[i] = as->blocks[first + i].size;
        }
        rg__readable_clip(ptr, len, k);
        for (size_t i = 0; i < k; i++)
            if (len[i] < as->blocks[first + i].size) {
                warn_unreadable(io, as->blocks[first + i].base, as->blocks[first + i].size, len[i]);
                as->blocks[first + i].size = len[i];
            }
    }
    size_t kept = 0;
    for (size_t i = 0; i < as->n; i++)
        if (as->blocks[i].size)
            as->blocks[kept++] = as->blocks[i];
    as->n = kept;
}

/* Largest total of zero bytes given to descriptors without memory; beyond it they are left out. */
#define MAX_SPARE ((size_t)16 << 20)

/* A descriptor's length: its select's span when it has one, clamped to len when that is smaller (docs/formats.md,
 * "Address space"). */
static uint64_t descriptor_length(const rg__mem_desc *d)
{
    uint64_t len = d->len;
    if (d->select != 0) {
        len = ((~d->select & ~d->start) + 1) & d->select;
        if (d->len != 0 && d->len < len)
            len = d->len;
    }
    return len;
}

int rg__addrspace_build(rg__addrspace *as, const rg__core_io *io, const rg_system_info *sys)
{
    as->n = 0;
    as->total = 0;
    as->word = 1;
    if (sys->overlay_width > 1 && resolve_endian(sys->overlay_backing) != resolve_endian(sys->overlay_real))
        as->word = sys->overlay_width;
    /* Two passes: the first sizes the zero bytes that descriptors without memory need, the second adds blocks. */
    size_t spare = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t used = 0;
        for (size_t i = 0; i < io->n_mem; i++) {
            const rg__mem_desc *d = &io->mem[i];
            if (d->flags & RG__MEMDESC_CONST)
                continue;
            uint64_t len = descriptor_length(d);
            if (len == 0 || (!d->ptr && len > MAX_SPARE - used))
                continue;
            if (!d->ptr) {
                if (pass == 1) {
                    int rc = put_block(as, d->start, (size_t)len, as->spare + used);
                    if (rc != RG_OK)
                        return rc;
                }
                used += (size_t)len;
            } else if (pass == 1) {
                int rc = put_block(as, d->start, (size_t)len, d->ptr);
                if (rc != RG_OK)
                    return rc;
            }
        }
        if (pass == 0) {
            spare = used;
            if (spare > as->spare_cap) {
                uint8_t *p = realloc(as->spare, spare);
                if (!p)
                    return rg__error(RG_ENOMEM, "out of memory");
                as->spare = p;
                as->spare_cap = spare;
            }
            if (spare)
                memset(as->spare, 0, spare);
        }
    }
    cut_unreadable(as, io);
    if (as->n == 0 && io->system_ram && io->system_ram_size > 0) {
        size_t size = io->system_ram_size;
        if (sys->ram_max && size > sys->ram_max) {
            rg__log(&io->log, RG_LOG_WARN,
                    "the core reports %zu bytes of system RAM, more than the %s has (%zu): the first %zu are used",
                    size, sys->title, sys->ram_max, sys->ram_max);
            size = sys->ram_max;
        }
        size_t ok = rg__readable_prefix(io->system_ram, size);
        if (ok < size)
            warn_unreadable(io, sys->ram_base, size, ok);
        int rc = ok ? put_block(as, sys->ram_base, ok, io->system_ram) : RG_OK;
        if (rc != RG_OK)
            return rc;
    }
    for (size_t i = 0; i < as->n; i++)
        as->total += as->blocks[i].size;
    return RG_OK;
}

int rg__addrspace_from_blocks(rg__addrspace *as, const rg_mem_block *blocks, size_t n, unsigned word)
{
    as->n = 0;
    as->total = 0;
    as->word = 1;
    if (word > 1) {
        if (word & (word - 1))
            return rg__error(RG_EINVAL, "an overlay word of %u bytes is not a power of two", word);
        as->word = word;
    }
    for (size_t i = 0; i < n; i++) {
        if (!blocks[i].data && blocks[i].size)
            return rg__error(RG_EINVAL, "memory block %zu has no bytes", i);
        if (blocks[i].size == 0)
            continue;
        int rc = put_block(as, blocks[i].base, blocks[i].size, blocks[i].data);
        if (rc != RG_OK)
            return rc;
        as->total += blocks[i].size;
    }
    return RG_OK;
}

/* The block holding [addr, addr+len), or NULL with the error set. Gaps are errors, as in the reference. */
static const rg_mem_block *find(const rg__addrspace *as, uint64_t addr, size_t len)
{
    for (size_t i = 0; i < as->n; i++) {
        const rg_mem_block *b = &as->blocks[i];
        if (addr < b->base)
            break;
        if (addr - b->base < b->size) {
            if (len > b->size - (addr - b->base)) {
                rg__error(RG_ERANGE, "%zu bytes at 0x%llx run past the end of the block at 0x%llx (%zu bytes)", len,
                          (unsigned long long)addr, (unsigned long long)b->base, b->size);
                return NULL;
            }
            return b;
        }
    }
    rg__error(RG_ERANGE, "address 0x%llx is not mapped%s", (unsigned long long)addr,
              as->n ? "" : " (the core exposes no memory)");
    return NULL;
}

/* Offset in the block's backing bytes of the byte the emulated CPU sees at offset off. */
static inline size_t backing_offset(const rg__addrspace *as, size_t off)
{
    if (as->word == 1)
        return off;
    size_t w = as->word;
    return (off & ~(w - 1)) + (w - 1 - (off & (w - 1)));
}

/* Every byte of [off, off+len) must map inside the block through the overlay (a partial last word does not). */
static int check_words(const rg__addrspace *as, const rg_mem_block *b, uint64_t addr, size_t off, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (backing_offset(as, off + i) >= b->size)
            return rg__error(RG_ERANGE, "address 0x%llx falls in a partial overlay word",
                             (unsigned long long)(addr + i));
    return RG_OK;
}

int rg__addrspace_read(const rg__addrspace *as, uint64_t addr, void *dst, size_t len)
{
    if (len == 0)
        return RG_OK;
    const rg_mem_block *b = find(as, addr, len);
    if (!b)
        return RG_ERANGE;
    size_t off = (size_t)(addr - b->base);
    uint8_t *out = dst;
    if (as->word == 1) {
        memcpy(out, b->data + off, len);
        return RG_OK;
    }
    if (check_words(as, b, addr, off, len) != RG_OK)
        return RG_ERANGE;
    for (size_t i = 0; i < len; i++)
        out[i] = b->data[backing_offset(as, off + i)];
    return RG_OK;
}

int rg__addrspace_write(const rg__addrspace *as, uint64_t addr, const void *src, size_t len)
{
    if (len == 0)
        return RG_OK;
    const rg_mem_block *b = find(as, addr, len);
    if (!b)
        return RG_ERANGE;
    size_t off = (size_t)(addr - b->base);
    const uint8_t *in = src;
    if (check_words(as, b, addr, off, len) != RG_OK)
        return RG_ERANGE;
    for (size_t i = 0; i < len; i++)
        b->data[backing_offset(as, off + i)] = in[i];
    return RG_OK;
}

void rg__addrspace_free(rg__addrspace *as)
{
    free(as->blocks);
    free(as->spare);
    memset(as, 0, sizeof *as);
}

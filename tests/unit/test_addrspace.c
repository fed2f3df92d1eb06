/* Address-space construction and access (docs/formats.md, "Address space"), on memory we lay out ourselves. */
#include "test_support.h"

#include "emu/addrspace.h"

#include <string.h>

static const rg_system_info *sys(const char *name)
{
    const rg_system_info *s;
    assert_int_equal(rg_system_find(&s, name), RG_OK);
    return s;
}

/* mGBA-like map: ROM (const) descriptors are skipped, a non-const one without memory becomes zero bytes of our own
 * (as stable-retro gives gambatte's missing cartridge RAM); select gives the size, clamped to len. */
static void blocks_from_memory_map(void **state)
{
    (void)state;
    static uint8_t iwram[0x8000], ewram[0x40000], rom[16];
    rg__mem_desc d[] = {
        {RG__MEMDESC_CONST, rom, 0x08000000, 0xFF000000, sizeof rom},
        {0, iwram, 0x03000000, 0xFF000000, sizeof iwram},
        {0, NULL, 0x04000000, 0, 0x400},
        {0, ewram, 0x02000000, 0xFF000000, sizeof ewram},
    };
    rg__core_io io;
    memset(&io, 0, sizeof io);
    io.mem = d;
    io.n_mem = 4;
    rg__addrspace as = {0};
    assert_int_equal(rg__addrspace_build(&as, &io, sys("GbAdvance")), RG_OK);
    assert_int_equal(as.n, 3);
    assert_int_equal(as.blocks[0].base, 0x02000000);
    assert_int_equal(as.blocks[0].size, sizeof ewram);
    assert_int_equal(as.blocks[1].base, 0x03000000);
    assert_int_equal(as.blocks[1].size, sizeof iwram);
    assert_int_equal(as.blocks[2].base, 0x04000000);
    assert_int_equal(as.blocks[2].size, 0x400);
    assert_int_equal(as.total, sizeof ewram + sizeof iwram + 0x400);
    iwram[5] = 0xAB;
    uint8_t v = 0;
    assert_int_equal(rg__addrspace_read(&as, 0x03000005, &v, 1), RG_OK);
    assert_int_equal(v, 0xAB);
    /* the block without memory reads zero and keeps what is written */
    assert_int_equal(rg__addrspace_read(&as, 0x040003FF, &v, 1), RG_OK);
    assert_int_equal(v, 0);
    v = 0x5C;
    assert_int_equal(rg__addrspace_write(&as, 0x04000010, &v, 1), RG_OK);
    v = 0;
    assert_int_equal(rg__addrspace_read(&as, 0x04000010, &v, 1), RG_OK);
    assert_int_equal(v, 0x5C);
    /* a rebuild gives zero bytes again */
    assert_int_equal(rg__addrspace_build(&as, &io, sys("GbAdvance")), RG_OK);
    assert_int_equal(rg__addrspace_read(&as, 0x04000010, &v, 1), RG_OK);
    assert_int_equal(v, 0);
    rg__addrspace_free(&as);
}

/* bsnes-like alias: start 0, select 0xC0E000 -> an 8 KiB block; a later descriptor at the same base wins. */
static void select_length_and_replacement(void **state)
{
    (void)state;
    static uint8_t a[0x2000], b[0x2000], wram[0x20000];
    rg__mem_desc d[] = {
        {0, a, 0x000000, 0xC0E000, 0},
        {0, wram, 0x7E0000, 0xFE0000, sizeof wram},
        {0, b, 0x000000, 0xC0E000, 0x1000},
    };
    rg__core_io io;
    memset(&io, 0, sizeof io);
    io.mem = d;
    io.n_mem = 3;
    rg__addrspace as = {0};
    assert_int_equal(rg__addrspace_build(&as, &io, sys("Snes")), RG_OK);
    assert_int_equal(as.n, 2);
    assert_ptr_equal(as.blocks[0].data, b);
    assert_int_equal(as.blocks[0].size, 0x1000);
    assert_int_equal(as.blocks[1].size, sizeof wram);
    rg__addrspace_free(&as);
}

static void gaps_and_block_ends_are_errors(void **state)
{
    (void)state;
    static uint8_t ram[2048];
    rg__core_io io;
    memset(&io, 0, sizeof io);
    io.system_ram = ram;
    io.system_ram_size = sizeof ram;
    rg__addrspace as = {0};
    assert_int_equal(rg__addrspace_build(&as, &io, sys("PCEngine")), RG_OK);
    assert_int_equal(as.n, 1);
    assert_int_equal(as.blocks[0].base, 0xF80000);
    uint8_t buf[4];
    assert_int_equal(rg__addrspace_read(&as, 0xF7FFFF, buf, 1), RG_ERANGE);
    assert_non_null(strstr(rg_error_last(), "0xf7ffff"));
    assert_int_equal(rg__addrspace_read(&as, 0xF80000 + 2047, buf, 1), RG_OK);
    assert_int_equal(rg__addrspace_read(&as, 0xF80000 + 2046, buf, 4), RG_ERANGE);
    assert_non_null(strstr(rg_error_last(), "past the end"));
    assert_int_equal(rg__addrspace_read(&as, 0xF80000 + 2048, buf, 1), RG_ERANGE);
    assert_int_equal(rg__addrspace_write(&as, 0xF80000 + 2047, buf, 2), RG_ERANGE);
    rg__addrspace_free(&as);
}

/* Genesis RAM is stored as host-native 16-bit words and read through a big-endian overlay. */
static void genesis_overlay_swaps_words(void **state)
{
    (void)state;
    static uint8_t ram[0x10000];
    for (size_t i = 0; i < sizeof ram; i++)
        ram[i] = (uint8_t)i;
    rg__core_io io;
    memset(&io, 0, sizeof io);
    io.system_ram = ram;
    io.system_ram_size = sizeof ram;
    rg__addrspace as = {0};
    assert_int_equal(rg__addrspace_build(&as, &io, sys("Genesis")), RG_OK);
    uint8_t v[4];
    assert_int_equal(rg__addrspace_read(&as, 0xFF0000, v, 4), RG_OK);
    const uint8_t want[4] = {0x01, 0x00, 0x03, 0x02};
    assert_memory_equal(v, want, 4);
    assert_int_equal(rg__addrspace_read(&as, 0xFF0003, v, 1), RG_OK);
    assert_int_equal(v[0], 0x02);
    const uint8_t w[3] = {0xAA, 0xBB, 0xCC};
    assert_int_equal(rg__addrspace_write(&as, 0xFF0101, w, 3), RG_OK);
    assert_int_equal(ram[0x100], 0xAA);
    assert_int_equal(ram[0x103], 0xBB);
    assert_int_equal(ram[0x102], 0xCC);
    assert_int_equal(ram[0x101], 0x01);
    rg__addrspace_free(&as);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blocks_from_memory_map),
        cmocka_unit_test(select_length_and_replacement),
        cmocka_unit_test(gaps_and_block_ends_are_errors),
        cmocka_unit_test(genesis_overlay_swaps_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The frame-for-frame comparison of a standalone libretro build with the built-in core (test_libretro_pair.h). */
#include "test_libretro_pair.h"

#include "test_emu_state.h"
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

void test_libretro_pair_same(const char *rom, const test_libretro_pair *p)
{
    const char *so = strrchr(p->library, '/') ? strrchr(p->library, '/') + 1 : p->library;
    rg_emu *a = test_open_in(rom, p->core, p->system, 0), *b = test_open_in(rom, p->library, p->system, 0);
    assert_string_equal(rg_emu_core_library(b), p->core_library);
    uint8_t *ra = malloc(p->ram_size), *rb = malloc(p->ram_size);
    assert_non_null(ra);
    assert_non_null(rb);
    for (unsigned f = 0; f < p->frames; f++) {
        uint16_t pad = (uint16_t)(((f / 6u + 3u) * 2654435761u >> 9) & p->pad_mask);
        rg_emu_set_buttons(a, 0, pad);
        rg_emu_set_buttons(b, 0, pad);
        assert_int_equal(rg_emu_run(a), RG_OK);
        assert_int_equal(rg_emu_run(b), RG_OK);
        rg_frame fa, fb;
        assert_int_equal(rg_emu_frame(a, &fa), RG_OK);
        assert_int_equal(rg_emu_frame(b, &fb), RG_OK);
        assert_int_equal(fb.format, p->format);
        assert_int_equal(fa.width, fb.width);
        assert_int_equal(fa.height, fb.height);
        if (test_frame_hash(a) != test_frame_hash(b))
            fail_msg("%s: frame %u differs between the built-in core and %s", rom, f, so);
        assert_int_equal(rg_emu_mem_read(a, p->ram_addr, ra, p->ram_size), RG_OK);
        assert_int_equal(rg_emu_mem_read(b, p->ram_addr, rb, p->ram_size), RG_OK);
        if (memcmp(ra, rb, p->ram_size) != 0)
            fail_msg("%s: %s of frame %u differs", rom, p->ram_name, f);
    }
    if (p->check_ram)
        p->check_ram(rom, ra, p->ram_size);
    if (p->save_ram)
        test_save_ram_same(a, b);
    /* a state of the .so loads into the built-in core and both go on alike */
    size_t size = 0, written = 0;
    TEST_EXPECT_OK(rg_emu_state_size(b, &size));
    uint8_t *snap = malloc(size);
    assert_non_null(snap);
    TEST_EXPECT_OK(rg_emu_state_save(b, snap, size, &written));
    TEST_EXPECT_OK(rg_emu_state_load(a, snap, written));
    for (unsigned f = 0; f < 30; f++) {
        assert_int_equal(rg_emu_run(a), RG_OK);
        assert_int_equal(rg_emu_run(b), RG_OK);
        assert_true(test_frame_hash(a) == test_frame_hash(b));
        if (p->ram_hash_after_load)
            assert_true(test_ram_hash(a) == test_ram_hash(b));
    }
    if (p->save_ram)
        test_save_ram_same(a, b);
    free(snap);
    free(ra);
    free(rb);
    rg_emu_free(a);
    rg_emu_free(b);
}

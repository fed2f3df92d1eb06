/* Save-state helpers of the C tests (test_emu_state.h). */
#include "test_emu_state.h"

#include "test_support.h"

#include <stdlib.h>
#include <string.h>

uint8_t *test_state_save(rg_emu *emu, size_t *len)
{
    TEST_EXPECT_OK(rg_emu_state_size(emu, len));
    uint8_t *b = malloc(*len);
    assert_non_null(b);
    TEST_EXPECT_OK(rg_emu_state_save(emu, b, *len, len));
    return b;
}

void test_state_body(rg_emu *emu, size_t header, void *out, size_t size)
{
    size_t n;
    uint8_t *b = test_state_save(emu, &n);
    assert_int_equal(n, header + size);
    memcpy(out, b + header, size);
    free(b);
}

void test_state_refused(rg_emu *emu, const uint8_t *state, size_t len, const char *text)
{
    size_t n0, n1;
    uint8_t *before = test_state_save(emu, &n0);
    TEST_EXPECT_ERROR(rg_emu_state_load(emu, state, len), RG_ESTATE, text);
    uint8_t *after = test_state_save(emu, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
}

void test_state_edits_refused(rg_emu *emu, const uint8_t *good, uint8_t *bad, size_t len, const test_state_edit *edits,
                              size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memcpy(bad, good, len);
        bad[edits[i].at] = edits[i].val;
        test_state_refused(emu, bad, len, edits[i].text);
    }
}

void test_save_ram_same(rg_emu *a, rg_emu *b)
{
    uint8_t *sa = NULL, *sb = NULL;
    size_t na = 0, nb = 0;
    assert_int_equal(rg_emu_save_ram(a, &sa, &na), RG_OK);
    assert_int_equal(rg_emu_save_ram(b, &sb, &nb), RG_OK);
    assert_int_equal(na, nb);
    if (na)
        assert_memory_equal(sa, sb, na);
}

void test_state_replays(rg_emu *emu, const uint8_t *state, size_t len, uint16_t (*pad)(unsigned), unsigned first,
                        unsigned frames)
{
    uint64_t *fr = malloc(frames * sizeof *fr), *ram = malloc(frames * sizeof *ram);
    assert_non_null(fr);
    assert_non_null(ram);
    for (unsigned i = 0; i < frames; i++) {
        rg_emu_set_buttons(emu, 0, pad(first + i));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        fr[i] = test_frame_hash(emu);
        ram[i] = test_ram_hash(emu);
    }
    assert_int_equal(rg_emu_state_load(emu, state, len), RG_OK);
    for (unsigned i = 0; i < frames; i++) {
        rg_emu_set_buttons(emu, 0, pad(first + i));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        assert_true(fr[i] == test_frame_hash(emu));
        assert_true(ram[i] == test_ram_hash(emu));
    }
    free(fr);
    free(ram);
}

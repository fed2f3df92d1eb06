/* Our own test ROMs boot in the Debian cores: the frame counter advances by exactly one per frame, each held
 * button reaches RAM at the expected frame, the signature is there, and the picture is not blank and follows the
 * input. ROMs whose system has no installed core are skipped here (tests/roms checks their images offline). */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static test_rom roms[16];
static size_t n_roms;

static void rgb_of(const rg_emu *emu, uint8_t **rgb, size_t *size)
{
    rg_frame f;
    rg_emu_frame(emu, &f);
    *size = (size_t)f.width * f.height * 3;
    *rgb = malloc(*size);
    assert_non_null(*rgb);
    assert_int_equal(rg_emu_frame_rgb24(emu, *rgb, *size), RG_OK);
}

static uint8_t read_u8(const rg_emu *emu, uint64_t addr)
{
    uint8_t v;
    if (rg_emu_mem_read(emu, addr, &v, 1) != RG_OK)
        fail_msg("read 0x%llx: %s", (unsigned long long)addr, rg_error_last());
    return v;
}

static void check_rom(const test_rom *r)
{
    rg_emu *emu = test_open(r->path, r->core);
    for (unsigned i = 0; i < r->warmup; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    uint8_t start = read_u8(emu, r->counter_addr);
    for (unsigned i = 1; i <= 300; i++) {
        rg_emu_run(emu);
        uint8_t c = read_u8(emu, r->counter_addr);
        if (c != (uint8_t)(start + i))
            fail_msg("%s: counter %u after %u frames past warm-up, expected %u", r->system, c, i,
                     (uint8_t)(start + i));
    }
    char sig[8];
    assert_int_equal(rg_emu_mem_read(emu, r->signature_addr, sig, 8), RG_OK);
    assert_memory_equal(sig, "HOMEBREW", 8);
    for (size_t i = 0; i < r->n_checks; i++)
        assert_int_equal(read_u8(emu, r->checks[i].addr), r->checks[i].value);

    /* The idle picture: not all black. */
    assert_int_equal(test_read_pad(emu, r), 0);
    uint8_t *idle;
    size_t size;
    rgb_of(emu, &idle, &size);
    size_t lit = 0;
    for (size_t i = 0; i < size; i++)
        lit += idle[i] != 0;
    assert_true(lit > size / 4);

    const rg_system_info *sys = rg_emu_system(emu);
    for (size_t b = 0; b < r->n_pad_bits; b++) {
        int id = rg_system_button_id(sys, r->pad_bits[b].button);
        if (id < 0)
            fail_msg("%s: manifest button %s is not a %s button", r->system, r->pad_bits[b].button, sys->name);
        assert_int_equal(rg_emu_set_buttons(emu, 0, (uint16_t)(1u << id)), RG_OK);
        for (unsigned i = 1; i < r->pad_lag; i++) {
            rg_emu_run(emu);
            assert_int_equal(test_read_pad(emu, r), 0); /* not yet */
        }
        rg_emu_run(emu);
        uint32_t pad = test_read_pad(emu, r);
        if (pad != r->pad_bits[b].bits)
            fail_msg("%s: holding %s gives pad 0x%x, expected 0x%x", r->system, r->pad_bits[b].button, pad,
                     r->pad_bits[b].bits);
        if (b == 0) {
            uint8_t *held;
            size_t held_size;
            rgb_of(emu, &held, &held_size);
            assert_int_equal(held_size, size);
            if (memcmp(held, idle, size) == 0)
                fail_msg("%s: the picture does not change while %s is held", r->system, r->pad_bits[b].button);
            free(held);
        }
        rg_emu_set_buttons(emu, 0, 0);
        for (unsigned i = 0; i < r->pad_lag; i++)
            rg_emu_run(emu);
        assert_int_equal(test_read_pad(emu, r), 0);
    }
    free(idle);
    rg_emu_free(emu);
}

static void boots(void **state)
{
    const test_rom *r = *state;
    if (!r->core[0] || !test_core_installed(r->core)) {
        print_message("[ SKIPPED  ] %s: no installed core runs it\n", r->system);
        skip();
    }
    check_rom(r);
}

int main(void)
{
    n_roms = test_roms_load(roms, 16);
    if (n_roms != 10) {
        fprintf(stderr, "expected 10 test ROM manifests, found %zu\n", n_roms);
        return 1;
    }
    struct CMUnitTest tests[16];
    char names[16][64];
    for (size_t i = 0; i < n_roms; i++) {
        snprintf(names[i], sizeof names[i], "boots_%s", roms[i].system);
        tests[i] = (struct CMUnitTest){names[i], boots, NULL, NULL, &roms[i]};
    }
    return _cmocka_run_group_tests("test_roms", tests, n_roms, NULL, NULL);
}

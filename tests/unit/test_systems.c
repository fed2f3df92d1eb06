/* The built-in system table (the JSON files of systems/) against the facts of docs/formats.md ("Address space",
 * "Action groups"). */
#include "test_support.h"

#include <string.h>

static const char *const expected[] = {"Atari2600", "GameBoy", "GameGear", "GbAdvance", "GbColor",
                                       "Genesis", "Nes", "PCEngine", "Sms", "Snes"};

static void all_ten_systems(void **state)
{
    (void)state;
    assert_int_equal(rg_system_count(), 10);
    for (size_t i = 0; i < 10; i++) {
        const rg_system_info *s;
        assert_int_equal(rg_system_find(&s, expected[i]), RG_OK);
        assert_string_equal(s->name, expected[i]);
        assert_true(s->n_extensions > 0);
        assert_true(s->n_cores > 0);
        assert_true(s->n_actions > 0);
    }
    assert_null(rg_system_at(10));
}

static void nes_facts(void **state)
{
    (void)state;
    const rg_system_info *s;
    assert_int_equal(rg_system_find(&s, "Nes"), RG_OK);
    assert_int_equal(s->n_buttons, 9);
    assert_int_equal(rg_system_button_id(s, "B"), 0);
    assert_null(s->buttons[1]);
    assert_int_equal(rg_system_button_id(s, "A"), 8);
    assert_int_equal(rg_system_button_id(s, "Y"), -1);
    assert_int_equal(s->ram_base, 0);
    assert_string_equal(s->cores[0], "nes"); /* our core, the default since it passed issue 18's bar */
    assert_string_equal(s->cores[1], "fceumm");
    assert_string_equal(s->cores[2], "nestopia");
    assert_int_equal(s->rom_magic_len, 4);
    assert_memory_equal(s->rom_magic, "NES\x1a", 4);
}

static void ram_bases_and_overlay(void **state)
{
    (void)state;
    static const struct { const char *name; uint64_t base; } bases[] = {
        {"Genesis", 0xFF0000}, {"Snes", 0x7E0000}, {"Atari2600", 0x80}, {"Sms", 0xC000},
        {"GameGear", 0xC000}, {"GameBoy", 0xC000}, {"GbColor", 0xC000}, {"PCEngine", 0xF80000},
        {"GbAdvance", 0}, {"Nes", 0},
    };
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        const rg_system_info *s;
        assert_int_equal(rg_system_find(&s, bases[i].name), RG_OK);
        assert_int_equal(s->ram_base, bases[i].base);
        assert_int_equal(s->overlay_width, strcmp(s->name, "Genesis") == 0 ? 2 : 0);
    }
    const rg_system_info *g;
    assert_int_equal(rg_system_find(&g, "Genesis"), RG_OK);
    assert_int_equal(g->overlay_backing, '=');
    assert_int_equal(g->overlay_real, '>');
    assert_int_equal(g->n_search_types, 15);
}

/* DISCRETE action counts (docs/formats.md, "Environment"): product over groups of the distinct combos. */
static void action_group_sizes(void **state)
{
    (void)state;
    static const struct { const char *name; size_t discrete; } sizes[] = {
        {"Genesis", 126}, {"Sms", 36}, {"GameGear", 36}, {"Nes", 36}, {"Snes", 468}, {"Atari2600", 18},
        {"GameBoy", 72}, {"GbColor", 72}, {"GbAdvance", 288}, {"PCEngine", 117},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const rg_system_info *s;
        assert_int_equal(rg_system_find(&s, sizes[i].name), RG_OK);
        size_t product = 1;
        for (size_t g = 0; g < s->n_actions; g++) {
            size_t distinct = 0;
            for (size_t c = 0; c < s->actions[g].n_combos; c++) {
                int seen = 0;
                for (size_t d = 0; d < c; d++)
                    seen |= s->actions[g].combos[d] == s->actions[g].combos[c];
                distinct += !seen;
            }
            product *= distinct;
        }
        if (product != sizes[i].discrete)
            fail_msg("%s: %zu discrete actions, expected %zu", sizes[i].name, product, sizes[i].discrete);
    }
}

static void lookup_by_extension(void **state)
{
    (void)state;
    const rg_system_info *s;
    assert_int_equal(rg_system_for_path(&s, "/x/y/Game.NES"), RG_OK);
    assert_string_equal(s->name, "Nes");
    assert_int_equal(rg_system_for_path(&s, "rom.md"), RG_OK);
    assert_string_equal(s->name, "Genesis");
    assert_int_equal(rg_system_for_path(&s, "gbc"), RG_OK);
    assert_string_equal(s->name, "GbColor");
    assert_int_equal(rg_system_for_path(&s, "game.xyz"), RG_ENOTFOUND);
    assert_null(s);
    assert_non_null(strstr(rg_error_last(), "xyz"));
    assert_int_equal(rg_system_for_path(&s, NULL), RG_EINVAL);
    assert_int_equal(rg_system_find(&s, "Nintendo64"), RG_ENOTFOUND);
    assert_non_null(strstr(rg_error_last(), "Nintendo64"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_ten_systems),      cmocka_unit_test(nes_facts),
        cmocka_unit_test(ram_bases_and_overlay), cmocka_unit_test(action_group_sizes),
        cmocka_unit_test(lookup_by_extension),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

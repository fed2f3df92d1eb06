/* The movie API: the mnemonic table, the cursor (stable-retro's Movie semantics), writing and reading back, the
 * start state, configure, players, and writes that fail without leaving anything on disk. */
#define _POSIX_C_SOURCE 200809L
#include "movie_test_util.h"

#include "movie/movie_internal.h"

#include <errno.h>

/* stable-retro's columns per system (docs/compat.md, "Movies (.bk2)"), descending joypad id. */
static const struct {
    const char *system;
    const char *stable;
    const char *all;
} columns[] = {
    {"Genesis", "ZXYCRLDUSMAB", "ZXYCRLDUSMAB"},
    {"Snes", "rlXARLDUSsYB", "rlXARLDUSsYB"},
    {"Nes", "ARLDUSsB", "ARLDUSsB"},
    {"GameBoy", "ARLDUSsB", "ARLDUSsB"},
    {"GbColor", "ARLDUSsB", "ARLDUSsB"},
    {"GbAdvance", "rlARLDUSsB", "rlARLDUSsB"},
    {"Sms", "ARLDUB", "ARLDUpB"},
    {"GameGear", "ARLDUSB", "ARLDUSB"},
    {"Atari2600", "RLDUsB", "RLDUrsB"},
    {"PCEngine", "RLDUs", "6541RLDUrs32"},
};

static void test_every_button_has_a_column(void **state)
{
    (void)state;
    assert_int_equal(rg_system_count(), sizeof columns / sizeof columns[0]);
    for (size_t s = 0; s < rg_system_count(); s++) {
        const rg_system_info *sys = rg_system_at(s);
        rg__movie_column cols[RG__MOVIE_MAX_COLUMNS];
        size_t n = rg__movie_columns(sys, cols);
        char all[32] = "", stable[32] = "";
        size_t na = 0, ns = 0;
        unsigned named = 0;
        for (unsigned id = 0; id < RG_MAX_BUTTONS; id++)
            named += sys->buttons[id] != NULL;
        assert_int_equal(n, named); /* every button of the system is recorded */
        for (size_t i = 0; i < n; i++) {
            all[na++] = cols[i].mnemonic;
            if (cols[i].stable)
                stable[ns++] = cols[i].mnemonic;
            for (size_t j = 0; j < i; j++) {
                assert_true(cols[j].mnemonic != cols[i].mnemonic); /* one meaning per character */
                assert_true(cols[j].id > cols[i].id);
            }
            char mn;
            const char *name;
            int st;
            assert_int_equal(rg_movie_button_mnemonic(sys, cols[i].id, &mn, &name, &st), RG_OK);
            assert_int_equal(mn, cols[i].mnemonic);
            assert_int_equal(rg__movie_button_by_name(sys, name, strlen(name)), (int)cols[i].id);
        }
        size_t k = 0;
        while (strcmp(columns[k].system, sys->name) != 0)
            k++;
        assert_string_equal(stable, columns[k].stable);
        assert_string_equal(all, columns[k].all);
    }
    const rg_system_info *nes;
    assert_int_equal(rg_system_find(&nes, "Nes"), RG_OK);
    assert_int_equal(rg_movie_button_mnemonic(nes, 1, NULL, NULL, NULL), RG_ENOTFOUND); /* id 1: no button */
}

static void test_cursor_semantics(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/a.bk2", dir);
    rg_movie *m;
    assert_int_equal(rg_movie_open_write(&m, path, "Nes", "Game-Nes", 2), RG_OK);
    assert_true(rg_movie_is_writing(m));
    assert_string_equal(rg_movie_header(m, "Platform"), "NES");
    assert_string_equal(rg_movie_header(m, "GameName"), "Game-Nes");
    assert_null(rg_movie_header(m, "Nothing"));
    /* set_key / get_key on the pending frame; id 1 has no NES button and is dropped. */
    assert_int_equal(rg_movie_set_key(m, 8, 1, 0), RG_OK);
    assert_int_equal(rg_movie_set_key(m, 1, 1, 0), RG_OK);
    assert_int_equal(rg_movie_get_key(m, 8, 0), 1);
    assert_int_equal(rg_movie_get_key(m, 1, 0), 0);
    assert_int_equal(rg_movie_set_key(m, 16, 1, 0), RG_EINVAL);
    assert_int_equal(rg_movie_set_key(m, 0, 1, 2), RG_EINVAL);
    assert_int_equal(rg_movie_set_buttons(m, 1, 0xffff), RG_OK);
    assert_int_equal(rg_movie_buttons(m, 1), 0x1fd); /* the NES buttons only */
    assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rg_movie_buttons(m, 0), 0); /* cleared after each frame */
    assert_int_equal(rg_movie_buttons(m, 1), 0);
    assert_int_equal(rg_movie_set_commands(m, RG_MOVIE_CMD_RESET), RG_OK);
    assert_int_equal(rg_movie_set_buttons(m, 0, 1u << 4), RG_OK);
    assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rg_movie_step(m), 1); /* nothing pressed */
    assert_int_equal(rg_movie_frame_count(m), 3);
    assert_int_equal(rg_movie_position(m), 3);
    uint16_t mask;
    assert_int_equal(rg_movie_frame_buttons(m, 3, 0, &mask), RG_ERANGE);
    assert_int_equal(rg_movie_close(m), RG_OK);
    assert_int_equal(rg_movie_close(m), RG_OK);
    assert_int_equal(rg_movie_step(m), RG_EMISUSE);
    assert_int_equal(rg_movie_set_buttons(m, 0, 1), RG_EMISUSE);
    rg_movie_free(m);

    size_t log_size;
    char *log = zip_entry_bytes(path, "Input Log.txt", &log_size);
    assert_non_null(log);
    assert_string_equal(log, "[Input]\n"
                             "P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 B|"
                             "P2 A|P2 Right|P2 Left|P2 Down|P2 Up|P2 Start|P2 Select|P2 B|\n"
                             "|..|A.......|ARLDUSsB|\n"
                             "|r.|....U...|........|\n"
                             "|..|........|........|\n"
                             "[/Input]");
    free(log);

    assert_int_equal(rg_movie_open_read(&m, path), RG_OK);
    assert_false(rg_movie_is_writing(m));
    assert_int_equal(rg_movie_players(m), 2);
    assert_int_equal(rg_movie_position(m), 0);
    assert_int_equal(rg_movie_buttons(m, 0), 0); /* before the first step */
    assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rg_movie_buttons(m, 0), 1u << 8);
    assert_int_equal(rg_movie_buttons(m, 1), 0x1fd);
    assert_int_equal(rg_movie_commands(m), 0);
    assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rg_movie_buttons(m, 0), 1u << 4);
    assert_int_equal(rg_movie_commands(m), RG_MOVIE_CMD_RESET);
    /* set_key while reading changes the current frame only (stable-retro does the same) */
    assert_int_equal(rg_movie_set_key(m, 0, 1, 0), RG_OK);
    assert_int_equal(rg_movie_buttons(m, 0), (1u << 4) | 1u);
    assert_int_equal(mt_frame(m, 1, 0), 1u << 4);
    assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rg_movie_set_buttons(m, 0, 0x100), RG_OK);
    assert_int_equal(rg_movie_step(m), 0); /* the end: the current buttons stay */
    assert_int_equal(rg_movie_buttons(m, 0), 0x100);
    assert_int_equal(rg_movie_step(m), 0);
    assert_int_equal(rg_movie_position(m), 3);
    unsigned cmds;
    assert_int_equal(rg_movie_frame_commands(m, 1, &cmds), RG_OK);
    assert_int_equal(cmds, RG_MOVIE_CMD_RESET);
    assert_int_equal(rg_movie_close(m), RG_OK); /* reading: only closes */
    rg_movie_free(m);
    mt_rmtree(dir);
    free(dir);
}

static void test_state_and_players(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/p.bk2", dir);
    rg_movie *m;
    /* 4 players (beyond stable-retro's 2), a state set then removed: no Core.bin */
    assert_int_equal(rg_movie_open_write(&m, path, "Genesis", "G", 4), RG_OK);
    assert_int_equal(rg_movie_set_state(m, "abc", 3), RG_OK);
    assert_int_equal(rg_movie_set_state(m, NULL, 0), RG_OK);
    for (unsigned f = 0; f < 10; f++) {
        for (unsigned p = 0; p < 4; p++)
            assert_int_equal(rg_movie_set_buttons(m, p, (uint16_t)(f * 37 + p * 1001)), RG_OK);
        assert_int_equal(rg_movie_step(m), 1);
    }
    assert_int_equal(rg_movie_close(m), RG_OK);
    rg_movie_free(m);
    size_t n;
    char *core = zip_entry_bytes(path, "Core.bin", &n);
    assert_null(core);
    assert_int_equal(rg_movie_open_read(&m, path), RG_OK);
    const uint8_t *st;
    size_t st_size = 99;
    assert_int_equal(rg_movie_state(m, &st, &st_size), RG_OK);
    assert_int_equal(st_size, 0);
    assert_null(st);
    assert_int_equal(rg_movie_players(m), 4);
    for (unsigned f = 0; f < 10; f++)
        for (unsigned p = 0; p < 4; p++)
            assert_int_equal(mt_frame(m, f, p), (uint16_t)(f * 37 + p * 1001) & 0xfff);
    rg_movie_free(m);

    /* A state of our own, as Core.bin, raw. */
    uint8_t blob[5000];
    for (size_t i = 0; i < sizeof blob; i++)
        blob[i] = (uint8_t)(i * 7 + (i >> 8));
    assert_int_equal(rg_movie_open_write(&m, path, "Snes", "S", 1), RG_OK);
    assert_int_equal(rg_movie_set_state(m, blob, sizeof blob), RG_OK);
    assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rg_movie_close(m), RG_OK);
    rg_movie_free(m);
    core = zip_entry_bytes(path, "Core.bin", &n);
    assert_non_null(core);
    assert_int_equal(n, sizeof blob);
    assert_memory_equal(core, blob, n);
    free(core);
    assert_int_equal(rg_movie_open_read(&m, path), RG_OK);
    assert_int_equal(rg_movie_state(m, &st, &st_size), RG_OK);
    assert_int_equal(st_size, sizeof blob);
    assert_memory_equal(st, blob, sizeof blob);
    rg_movie_free(m);

    /* The player bounds. */
    assert_int_equal(rg_movie_open_write(&m, path, "Nes", "N", 8), RG_OK);
    rg_movie_free(m);
    assert_int_equal(rg_movie_open_write(&m, path, "Nes", "N", 9), RG_EINVAL);
    assert_int_equal(rg_movie_open_write(&m, path, "Nes", "N", 0), RG_EINVAL);
    assert_null(m);
    mt_rmtree(dir);
    free(dir);
}

/* stable-retro's Movie(path, True, players) then configure(game, emulator). */
static void test_configure(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/c.bk2", dir);
    rg_movie *m;
    assert_int_equal(rg_movie_open_write(&m, path, NULL, NULL, 1), RG_OK);
    assert_null(rg_movie_system(m));
    assert_int_equal(rg_movie_step(m), RG_EMISUSE);
    assert_int_equal(rg_movie_close(m), RG_EMISUSE); /* nothing to write without a platform */
    assert_int_equal(rg_movie_configure(m, "Mars", "X"), RG_ENOTFOUND);
    assert_int_equal(rg_movie_configure(m, "Atari2600", "bad\nname"), RG_EINVAL);
    assert_int_equal(rg_movie_configure(m, "Atari2600", "Pong-Atari2600"), RG_OK);
    assert_string_equal(rg_movie_game(m), "Pong-Atari2600");
    assert_string_equal(rg_movie_header(m, "Platform"), "A26");
    assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rg_movie_configure(m, "Nes", "Y"), RG_EMISUSE);
    assert_int_equal(rg_movie_close(m), RG_OK);
    rg_movie_free(m);
    size_t n;
    char *header = zip_entry_bytes(path, "Header.txt", &n);
    assert_string_equal(header, MT_HEADER("A26", "Pong-Atari2600"));
    free(header);

    assert_int_equal(rg_movie_open_write(&m, path, "Nes", "two\nlines", 1), RG_EINVAL);
    assert_int_equal(rg_movie_open_write(&m, path, "NES", "x", 1), RG_ENOTFOUND);
    assert_int_equal(rg_movie_open_write(&m, "", "Nes", "x", 1), RG_EINVAL);
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/no/such/folder/m.bk2", dir);
    assert_int_equal(rg_movie_open_write(&m, missing, "Nes", "x", 1), RG_ENOTFOUND);
    mt_rmtree(dir);
    free(dir);
}

/* Zero frames: unlike stable-retro (no Header.txt, no key line), a file that reads back. */
static void test_zero_frames(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/z.bk2", dir);
    rg_movie *m;
    assert_int_equal(rg_movie_open_write(&m, path, "Sms", "Z-Sms", 2), RG_OK);
    assert_int_equal(rg_movie_close(m), RG_OK);
    rg_movie_free(m);
    size_t n;
    char *log = zip_entry_bytes(path, "Input Log.txt", &n);
    assert_string_equal(log, "[Input]\nP1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 B|P2 A|P2 Right|P2 Left|P2 Down|"
                             "P2 Up|P2 B|\n[/Input]");
    free(log);
    assert_int_equal(rg_movie_open_read(&m, path), RG_OK);
    assert_int_equal(rg_movie_frame_count(m), 0);
    assert_int_equal(rg_movie_players(m), 2);
    assert_int_equal(rg_movie_step(m), 0);
    rg_movie_free(m);
    mt_rmtree(dir);
    free(dir);
}

/* The extension's columns appear only in movies that press those buttons. */
static void test_extension_only_when_pressed(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/e.bk2", dir);
    const rg_system_info *pce;
    assert_int_equal(rg_system_find(&pce, "PCEngine"), RG_OK);
    for (int pressed = 0; pressed < 2; pressed++) {
        rg_movie *m;
        assert_int_equal(rg_movie_open_write(&m, path, "PCEngine", "P", 1), RG_OK);
        assert_int_equal(rg_movie_set_buttons(m, 0, 1u << 4), RG_OK); /* UP */
        assert_int_equal(rg_movie_step(m), 1);
        assert_int_equal(rg_movie_set_buttons(m, 0, pressed ? (1u << rg_system_button_id(pce, "RUN")) : 0), RG_OK);
        assert_int_equal(rg_movie_step(m), 1);
        assert_int_equal(rg_movie_close(m), RG_OK);
        rg_movie_free(m);
        size_t n;
        char *log = zip_entry_bytes(path, "Input Log.txt", &n);
        if (pressed)
            assert_string_equal(log, "[Input]\nP1 VI|P1 V|P1 IV|P1 I|P1 Right|P1 Left|P1 Down|P1 Up|P1 Run|"
                                     "P1 Select|P1 III|P1 II|\n|..|.......U....|\n|..|........r...|\n[/Input]");
        else
            assert_string_equal(log, "[Input]\nP1 Right|P1 Left|P1 Down|P1 Up|P1 Select|\n|..|...U.|\n|..|.....|\n"
                                     "[/Input]");
        free(log);
        assert_int_equal(rg_movie_open_read(&m, path), RG_OK);
        assert_int_equal(mt_frame(m, 1, 0), pressed ? 1u << 3 : 0);
        rg_movie_free(m);
    }
    mt_rmtree(dir);
    free(dir);
}

/* A failed close leaves neither the movie nor a temporary file, and keeps every frame for another try. */
static void test_failed_close_leaves_nothing(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    char path[4096], sub[4096];
    /* The target is a folder: the temporary file is written, the rename fails, the temporary file goes. */
    snprintf(path, sizeof path, "%s/target.bk2", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    rg_movie *m;
    assert_int_equal(rg_movie_open_write(&m, path, "Nes", "N", 1), RG_OK);
    for (int f = 0; f < 50; f++) {
        rg_movie_set_buttons(m, 0, (uint16_t)f);
        rg_movie_step(m);
    }
    assert_int_equal(rg_movie_close(m), RG_EIO);
    assert_non_null(strstr(rg_error_last(), "not written"));
    assert_int_equal(mt_count_entries(dir), 1); /* only the folder in the way */
    assert_int_equal(rg_movie_step(m), 1);      /* still open */
    /* Nothing lost: remove the obstacle and close again. */
    assert_int_equal(rmdir(path), 0);
    assert_int_equal(rg_movie_close(m), RG_OK);
    rg_movie_free(m);
    assert_int_equal(rg_movie_open_read(&m, path), RG_OK);
    assert_int_equal(rg_movie_frame_count(m), 51);
    assert_int_equal(mt_frame(m, 49, 0), 49 & 0x1fd);
    rg_movie_free(m);

    /* The folder disappears before close: nothing is created anywhere. */
    snprintf(sub, sizeof sub, "%s/gone", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(path, sizeof path, "%s/gone/m.bk2", dir);
    assert_int_equal(rg_movie_open_write(&m, path, "Snes", "S", 1), RG_OK);
    assert_int_equal(rg_movie_step(m), 1);
    assert_int_equal(rmdir(sub), 0);
    assert_int_equal(rg_movie_close(m), RG_EIO);
    assert_int_equal(mt_count_entries(dir), 1); /* target.bk2 of above only */
    rg_movie_free(m);

    /* A read-only folder (meaningless for root, who may write anyway). */
    if (geteuid() != 0) {
        assert_int_equal(mkdir(sub, 0555), 0);
        assert_int_equal(rg_movie_open_write(&m, path, "Snes", "S", 1), RG_OK);
        assert_int_equal(rg_movie_step(m), 1);
        assert_int_equal(rg_movie_close(m), RG_EIO);
        assert_int_equal(mt_count_entries(sub), 0);
        rg_movie_free(m);
        chmod(sub, 0755);
    }

    /* Freed without closing: discarded. */
    snprintf(path, sizeof path, "%s/discarded.bk2", dir);
    assert_int_equal(rg_movie_open_write(&m, path, "Nes", "N", 1), RG_OK);
    assert_int_equal(rg_movie_step(m), 1);
    rg_movie_free(m);
    assert_int_equal(access(path, F_OK), -1);
    mt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_button_has_a_column),
        cmocka_unit_test(test_cursor_semantics),
        cmocka_unit_test(test_state_and_players),
        cmocka_unit_test(test_configure),
        cmocka_unit_test(test_zero_frames),
        cmocka_unit_test(test_extension_only_when_pressed),
        cmocka_unit_test(test_failed_close_leaves_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

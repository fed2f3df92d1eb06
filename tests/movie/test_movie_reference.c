/* The committed reference movies (tests/movie/data, made by make_reference.py): sr-*.bk2 were recorded by
 * stable-retro itself on our test ROMs, ours-*.bk2 by our writer with the buttons stable-retro drops. Reading each
 * gives the frames of its .masks file; our writer given the same inputs reproduces every entry byte for byte; a read
 * movie saved again is the same. */
#define _POSIX_C_SOURCE 200809L
#include "movie_test_util.h"

static const char *const references[] = {
    "sr-Atari2600", "sr-GameBoy", "sr-GameGear", "sr-GbAdvance", "sr-GbColor",  "sr-Genesis",
    "sr-Nes",       "sr-PCEngine", "sr-Sms",     "sr-Snes",      "sr-Nes-2p",   "sr-Genesis-2p",
    "sr-Snes-nostate", "ours-Atari2600", "ours-Sms", "ours-PCEngine",
};
#define N_REFERENCES (sizeof references / sizeof references[0])

static const char *const entries[] = {"Input Log.txt", "Header.txt", "Core.bin"};

static void data_path(char *buf, size_t cap, const char *name, const char *ext)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/movie/data/%s%s", name, ext);
    test_source_path(rel, buf, cap);
}

/* Every entry of a and b has the same bytes (or is absent from both). */
static void assert_same_entries(const char *a, const char *b)
{
    for (size_t i = 0; i < 3; i++) {
        size_t sa = 0, sb = 0;
        char *ea = zip_entry_bytes(a, entries[i], &sa), *eb = zip_entry_bytes(b, entries[i], &sb);
        if (!ea || !eb) {
            if (ea || eb)
                fail_msg("%s: %s in one movie only (%s, %s)", entries[i], ea ? a : b, a, b);
        } else {
            if (sa != sb || memcmp(ea, eb, sa) != 0)
                fail_msg("%s differs between %s and %s:\n---\n%s\n---\n%s", entries[i], a, b,
                         i < 2 ? ea : "(binary)", i < 2 ? eb : "(binary)");
        }
        free(ea);
        free(eb);
    }
}

/* The entry names in archive order. */
static void assert_entry_order(const char *path, int with_state)
{
    int err = 0;
    zip_t *za = zip_open(path, ZIP_RDONLY, &err);
    assert_non_null(za);
    assert_int_equal(zip_get_num_entries(za, 0), with_state ? 3 : 2);
    for (int i = 0; i < (with_state ? 3 : 2); i++)
        assert_string_equal(zip_get_name(za, (zip_uint64_t)i, 0), entries[i]);
    zip_discard(za);
}

static void test_read_references(void **state)
{
    (void)state;
    for (size_t r = 0; r < N_REFERENCES; r++) {
        char bk2[1024], masks_path[1024];
        data_path(bk2, sizeof bk2, references[r], ".bk2");
        data_path(masks_path, sizeof masks_path, references[r], ".masks");
        movie_masks mm;
        assert_int_equal(movie_masks_load(masks_path, &mm), 0);
        rg_movie *m;
        if (rg_movie_open_read(&m, bk2) != RG_OK)
            fail_msg("%s: %s", bk2, rg_error_last());
        assert_string_equal(rg_movie_system(m)->name, mm.system);
        assert_string_equal(rg_movie_game(m), mm.game);
        assert_int_equal(rg_movie_players(m), mm.players);
        assert_int_equal(rg_movie_format_of(m), RG_MOVIE_BK2);
        assert_int_equal(rg_movie_frame_count(m), mm.frames);
        const uint8_t *st;
        size_t st_size;
        assert_int_equal(rg_movie_state(m, &st, &st_size), RG_OK);
        if (strstr(references[r], "nostate"))
            assert_int_equal(st_size, 0);
        else
            assert_true(st_size > 0);
        /* Through the cursor, as stable-retro's Movie is used: step, then get_key per button per player. */
        for (size_t f = 0; f < mm.frames; f++) {
            assert_int_equal(rg_movie_step(m), 1);
            for (unsigned p = 0; p < mm.players; p++) {
                uint16_t want = mm.masks[f * mm.players + p], got = 0;
                for (unsigned b = 0; b < 16; b++)
                    got |= (uint16_t)(rg_movie_get_key(m, b, p) << b);
                if (got != want)
                    fail_msg("%s frame %zu player %u: %04x, expected %04x", references[r], f, p, got, want);
            }
        }
        assert_int_equal(rg_movie_step(m), 0);
        assert_string_equal(rg_movie_header(m, "MovieVersion"), "Retro");
        rg_movie_free(m);
        movie_masks_free(&mm);
    }
}

/* Our writer, given each reference's inputs (frames, state, game), writes the same entries. */
static void test_writer_reproduces_references(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    for (size_t r = 0; r < N_REFERENCES; r++) {
        char bk2[1024], masks_path[1024], out[4096];
        data_path(bk2, sizeof bk2, references[r], ".bk2");
        data_path(masks_path, sizeof masks_path, references[r], ".masks");
        snprintf(out, sizeof out, "%s/%s.bk2", dir, references[r]);
        movie_masks mm;
        assert_int_equal(movie_masks_load(masks_path, &mm), 0);
        rg_movie *ref, *m;
        assert_int_equal(rg_movie_open_read(&ref, bk2), RG_OK);
        const uint8_t *st;
        size_t st_size;
        rg_movie_state(ref, &st, &st_size);
        assert_int_equal(rg_movie_open_write(&m, out, mm.system, mm.game, mm.players), RG_OK);
        assert_int_equal(rg_movie_set_state(m, st, st_size), RG_OK);
        for (size_t f = 0; f < mm.frames; f++) {
            for (unsigned p = 0; p < mm.players; p++)
                for (unsigned b = 0; b < 16; b++)
                    assert_int_equal(rg_movie_set_key(m, b, mm.masks[f * mm.players + p] >> b & 1, p), RG_OK);
            assert_int_equal(rg_movie_step(m), 1);
        }
        assert_int_equal(rg_movie_close(m), RG_OK);
        rg_movie_free(m);
        rg_movie_free(ref);
        assert_same_entries(bk2, out);
        assert_entry_order(out, st_size > 0);
        if (strncmp(references[r], "sr-", 3) == 0)
            assert_entry_order(bk2, st_size > 0); /* stable-retro's own order, which ours follows */
        movie_masks_free(&mm);
    }
    mt_rmtree(dir);
    free(dir);
}

/* read -> save -> read -> save: the same entries each time, and the same as the reference. */
static void test_round_trip(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    for (size_t r = 0; r < N_REFERENCES; r++) {
        char bk2[1024], once[4096], twice[4096];
        data_path(bk2, sizeof bk2, references[r], ".bk2");
        snprintf(once, sizeof once, "%s/once.bk2", dir);
        snprintf(twice, sizeof twice, "%s/twice.bk2", dir);
        rg_movie *a, *b;
        assert_int_equal(rg_movie_open_read(&a, bk2), RG_OK);
        assert_int_equal(rg_movie_save(a, once), RG_OK);
        assert_int_equal(rg_movie_open_read(&b, once), RG_OK);
        assert_int_equal(rg_movie_save(b, twice), RG_OK);
        assert_int_equal(rg_movie_frame_count(a), rg_movie_frame_count(b));
        for (uint64_t f = 0; f < rg_movie_frame_count(a); f++)
            for (unsigned p = 0; p < rg_movie_players(a); p++)
                assert_int_equal(mt_frame(a, f, p), mt_frame(b, f, p));
        rg_movie_free(a);
        rg_movie_free(b);
        assert_same_entries(once, twice);
        assert_same_entries(bk2, once);
    }
    mt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_references),
        cmocka_unit_test(test_writer_reproduces_references),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

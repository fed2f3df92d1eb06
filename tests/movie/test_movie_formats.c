/* Files from elsewhere: BizHawk's .bk2 (a LogKey: line, groups, console columns, analog columns, no Core.bin),
 * the key line stable-retro meant to write, CRLF lines, and FCEUX .fm2 (written here from the format's
 * description). */
#define _POSIX_C_SOURCE 200809L
#include "movie_test_util.h"

#define NES_A (1u << 8)
#define NES_B (1u << 0)
#define NES_SELECT (1u << 2)
#define NES_START (1u << 3)
#define NES_UP (1u << 4)
#define NES_DOWN (1u << 5)
#define NES_LEFT (1u << 6)
#define NES_RIGHT (1u << 7)

static const char bizhawk_nes_header[] = "MovieVersion BizHawk v2.0.0\nAuthor someone\nemuVersion Version 2.9\n"
                                         "Platform NES\nGameName Some Game\nSHA1 0123\nCore NesHawk\n"
                                         "rerecordCount 12\n";

static void test_bizhawk_nes(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    rg_movie *m;
    const char *log = "[Input]\n"
                      "LogKey:#Reset|Power|#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|"
                      "#P2 Up|P2 Down|P2 Left|P2 Right|P2 Start|P2 Select|P2 B|P2 A|\n"
                      "|..|U......A|........|\n"
                      "|r.|...R.sB.|..L.S...|\n"
                      "|.P|........|UDLRSsBA|\n"
                      "[/Input]\n";
    assert_int_equal(mt_open_texts(dir, bizhawk_nes_header, log, &m), RG_OK);
    assert_string_equal(rg_movie_system(m)->name, "Nes");
    assert_string_equal(rg_movie_game(m), "Some Game");
    assert_string_equal(rg_movie_header(m, "Core"), "NesHawk");
    assert_int_equal(rg_movie_players(m), 2);
    assert_int_equal(rg_movie_frame_count(m), 3);
    assert_int_equal(mt_frame(m, 0, 0), NES_UP | NES_A);
    assert_int_equal(mt_frame(m, 1, 0), NES_RIGHT | NES_SELECT | NES_B);
    assert_int_equal(mt_frame(m, 1, 1), NES_LEFT | NES_START);
    assert_int_equal(mt_frame(m, 2, 1), 0x1fd);
    unsigned cmds;
    rg_movie_frame_commands(m, 1, &cmds);
    assert_int_equal(cmds, RG_MOVIE_CMD_RESET);
    rg_movie_frame_commands(m, 2, &cmds);
    assert_int_equal(cmds, RG_MOVIE_CMD_POWER);
    const uint8_t *st;
    size_t st_size;
    rg_movie_state(m, &st, &st_size);
    assert_int_equal(st_size, 0); /* no Core.bin: a power-on start */

    /* Converted to stable-retro's layout, it reads back the same. */
    char out[4096];
    snprintf(out, sizeof out, "%s/converted.bk2", dir);
    assert_int_equal(rg_movie_save(m, out), RG_OK);
    rg_movie *c;
    assert_int_equal(rg_movie_open_read(&c, out), RG_OK);
    for (unsigned f = 0; f < 3; f++)
        for (unsigned p = 0; p < 2; p++)
            assert_int_equal(mt_frame(c, f, p), mt_frame(m, f, p));
    rg_movie_frame_commands(c, 2, &cmds);
    assert_int_equal(cmds, RG_MOVIE_CMD_POWER);
    rg_movie_free(c);
    rg_movie_free(m);

    /* CRLF lines, no [Input] markers. */
    const char *crlf = "LogKey:#Reset|Power|#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|\r\n"
                       "|..|.D.....A|\r\n|..|........|\r\n";
    assert_int_equal(mt_open_texts(dir, bizhawk_nes_header, crlf, &m), RG_OK);
    assert_int_equal(rg_movie_players(m), 1);
    assert_int_equal(rg_movie_frame_count(m), 2);
    assert_int_equal(mt_frame(m, 0, 0), NES_DOWN | NES_A);
    rg_movie_free(m);
    mt_rmtree(dir);
    free(dir);
}

/* Atari: BizHawk's console switches; GBA: a console Power column and analog columns; SMS: B1/B2. */
static void test_bizhawk_console_and_analog(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    rg_movie *m;
    const char *a26 = "[Input]\nLogKey:#Reset|Select|Power|Toggle Left Difficulty|Toggle Right Difficulty|"
                      "#P1 Up|P1 Down|P1 Left|P1 Right|P1 Button|\n"
                      "|r....|....B|\n|.s.l.|U....|\n|..P..|.....|\n[/Input]\n";
    assert_int_equal(mt_open_texts(dir, MT_HEADER("A26", "Pong"), a26, &m), RG_OK);
    const rg_system_info *sys = rg_movie_system(m);
    assert_string_equal(sys->name, "Atari2600");
    assert_int_equal(mt_frame(m, 0, 0), (1u << rg_system_button_id(sys, "RESET")) | 1u);
    assert_int_equal(mt_frame(m, 1, 0), (1u << rg_system_button_id(sys, "SELECT")) | (1u << 4));
    unsigned cmds;
    rg_movie_frame_commands(m, 2, &cmds);
    assert_int_equal(cmds, RG_MOVIE_CMD_POWER);
    rg_movie_free(m);

    const char *gba = "[Input]\nLogKey:#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|P1 L|P1 R|"
                      "P1 Power|#Tilt X|Tilt Y|Light Sensor|\n"
                      "|U.....BA.r.|    0,  -12,  255,|\n"
                      "|..........P|123456,    0,    0,|\n[/Input]\n";
    assert_int_equal(mt_open_texts(dir, MT_HEADER("GBA", "x"), gba, &m), RG_OK);
    sys = rg_movie_system(m);
    assert_string_equal(sys->name, "GbAdvance");
    assert_int_equal(mt_frame(m, 0, 0), (1u << 4) | 1u | (1u << 8) | (1u << 11));
    rg_movie_frame_commands(m, 1, &cmds);
    assert_int_equal(cmds, RG_MOVIE_CMD_POWER);
    rg_movie_free(m);

    const char *sms = "[Input]\nLogKey:#Reset|Pause|#P1 Up|P1 Down|P1 Left|P1 Right|P1 B1|P1 B2|\n"
                      "|.p|U...1.|\n|..|.....2|\n[/Input]\n";
    assert_int_equal(mt_open_texts(dir, MT_HEADER("SMS", "x"), sms, &m), RG_OK);
    sys = rg_movie_system(m);
    assert_string_equal(sys->name, "Sms");
    assert_int_equal(mt_frame(m, 0, 0), (1u << 4) | (1u << 0) | (1u << rg_system_button_id(sys, "PAUSE")));
    assert_int_equal(mt_frame(m, 1, 0), 1u << 8);
    rg_movie_free(m);
    mt_rmtree(dir);
    free(dir);
}

/* The key line stable-retro meant to write ("LogKey:#Reset|Power|#" then every player in one group) with its
 * per-player frame fields, and a plain stable-retro file that lists P2 before P1. */
static void test_other_key_lines(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    rg_movie *m;
    const char *meant = "[Input]\nLogKey:#Reset|Power|#P1 Z|P1 X|P1 Y|P1 C|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|"
                        "P1 Mode|P1 A|P1 B|P2 Z|P2 X|P2 Y|P2 C|P2 Right|P2 Left|P2 Down|P2 Up|P2 Start|P2 Mode|"
                        "P2 A|P2 B|\n|..|Z..........B|...C........|\n[/Input]";
    assert_int_equal(mt_open_texts(dir, MT_HEADER("GEN", "g"), meant, &m), RG_OK);
    assert_int_equal(rg_movie_players(m), 2);
    assert_int_equal(mt_frame(m, 0, 0), (1u << 11) | 1u);
    assert_int_equal(mt_frame(m, 0, 1), 1u << 8);
    rg_movie_free(m);

    const char *swapped = "[Input]\nP2 Up|P2 A|P1 Up|P1 A|\n|..|U.|.A|\n[/Input]";
    assert_int_equal(mt_open_texts(dir, MT_HEADER("NES", "n"), swapped, &m), RG_OK);
    assert_int_equal(mt_frame(m, 0, 1), NES_UP);
    assert_int_equal(mt_frame(m, 0, 0), NES_A);
    rg_movie_free(m);

    /* A movie with no Core.bin and no frames, a header with odd lines and a GameName with spaces. */
    assert_int_equal(mt_open_texts(dir, "Platform GameBoy\n\nlonely\nGameName  two  spaces \n",
                                   "[Input]\nP1 A|\n[/Input]", &m),
                     RG_OK);
    assert_string_equal(rg_movie_game(m), " two  spaces ");
    assert_string_equal(rg_movie_header(m, "lonely"), "");
    assert_int_equal(rg_movie_frame_count(m), 0);
    rg_movie_free(m);
    mt_rmtree(dir);
    free(dir);
}

static int open_fm2(const char *dir, const char *text, rg_movie **out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/m.fm2", dir);
    mt_write_file(path, text, strlen(text));
    rg_movie *m = NULL;
    int rc = rg_movie_open_read(&m, path);
    if (out)
        *out = m;
    else
        rg_movie_free(m);
    return rc;
}

#define FM2_HEAD(ports)                                                                                            \
    "version 3\nemuVersion 22020\nrerecordCount 4\npalFlag 0\nromFilename smb\nromChecksum base64:AAAAAAAAAAAA"  \
    "AAAAAAAAAA==\nguid 00000000-0000-0000-0000-000000000000\nfourscore 0\nmicrophone 0\n" ports "FDS 0\n"        \
    "NewPPU 0\ncomment author someone\n"

static void test_fm2(void **state)
{
    (void)state;
    char *dir = mt_tempdir();
    rg_movie *m;
    const char *two = FM2_HEAD("port0 1\nport1 1\nport2 0\n") "|0|R.......|........||\n"
                                                              "|1|...U..BA|.L......||\n"
                                                              "|2|....TS..|.......A||\n"
                                                              "|0|        |RLDUTSBA||\n";
    if (open_fm2(dir, two, &m) != RG_OK)
        fail_msg("%s", rg_error_last());
    assert_int_equal(rg_movie_format_of(m), RG_MOVIE_FM2);
    assert_string_equal(rg_movie_system(m)->name, "Nes");
    assert_string_equal(rg_movie_game(m), "");
    assert_string_equal(rg_movie_header(m, "romFilename"), "smb");
    assert_int_equal(rg_movie_players(m), 2);
    assert_int_equal(rg_movie_frame_count(m), 4);
    assert_int_equal(mt_frame(m, 0, 0), NES_RIGHT);
    assert_int_equal(mt_frame(m, 1, 0), NES_UP | NES_B | NES_A);
    assert_int_equal(mt_frame(m, 1, 1), NES_LEFT);
    assert_int_equal(mt_frame(m, 2, 0), NES_START | NES_SELECT);
    assert_int_equal(mt_frame(m, 2, 1), NES_A);
    assert_int_equal(mt_frame(m, 3, 0), 0);
    assert_int_equal(mt_frame(m, 3, 1), 0x1fd);
    unsigned cmds;
    rg_movie_frame_commands(m, 1, &cmds);
    assert_int_equal(cmds, RG_MOVIE_CMD_RESET);
    rg_movie_frame_commands(m, 2, &cmds);
    assert_int_equal(cmds, RG_MOVIE_CMD_POWER);
    const uint8_t *st;
    size_t st_size;
    rg_movie_state(m, &st, &st_size);
    assert_int_equal(st_size, 0);
    /* As a .bk2 (NES needs a game name there; FM2 has none) */
    char out[4096];
    snprintf(out, sizeof out, "%s/from-fm2.bk2", dir);
    assert_int_equal(rg_movie_save(m, out), RG_OK);
    rg_movie_free(m);
    size_t n;
    char *log = zip_entry_bytes(out, "Input Log.txt", &n);
    assert_non_null(strstr(log, "\n|..|.R......|........|\n|r.|A...U..B|..L.....|\n|.P|.....Ss.|A.......|\n"));
    free(log);

    /* One player (port1 0), CRLF, an old file without the expansion field. */
    assert_int_equal(open_fm2(dir, "version 3\r\nport0 1\r\nport1 0\r\nport2 0\r\n|0|..D.....|||\r\n|0|A......A||\r\n",
                              &m),
                     RG_OK);
    assert_int_equal(rg_movie_players(m), 1);
    assert_int_equal(mt_frame(m, 0, 0), NES_DOWN);
    assert_int_equal(mt_frame(m, 1, 0), NES_RIGHT | NES_A); /* position decides: 'A' in the R column is R */
    rg_movie_free(m);

    /* Four Score: four gamepads. */
    const char *four = "version 3\nfourscore 1\nport0 1\nport1 1\nport2 0\n"
                       "|0|R.......|.L......|..D.....|...U....||\n";
    assert_int_equal(open_fm2(dir, four, &m), RG_OK);
    assert_int_equal(rg_movie_players(m), 4);
    assert_int_equal(mt_frame(m, 0, 3), NES_UP);
    rg_movie_free(m);

    /* Zapper on port 1: its field is skipped. */
    assert_int_equal(open_fm2(dir, "version 3\nport0 1\nport1 2\nport2 0\n|0|.......A|120 80 1||\n", &m), RG_OK);
    assert_int_equal(rg_movie_players(m), 1);
    assert_int_equal(mt_frame(m, 0, 0), NES_A);
    rg_movie_free(m);

    /* What is refused. */
    assert_int_equal(open_fm2(dir, "version 2\nport0 1\n|0|........||\n", NULL), RG_ECORRUPT);
    assert_int_equal(open_fm2(dir, FM2_HEAD("port0 1\nport1 0\nport2 0\n") "|0|.......||\n", NULL), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "expected 8"));
    assert_int_equal(open_fm2(dir, FM2_HEAD("port0 1\nport1 0\nport2 0\n") "|0|........|U.......||\n", NULL),
                     RG_ECORRUPT); /* input on an empty port */
    assert_int_equal(open_fm2(dir, FM2_HEAD("port0 1\nport1 0\nport2 0\n") "|x|........|||\n", NULL), RG_ECORRUPT);
    assert_int_equal(open_fm2(dir, FM2_HEAD("port0 1\nport1 0\nport2 0\n") "|0|........||||\n", NULL), RG_ECORRUPT);
    assert_int_equal(open_fm2(dir, FM2_HEAD("port0 1\nport1 0\nport2 0\n") "|0|........||\nstray\n|0|........||\n",
                              NULL),
                     RG_ECORRUPT);
    assert_int_equal(open_fm2(dir, "version 3\nbinary 1\nlength 999999999999\nport0 1\n|\n", NULL),
                     RG_EUNSUPPORTED);
    assert_int_equal(open_fm2(dir, "version 3\nsavestate base64:AAAA\nport0 1\n|0|........||\n", NULL),
                     RG_EUNSUPPORTED);
    assert_int_equal(open_fm2(dir, "version 3\nport0 x\n|0|........||\n", NULL), RG_ECORRUPT);
    char bad[] = "version 3\nport0 1\n|0|..\x01.....||\n";
    assert_int_equal(open_fm2(dir, bad, NULL), RG_ECORRUPT);
    mt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bizhawk_nes),
        cmocka_unit_test(test_bizhawk_console_and_analog),
        cmocka_unit_test(test_other_key_lines),
        cmocka_unit_test(test_fm2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

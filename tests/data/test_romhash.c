/* rom.sha parsing, ROM SHA-1 (iNES header skipped for .nes), the size cap, and the hash/ROM validators. */
#include "data_fixture.h"

#include <fcntl.h>
#include <unistd.h>

static fixture fx;

static int setup(void **state)
{
    (void)state;
    fx_setup(&fx);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fx_teardown(&fx);
    return 0;
}

#define SHA_ABC "a9993e364706816aba3e25717850c26c9cd0d89d"
#define SHA_EMPTY "da39a3ee5e6b4b0d3255bfef95601890afd80709"

static void sha1_vectors(void **state)
{
    (void)state;
    char hex[RG_INTEGRATION_SHA1_HEX + 1];
    assert_int_equal(rg_integration_rom_sha1("abc", 3, "x.bin", hex), RG_OK);
    assert_string_equal(hex, SHA_ABC);
    assert_int_equal(rg_integration_rom_sha1(NULL, 0, NULL, hex), RG_OK);
    assert_string_equal(hex, SHA_EMPTY);
    /* .nes (any case): the 16-byte header is not hashed, whatever it holds (no signature check). */
    uint8_t rom[19];
    memset(rom, 0xEE, 16);
    memcpy(rom + 16, "abc", 3);
    assert_int_equal(rg_integration_rom_sha1(rom, sizeof rom, "game.nes", hex), RG_OK);
    assert_string_equal(hex, SHA_ABC);
    assert_int_equal(rg_integration_rom_sha1(rom, sizeof rom, "dir/GAME.NES", hex), RG_OK);
    assert_string_equal(hex, SHA_ABC);
    assert_int_equal(rg_integration_rom_sha1(rom, sizeof rom, "game.nes.bak", hex), RG_OK);
    assert_string_not_equal(hex, SHA_ABC);
    /* A .nes shorter than its header hashes as empty. */
    assert_int_equal(rg_integration_rom_sha1(rom, 10, "tiny.nes", hex), RG_OK);
    assert_string_equal(hex, SHA_EMPTY);
    assert_int_equal(rg_integration_rom_sha1(NULL, 3, "x", hex), RG_EINVAL);
}

static void sha1_files(void **state)
{
    (void)state;
    uint8_t rom[19];
    memset(rom, 0, 16);
    memcpy(rom, "NES\x1a", 4);
    memcpy(rom + 16, "abc", 3);
    fx_write(fx.tmp, "h/rom.nes", rom, sizeof rom);
    fx_write(fx.tmp, "h/rom.md", "abc", 3);
    char path[800], hex[RG_INTEGRATION_SHA1_HEX + 1];
    snprintf(path, sizeof path, "%s/h/rom.nes", fx.tmp);
    assert_int_equal(rg_integration_rom_sha1_file(path, hex), RG_OK);
    assert_string_equal(hex, SHA_ABC);
    snprintf(path, sizeof path, "%s/h/rom.md", fx.tmp);
    assert_int_equal(rg_integration_rom_sha1_file(path, hex), RG_OK);
    assert_string_equal(hex, SHA_ABC);
    snprintf(path, sizeof path, "%s/h/missing.md", fx.tmp);
    assert_int_equal(rg_integration_rom_sha1_file(path, hex), RG_ENOTFOUND);
    /* Over 32 MiB: refused before reading (a sparse file costs no disk). */
    snprintf(path, sizeof path, "%s/h/big.md", fx.tmp);
    int fd = open(path, O_CREAT | O_WRONLY, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)RG_INTEGRATION_ROM_MAX_SIZE + 1), 0);
    close(fd);
    assert_int_equal(rg_integration_rom_sha1_file(path, hex), RG_ETOOBIG);
    assert_non_null(strstr(rg_error_last(), "ROM is too big"));
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_int_equal(ftruncate(fd, (off_t)RG_INTEGRATION_ROM_MAX_SIZE), 0);
    close(fd);
    assert_int_equal(rg_integration_rom_sha1_file(path, hex), RG_OK);
}

static void romsha_parse(void **state)
{
    (void)state;
    rg_strlist *l;
    const char *two = SHA_ABC "\r\n\r\n  " SHA_EMPTY "  \n\n";
    assert_int_equal(rg_integration_romsha_parse(two, strlen(two), &l), RG_OK);
    assert_int_equal(rg_strlist_count(l), 2);
    assert_string_equal(rg_strlist_at(l, 0), SHA_ABC);
    assert_string_equal(rg_strlist_at(l, 1), SHA_EMPTY);
    rg_strlist_free(l);
    /* Upper case is lowered; a duplicate counts once; no final newline; a byte-order mark. */
    const char *upper = "\xEF\xBB\xBF" "A9993E364706816ABA3E25717850C26C9CD0D89D\n" SHA_ABC;
    assert_int_equal(rg_integration_romsha_parse(upper, strlen(upper), &l), RG_OK);
    assert_int_equal(rg_strlist_count(l), 1);
    assert_string_equal(rg_strlist_at(l, 0), SHA_ABC);
    rg_strlist_free(l);
    /* Empty and blank files: no hashes. */
    assert_int_equal(rg_integration_romsha_parse("", 0, &l), RG_OK);
    assert_int_equal(rg_strlist_count(l), 0);
    rg_strlist_free(l);
    assert_int_equal(rg_integration_romsha_parse(" \r\n\n", 4, &l), RG_OK);
    assert_int_equal(rg_strlist_count(l), 0);
    rg_strlist_free(l);
    static const struct {
        const char *text;
        const char *msg;
    } bad[] = {
        {SHA_ABC "0\n", "line 1"},
        {SHA_ABC "\n" "a9993e36", "line 2"},
        {"g9993e364706816aba3e25717850c26c9cd0d89d", "line 1"},
        {SHA_ABC " " SHA_EMPTY, "line 1"},
        {"\n\nnot a hash at all", "line 3 is not a SHA-1 (40 hex digits): \"not a hash at all\""},
        {"a9993e364706816aba3e25717850c26c9cd0d8\x01\x02", "\"a9993e364706816aba3e25717850c26c9cd0d8??\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        l = (rg_strlist *)&l;
        int rc = rg_integration_romsha_parse(bad[i].text, strlen(bad[i].text), &l);
        if (rc != RG_ECORRUPT || !strstr(rg_error_last(), bad[i].msg))
            fail_msg("case %zu: rc %d, \"%s\"", i, rc, rg_error_last());
        assert_null(l);
    }
    /* Embedded NUL bytes are garbage too. */
    char nul[41];
    memcpy(nul, SHA_ABC, 40);
    nul[5] = '\0';
    assert_int_equal(rg_integration_romsha_parse(nul, 40, &l), RG_ECORRUPT);
    /* A file: binary junk is refused with its path in the message. */
    fx_write(fx.tmp, "r/rom.sha", "\x89PNG\r\n\x1a\n", 8);
    char path[800];
    snprintf(path, sizeof path, "%s/r/rom.sha", fx.tmp);
    assert_int_equal(rg_integration_romsha_load(path, &l), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "r/rom.sha"));
    snprintf(path, sizeof path, "%s/r/none.sha", fx.tmp);
    assert_int_equal(rg_integration_romsha_load(path, &l), RG_ENOTFOUND);
}

static void verify_hash_and_rom(void **state)
{
    (void)state;
    uint8_t rom[19];
    memset(rom, 0x42, 16);
    memcpy(rom + 16, "abc", 3);
    fx_game(&fx, "stable", "Hashy-Nes", SHA_ABC);
    char base[800];
    snprintf(base, sizeof base, "%s/stable/Hashy-Nes", fx.root);
    rg_integration_diags *d;
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    /* No ROM: an error for both checks. */
    assert_int_equal(rg_integration_validate_hash(fx.dp, "Hashy-Nes", 0, d), RG_OK);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "ROM file missing"), 1);
    rg_integration_diags_free(d);
    fx_write(base, "rom.nes", rom, sizeof rom);
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_hash(fx.dp, "Hashy-Nes", 0, d), RG_OK);
    assert_int_equal(rg_integration_validate_rom(fx.dp, "Hashy-Nes", 0, d), RG_OK);
    assert_int_equal(rg_integration_validate_game(fx.dp, "Hashy-Nes", 0, d), RG_OK);
    if (rg_integration_diags_count(d))
        fx_dump(d);
    assert_int_equal(rg_integration_diags_count(d), 0);
    rom[18] = 'd';
    fx_write(base, "rom.nes", rom, sizeof rom);
    assert_int_equal(rg_integration_validate_hash(fx.dp, "Hashy-Nes", 0, d), RG_OK);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "sha mismatch"), 1);
    rg_integration_diags_free(d);
    /* Genesis: SEGA at 0x100, extension .md; a "rom.md" whitelist entry silences the header check. */
    fx_game(&fx, "stable", "Seg-Genesis", NULL);
    snprintf(base, sizeof base, "%s/stable/Seg-Genesis", fx.root);
    uint8_t md[0x200];
    memset(md, 0, sizeof md);
    fx_write(base, "rom.md", md, sizeof md);
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_rom(fx.dp, "Seg-Genesis", 0, d), RG_OK);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "invalid genesis rom"), 1);
    rg_integration_diags_free(d);
    memcpy(md + 0x100, " SEGA", 5);
    fx_write(base, "rom.md", md, sizeof md);
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_rom(fx.dp, "Seg-Genesis", 0, d), RG_OK);
    assert_int_equal(rg_integration_diags_count(d), 0);
    memset(md + 0x100, 0, 5);
    fx_write(base, "rom.md", md, sizeof md);
    fx_text(base, "metadata.json", "{\"default_state\": \"Start\", \"whitelist\": {\"rom.md\": []}}");
    assert_int_equal(rg_integration_validate_rom(fx.dp, "Seg-Genesis", 0, d), RG_OK);
    assert_int_equal(rg_integration_diags_count(d), 0);
    rg_integration_diags_free(d);
    /* Another system's extension in a game folder. */
    fx_game(&fx, "stable", "Wrong-Snes", NULL);
    snprintf(base, sizeof base, "%s/stable/Wrong-Snes", fx.root);
    fx_write(base, "rom.gb", "x", 1);
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_rom(fx.dp, "Wrong-Snes", 0, d), RG_OK);
    assert_int_equal(fx_count(d, RG_INTEGRATION_SEVERITY_ERROR, "invalid extension for rom.gb"), 1);
    assert_int_equal(rg_integration_validate_hash(fx.dp, "Nobody-Nes", 0, d), RG_ENOTFOUND);
    rg_integration_diags_free(d);
    /* stable-retro 1.x names games with a version suffix: Airstriker-Genesis-v0 holds rom.md. */
    fx_game(&fx, "stable", "Versioned-Genesis-v0", NULL);
    snprintf(base, sizeof base, "%s/stable/Versioned-Genesis-v0", fx.root);
    memcpy(md + 0x100, "SEGA ", 5);
    fx_write(base, "rom.md", md, sizeof md);
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_rom(fx.dp, "Versioned-Genesis-v0", 0, d), RG_OK);
    if (rg_integration_diags_count(d))
        fx_dump(d);
    assert_int_equal(rg_integration_diags_count(d), 0);
    rg_integration_diags_free(d);
    fx_game(&fx, "stable", "Versioned-Nes-v2", NULL);
    snprintf(base, sizeof base, "%s/stable/Versioned-Nes-v2", fx.root);
    fx_write(base, "rom.nes", rom, sizeof rom);
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_rom(fx.dp, "Versioned-Nes-v2", 0, d), RG_OK);
    assert_int_equal(rg_integration_diags_count(d), 0);
    rg_integration_diags_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha1_vectors),
        cmocka_unit_test(sha1_files),
        cmocka_unit_test(romsha_parse),
        cmocka_unit_test(verify_hash_and_rom),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* Fuzz target "zip": importing ROMs from a zip archive (rg_integration_import on one `.zip` file, src/data/import_zip.c: every
 * member checked, zips inside zips followed, every read bounded).
 *
 * The data root is a private folder with two games whose rom.sha lists our own two small "ROMs" (an Atari 2600 one,
 * and a NES one hashed without its 16-byte iNES header), so archives that hold them are imported. The input is
 * written as in.zip and imported with small limits. Invariants: the report adds up, a ROM is written only into a
 * game folder, under its rom.<ext> name, and only with the bytes its rom.sha lists; nothing else appears under the
 * data root or next to the archive. */
#define _XOPEN_SOURCE 700
#include "fuzz.h"

#include <retrogym/error.h>
#include <retrogym/integration.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char a26_rom[] = "retrogym fuzz: an Atari 2600 ROM\n";
static const char nes_rom[] = "NES\x1a\1\1\0\0\0\0\0\0\0\0\0\0retrogym fuzz: a NES ROM\n";

static rg_integration_paths *dp;
static char root[4200], zip_path[4300];

static void make_game(const char *game, const void *rom, size_t size, const char *name)
{
    char dir[4400], path[4500], sha[RG_INTEGRATION_SHA1_HEX + 1];
    snprintf(dir, sizeof dir, "%s/stable/%s", root, game);
    FUZZ_CHECK(mkdir(dir, 0755) == 0);
    FUZZ_CHECK(rg_integration_rom_sha1(rom, size, name, sha) == RG_OK);
    snprintf(path, sizeof path, "%s/rom.sha", dir);
    FILE *f = fopen(path, "w");
    FUZZ_CHECK(f != NULL);
    fprintf(f, "%s\n", sha);
    fclose(f);
}

static void setup(void)
{
    snprintf(root, sizeof root, "%s/root", fuzz_tmpdir());
    FUZZ_CHECK(mkdir(root, 0755) == 0);
    char stable[4400];
    snprintf(stable, sizeof stable, "%s/stable", root);
    FUZZ_CHECK(mkdir(stable, 0755) == 0);
    make_game("FuzzGame-Atari2600", a26_rom, sizeof a26_rom - 1, "rom.a26");
    make_game("FuzzGame-Nes", nes_rom, sizeof nes_rom - 1, "rom.nes");
    FUZZ_CHECK(rg_integration_paths_create(&dp, root) == RG_OK);
}

static void warning(const char *message, void *user)
{
    (void)user;
    fuzz_note("warning: %s", message);
    FUZZ_CHECK(message != NULL && *message);
}

/* A written ROM must be one of ours, at its game's rom.<ext>. Removes it (the next input starts clean). */
static void check_written(const char *game, const char *ext, const char *want, size_t want_size)
{
    char path[4500];
    snprintf(path, sizeof path, "%s/stable/%s/rom.%s", root, game, ext);
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    char buf[128];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    FUZZ_CHECK(n == want_size && memcmp(buf, want, n) == 0);
    unlink(path);
}

/* Counts the entries under a folder (recursively). */
static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    FUZZ_CHECK(d != NULL);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        char sub[4600];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            n += count_entries(sub);
    }
    closedir(d);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dp)
        setup();
    snprintf(zip_path, sizeof zip_path, "%s", fuzz_write_temp("in.zip", data, size));
    rg_integration_import_options opts = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    opts.warning = warning;
    opts.max_rom_size = 1u << 20;
    opts.max_nested_zip_size = 1u << 20;
    opts.max_archive_bytes = 4u << 20;
    const char *paths[] = {zip_path};
    rg_integration_import_report report;
    int rc = rg_integration_import(dp, paths, 1, &opts, &report);
    fuzz_note("import: %d, known %zu files %zu scanned %zu skipped %zu imported %zu", rc, report.known, report.files,
              report.scanned, report.skipped, report.imported);
    FUZZ_CHECK(rc == RG_OK || rc == RG_ENOMEM || rc == RG_EIO);
    FUZZ_CHECK(report.known == 2 && report.files == 1);
    FUZZ_CHECK(report.imported <= 2 && report.imported <= report.scanned);
    /* root/stable, two game folders, two rom.sha: 5 entries, plus what was imported; in.zip alone beside it */
    FUZZ_CHECK(count_entries(root) == 5 + report.imported);
    check_written("FuzzGame-Atari2600", "a26", a26_rom, sizeof a26_rom - 1);
    check_written("FuzzGame-Nes", "nes", nes_rom, sizeof nes_rom - 1);
    FUZZ_CHECK(count_entries(root) == 5);
    FUZZ_CHECK(count_entries(fuzz_tmpdir()) == 6 + 1);
    return 0;
}

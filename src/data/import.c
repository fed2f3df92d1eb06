/* Importing ROMs: walking the given paths and writing matches into their game folders (docs/integrations.md,
 * "Import"). */
#define _POSIX_C_SOURCE 200809L
#include "import_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void rg__import_warn(rg__import *im, const char *fmt, ...)
{
    if (!im->opts.warning)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    im->opts.warning(msg, im->opts.user);
}

/* The folder a game's ROM is written to: the game's own folder, or for a game of an installed package's root (our
 * own games, stable-retro's) the same place under the user root, which a reinstall does not replace. NULL when out
 * of memory. */
static char *dest_dir(const rg_integration_paths *dp, const char *game_dir)
{
    size_t r = rg__root_of(dp, game_dir);
    const char *user = rg_integration_paths_write_root(dp);
    if (r == dp->n_roots || !user ||
        (dp->roots[r].origin != RG_INTEGRATION_ORIGIN_OWN && dp->roots[r].origin != RG_INTEGRATION_ORIGIN_STABLE_RETRO))
        return rg__asprintf("%s", game_dir);
    return rg__asprintf("%s%s", user, game_dir + strlen(dp->roots[r].path));
}

/* Writes a matching ROM into its game folder: the destination comes from the known-hash table only. */
static int write_rom(rg__import *im, const rg__known *k, const uint8_t *data, size_t size)
{
    if (!rg__is_dir(k->game_dir)) {
        rg__import_warn(im, "cannot import %s: %s is not a folder any more", k->game, k->game_dir);
        im->report->skipped++;
        return RG_OK;
    }
    char *dir = dest_dir(im->dp, k->game_dir);
    char *dest = dir ? rg__asprintf("%s/rom.%s", dir, k->ext) : NULL;
    int rc = dest ? rg__mkdirs(dir) : RG_ENOMEM;
    free(dir);
    if (!dest)
        return rg__error(RG_ENOMEM, "out of memory");
    if (rc == RG_OK)
        rc = rg__write_file_atomic(dest, data, size);
    if (rc != RG_OK) {
        im->write_rc = rc;
        snprintf(im->write_msg, sizeof im->write_msg, "%s", rg_error_last());
        rg__import_warn(im, "cannot import %s: %s", k->game, rg_error_last());
        im->report->skipped++;
        free(dest);
        return rc == RG_ENOMEM ? rc : RG_OK;
    }
    if (!rg__strlist_contains(&im->imported_games, k->game))
        rc = rg__strlist_push(&im->imported_games, k->game);
    if (im->opts.imported)
        im->opts.imported(k->game, dest, im->opts.user);
    free(dest);
    return rc;
}

int rg__import_candidate(rg__import *im, const char *name, const uint8_t *data, size_t size)
{
    char sha[RG_INTEGRATION_SHA1_HEX + 1];
    int rc = rg_integration_rom_sha1(data, size, name, sha);
    if (rc != RG_OK)
        return rc;
    im->report->scanned++;
    const rg__known *k = rg__known_find(&im->known, sha);
    int forced = 0;
    if (!k) {
        /* Another dump of a game, by its file name: reported, or adopted for force_game. */
        /* ".bin" is taken as an Atari 2600 ROM only at 2-32 KiB (other systems' dumps use it too). */
        int odd_bin = rg__ends_with_ci(name, ".bin") && (size < 2048 || size > 32768);
        const rg__known *named = odd_bin ? NULL : rg__known_by_file_name(&im->known, name);
        if (im->force && ((named && strcmp(named->game, im->force->game) == 0) || im->single_file)) {
            k = im->force;
            forced = 1;
        } else if (named) {
            im->report->near++;
            if (im->opts.near) {
                char *shown = rg__printable(name, 300);
                im->opts.near(named->game, shown ? shown : name, sha, im->opts.user);
                free(shown);
            }
            return RG_OK;
        } else {
            return RG_OK;
        }
    }
    /* The hash rule of the candidate (by its name) must be the one of the game's system, or the ROM written would
     * not pass the game's own hash check: a headerless NES dump matches a NES game's rom.sha but is no iNES file. */
    int candidate_nes = rg__ends_with_ci(name, ".nes"), game_nes = strcmp(k->ext, "nes") == 0;
    if (candidate_nes != game_nes) {
        char *shown = rg__printable(name, 200);
        rg__import_warn(im, "skipping %s: it matches %s only %s", shown ? shown : "a file", k->game,
                        game_nes ? "as a NES ROM without its 16-byte iNES header" : "without its first 16 bytes");
        free(shown);
        im->report->skipped++;
        return RG_OK;
    }
    if (forced)
        im->report->forced++;
    return write_rom(im, k, data, size);
}

/* A plain file: read (bounded) and checked. */
static int import_plain(rg__import *im, const char *path)
{
    uint8_t *data;
    size_t size;
    int rc = rg__read_file(path, im->opts.max_rom_size, &data, &size);
    if (rc == RG_ENOMEM)
        return rc;
    if (rc != RG_OK) {
        if (rc == RG_ETOOBIG)
            rg__import_warn(im, "skipping %s: ROM is too big (over %zu bytes)", path, im->opts.max_rom_size);
        else
            rg__import_warn(im, "skipping a file: %s", rg_error_last());
        im->report->skipped++;
        return RG_OK;
    }
    rc = rg__import_candidate(im, path, data, size);
    free(data);
    return rc;
}

/* ---- the walk ---- */

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects the files under a folder, sorted, not following folder links. */
static int walk(rg__import *im, const char *dir, unsigned depth, rg_strlist *files)
{
    if (depth >= im->opts.max_dir_depth) {
        rg__import_warn(im, "skipping %s: folders nested deeper than %u", dir, im->opts.max_dir_depth);
        im->report->skipped++;
        return RG_OK;
    }
    DIR *d = opendir(dir);
    if (!d) {
        rg__import_warn(im, "skipping %s: cannot open the folder: %s", dir, strerror(errno));
        im->report->skipped++;
        return RG_OK;
    }
    rg_strlist names = {0};
    int rc = RG_OK;
    struct dirent *e;
    while (rc == RG_OK && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            rc = rg__strlist_push(&names, e->d_name);
    closedir(d);
    if (names.count)
        qsort(names.items, names.count, sizeof *names.items, cmp_name);
    for (size_t i = 0; rc == RG_OK && i < names.count; i++) {
        char *p = rg__path_join(dir, names.items[i]);
        if (!p) {
            rc = rg__error(RG_ENOMEM, "out of memory");
            break;
        }
        struct stat st;
        int have = lstat(p, &st) == 0;
        if (have && S_ISDIR(st.st_mode)) {
            rc = walk(im, p, depth + 1, files);
            free(p);
        } else if (have && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) { /* FIFOs, devices, sockets */
            rg__import_warn(im, "skipping %s: not a regular file", p);
            im->report->skipped++;
            free(p);
        } else if (lstat(p, &st) == 0 && S_ISLNK(st.st_mode) && rg__is_dir(p)) {
            free(p); /* links to folders are not followed (as os.walk) */
        } else {
            rc = rg__strlist_push_own(files, p); /* files, links to files, dangling links: reported when read */
        }
    }
    rg__strlist_clear(&names);
    return rc;
}

static int collect(rg__import *im, const char *const *paths, size_t n, rg_strlist *files)
{
    int rc = RG_OK;
    for (size_t i = 0; rc == RG_OK && i < n; i++) {
        if (!paths[i] || !*paths[i])
            continue;
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            rg__import_warn(im, "skipping %s: %s", paths[i], strerror(errno));
            im->report->skipped++;
        } else if (S_ISDIR(st.st_mode)) {
            rc = walk(im, paths[i], 0, files);
        } else {
            rc = rg__strlist_push(files, paths[i]);
        }
    }
    return rc;
}

static void fill_defaults(rg_integration_import_options *o, const rg_integration_import_options *given)
{
    rg_integration_import_options d = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    *o = d;
    if (given && given->version == 1) /* the fields before `near` */
        memcpy(o, given, offsetof(rg_integration_import_options, near));
    else if (given)
        *o = *given;
    if (!o->max_rom_size)
        o->max_rom_size = RG_INTEGRATION_ROM_MAX_SIZE;
    if (!o->max_nested_zip_size)
        o->max_nested_zip_size = 128u * 1024u * 1024u;
    if (!o->max_archive_bytes)
        o->max_archive_bytes = 1024ull * 1024u * 1024u;
    if (!o->max_zip_depth)
        o->max_zip_depth = 4;
    if (!o->max_dir_depth)
        o->max_dir_depth = 64;
}

int rg_integration_import(const rg_integration_paths *dp, const char *const *paths, size_t n_paths, const rg_integration_import_options *opts,
              rg_integration_import_report *report)
{
    if (!dp || (!paths && n_paths) || !report)
        return rg__error(RG_EINVAL, "rg_integration_import: NULL argument");
    if (opts && opts->version != RG_INTEGRATION_IMPORT_OPTIONS_VERSION && opts->version != 1)
        return rg__error(RG_EINVAL, "rg_integration_import: options version %u, expected %u", opts->version,
                         RG_INTEGRATION_IMPORT_OPTIONS_VERSION);
    memset(report, 0, sizeof *report);
    rg__import im = {.dp = dp, .report = report};
    fill_defaults(&im.opts, opts);
    rg_strlist files = {0};
    int rc = rg__known_build(&im);
    report->known = im.known.count;
    if (rc == RG_OK && im.opts.force_game) {
        if (!(im.force = rg__known_by_game(&im.known, im.opts.force_game))) {
            char *shown = rg__printable(im.opts.force_game, 100);
            char *roots = rg__roots_message(dp);
            rc = rg__error(RG_ENOTFOUND, "--force: unknown game %s (searched %s)", shown ? shown : "?",
                           roots ? roots : "the data roots");
            free(shown);
            free(roots);
        }
        struct stat st;
        im.single_file = n_paths == 1 && paths[0] && stat(paths[0], &st) == 0 && S_ISREG(st.st_mode) &&
                         !rg__ends_with_ci(paths[0], ".zip");
    }
    if (rc == RG_OK)
        rc = collect(&im, paths, n_paths, &files);
    report->files = files.count;
    for (size_t i = 0; rc == RG_OK && i < files.count; i++) {
        const char *f = files.items[i];
        if (rg__ends_with_ci(f, ".zip"))
            rc = rg__import_zip_file(&im, f);
        else
            rc = import_plain(&im, f);
        if (im.opts.progress)
            im.opts.progress(i + 1, files.count, f, im.opts.user);
    }
    report->imported = im.imported_games.count;
    rg__strlist_clear(&files);
    rg__strlist_clear(&im.imported_games);
    rg__known_clear(&im.known);
    if (rc == RG_OK && im.write_rc != RG_OK)
        rc = rg__error(im.write_rc, "%zu ROM%s could not be written (see the warnings); the last: %s",
                       report->skipped, report->skipped == 1 ? "" : "s", im.write_msg);
    return rc;
}

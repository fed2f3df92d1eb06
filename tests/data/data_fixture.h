/* Helpers of the integration-data tests: a private data root built at run time, files written into it. */
#ifndef RG_TESTS_DATA_FIXTURE_H
#define RG_TESTS_DATA_FIXTURE_H

#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A temporary folder (removed at the end) holding a data root "<tmp>/data" with stable, contrib, experimental. */
typedef struct fixture {
    char tmp[512];
    char root[600];
    rg_integration_paths *dp;
} fixture;

/* Writes bytes to <base>/<rel>, creating folders. */
static inline void fx_write(const char *base, const char *rel, const void *data, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    *slash = '\0';
    test_mkdirs(dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s: %s", path, strerror(errno));
    if (size)
        assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static inline void fx_text(const char *base, const char *rel, const char *text)
{
    fx_write(base, rel, text, strlen(text));
}

static inline int fx_exists(const char *base, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    struct stat st;
    return stat(path, &st) == 0;
}

static inline void fx_setup(fixture *fx)
{
    char *t;
    assert_int_equal(rg__tempdir_create(&t, "rgdata"), RG_OK);
    snprintf(fx->tmp, sizeof fx->tmp, "%s", t);
    free(t);
    snprintf(fx->root, sizeof fx->root, "%s/data", fx->tmp);
    const char *dirs[] = {"stable", "contrib", "experimental"};
    for (size_t i = 0; i < 3; i++) {
        char p[700];
        snprintf(p, sizeof p, "%s/%s", fx->root, dirs[i]);
        test_mkdirs(p);
    }
    assert_int_equal(rg_integration_paths_create(&fx->dp, fx->root), RG_OK);
}

static inline void fx_teardown(fixture *fx)
{
    rg_integration_paths_free(fx->dp);
    fx->dp = NULL;
    rg__remove_tree(fx->tmp);
}

/* A complete, valid game: rom.sha with the given hash (NULL: a dummy), data.json with score and lives, a scenario,
 * metadata with default state "Start", and Start.state. */
static inline void fx_game(const fixture *fx, const char *integration, const char *game, const char *sha)
{
    char base[900];
    snprintf(base, sizeof base, "%s/%s/%s", fx->root, integration, game);
    char line[64];
    snprintf(line, sizeof line, "%s\n", sha ? sha : "0123456789abcdef0123456789abcdef01234567");
    fx_text(base, "rom.sha", line);
    fx_text(base, "data.json",
            "{\"info\": {\"score\": {\"address\": 16, \"type\": \">u2\"}, "
            "\"lives\": {\"address\": 18, \"type\": \"|u1\"}}}");
    fx_text(base, "scenario.json",
            "{\"reward\": {\"variables\": {\"score\": {\"reward\": 1}}}, \"done\": {\"variables\": {\"lives\": "
            "{\"op\": \"zero\"}}}}");
    fx_text(base, "metadata.json", "{\"default_state\": \"Start\"}");
    fx_write(base, "Start.state", "x", 1);
}

/* Counts findings with a severity whose message contains text (file too, when non-NULL). */
static inline size_t fx_count(const rg_integration_diags *d, rg_integration_severity sev, const char *text)
{
    size_t n = 0;
    for (size_t i = 0; i < rg_integration_diags_count(d); i++) {
        const rg_integration_diag *g = rg_integration_diags_at(d, i);
        if (g->severity == sev && strstr(g->message, text))
            n++;
    }
    return n;
}

/* Prints the findings (for failing assertions). */
static inline void fx_dump(const rg_integration_diags *d)
{
    for (size_t i = 0; i < rg_integration_diags_count(d); i++) {
        const rg_integration_diag *g = rg_integration_diags_at(d, i);
        print_message("  %s: %s: %s\n", g->file, g->severity == RG_INTEGRATION_SEVERITY_ERROR ? "error" : "warning",
                      g->message);
    }
}

#endif

/* The game-level validators (default state, missing files, ROM hash and header) and the public entry points. */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rg__gamectx_clear(rg__gamectx *ctx)
{
    free(ctx->game);
    rg__strlist_clear(&ctx->dirs);
    rg__strlist_clear(&ctx->dirs_stable);
    ctx->game = NULL;
}

int rg__gamectx_from_paths(rg__gamectx *ctx, const rg_integration_paths *dp, const char *game, unsigned flags)
{
    memset(ctx, 0, sizeof *ctx);
    if (!dp || !game || !*game || (flags & ~(unsigned)RG_INTEGRATIONS_ALL))
        return rg__error(RG_EINVAL, "validate: NULL argument, empty game name or bad flags");
    unsigned f = flags ? flags : rg_integration_paths_default(dp);
    int rc = RG_OK;
    ctx->game = rg__strdup(game, &rc);
    if (rc == RG_OK)
        rc = rg__game_dirs(dp, game, f, 1, &ctx->dirs);
    if (rc == RG_OK)
        rc = rg__game_dirs(dp, game, f | RG_INTEGRATIONS_STABLE, 1, &ctx->dirs_stable);
    if (rc == RG_OK && ctx->dirs.count == 0) {
        char names[64];
        rc = rg__error(RG_ENOTFOUND, "game %s not found in the %s integrations of %s", game,
                       rg_integrations_name(f, names, sizeof names), rg_integration_paths_root(dp));
    }
    if (rc != RG_OK)
        rg__gamectx_clear(ctx);
    return rc;
}

int rg__gamectx_from_dir(rg__gamectx *ctx, const char *dir)
{
    memset(ctx, 0, sizeof *ctx);
    if (!dir || !*dir)
        return rg__error(RG_EINVAL, "validate: NULL or empty folder");
    if (!rg__is_dir(dir))
        return rg__error(RG_ENOTFOUND, "%s is not a folder", dir);
    int rc = RG_OK;
    char *copy = rg__strdup(dir, &rc);
    if (!copy)
        return rc;
    size_t n = strlen(copy);
    while (n > 1 && copy[n - 1] == '/')
        copy[--n] = '\0';
    const char *slash = strrchr(copy, '/');
    ctx->game = rg__strdup(slash ? slash + 1 : copy, &rc);
    if (rc == RG_OK)
        rc = rg__strlist_push(&ctx->dirs, copy);
    if (rc == RG_OK)
        rc = rg__strlist_push(&ctx->dirs_stable, copy);
    free(copy);
    if (rc != RG_OK)
        rg__gamectx_clear(ctx);
    return rc;
}

/* default_player_state entries must name existing states too. */
static int check_player_states(const char *path, const json_t *dps, const rg_strlist *states, rg_integration_diags *out)
{
    if (!json_is_array(dps))
        return rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "default_player_state is not an array of strings");
    int rc = RG_OK;
    size_t i;
    json_t *v;
    json_array_foreach(dps, i, v) {
        if (rc != RG_OK)
            break;
        if (!json_is_string(v))
            rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "default_player_state[%zu] is not a string", i);
        else if (!rg__strlist_contains(states, json_string_value(v)))
            rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "invalid default player state %s",
                              json_string_value(v));
    }
    return rc;
}

int rg__check_default_state(const rg__gamectx *ctx, rg_integration_diags *out)
{
    int rc = RG_OK;
    char *path = rg__find_in(&ctx->dirs, "metadata.json", &rc);
    if (!path)
        return rc;
    json_t *meta = NULL;
    char *why = NULL;
    rg_strlist states = {0};
    rc = rg__json_load_file(path, RG__METADATA_MAX_SIZE, &meta, &why);
    if (rc != RG_OK) {
        if (rc != RG_ENOMEM)
            rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "%s", why ? why : "fail decode");
    } else if (!json_is_object(meta)) {
        rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "fail decode: not a JSON object");
    } else if ((rc = rg__list_states_in(&ctx->dirs_stable, &states)) == RG_OK) {
        const json_t *ds = json_object_get(meta, "default_state");
        if (!ds || json_is_null(ds) || (json_is_string(ds) && !*json_string_value(ds)))
            rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "default state missing");
        else if (!json_is_string(ds))
            rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "invalid default state (not a string)");
        else if (!rg__strlist_contains(&states, json_string_value(ds)))
            rc = rg__diag_add(out, path, RG_INTEGRATION_SEVERITY_ERROR, "invalid default state %s", json_string_value(ds));
        const json_t *dps = json_object_get(meta, "default_player_state");
        if (rc == RG_OK && dps && !json_is_null(dps))
            rc = check_player_states(path, dps, &states, out);
    }
    rg__strlist_clear(&states);
    json_decref(meta);
    free(why);
    free(path);
    return rc;
}

int rg__check_missing(const rg__gamectx *ctx, rg_integration_diags *out)
{
    static const char *const files[] = {"data.json", "scenario.json", "metadata.json", NULL, "rom.sha"};
    int rc = RG_OK;
    for (size_t i = 0; rc == RG_OK && i < sizeof files / sizeof files[0]; i++) {
        if (!files[i]) {
            rg_strlist states = {0};
            rc = rg__list_states_in(&ctx->dirs, &states);
            if (rc == RG_OK && states.count == 0)
                rc = rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "missing *.state");
            rg__strlist_clear(&states);
            continue;
        }
        char *p = rg__find_in(&ctx->dirs, files[i], &rc);
        if (!p && rc == RG_OK)
            rc = rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "missing %s", files[i]);
        free(p);
    }
    return rc;
}

int rg__check_hash(const rg__gamectx *ctx, rg_integration_diags *out)
{
    int rc = RG_OK;
    char *rom = rg__find_rom_in(&ctx->dirs, ctx->game, &rc);
    if (!rom)
        return rc == RG_OK ? rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "ROM file missing") : rc;
    char *sha_path = rg__find_in(&ctx->dirs_stable, "rom.sha", &rc);
    rg_strlist *shas = NULL;
    char hex[RG_INTEGRATION_SHA1_HEX + 1];
    if (!sha_path) {
        if (rc == RG_OK)
            rc = rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "missing rom.sha");
    } else if ((rc = rg_integration_romsha_load(sha_path, &shas)) != RG_OK) {
        if (rc != RG_ENOMEM)
            rc = rg__diag_add(out, sha_path, RG_INTEGRATION_SEVERITY_ERROR, "%s", rg_error_last());
    } else if ((rc = rg_integration_rom_sha1_file(rom, hex)) != RG_OK) {
        if (rc != RG_ENOMEM)
            rc = rg__diag_add(out, rom, RG_INTEGRATION_SEVERITY_ERROR, "%s", rg_error_last());
    } else if (!rg__strlist_contains(shas, hex)) {
        rc = rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "sha mismatch (%s has SHA-1 %s)", rom, hex);
    }
    rg_strlist_free(shas);
    free(sha_path);
    free(rom);
    return rc;
}

/* Whether metadata.json's whitelist has a key (Gym Retro whitelists a whole ROM check that way). */
static int whitelisted_key(const rg__gamectx *ctx, const char *key, int *rc, rg_integration_diags *out)
{
    json_t *meta = NULL;
    *rc = rg__load_metadata_json(ctx, &meta, NULL, out);
    const json_t *wl = meta ? json_object_get(meta, "whitelist") : NULL;
    int found = json_is_object(wl) && json_object_get(wl, key) != NULL;
    json_decref(meta);
    return found;
}

static int check_genesis(const rg__gamectx *ctx, const char *rom, const char *base, rg_integration_diags *out)
{
    int rc = RG_OK;
    int bad_ext = !rg__ends_with_ci(rom, ".md");
    if (whitelisted_key(ctx, "rom.md", &rc, out) || rc != RG_OK)
        return rc;
    if (bad_ext)
        rc = rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "invalid extension for %s", base);
    unsigned char header[0x105];
    FILE *f = NULL;
    if (rg__fopen_input(rom, &f) != RG_OK && rc == RG_OK) /* a FIFO or device: an error, never a wait */
        rc = rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "%s", rg_error_last());
    size_t got = f ? fread(header, 1, sizeof header, f) : 0;
    if (f)
        fclose(f);
    if (rc == RG_OK && (got < sizeof header || (memcmp(header + 0x100, "SEGA ", 5) != 0 &&
                                               memcmp(header + 0x100, " SEGA", 5) != 0)))
        rc = rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "invalid genesis rom");
    return rc;
}

int rg__check_rom(const rg__gamectx *ctx, rg_integration_diags *out)
{
    int rc = RG_OK;
    char *rom = rg__find_rom_in(&ctx->dirs, ctx->game, &rc);
    if (!rom)
        return rc == RG_OK ? rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "ROM file missing") : rc;
    const char *slash = strrchr(rom, '/');
    const char *base = slash ? slash + 1 : rom;
    /* The game's system comes from its name's suffix, with or without a -vN version (stable-retro 1.x). */
    const rg_system_info *game_sys = NULL, *rom_sys = NULL;
    int known = rg_integration_game_system(ctx->game, &game_sys) == RG_OK;
    if (known && strcmp(game_sys->name, "Genesis") == 0) {
        rc = check_genesis(ctx, rom, base, out);
    } else {
        int ok = known && rg_system_for_path(&rom_sys, rom) == RG_OK && rom_sys == game_sys;
        if (!ok && !whitelisted_key(ctx, base, &rc, out) && rc == RG_OK)
            rc = rg__diag_add(out, ctx->game, RG_INTEGRATION_SEVERITY_ERROR, "invalid extension for %s", base);
    }
    free(rom);
    return rc;
}

/* Every check of one game. */
static int check_game(const rg__gamectx *ctx, rg_integration_diags *out)
{
    int rc = rg__check_missing(ctx, out);
    if (rc == RG_OK)
        rc = rg__check_data(ctx, out);
    if (rc == RG_OK)
        rc = rg__check_scenario(ctx, "scenario", out);
    rg_strlist scenarios = {0};
    if (rc == RG_OK)
        rc = rg__list_scenarios_in(&ctx->dirs, &scenarios);
    for (size_t i = 0; rc == RG_OK && i < scenarios.count; i++)
        if (strcmp(scenarios.items[i], "scenario") != 0)
            rc = rg__check_scenario(ctx, scenarios.items[i], out);
    rg__strlist_clear(&scenarios);
    if (rc == RG_OK)
        rc = rg__check_default_state(ctx, out);
    char *rom = rc == RG_OK ? rg__find_rom_in(&ctx->dirs, ctx->game, &rc) : NULL;
    if (rom && rc == RG_OK)
        rc = rg__check_hash(ctx, out);
    if (rom && rc == RG_OK)
        rc = rg__check_rom(ctx, out);
    free(rom);
    return rc;
}

/* Runs one check on the game's folders over flags. */
static int with_game(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out, const char *scenario,
                     int (*check)(const rg__gamectx *, rg_integration_diags *))
{
    if (!out)
        return rg__error(RG_EINVAL, "validate: NULL findings list");
    rg__gamectx ctx;
    int rc = rg__gamectx_from_paths(&ctx, dp, game, flags);
    if (rc != RG_OK)
        return rc;
    rc = scenario ? rg__check_scenario(&ctx, scenario, out) : check(&ctx, out);
    rg__gamectx_clear(&ctx);
    return rc;
}

int rg_integration_validate_data(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out)
{
    return with_game(dp, game, flags, out, NULL, rg__check_data);
}

int rg_integration_validate_scenario(const rg_integration_paths *dp, const char *game, const char *scenario, unsigned flags,
                         rg_integration_diags *out)
{
    if (!scenario || !*scenario)
        return rg__error(RG_EINVAL, "validate: NULL or empty scenario name");
    return with_game(dp, game, flags, out, scenario, NULL);
}

int rg_integration_validate_default_state(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out)
{
    return with_game(dp, game, flags, out, NULL, rg__check_default_state);
}

int rg_integration_validate_hash(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out)
{
    return with_game(dp, game, flags, out, NULL, rg__check_hash);
}

int rg_integration_validate_rom(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out)
{
    return with_game(dp, game, flags, out, NULL, rg__check_rom);
}

int rg_integration_validate_game(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out)
{
    return with_game(dp, game, flags, out, NULL, check_game);
}

int rg_integration_validate_missing(const rg_integration_paths *dp, unsigned flags, rg_integration_diags *out)
{
    if (!out)
        return rg__error(RG_EINVAL, "validate: NULL findings list");
    rg_strlist *games = NULL;
    int rc = rg_integration_list_games(dp, flags, &games);
    for (size_t i = 0; rc == RG_OK && i < games->count; i++)
        rc = with_game(dp, games->items[i], flags, out, NULL, rg__check_missing);
    rg_strlist_free(games);
    return rc;
}

int rg_integration_validate_dir(const char *game_dir, rg_integration_diags *out)
{
    if (!out)
        return rg__error(RG_EINVAL, "validate: NULL findings list");
    rg__gamectx ctx;
    int rc = rg__gamectx_from_dir(&ctx, game_dir);
    if (rc != RG_OK)
        return rc;
    rc = check_game(&ctx, out);
    rg__gamectx_clear(&ctx);
    return rc;
}

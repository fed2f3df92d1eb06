/* Fuzz target "json": the integration files of a game folder.
 *
 * The first byte picks what the rest is (its value mod 5), bit 7 asks for strict loading:
 *   0  data.json (rg_gamedata_load_string): the variables are listed, read from a bound memory block, updated,
 *      saved and loaded again (the reloaded set must equal the saved one);
 *   1  scenario.json (rg_scenario_load_string), optionally preceded by a data.json and a line "----": the
 *      definition is read back (crops, action groups, players) and the scenario is reset and scored for a few frames
 *      against that game data over changing memory (script files are looked up in a folder that does not exist);
 *   2  metadata.json (rg_integration_metadata_parse) and its accessors;
 *   3  rom.sha (rg_integration_romsha_parse): every hash listed is 40 lower-case hex digits;
 *   4  a whole game folder checked by rg_integration_validate_dir: data.json, scenario.json, metadata.json and rom.sha separated
 *      by "----" lines (a missing part is a missing file). */
#include "fuzz.h"

#include <retrogym/error.h>
#include <retrogym/gamedata.h>
#include <retrogym/integration.h>
#include <retrogym/scenario.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEPARATOR "\n----\n"
#define MEM_SIZE 4096

static uint8_t memory[MEM_SIZE];

static void fill_memory(unsigned round)
{
    for (unsigned i = 0; i < MEM_SIZE; i++)
        memory[i] = (uint8_t)((i * 7u + round * 13u) ^ (i >> 3));
}

/* Finds the separator; the part before it is [text, *len), the rest starts at the return value (NULL: none). */
static const char *split(const char *text, size_t size, size_t *len)
{
    const size_t sep = sizeof SEPARATOR - 1;
    for (size_t i = 0; i + sep <= size; i++)
        if (memcmp(text + i, SEPARATOR, sep) == 0) {
            *len = i;
            return text + i + sep;
        }
    *len = size;
    return NULL;
}

static void check_same_variables(const rg_gamedata *a, const rg_gamedata *b)
{
    FUZZ_CHECK(rg_gamedata_variable_count(a) == rg_gamedata_variable_count(b));
    for (size_t i = 0; i < rg_gamedata_variable_count(a); i++) {
        rg_variable va, vb;
        FUZZ_CHECK(rg_gamedata_variable_at(a, i, &va) == RG_OK);
        FUZZ_CHECK(rg_gamedata_variable_at(b, i, &vb) == RG_OK);
        FUZZ_CHECK(strcmp(va.name, vb.name) == 0);
        FUZZ_CHECK(va.address == vb.address);
        FUZZ_CHECK(va.mask == vb.mask);
        FUZZ_CHECK(strcmp(va.type.repr, vb.type.repr) == 0);
    }
}

static void fuzz_data(const char *text, size_t len, unsigned flags)
{
    rg_gamedata *gd;
    if (rg_gamedata_create(&gd) != RG_OK)
        return;
    int rc = rg_gamedata_load_string(gd, text, len, flags);
    if (rc != RG_OK) {
        FUZZ_CHECK(rg_gamedata_variable_count(gd) == 0); /* the previous (empty) set is kept */
        rg_gamedata_free(gd);
        return;
    }
    size_t n = rg_gamedata_variable_count(gd);
    for (size_t i = 0; i < rg_gamedata_warning_count(gd); i++)
        FUZZ_CHECK(rg_gamedata_warning(gd, i) != NULL);
    rg_mem_block block = {0, MEM_SIZE, memory};
    fill_memory(0);
    FUZZ_CHECK(rg_gamedata_bind_blocks(gd, &block, 1, 0) == RG_OK);
    rg_gamedata_update(gd);
    fill_memory(1);
    rg_gamedata_update(gd);
    for (size_t i = 0; i < n; i++) {
        rg_variable v, found;
        FUZZ_CHECK(rg_gamedata_variable_at(gd, i, &v) == RG_OK);
        FUZZ_CHECK(rg_gamedata_find_variable(gd, v.name, &found) == RG_OK && found.address == v.address);
        int64_t value, delta;
        int grc = rg_gamedata_get(gd, v.name, &value);
        FUZZ_CHECK(grc == RG_OK || grc == RG_ERANGE);
        rg_gamedata_delta(gd, v.name, &delta);
    }
    /* save, load again: the same variables */
    const char *path = fuzz_write_temp("data.json", "", 0);
    FUZZ_CHECK(rg_gamedata_save_file(gd, path) == RG_OK);
    rg_gamedata *again;
    if (rg_gamedata_create(&again) == RG_OK) {
        rc = rg_gamedata_load_file(again, path, RG_LOAD_STRICT);
        if (rc != RG_OK)
            fprintf(stderr, "reloading the saved data.json: %s\n", rg_error_last());
        FUZZ_CHECK(rc == RG_OK);
        check_same_variables(gd, again);
        rg_gamedata_free(again);
    }
    rg_gamedata_free(gd);
}

static void fuzz_scenario(const char *text, size_t size, unsigned flags)
{
    size_t data_len;
    const char *scen = split(text, size, &data_len);
    size_t scen_len = scen ? size - (size_t)(scen - text) : size;
    if (!scen)
        scen = text;
    rg_gamedata *gd;
    rg_scenario *sc;
    if (rg_gamedata_create(&gd) != RG_OK)
        return;
    if (rg_scenario_create(&sc) != RG_OK) {
        rg_gamedata_free(gd);
        return;
    }
    if (scen == text || rg_gamedata_load_string(gd, text, data_len, 0) != RG_OK) {
        rg_gamedata_set_variable(gd, "score", 0, "<u4", RG_MASK_ALL);
        rg_gamedata_set_variable(gd, "lives", 4, "|u1", RG_MASK_ALL);
        rg_gamedata_set_variable(gd, "x", 6, ">i2", RG_MASK_ALL);
        rg_gamedata_set_variable(gd, "bcd", 8, ">d3", 0xFFFF);
    }
    rg_script_limits limits = {1000000, 0.5, 8u << 20};
    rg_scenario_set_script_limits(sc, &limits);
    int rc = rg_scenario_load_string(sc, scen, scen_len, "/nonexistent-retrogym-fuzz", flags);
    if (rc == RG_OK) {
        for (size_t i = 0; i < rg_scenario_warning_count(sc); i++)
            FUZZ_CHECK(rg_scenario_warning(sc, i) != NULL);
        unsigned crop[4];
        for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++)
            rg_scenario_crop(sc, p, crop);
        unsigned players = rg_scenario_players(sc);
        FUZZ_CHECK(players >= 1 && players <= RG_SCENARIO_MAX_PLAYERS);
        for (size_t g = 0; g < rg_scenario_action_group_count(sc); g++)
            for (size_t c = 0; c < rg_scenario_action_combo_count(sc, g); c++)
                for (size_t b = 0; b < rg_scenario_action_button_count(sc, g, c); b++)
                    FUZZ_CHECK(rg_scenario_action_button(sc, g, c, b) != NULL);
        rg_mem_block block = {0, MEM_SIZE, memory};
        fill_memory(0);
        FUZZ_CHECK(rg_gamedata_bind_blocks(gd, &block, 1, 0) == RG_OK);
        if (rg_scenario_reset(sc, gd) == RG_OK) {
            for (unsigned f = 1; f <= 4; f++) {
                fill_memory(f);
                if (rg_scenario_update(sc, gd) != RG_OK)
                    break;
                for (unsigned p = 0; p < RG_SCENARIO_MAX_PLAYERS; p++) {
                    rg_scenario_reward(sc, p);
                    rg_scenario_total_reward(sc, p);
                }
                rg_scenario_done(sc);
                FUZZ_CHECK(rg_scenario_frame(sc) == f);
            }
        }
    }
    rg_scenario_free(sc);
    rg_gamedata_free(gd);
}

static void fuzz_metadata(const char *text, size_t len)
{
    rg_integration_metadata *m;
    if (rg_integration_metadata_parse(&m, text, len) != RG_OK)
        return;
    rg_integration_metadata_default_state(m);
    size_t n = rg_integration_metadata_player_state_count(m);
    for (size_t i = 0; i <= n; i++)
        FUZZ_CHECK((rg_integration_metadata_player_state(m, i) != NULL) == (i < n));
    for (unsigned p = 0; p < 6; p++)
        rg_integration_metadata_state_for_players(m, p);
    static const char *const files[] = {"data.json", "scenario.json", "rom.md", ""};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        size_t w = rg_integration_metadata_whitelist_count(m, files[f]);
        for (size_t i = 0; i <= w; i++)
            FUZZ_CHECK((rg_integration_metadata_whitelist_at(m, files[f], i) != NULL) == (i < w));
    }
    rg_integration_metadata_free(m);
}

static void fuzz_romsha(const char *text, size_t len)
{
    rg_strlist *list;
    if (rg_integration_romsha_parse(text, len, &list) != RG_OK)
        return;
    for (size_t i = 0; i < rg_strlist_count(list); i++) {
        const char *s = rg_strlist_at(list, i);
        FUZZ_CHECK(s && strlen(s) == RG_INTEGRATION_SHA1_HEX);
        for (size_t k = 0; k < RG_INTEGRATION_SHA1_HEX; k++)
            FUZZ_CHECK((s[k] >= '0' && s[k] <= '9') || (s[k] >= 'a' && s[k] <= 'f'));
    }
    FUZZ_CHECK(rg_strlist_at(list, rg_strlist_count(list)) == NULL);
    rg_strlist_free(list);
}

static void fuzz_game_dir(const char *text, size_t size)
{
    static const char *const files[] = {"data.json", "scenario.json", "metadata.json", "rom.sha"};
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/FuzzGame-Atari2600", fuzz_tmpdir());
    mkdir(dir, 0755);
    const char *part = text;
    size_t left = size;
    for (size_t f = 0; f < 4; f++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        if (!part) {
            unlink(path);
            continue;
        }
        size_t len;
        const char *next = split(part, left, &len);
        FILE *out = fopen(path, "wb");
        FUZZ_CHECK(out != NULL);
        FUZZ_CHECK(len == 0 || fwrite(part, 1, len, out) == len);
        fclose(out);
        left = next ? left - (size_t)(next - part) : 0;
        part = next;
    }
    rg_integration_diags *d;
    if (rg_integration_diags_create(&d) != RG_OK)
        return;
    if (rg_integration_validate_dir(dir, d) == RG_OK) {
        size_t n = rg_integration_diags_count(d);
        for (size_t i = 0; i < n; i++) {
            const rg_integration_diag *g = rg_integration_diags_at(d, i);
            FUZZ_CHECK(g && g->file && g->message);
            FUZZ_CHECK(g->severity == RG_INTEGRATION_SEVERITY_WARNING || g->severity == RG_INTEGRATION_SEVERITY_ERROR);
        }
        FUZZ_CHECK(rg_integration_diags_at(d, n) == NULL);
        FUZZ_CHECK(rg_integration_diags_severity_count(d, RG_INTEGRATION_SEVERITY_WARNING) + rg_integration_diags_severity_count(d, RG_INTEGRATION_SEVERITY_ERROR) ==
                   n);
    }
    rg_integration_diags_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned mode = (data[0] & 0x7F) % 5, flags = data[0] & 0x80 ? RG_LOAD_STRICT : 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    switch (mode) {
    case 0: fuzz_data(text, len, flags); break;
    case 1: fuzz_scenario(text, len, flags); break;
    case 2: fuzz_metadata(text, len); break;
    case 3: fuzz_romsha(text, len); break;
    default: fuzz_game_dir(text, len); break;
    }
    return 0;
}

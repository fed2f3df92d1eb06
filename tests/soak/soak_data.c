#define _POSIX_C_SOURCE 200809L
#include "soak_data.h"
#include "soak_proc.h"

#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

soak_system soak_systems[] = {
    {"Atari2600", "atari2600", "a26", 0, "", 0, 0},
    {"Nes", "nestopia", "nes", 0, "", 0, 0},
    {"GameBoy", "gambatte", "gb", 0, "", 0, 0},
    {"GbColor", "gambatte", "gbc", 0, "", 0, 0},
    {"Snes", "bsnes_mercury_performance", "sfc", 0, "", 0, 0},
    {"GbAdvance", "mgba", "gba", 0, "", 0, 0},
    {"PCEngine", "mednafen_pce_fast", "pce", 0, "", 0, 0},
};
const unsigned soak_system_count = sizeof soak_systems / sizeof soak_systems[0];

static int write_file(const char *dir, const char *name, const void *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return RG_EIO;
    int ok = fwrite(data, 1, size, f) == size;
    ok &= fclose(f) == 0;
    return ok ? RG_OK : RG_EIO;
}

static int write_text(const char *dir, const char *name, const char *text)
{
    return write_file(dir, name, text, strlen(text));
}

static int copy_rom(const char *from, const char *dir, const char *ext)
{
    FILE *f = fopen(from, "rb");
    if (!f)
        return RG_ENOTFOUND;
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0, n;
    int rc = RG_OK;
    do {
        if (size == cap) {
            uint8_t *grown = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!grown) {
                rc = RG_ENOMEM;
                break;
            }
            buf = grown;
        }
        n = fread(buf + size, 1, cap - size, f);
        size += n;
    } while (n > 0);
    fclose(f);
    char name[32];
    snprintf(name, sizeof name, "rom.%s", ext);
    if (rc == RG_OK)
        rc = write_file(dir, name, buf, size);
    free(buf);
    return rc;
}

static const char lua_script[] =
    "-- Runs again at every reset: custom variables, a global string and a table that churn the Lua heap.\n"
    "data.prev = nil\n"
    "trail = ''\n"
    "seen = {}\n"
    "function soak_reward()\n"
    "  local r = 0\n"
    "  if data.prev ~= nil then r = data.counter - data.prev end\n"
    "  data.prev = data.counter\n"
    "  trail = string.sub(tostring(data.counter) .. ',' .. trail, 1, 48)\n"
    "  seen[data.counter % 16] = (seen[data.counter % 16] or 0) + 1\n"
    "  return r\n"
    "end\n"
    "function soak_done()\n"
    "  return data.counter == 77\n"
    "end\n";

/* A power-on start, 40 frames, the emulator state saved as the game's Start.state. */
static int write_start_state(rg_integration_paths *paths, const char *game, const char *core, const char *dir)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = game;
    o.paths = paths;
    o.core = core;
    o.state = RG_STATE_NONE;
    o.scenario = "long";
    o.log = test_quiet_log;
    rg_env *env;
    int rc = rg_env_create(&env, &o);
    if (rc != RG_OK)
        return rc;
    int64_t none[64] = {0};
    rg_step_result r;
    rc = rg_env_reset(env, 1, 0, NULL, 0);
    for (int i = 0; i < 40 && rc == RG_OK; i++)
        rc = rg_env_step(env, none, rg_env_action_length(env), NULL, 0, &r);
    char path[4096];
    snprintf(path, sizeof path, "%s/Start.state", dir);
    if (rc == RG_OK)
        rc = rg_emu_state_save_file(rg_env_emu(env), path);
    rg_env_free(env);
    return rc;
}

int soak_data_write(const char *root, rg_integration_paths *paths)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/stable", root);
    if (mkdir(dir, 0700) != 0)
        return RG_EIO;
    for (unsigned i = 0; i < soak_system_count; i++) {
        soak_system *s = &soak_systems[i];
        if (!s->core) {
            fprintf(soak_report, "skipped: %s (not asked for)\n", s->system);
            continue;
        }
        if (!test_core_installed(s->core)) {
            fprintf(soak_report, "skipped: %s (core %s not installed)\n", s->system, s->core);
            continue;
        }
        test_rom rom;
        test_rom_get(s->system, &rom);
        snprintf(s->game, sizeof s->game, "SoakTest-%s", s->system);
        snprintf(dir, sizeof dir, "%s/stable/%s", root, s->game);
        char data[512];
        snprintf(data, sizeof data,
                 "{\"info\": {\"counter\": {\"address\": %llu, \"type\": \"|u1\"},"
                 " \"pad\": {\"address\": %llu, \"type\": \"|u1\"}}}",
                 (unsigned long long)rom.counter_addr, (unsigned long long)rom.pad_addr);
        const char *scenario = "{\"reward\": {\"variables\": {\"counter\": {\"reward\": 1.0}}},"
                               " \"done\": {\"variables\": {\"counter\": {\"op\": \"equal\", \"reference\": 200}}}}";
        const char *lua = "{\"reward\": {\"script\": \"lua:soak_reward\"}, \"done\": {\"script\": \"lua:soak_done\"},"
                          " \"scripts\": [\"soak.lua\"]}";
        int rc;
        if (mkdir(dir, 0700) != 0)
            return RG_EIO;
        if ((rc = copy_rom(rom.path, dir, s->ext)) != RG_OK || (rc = write_text(dir, "data.json", data)) != RG_OK ||
            (rc = write_text(dir, "scenario.json", scenario)) != RG_OK ||
            (rc = write_text(dir, "long.json", "{\"reward\": {\"variables\": {\"counter\": {\"reward\": 1.0}}}}")) !=
                RG_OK ||
            (rc = write_text(dir, "lua.json", lua)) != RG_OK || (rc = write_text(dir, "soak.lua", lua_script)) != RG_OK)
            return rc;
        if ((rc = write_start_state(paths, s->game, s->core, dir)) != RG_OK) {
            fprintf(soak_report, "skipped: %s (%s)\n", s->system, rg_error_last());
            continue;
        }
        if ((rc = write_text(dir, "metadata.json", "{\"default_state\": \"Start\"}")) != RG_OK)
            return rc;
        s->available = 1;
    }
    return RG_OK;
}

static int load_once(const char *rom, const char *core)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.log = test_quiet_log;
    rg_emu *emu;
    int rc = rg_emu_open(&emu, rom, &o);
    if (rc != RG_OK)
        return rc;
    for (int i = 0; i < 10 && rc == RG_OK; i++)
        rc = rg_emu_run(emu);
    rg_emu_free(emu);
    return rc;
}

void soak_calibrate(void)
{
#ifdef RG_SANITIZED
    /* ASan's allocator has no mallinfo2; LeakSanitizer reports leaks at exit instead (the cores' own suppressed) */
    fprintf(soak_report, "  not measured in the sanitizer build: every core is also created and power-cycled\n");
    for (unsigned i = 0; i < soak_system_count; i++)
        soak_systems[i].reloadable = 1;
    return;
#endif
    for (unsigned i = 0; i < soak_system_count; i++) {
        soak_system *s = &soak_systems[i];
        if (!s->available)
            continue;
        test_rom rom;
        test_rom_get(s->system, &rom);
        int rc = RG_OK;
        for (int k = 0; k < 2 && rc == RG_OK; k++)
            rc = load_once(rom.path, s->core);
        soak_figures before, after;
        soak_measure(&before, "/nonexistent");
        for (int k = 0; k < 6 && rc == RG_OK; k++)
            rc = load_once(rom.path, s->core);
        soak_measure(&after, "/nonexistent");
        if (rc != RG_OK) {
            fprintf(soak_report, "skipped: %s (%s)\n", s->system, rg_error_last());
            s->available = 0;
            continue;
        }
        s->load_kib = (after.heap_kib - before.heap_kib) / 6;
        s->reloadable = s->load_kib < SOAK_LOAD_LEAK_KIB || getenv("RG_SOAK_RELOAD_ALL") != NULL;
        fprintf(soak_report, "  %-10s %-26s %6ld KiB per load%s\n", s->system, s->core, s->load_kib,
                s->reloadable ? "" : ": kept out of create/free and power-on cycles");
    }
}

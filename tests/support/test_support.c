#define _GNU_SOURCE
#include "test_support.h"

#include "base/base.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#ifndef RG_SOURCE_DIR
#error "RG_SOURCE_DIR must be defined by the build"
#endif

const char *test_source_path(const char *relative, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", RG_SOURCE_DIR, relative);
    return buf;
}

const char *test_shared_roms(void)
{
    static char path[1024];
    const char *env = getenv("RETROGYM_SHARED");
    snprintf(path, sizeof path, "%s/roms", env && *env ? env : RG_SOURCE_DIR "/../shared");
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? path : NULL;
}

int test_core_installed(const char *name)
{
    for (size_t i = 0; i < rg_core_builtin_count(); i++) {
        rg_core_info info;
        if (rg_core_builtin_at(i, &info) == RG_OK && strcmp(info.name, name) == 0)
            return 1;
    }
    char buf[1024];
    return rg_core_resolve(name, buf, sizeof buf) == RG_OK;
}

int test_have_wheel_core(const char *name)
{
    char so[2048];
    test_use_wheel_cores();
    return test_wheel_core(name, so, sizeof so) && test_core_installed(name);
}

int test_env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

unsigned test_env_count(const char *name, unsigned dflt)
{
    const char *e = getenv(name);
    return e && atoi(e) > 0 ? (unsigned)atoi(e) : dflt;
}

static uint64_t u64_field(json_t *obj, const char *key, const char *file)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        fail_msg("%s: \"%s\" must be an integer", file, key);
    return (uint64_t)json_integer_value(v);
}

static void copy_str(char *dst, size_t cap, json_t *v)
{
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    snprintf(dst, cap, "%s", s);
}

static void parse_manifest(const char *file, test_rom *r)
{
    json_error_t err;
    json_t *root = json_load_file(file, 0, &err);
    if (!root)
        fail_msg("%s:%d: %s", file, err.line, err.text);
    memset(r, 0, sizeof *r);
    copy_str(r->system, sizeof r->system, json_object_get(root, "system"));
    char rel[256];
    copy_str(rel, sizeof rel, json_object_get(root, "rom"));
    snprintf(r->path, sizeof r->path, "%s/tests/roms/bin/%s", RG_SOURCE_DIR, rel);
    copy_str(r->core, sizeof r->core, json_object_get(root, "core"));
    copy_str(r->romfix, sizeof r->romfix, json_object_get(root, "romfix"));
    r->signature_addr = u64_field(json_object_get(root, "signature"), "addr", file);
    json_t *counter = json_object_get(root, "counter");
    r->counter_addr = u64_field(counter, "addr", file);
    r->warmup = (unsigned)u64_field(counter, "warmup", file);
    json_t *pad = json_object_get(root, "pad");
    r->pad_addr = u64_field(pad, "addr", file);
    r->pad_bytes = (unsigned)u64_field(pad, "bytes", file);
    r->pad_lag = (unsigned)u64_field(pad, "lag", file);
    const char *endian = json_string_value(json_object_get(pad, "endian"));
    r->pad_big_endian = endian && strcmp(endian, "big") == 0;
    if (r->pad_bytes < 1 || r->pad_bytes > 4 || r->pad_lag < 1)
        fail_msg("%s: pad bytes must be 1..4 and lag >= 1", file);
    const char *key;
    json_t *val;
    json_object_foreach(json_object_get(pad, "bits"), key, val) {
        if (r->n_pad_bits == 16 || !json_is_integer(val))
            fail_msg("%s: bad pad bits", file);
        snprintf(r->pad_bits[r->n_pad_bits].button, sizeof r->pad_bits[0].button, "%s", key);
        r->pad_bits[r->n_pad_bits++].bits = (uint32_t)json_integer_value(val);
    }
    size_t i;
    json_t *check;
    json_array_foreach(json_object_get(root, "checks"), i, check) {
        if (r->n_checks == 8)
            break;
        r->checks[r->n_checks].addr = u64_field(check, "addr", file);
        r->checks[r->n_checks++].value = (unsigned)u64_field(check, "value", file);
    }
    json_decref(root);
}

size_t test_roms_load(test_rom *out, size_t cap)
{
    char dir[1024];
    test_source_path("tests/roms", dir, sizeof dir);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    char names[32][64];
    size_t n = 0;
    while ((e = readdir(d)) != NULL && n < 32) {
        char file[1200];
        snprintf(file, sizeof file, "%s/%s/rom.json", dir, e->d_name);
        if (e->d_name[0] != '.' && access(file, R_OK) == 0)
            snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
    /* Stable order: by folder name. */
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            if (strcmp(names[a], names[b]) > 0) {
                char t[64];
                memcpy(t, names[a], 64);
                memcpy(names[a], names[b], 64);
                memcpy(names[b], t, 64);
            }
    size_t count = 0;
    for (size_t i = 0; i < n && count < cap; i++) {
        char file[1200];
        snprintf(file, sizeof file, "%s/%s/rom.json", dir, names[i]);
        parse_manifest(file, &out[count++]);
    }
    return count;
}

void test_rom_get(const char *system, test_rom *out)
{
    test_rom all[16];
    size_t n = test_roms_load(all, 16);
    for (size_t i = 0; i < n; i++)
        if (strcmp(all[i].system, system) == 0) {
            *out = all[i];
            return;
        }
    fail_msg("no test ROM manifest for %s", system);
}

uint64_t test_hash(const void *data, size_t len, uint64_t h)
{
    const uint8_t *p = data;
    if (h == 0)
        h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t test_frame_hash(const rg_emu *emu)
{
    rg_frame f;
    assert_int_equal(rg_emu_frame(emu, &f), RG_OK);
    if (!f.data)
        return 0;
    size_t size = (size_t)f.width * f.height * 3;
    uint8_t *rgb = malloc(size);
    assert_non_null(rgb);
    assert_int_equal(rg_emu_frame_rgb24(emu, rgb, size), RG_OK);
    uint64_t h = test_hash(rgb, size, 0);
    free(rgb);
    return test_hash(&f.width, sizeof f.width, h);
}

uint64_t test_ram_hash(const rg_emu *emu)
{
    const rg_mem_block *b;
    size_t n;
    assert_int_equal(rg_emu_mem_blocks(emu, &b, &n), RG_OK);
    uint64_t h = 0;
    for (size_t i = 0; i < n; i++)
        h = test_hash(b[i].data, b[i].size, h);
    return h;
}

unsigned test_frame_colours(const rg_emu *emu)
{
    rg_frame f;
    assert_int_equal(rg_emu_frame(emu, &f), RG_OK);
    uint32_t seen[16];
    unsigned n = 0;
    for (unsigned y = 0; y < f.height; y++) {
        const uint8_t *row = (const uint8_t *)f.data + (size_t)y * f.pitch;
        for (unsigned x = 0; x < f.width; x++) {
            uint32_t c = f.format == RG_PIXEL_XRGB8888 ? ((const uint32_t *)(const void *)row)[x] & 0xFFFFFFu
                                                       : ((const uint16_t *)(const void *)row)[x];
            unsigned k = 0;
            while (k < n && seen[k] != c)
                k++;
            if (k == n && n < 16)
                seen[n++] = c;
        }
    }
    return n;
}

uint32_t test_read_pad(const rg_emu *emu, const test_rom *rom)
{
    uint8_t b[4] = {0};
    if (rg_emu_mem_read(emu, rom->pad_addr, b, rom->pad_bytes) != RG_OK)
        fail_msg("%s: cannot read the pad at 0x%llx: %s", rom->system, (unsigned long long)rom->pad_addr,
                 rg_error_last());
    uint32_t v = 0;
    for (unsigned i = 0; i < rom->pad_bytes; i++) {
        unsigned idx = rom->pad_big_endian ? i : rom->pad_bytes - 1 - i;
        v = (v << 8) | b[idx];
    }
    return v;
}

long test_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

int test_open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

int test_tmp_entries(void)
{
    const char *root = getenv("TMPDIR");
    DIR *d = opendir(root && *root ? root : "/tmp");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strncmp(e->d_name, "retrogym-", 9) == 0;
    closedir(d);
    return n;
}

void test_mkdirs(const char *path)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        fail_msg("mkdir %s: %s", buf, strerror(errno));
}

void test_tmp_clean(void)
{
    rg__tempdir_sweep("retrogym", 0);
}

int test_data_setup(rg_integration_paths **paths, char **tmp)
{
    char root[1024];
    if (tmp && rg__tempdir_create(tmp, "test") != RG_OK)
        return -1;
    return rg_integration_paths_create(paths, test_source_path("data", root, sizeof root)) == RG_OK ? 0 : -1;
}

void test_data_teardown(rg_integration_paths *paths, char *tmp)
{
    rg_integration_paths_free(paths);
    if (tmp)
        rg__remove_tree(tmp);
    free(tmp);
}

void test_quiet_log(rg_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

rg_emu *test_open_in(const char *rom_path, const char *core, const char *system, int capture_audio)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.system = system;
    o.capture_audio = capture_audio;
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom_path, &o) != RG_OK)
        fail_msg("cannot open %s in %s: %s", rom_path, core ? core : "the default core", rg_error_last());
    return emu;
}

rg_emu *test_open(const char *rom_path, const char *core)
{
    return test_open_in(rom_path, core, NULL, 0);
}

/* The first path matching <source>/.venv/lib/python3<*>/site-packages/stable_retro/<rel> into out; 0 when none. */
static int wheel_file(const char *rel, char *out, size_t cap)
{
    char pattern[2048];
    snprintf(pattern, sizeof pattern, "%s/.venv/lib/python3*/site-packages/stable_retro/%s", RG_SOURCE_DIR, rel);
    glob_t g;
    int found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
    if (found)
        snprintf(out, cap, "%s", g.gl_pathv[0]);
    globfree(&g);
    return found;
}

int test_wheel_core(const char *name, char *out, size_t cap)
{
    char rel[256];
    snprintf(rel, sizeof rel, "cores/%s_libretro.so", name);
    return wheel_file(rel, out, cap);
}

int test_wheel_data(const char *rel, char *out, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "data/stable/%s", rel);
    return wheel_file(path, out, cap);
}

void test_use_wheel_cores(void)
{
    if (getenv("RETROGYM_CORE_PATH"))
        return;
    char pattern[1024];
    glob_t g;
    test_source_path(".venv/lib/python3*/site-packages/stable_retro/cores", pattern, sizeof pattern);
    if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc)
        setenv("RETROGYM_CORE_PATH", g.gl_pathv[0], 1);
    globfree(&g);
}

int test_shared_rom_with_wheel_core(const char *file, const char *core, char *rom, size_t cap)
{
    const char *dir = test_shared_roms();
    if (!dir) {
        print_message("skipped: no ../shared/roms\n");
        return 0;
    }
    test_use_wheel_cores();
    char so[1024];
    if (!test_wheel_core(core, so, sizeof so) || !test_core_installed(core)) {
        print_message("skipped: no %s from the stable-retro wheel\n", core);
        return 0;
    }
    snprintf(rom, cap, "%s/%s", dir, file);
    return 1;
}

const char *test_tmp_path(const char *name, char *buf, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(buf, cap, "%s/%s", tmp && *tmp ? tmp : "/tmp", name);
    return buf;
}

void test_write_file(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot create %s: %s", path, strerror(errno));
    size_t put = fwrite(bytes, 1, n, f);
    if (fclose(f) != 0 || put != n)
        fail_msg("cannot write the %zu bytes of %s", n, path);
}

void test_write_text(const char *dir, const char *name, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

void test_write_gz(const char *dir, const char *name, const void *bytes, size_t len)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    gzFile gz = gzopen(path, "wb");
    assert_non_null(gz);
    assert_int_equal(gzwrite(gz, bytes, (unsigned)len), (int)len);
    gzclose(gz);
}

void test_integration_dir(const char *prefix, const char *game, const char *rom, char *root, size_t root_cap,
                          char *dir, size_t dir_cap)
{
    snprintf(root, root_cap, "%s/%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", prefix);
    assert_non_null(mkdtemp(root));
    snprintf(dir, dir_cap, "%s/stable", root);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(dir, dir_cap, "%s/stable/%s", root, game);
    assert_int_equal(mkdir(dir, 0700), 0);
    char rel[512], src[1024], name[64], path[1200];
    snprintf(name, sizeof name, "rom%s", strrchr(rom, '.') ? strrchr(rom, '.') : "");
    snprintf(rel, sizeof rel, "tests/roms/bin/%s", rom);
    test_source_path(rel, src, sizeof src);
    uint8_t *bytes;
    size_t size;
    assert_int_equal(rg__read_file(src, 1 << 20, &bytes, &size), RG_OK);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(rg__write_file_atomic(path, bytes, size), RG_OK);
    char sha[RG_INTEGRATION_SHA1_HEX + 2];
    assert_int_equal(rg_integration_rom_sha1(bytes, size, strrchr(src, '/') + 1, sha), RG_OK);
    free(bytes);
    strcat(sha, "\n");
    test_write_text(dir, "rom.sha", sha);
}

rg_movie *test_movie_start_state(const char *name, const uint8_t **state, size_t *len)
{
    char rel[512], path[1024];
    snprintf(rel, sizeof rel, "tests/movie/data/%s", name);
    test_source_path(rel, path, sizeof path);
    rg_movie *m;
    assert_int_equal(rg_movie_open_read(&m, path), RG_OK);
    assert_int_equal(rg_movie_state(m, state, len), RG_OK);
    return m;
}

/* Virtual memory of this process in bytes (/proc/self/statm), 0 when unknown. */
static size_t vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f && fscanf(f, "%lu", &pages) != 1)
        pages = 0;
    if (f)
        fclose(f);
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

int test_memory_limit_usable(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return 0;
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 0;
#endif
#endif
    return 1;
}

int test_run_with_spare_memory(size_t spare, int (*fn)(void *), void *arg)
{
    if (!test_memory_limit_usable())
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        size_t vm = vm_bytes();
        struct rlimit lim = {vm + spare, vm + spare};
        if (vm == 0 || setrlimit(RLIMIT_AS, &lim) != 0)
            _exit(126);
        _exit(fn(arg) & 0x7f);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return 127;
    return WEXITSTATUS(status) == 126 ? -1 : WEXITSTATUS(status);
}

double test_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

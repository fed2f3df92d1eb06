#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

static const char help[] =
    "usage: retrogym run ROM [options]\n"
    "\n"
    "Runs ROM headless and reports frames per second.\n"
    "\n"
    "options:\n"
    "  --core NAME|PATH     core to use (default: the system's preferred installed core)\n"
    "  --system NAME        system (default: from the ROM's extension)\n"
    "  --core-option K=V    answer the core's option K with V (repeatable)\n"
    "  --frames N           frames to run (default 600)\n"
    "  --buttons SPEC       hold buttons from a frame on: MASK@FRAME or MASK@FRAME/PORT; MASK is a number\n"
    "                       (bit i = libretro joypad id i) or button names joined by '+', e.g. A+START@60;\n"
    "                       repeatable, later specs replace earlier ones from their frame on\n"
    "  --state-in FILE      load a save state (gzip or raw) before running\n"
    "  --state-out FILE     write a gzip save state after the last frame\n"
    "  --png FILE           write the last frame as PNG\n"
    "  --ram ADDR:LEN       print LEN bytes of the address space at ADDR after the last frame (repeatable)\n"
    "  --log-level LEVEL    debug|info|warn|error|none: core and library messages on stderr (default warn)\n"
    "  --quiet              print only the --ram dumps\n";

#define MAX_DUMPS 64

typedef struct run_args {
    const char *rom;
    rg_emu_options opts;
    uint64_t frames;
    button_spec specs[CLI_MAX_BUTTON_SPECS];
    size_t n_specs;
    const char *state_in, *state_out, *png;
    uint64_t dump_addr[MAX_DUMPS], dump_len[MAX_DUMPS];
    size_t n_dumps;
    int quiet;
    rg_core_option core_options[CLI_MAX_CORE_OPTIONS];
    size_t n_core_options;
} run_args;

static void log_to_stderr(rg_log_level level, const char *message, void *user)
{
    (void)user;
    fprintf(stderr, "%s: %s\n", rg_log_level_name(level), message);
}

static int parse_level(const char *s, rg_log_level *out)
{
    static const rg_log_level levels[] = {RG_LOG_DEBUG, RG_LOG_INFO, RG_LOG_WARN, RG_LOG_ERROR, RG_LOG_NONE};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(s, rg_log_level_name(levels[i])) == 0) {
            *out = levels[i];
            return 0;
        }
    return cli_fail("unknown log level \"%s\"", s);
}

static int parse_args(run_args *a, int argc, char **argv, const char **button_text, size_t *n_button_text)
{
    rg_emu_options defaults = RG_EMU_OPTIONS_INIT;
    a->opts = defaults;
    a->opts.log = log_to_stderr;
    a->frames = 600;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(help, cli_out);
            return -1;
        } else if (strcmp(arg, "--quiet") == 0) {
            a->quiet = 1;
            takes_value = 0;
        } else if (arg[0] != '-') {
            if (a->rom)
                return cli_fail("run: more than one ROM given (%s, %s)", a->rom, arg);
            a->rom = arg;
            takes_value = 0;
        } else if (!val) {
            return cli_fail("run: %s needs a value", arg);
        } else if (strcmp(arg, "--core") == 0) {
            a->opts.core = val;
        } else if (strcmp(arg, "--core-option") == 0) {
            if (a->n_core_options == CLI_MAX_CORE_OPTIONS)
                return cli_fail("run: more than %d --core-option", CLI_MAX_CORE_OPTIONS);
            if (cli_parse_core_option(argv[i + 1], &a->core_options[a->n_core_options++]) != 0)
                return 1;
            a->opts.core_options = a->core_options;
            a->opts.n_core_options = a->n_core_options;
        } else if (strcmp(arg, "--system") == 0) {
            a->opts.system = val;
        } else if (strcmp(arg, "--frames") == 0) {
            if (cli_parse_u64(val, &a->frames) != 0)
                return cli_fail("run: --frames %s is not a number", val);
        } else if (strcmp(arg, "--buttons") == 0) {
            if (*n_button_text == CLI_MAX_BUTTON_SPECS)
                return cli_fail("run: more than %d --buttons", CLI_MAX_BUTTON_SPECS);
            button_text[(*n_button_text)++] = val;
        } else if (strcmp(arg, "--state-in") == 0) {
            a->state_in = val;
        } else if (strcmp(arg, "--state-out") == 0) {
            a->state_out = val;
        } else if (strcmp(arg, "--png") == 0) {
            a->png = val;
        } else if (strcmp(arg, "--log-level") == 0) {
            if (parse_level(val, &a->opts.log_level) != 0)
                return 1;
        } else if (strcmp(arg, "--ram") == 0) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", val);
            char *colon = strchr(buf, ':');
            if (a->n_dumps == MAX_DUMPS)
                return cli_fail("run: more than %d --ram", MAX_DUMPS);
            if (!colon)
                return cli_fail("run: --ram %s: expected ADDR:LEN", val);
            *colon = '\0';
            if (cli_parse_u64(buf, &a->dump_addr[a->n_dumps]) != 0 ||
                cli_parse_u64(colon + 1, &a->dump_len[a->n_dumps]) != 0 || a->dump_len[a->n_dumps] > (1u << 24))
                return cli_fail("run: --ram %s: bad address or length", val);
            a->n_dumps++;
        } else {
            return cli_fail("run: unknown option %s (see retrogym run --help)", arg);
        }
        i += takes_value;
    }
    if (!a->rom)
        return cli_fail("run: no ROM given (see retrogym run --help)");
    return 0;
}

static void dump(const rg_emu *emu, uint64_t addr, uint64_t len)
{
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf || rg_emu_mem_read(emu, addr, buf, len) != RG_OK) {
        fprintf(cli_out, "ram 0x%llx:%llu: %s\n", (unsigned long long)addr, (unsigned long long)len,
                buf ? rg_error_last() : "out of memory");
        free(buf);
        return;
    }
    for (uint64_t off = 0; off < len; off += 16) {
        fprintf(cli_out, "%08llx ", (unsigned long long)(addr + off));
        for (uint64_t j = off; j < off + 16 && j < len; j++)
            fprintf(cli_out, " %02x", buf[j]);
        fputc('\n', cli_out);
    }
    free(buf);
}

static void report(const rg_emu *emu, uint64_t frames, double seconds)
{
    rg_frame f;
    rg_emu_frame(emu, &f);
    fprintf(cli_out, "core:       %s (%s %s)\n", rg_emu_core_name(emu), rg_emu_core_library(emu),
            rg_emu_core_version(emu));
    fprintf(cli_out, "system:     %s\n", rg_emu_system(emu)->name);
    fprintf(cli_out, "frames:     %llu in %.3f s = %.1f frames/s (console runs at %.2f)\n",
            (unsigned long long)frames, seconds, seconds > 0 ? (double)frames / seconds : 0.0, rg_emu_fps(emu));
    fprintf(cli_out, "video:      %ux%u\n", f.width, f.height);
    const rg_mem_block *blocks;
    size_t n;
    rg_emu_mem_blocks(emu, &blocks, &n);
    fprintf(cli_out, "memory:     %zu bytes in %zu block(s)\n", rg_emu_ram_size(emu), n);
    for (size_t i = 0; i < n; i++) {
        size_t nonzero = 0;
        for (size_t j = 0; j < blocks[i].size; j++)
            nonzero += blocks[i].data[j] != 0;
        fprintf(cli_out, "  0x%08llx  %8zu bytes, %zu non-zero\n", (unsigned long long)blocks[i].base,
                blocks[i].size, nonzero);
    }
}

static int finish(rg_emu *emu, const run_args *a)
{
    if (a->png) {
        rg_frame f;
        rg_emu_frame(emu, &f);
        size_t size = (size_t)f.width * f.height * 3;
        uint8_t *rgb = malloc(size ? size : 1);
        if (!rgb)
            return cli_fail("out of memory");
        int rc = rg_emu_frame_rgb24(emu, rgb, size) == RG_OK ? cli_write_png(a->png, rgb, f.width, f.height)
                                                             : cli_fail("--png: %s", rg_error_last());
        free(rgb);
        if (rc != 0)
            return rc;
    }
    if (a->state_out && rg_emu_state_save_file(emu, a->state_out) != RG_OK)
        return cli_fail("--state-out: %s", rg_error_last());
    for (size_t i = 0; i < a->n_dumps; i++)
        dump(emu, a->dump_addr[i], a->dump_len[i]);
    return 0;
}

int cmd_run(int argc, char **argv)
{
    run_args a;
    const char *button_text[CLI_MAX_BUTTON_SPECS];
    size_t n_button_text = 0;
    memset(&a, 0, sizeof a);
    int rc = parse_args(&a, argc, argv, button_text, &n_button_text);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    const rg_system_info *sys = NULL;
    if (a.opts.system ? rg_system_find(&sys, a.opts.system) : rg_system_for_path(&sys, a.rom))
        sys = NULL; /* rg_emu_open reports it below */
    for (size_t i = 0; i < n_button_text; i++)
        if (cli_parse_buttons(button_text[i], sys, &a.specs[a.n_specs++]) != 0)
            return 1;
    cli_sort_buttons(a.specs, a.n_specs);
    /* ".bin" means an Atari 2600 ROM only at 2-32 KiB; other systems' dumps use the extension too. */
    struct stat st;
    size_t n = strlen(a.rom);
    if (!a.opts.system && n > 4 && strcasecmp(a.rom + n - 4, ".bin") == 0 && stat(a.rom, &st) == 0 &&
        (st.st_size < 2048 || st.st_size > 32768))
        return cli_fail("%s: a .bin file is taken as an Atari 2600 ROM only at 2-32 KiB (this one is %lld bytes); "
                        "name its system with --system", a.rom, (long long)st.st_size);
    rg_emu *emu;
    if (rg_emu_open(&emu, a.rom, &a.opts) != RG_OK)
        return cli_fail("%s", rg_error_last());
    if (a.state_in && rg_emu_state_load_file(emu, a.state_in) != RG_OK) {
        rc = cli_fail("--state-in: %s", rg_error_last());
        rg_emu_free(emu);
        return rc;
    }
    size_t next = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t frame = 0; frame < a.frames; frame++) {
        for (; next < a.n_specs && a.specs[next].frame <= frame; next++)
            rg_emu_set_buttons(emu, a.specs[next].port, a.specs[next].mask);
        rg_emu_run(emu);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (!a.quiet)
        report(emu, a.frames, seconds);
    rc = finish(emu, &a);
    rg_emu_free(emu);
    return rc;
}

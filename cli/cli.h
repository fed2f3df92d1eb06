/* The retrogym command-line tool: commands share these helpers. */
#ifndef RG_CLI_CLI_H
#define RG_CLI_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "retrogym/retrogym.h"

/* Where commands print their results: the real stdout, kept aside because cores print to fd 1 themselves. */
extern FILE *cli_out;

int cmd_cores(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_games(int argc, char **argv);
int cmd_states(int argc, char **argv);
int cmd_scenarios(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_library(int argc, char **argv);
int cmd_ui(int argc, char **argv); /* cmd_ui.c: runs python -m retrogym.ui */

/* Prints "retrogym: <message>" on stderr and returns 1 (the exit status of a failed command). */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parses an unsigned number (decimal or 0x hex). Returns 0 on success. */
int cli_parse_u64(const char *s, uint64_t *out);
/* Writes a packed RGB24 image as PNG. Returns 0 on success. */
int cli_write_png(const char *path, const uint8_t *rgb, unsigned width, unsigned height);

/* --buttons: hold MASK on PORT from FRAME on. */
#define CLI_MAX_BUTTON_SPECS 256
typedef struct button_spec {
    uint64_t frame;
    unsigned port;
    uint16_t mask;
} button_spec;
/* Parses MASK@FRAME[/PORT] (MASK: a number, or the system's button names joined by '+'). 0, or 1 after an error. */
int cli_parse_buttons(const char *text, const rg_system_info *sys, button_spec *out);
/* Orders specs by frame, keeping the given order within a frame. */
void cli_sort_buttons(button_spec *specs, size_t n);
int cmd_play(int argc, char **argv);

/* --core-option KEY=VALUE: splits text in place (argv strings are writable). 0, or 1 after an error. */
#define CLI_MAX_CORE_OPTIONS 64
int cli_parse_core_option(char *text, rg_core_option *out);

/* The integration-data options shared by games, states, scenarios, validate and import (data_args.c). */
#define CLI_MAX_CUSTOM 64
typedef struct cli_data_args {
    const char *data_path;    /* --data-path DIR */
    const char *integrations; /* --integrations NAME */
    const char *custom[CLI_MAX_CUSTOM]; /* --custom-path DIR, repeatable */
    size_t n_custom;
} cli_data_args;
/* Consumes a data option at argv[*i] (and its value): 1 when it was one, 0 when not, -1 after printing an error. */
int cli_data_option(cli_data_args *a, int argc, char **argv, int *i);
/* Opens the data root; custom paths are added as custom integrations (so the default includes them); *flags is
 * --integrations or fallback_flags. Returns 0, or 1 after printing the error. */
int cli_data_open(const cli_data_args *a, unsigned fallback_flags, rg_integration_paths **dp, unsigned *flags);
/* Whether an argument asks for help. */
int cli_is_help(const char *arg);

/* Discovery (discover.c): sets $RETROGYM_STABLE_RETRO from the Python the CLI was built with when it is unset. */
void cli_discover(void);
/* The Python the CLI asks: $RETROGYM_PYTHON, else the one configured at build time. */
const char *cli_python(void);
/* Takes the options every command accepts out of argv (--core-path DIR: prepended to $RETROGYM_CORE_PATH).
 * 0, or 1 after printing an error. */
int cli_global_options(int *argc, char **argv);
/* Table-driven options of a command with one subject (options.c): record, play, playback. */
typedef enum cli_opt_kind {
    CLI_OPT_FLAG,        /* int, set to 1 */
    CLI_OPT_STR,         /* const char *, the value */
    CLI_OPT_U64,         /* uint64_t, decimal or 0x hex */
    CLI_OPT_LIST,        /* cli_list: the value appended (repeatable) */
    CLI_OPT_CORE_OPTION  /* cli_core_options: KEY=VALUE appended (repeatable) */
} cli_opt_kind;
typedef struct cli_opt {
    const char *name;    /* "--episodes" */
    cli_opt_kind kind;
    void *dst;
    int *seen;           /* optional: set to 1 when the option is given */
} cli_opt;
typedef struct cli_list {
    const char **items;
    size_t count, cap;
} cli_list;
typedef struct cli_core_options {
    rg_core_option items[CLI_MAX_CORE_OPTIONS];
    size_t count;
} cli_core_options;
typedef struct cli_command {
    const char *name;          /* "record": prefixes the errors */
    const char *help;          /* printed for --help / -h */
    const cli_opt *opts;
    size_t n_opts;
    const char **subject;      /* the one positional argument */
    const char *subject_name;  /* "game": "record: one game at a time" */
    cli_data_args *data;       /* NULL: no --data-path, --custom-path, --integrations */
} cli_command;
/* Parses argv[1..]: 0, 1 after printing an error, -1 after printing the help. Values are not copied. */
int cli_parse_command(const cli_command *c, int argc, char **argv);

/* The help lines of the shared options. */
#define CLI_DATA_OPTIONS_HELP                                                                                     \
    "  --data-path DIR         the only data root(s), ':'-separated (default: $RETROGYM_DATA_PATH, the user root\n"  \
    "                          ~/.local/share/retrogym, our own data, an installed stable-retro's; see library)\n" \
    "  --custom-path DIR       a custom integration folder, absolute or relative to the data root (repeatable;\n"  \
    "                          included in the default search)\n"                                                 \
    "  --integrations NAME     stable|contrib|experimental|custom|all, or contrib-only, experimental-only,\n"        \
    "                          custom-only; several joined with '|' or ','\n"

#endif

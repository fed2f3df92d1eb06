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

/* Prints "retrogym: <message>" on stderr and returns 1 (the exit status of a failed command). */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parses an unsigned number (decimal or 0x hex). Returns 0 on success. */
int cli_parse_u64(const char *s, uint64_t *out);
/* Writes a packed RGB24 image as PNG. Returns 0 on success. */
int cli_write_png(const char *path, const uint8_t *rgb, unsigned width, unsigned height);

#endif

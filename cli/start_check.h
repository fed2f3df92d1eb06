/* Starting a game in a forked child with a timeout (start_check.c): `library --check` and `validate --states`. */
#ifndef RG_CLI_START_CHECK_H
#define RG_CLI_START_CHECK_H

#include <stdint.h>

#include "retrogym/retrogym.h"

/* How a start in a child ended. */
typedef enum cli_start_outcome {
    CLI_START_UNCHECKED = 0,
    CLI_START_OK,      /* created, reset and ran the frames */
    CLI_START_REFUSED, /* a clear error (the message) */
    CLI_START_CRASHED, /* the child died of a signal or exited without a result (the core's doing) */
    CLI_START_HUNG     /* still running at the timeout; killed */
} cli_start_outcome;

typedef struct cli_start_result {
    cli_start_outcome outcome;
    char core[64];     /* the core the environment ran on (CLI_START_OK) */
    char message[400]; /* "ok", the error, "crashed (signal N)" or "timeout after N s" */
} cli_start_result;

/* Creates an env for game from state (NULL: the default state) in a forked child, resets it and runs frames steps
 * with no buttons; the child is killed after timeout_s seconds. */
void cli_start_check(const rg_integration_paths *dp, unsigned flags, const char *game, const char *state, uint64_t frames,
                     uint64_t timeout_s, cli_start_result *res);

#endif

/* Which core runs a game: the core that saved its start state, when the state's file says so.
 *
 * Several systems have more than one core, each with its own save-state format: stable-retro's NES integrations
 * hold FCEUmm states, our own StarCatcher-Nes holds nestopia's. Without this, the system's first installed core
 * would refuse the other's states and the environment would fall back to the next core (rg__env_create) with a
 * warning, after loading the wrong core once. Used by src/env to pick the core and by src/data's library to say
 * which core a game runs on; a core listed before the saver that converts the saver's states (our `nes` FCEUmm's,
 * our `sms` and `gamegear` Genesis Plus GX's) is picked before it. The signatures are the first bytes each core writes (facts measured on
 * the states of stable-retro's integrations and on our own). */
#include "state_core.h"
#include "base/base.h"

#include "retrogym/core.h"
#include "retrogym/error.h"

#include <string.h>
#include <unistd.h>
#include <zlib.h>

static const struct {
    const char *core;
    const char *magic;
    size_t len;
    const char *converters[4]; /* built-in cores that convert this core's states on load (NULL-terminated) */
} signatures[] = {
    {"nestopia", "NST\x1a", 4, {NULL}},     /* nestopia: "NST", 0x1A, then chunks */
    {"fceumm", "FCS", 3, {"nes", NULL}}, /* FCEUmm: "FCS", then the version (our NES core converts it) */
    /* Genesis Plus GX: its name and version; our Master System and Game Gear cores convert its states of their
     * systems (src/cores/sms/sms_gpgx_state.c), our Genesis core those of the Mega Drive (genesis_gpgx_state.c) */
    {"genesis_plus_gx", "GENPLUS-GX", 10, {"sms", "gamegear", "genesis", NULL}},
    {"snes9x", "#!s9xsnp", 8, {NULL}}, /* Snes9x: "#!s9xsnp:" and the version */
};

int rg__core_available(const char *name)
{
    for (size_t i = 0; i < rg_core_builtin_count(); i++) {
        rg_core_info info;
        if (rg_core_builtin_at(i, &info) == RG_OK && strcmp(info.name, name) == 0)
            return 1;
    }
    char path[4096];
    return rg_core_resolve(name, path, sizeof path) == RG_OK;
}

/* The first bytes of a state file, gzip-compressed or raw; 0 when it is not a regular file or cannot be read. */
static size_t state_head(const char *path, unsigned char *buf, size_t cap)
{
    int fd;
    if (rg__open_input(path, &fd, NULL) != RG_OK) /* only a regular file, never waiting on a FIFO */
        return 0;
    gzFile f = gzdopen(fd, "rb"); /* reads raw files as they are; takes fd */
    if (!f) {
        close(fd);
        return 0;
    }
    int n = gzread(f, buf, (unsigned)cap);
    gzclose(f);
    return n > 0 ? (size_t)n : 0;
}

const char *rg_core_for_state_file(const char *path, const rg_system_info *sys)
{
    if (!path || !sys)
        return NULL;
    unsigned char head[16];
    size_t n = state_head(path, head, sizeof head);
    return rg__core_for_state_data(head, n, sys);
}

const char *rg__core_for_state_data(const void *data, size_t n, const rg_system_info *sys)
{
    const unsigned char *head = data;
    if (!head || !sys)
        return NULL;
    for (size_t i = 0; i < sizeof signatures / sizeof signatures[0]; i++) {
        if (n < signatures[i].len || memcmp(head, signatures[i].magic, signatures[i].len) != 0)
            continue;
        /* The first core of the system's list that reads the state: the one that saved it or one that converts it
         * (our NES core, first for .nes, converts FCEUmm's; our SMS/GG and Genesis cores GPGX's); only when installed. A state
         * the converter refuses then goes to the next core through the environment's fallback (rg__env_create). */
        for (size_t k = 0; k < sys->n_cores; k++) {
            const char *c = sys->cores[k];
            int reads = strcmp(c, signatures[i].core) == 0;
            for (size_t v = 0; !reads && signatures[i].converters[v]; v++)
                reads = strcmp(c, signatures[i].converters[v]) == 0;
            if (reads && rg__core_available(c))
                return c;
        }
        return NULL;
    }
    return NULL;
}

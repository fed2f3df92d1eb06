/* Internal pieces of the integration-data layer (include/retrogym/integration.h). */
#ifndef RG_SRC_DATA_DATA_INTERNAL_H
#define RG_SRC_DATA_DATA_INTERNAL_H

#include <jansson.h>
#include <stddef.h>

#include "base/base.h"
#include "retrogym/integration.h"

/* Size limits of the text files we read. */
#define RG__JSON_MAX_SIZE (16u * 1024u * 1024u)
#define RG__METADATA_MAX_SIZE (4u * 1024u * 1024u)
#define RG__ROMSHA_MAX_SIZE (1024u * 1024u)

struct rg_strlist {
    char **items;
    size_t count, cap;
};

typedef struct rg__root {
    char *path;
    rg_integration_origin origin;
} rg__root;

struct rg_integration_paths {
    rg__root *roots; /* priority order; at least one */
    size_t n_roots;
    unsigned deflt;
    rg_strlist custom;
};

/* String lists: an empty list needs no allocation ({0}); rg__strlist_clear frees the items and the array. */
int rg__strlist_new(rg_strlist **out);
int rg__strlist_push(rg_strlist *l, const char *s);
/* Takes ownership of s (freed on failure). */
int rg__strlist_push_own(rg_strlist *l, char *s);
void rg__strlist_clear(rg_strlist *l);
/* Sorts by strcmp and drops duplicates. */
void rg__strlist_sort_unique(rg_strlist *l);
int rg__strlist_contains(const rg_strlist *l, const char *s);

/* "a/b": b as is when absolute, a when b is empty. NULL when out of memory. */
char *rg__path_join(const char *a, const char *b);
/* Whether a path exists (any kind of file), and whether it is a folder (links followed). */
int rg__path_exists(const char *path);
int rg__is_dir(const char *path);
/* Appends the entry names of a folder other than "." and "..", sorted by strcmp, to out; a folder that cannot be
 * read adds nothing (RG_OK). */
int rg__folder_names(const char *dir, rg_strlist *out);
/* Whether "<dir>/<name>" is a game folder (a folder holding rom.sha) into *yes; RG_OK or RG_ENOMEM. */
int rg__is_game_dir(const char *dir, const char *name, int *yes);
/* Whether name ends with suffix, ignoring ASCII case. */
int rg__ends_with_ci(const char *name, const char *suffix);
/* Copy of s for messages: control bytes and non-ASCII bytes as '?', at most max bytes ("..." when cut). */
char *rg__printable(const char *s, size_t max);

/* The search folders of flags (0: default), root by root in priority order, each joined to its root:
 * "<root1>/contrib", ..., "/abs/custom" (absolute custom paths once, with the first root), "<root1>/stable",
 * "<root2>/contrib", ... */
int rg__data_dirs(const rg_integration_paths *dp, unsigned flags, rg_strlist *out);
/* The game folders "<dir>/<game>" over flags that exist (all of them when only_existing is 0); in each folder the
 * name as given comes before its other form (with or without a "-v<digits>" suffix). */
int rg__game_dirs(const rg_integration_paths *dp, const char *game, unsigned flags, int only_existing, rg_strlist *out);
/* The other form of a game name: "<game>-v0" for a name without a version suffix, the name without its
 * "-v<digits>" suffix otherwise. NULL when out of memory. */
char *rg__game_alias(const char *game);
/* The index of the root a path lies under (the longest matching root), or n_roots when none. */
size_t rg__root_of(const rg_integration_paths *dp, const char *path);
/* The roots for a message, in a malloc'ed string ("" when out of memory: never NULL unless out of memory). */
char *rg__roots_message(const rg_integration_paths *dp);
/* mkdir -p (mode 0777 before umask). */
int rg__mkdirs(const char *path);
/* The first existing "<dir>/<file>" over dirs; NULL when none (or out of memory: *rc set). */
char *rg__find_in(const rg_strlist *dirs, const char *file, int *rc);
/* Sorted unique state stems / scenario stems over game folders. */
int rg__list_states_in(const rg_strlist *dirs, rg_strlist *out);
int rg__list_scenarios_in(const rg_strlist *dirs, rg_strlist *out);

/* Reads and parses a JSON file (any top-level value; duplicates: the last wins). On failure *err receives a short
 * reason ("fail decode: ..." / "fail I/O: ...") freed with free(); the return code is RG_ECORRUPT or an I/O code. */
int rg__json_load_file(const char *path, size_t max_size, json_t **out, char **err);
/* Parses JSON text; RG_ECORRUPT with the parser's message (line and column). */
int rg__json_load_text(const char *text, size_t len, json_t **out, char **err);

/* metadata.json parsed from a JSON value (which it borrows). */
int rg__metadata_from_json(rg_integration_metadata **out, const json_t *root);

/* Appends a finding (file and message copied; ASCII control characters in them shown as '?'). */
int rg__diag_add(rg_integration_diags *d, const char *file, rg_integration_severity sev, const char *fmt, ...) RG_PRINTF(4, 5);

/* Where a validator looks: the game's folders over the flags, and over flags|STABLE (for metadata, the data.json of
 * a scenario and the states). A folder validated on its own has itself in both. */
typedef struct rg__gamectx {
    char *game;
    rg_strlist dirs;
    rg_strlist dirs_stable;
} rg__gamectx;

/* RG_ENOTFOUND when the game has no folder over flags. */
int rg__gamectx_from_paths(rg__gamectx *ctx, const rg_integration_paths *dp, const char *game, unsigned flags);
int rg__gamectx_from_dir(rg__gamectx *ctx, const char *dir);
void rg__gamectx_clear(rg__gamectx *ctx);

int rg__check_data(const rg__gamectx *ctx, rg_integration_diags *out);
int rg__check_scenario(const rg__gamectx *ctx, const char *scenario, rg_integration_diags *out);
int rg__check_default_state(const rg__gamectx *ctx, rg_integration_diags *out);
int rg__check_missing(const rg__gamectx *ctx, rg_integration_diags *out);
int rg__check_hash(const rg__gamectx *ctx, rg_integration_diags *out);
int rg__check_rom(const rg__gamectx *ctx, rg_integration_diags *out);
/* The ROM of a game among its folders (first match of rom.<ext>); NULL when none (*rc set on out of memory). */
char *rg__find_rom_in(const rg_strlist *dirs, const char *game, int *rc);
/* The first metadata.json over dirs_stable, parsed. RG_OK with *json NULL when there is none; problems reading or
 * decoding it are added to out as errors (and *json is NULL). *path (may be NULL) is freed with free(). */
int rg__load_metadata_json(const rg__gamectx *ctx, json_t **json, char **path, rg_integration_diags *out);
/* Reconciles the warnings of one file (`file_key`: "data.json", "scenario.json"; `file`: the path shown) with the
 * whitelist of metadata.json: unlisted warnings are added as warnings, listed warnings that did not occur as errors
 * of metadata.json. Duplicates count once. */
int rg__reconcile(const rg__gamectx *ctx, const char *file, const char *file_key, const rg_strlist *warnings,
                  rg_integration_diags *out);

#endif

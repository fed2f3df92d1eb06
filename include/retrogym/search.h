/**
 * @file search.h
 * Memory search (Gym Retro's GameData.search / delta_search, docs/search.md): a set of named searches, each a set of
 * candidates (address, type, mult, div, bias) over the address space a game data handle reads (through its byte-order
 * overlay), narrowed round by round by value searches ("the score is 1200") and delta searches ("it went up by 100").
 * A candidate reads as value = decoded / mult * div - bias. One set per environment; a set is not shared between
 * threads (distinct sets are independent).
 */
#ifndef RETROGYM_SEARCH_H
#define RETROGYM_SEARCH_H

#include "export.h"
#include <retrogym/datatype.h>
#include <retrogym/gamedata.h>
#include <retrogym/scenario.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_searchset rg_searchset;

/** One candidate: the bytes at `address` decoded with `type` give value * ... see the file comment. */
typedef struct rg_search_result {
    uint64_t address;
    rg_datatype type;
    int64_t mult; /**< 1, 2 or 4 */
    int64_t div;  /**< 1, a power of 10 or a power of 16 */
    int64_t bias; /**< 0, +1 or -1 */
} rg_search_result;

/** Longest search name accepted. */
#define RG_SEARCH_NAME_MAX 255

RG_API int rg_searchset_create(rg_searchset **out);
RG_API void rg_searchset_free(rg_searchset *set);

/** The 44 types searched when neither the caller nor the system gives a list. */
RG_API size_t rg_search_default_type_count(void);
RG_API const char *rg_search_default_type(size_t i);

/**
 * The types of searches created from now on (existing searches keep theirs). NULL/0: the system's list of the bound
 * emulator when it has one, else the default list. @return RG_OK, RG_EINVAL (a bad descriptor, over 64 types)
 */
RG_API int rg_searchset_set_types(rg_searchset *set, const char *const *types, size_t n);

/**
 * Value search: creates the search `name` on its first round, else narrows it. Keeps the candidates whose bytes
 * represent `value` now (docs/search.md, "Value search"). @return RG_OK; RG_EINVAL (bad name); RG_EMISUSE (the game
 * data reads no memory, or the address space changed since the search's last round); RG_ENOMEM
 */
RG_API int rg_search_value(rg_searchset *set, const char *name, const rg_gamedata *gd, int64_t value);

/**
 * Delta search: keeps the candidates where op(value now - value at the search's last round, ref) is non-zero. The
 * first round of a search (delta or value) records the memory; a delta search as a first round keeps every
 * (address, type). Same errors as rg_search_value.
 */
RG_API int rg_search_delta(rg_searchset *set, const char *name, const rg_gamedata *gd, rg_op op, int64_t ref);

/** @return RG_OK, RG_ENOTFOUND */
RG_API int rg_searchset_remove(rg_searchset *set, const char *name);
RG_API size_t rg_searchset_count(const rg_searchset *set);
/** Name of the i-th search (ascending by name), borrowed until the set changes; NULL past the end. */
RG_API const char *rg_searchset_name_at(const rg_searchset *set, size_t i);

/** Number of candidates left (every address x type after a first delta round). @return RG_OK, RG_ENOTFOUND */
RG_API int rg_search_result_count(const rg_searchset *set, const char *name, uint64_t *count);
/** Rounds done. @return RG_OK, RG_ENOTFOUND */
RG_API int rg_search_rounds(const rg_searchset *set, const char *name, unsigned *rounds);
/** Bytes the search holds (memory copy, candidate bitmaps or list). @return RG_OK, RG_ENOTFOUND */
RG_API int rg_search_memory(const rg_searchset *set, const char *name, size_t *bytes);

/**
 * Candidates from index `first` on, ordered by address, then transform (identity, div by powers of 10, of 16, mult 2,
 * 4, bias +1, -1), then the search's type order. Writes at most cap into out. @return RG_OK, RG_ENOTFOUND
 */
RG_API int rg_search_results(const rg_searchset *set, const char *name, uint64_t first, rg_search_result *out,
                             size_t cap, size_t *written);

/**
 * Whether one result stands out: every candidate ends at the same byte (address + width - 1), or all share one
 * (address, mult, div, bias). `out` (may be NULL) gets the first candidate. *unique = 0 when none is left.
 * @return RG_OK, RG_ENOTFOUND
 */
RG_API int rg_search_unique(const rg_searchset *set, const char *name, int *unique, rg_search_result *out);

/** The search's types that still have candidates, in its type order: up to cap written, *n = how many there are.
 * The strings are borrowed until the search changes. @return RG_OK, RG_ENOTFOUND */
RG_API int rg_search_types(const rg_searchset *set, const char *name, const char **out, size_t cap, size_t *n);

/**
 * Saves every search as JSON (docs/search.md, "Saved searches"), atomically. @return RG_OK, RG_EIO, RG_ENOMEM
 */
RG_API int rg_searchset_save_file(const rg_searchset *set, const char *path);
/** The same JSON as a malloc'd string (free with free()). */
RG_API int rg_searchset_save_string(const rg_searchset *set, char **json);
/**
 * Replaces every search with those of a saved file. The file is checked whole first; on any error nothing changes.
 * @return RG_OK; RG_ENOTFOUND/RG_EIO (file); RG_ETOOBIG (over 256 MiB); RG_ECORRUPT (with what and where)
 */
RG_API int rg_searchset_load_file(rg_searchset *set, const char *path);
RG_API int rg_searchset_load_string(rg_searchset *set, const char *json, size_t len);

#ifdef __cplusplus
}
#endif
#endif

/**
 * @file gamedata.h
 * A game's variables (`data.json`): named, typed values at addresses of an emulator's memory, read and written
 * through its address space (docs/formats.md, "Data types"), plus custom variables set by scripts or callers. One
 * handle per environment; it reads memory of the emulator or of caller blocks it is bound to, and keeps each variable's
 * value at the last two updates for delta measurements (docs/formats.md, "Scenarios").
 */
#ifndef RETROGYM_GAMEDATA_H
#define RETROGYM_GAMEDATA_H

#include "export.h"
#include <retrogym/datatype.h>
#include <retrogym/emu.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_gamedata rg_gamedata;

/** Loading flags for data.json and scenario.json. */
enum {
    RG_LOAD_STRICT = 1 /**< entries Gym Retro would skip are errors instead of warnings */
};

/** Mask of a variable that has none (every bit kept). */
#define RG_MASK_ALL UINT64_MAX

/** A variable of data.json. `name` is borrowed until the variable set changes. */
typedef struct rg_variable {
    const char *name;
    uint64_t address;
    rg_datatype type;
    uint64_t mask; /**< applied on read only */
} rg_variable;

/** The kind of a custom variable's value. */
typedef enum rg_value_kind { RG_VALUE_NIL = 0, RG_VALUE_BOOL = 1, RG_VALUE_NUMBER = 2 } rg_value_kind;

/** A custom variable's value: nil, a boolean (number 0/1) or a number (stored as a double, as Lua does). */
typedef struct rg_value {
    rg_value_kind kind;
    double number;
} rg_value;

RG_API int rg_gamedata_create(rg_gamedata **out);
RG_API void rg_gamedata_free(rg_gamedata *gd);

/**
 * Replaces the variables with those of a data.json file or text. Gym Retro's leniency is kept: entries with a type
 * shorter than 3 characters or a bad width are skipped, each with a warning (see rg_gamedata_warning); with
 * RG_LOAD_STRICT they are errors. On any error the previous variables are kept.
 * @return RG_OK; RG_ENOTFOUND/RG_EIO (file); RG_ECORRUPT (not JSON, no "info" object, an entry without address or
 *         type, a field of the wrong kind); RG_ETOOBIG (file over 16 MiB)
 */
RG_API int rg_gamedata_load_file(rg_gamedata *gd, const char *path, unsigned flags);
RG_API int rg_gamedata_load_string(rg_gamedata *gd, const char *json, size_t len, unsigned flags);

/** Warnings of the last load (skipped entries), each "variable NAME: reason". Borrowed until the next load. */
RG_API size_t rg_gamedata_warning_count(const rg_gamedata *gd);
RG_API const char *rg_gamedata_warning(const rg_gamedata *gd, size_t i);

/** Writes `{"info": {...}}` with 2-space indentation, "mask" only when not RG_MASK_ALL (docs/formats.md,
 * "Data types"). */
RG_API int rg_gamedata_save_file(const rg_gamedata *gd, const char *path);

/** Adds or replaces a variable. @return RG_OK, RG_EINVAL (empty name, bad type) */
RG_API int rg_gamedata_set_variable(rg_gamedata *gd, const char *name, uint64_t address, const char *type,
                                    uint64_t mask);
/** @return RG_OK, RG_ENOTFOUND */
RG_API int rg_gamedata_remove_variable(rg_gamedata *gd, const char *name);
RG_API size_t rg_gamedata_variable_count(const rg_gamedata *gd);
/** Variables in name order. @return RG_OK, RG_ERANGE */
RG_API int rg_gamedata_variable_at(const rg_gamedata *gd, size_t i, rg_variable *out);
/** @return RG_OK, RG_ENOTFOUND */
RG_API int rg_gamedata_find_variable(const rg_gamedata *gd, const char *name, rg_variable *out);

/**
 * Reads memory of this emulator from now on (NULL unbinds). The emulator must outlive the binding. Rebinding keeps
 * the variables' remembered values.
 */
RG_API int rg_gamedata_bind_emu(rg_gamedata *gd, rg_emu *emu);
/**
 * Reads caller memory from now on: blocks at emulated addresses (copied descriptors; the bytes stay the caller's
 * and must outlive the binding). `overlay_word` > 1 presents each aligned word of that many bytes byte-swapped, as
 * the Genesis overlay does; 1 or 0 means none.
 */
RG_API int rg_gamedata_bind_blocks(rg_gamedata *gd, const rg_mem_block *blocks, size_t n, unsigned overlay_word);

/** Raw access to the bound memory through the overlay. @return RG_OK, RG_ERANGE (unmapped), RG_EMISUSE (unbound) */
RG_API int rg_gamedata_read(const rg_gamedata *gd, uint64_t addr, void *dst, size_t len);
RG_API int rg_gamedata_write(rg_gamedata *gd, uint64_t addr, const void *src, size_t len);

/**
 * A data.json variable's live value (decoded, masked). @return RG_OK; RG_ENOTFOUND (no such variable);
 * RG_ERANGE (its bytes are not mapped or cross a block end); RG_EMISUSE (no memory bound)
 */
RG_API int rg_gamedata_get(const rg_gamedata *gd, const char *name, int64_t *value);
/** Encodes a value into a data.json variable's bytes (no mask, digits that do not fit dropped). Same errors. */
RG_API int rg_gamedata_set(rg_gamedata *gd, const char *name, int64_t value);
/** Value at the last update minus value at the update before (0 before two updates). Same errors. */
RG_API int rg_gamedata_delta(const rg_gamedata *gd, const char *name, int64_t *delta);

/**
 * Remembers every variable's current value (the previous one becomes the delta base). Variables whose bytes are
 * not mapped are remembered as unreadable; using them in a scenario is an error then. Allocates nothing.
 */
RG_API int rg_gamedata_update(rg_gamedata *gd);

/** Custom variables (script or caller values that live until rg_gamedata_clear_custom). */
RG_API int rg_gamedata_custom_set(rg_gamedata *gd, const char *name, rg_value value);
/** @return RG_OK, RG_ENOTFOUND */
RG_API int rg_gamedata_custom_get(const rg_gamedata *gd, const char *name, rg_value *value);
RG_API size_t rg_gamedata_custom_count(const rg_gamedata *gd);
/** @return RG_OK, RG_ERANGE. `name` borrowed until the custom variables change. */
RG_API int rg_gamedata_custom_at(const rg_gamedata *gd, size_t i, const char **name, rg_value *value);
RG_API void rg_gamedata_clear_custom(rg_gamedata *gd);

#ifdef __cplusplus
}
#endif
#endif

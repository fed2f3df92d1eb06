/**
 * @file datatype.h
 * Gym Retro data-type descriptors (`data.json` "type"): `<endianness><format><bytes>`, e.g. `|u1`, `>d4`, `><u4`.
 * Decoding and encoding follow docs/formats.md, "Data types" exactly (rank tables for middle endian, BCD nybbles taken
 * mod 10, sign extension, odd widths). Pure functions: no state, safe from any thread.
 */
#ifndef RETROGYM_DATATYPE_H
#define RETROGYM_DATATYPE_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Byte order of a type as it applies on this host. */
typedef enum rg_endian {
    RG_ENDIAN_LITTLE = 0,   /**< `<`, `=` (little-endian host), `<=`, `|` and unknown sigils */
    RG_ENDIAN_BIG = 1,      /**< `>` */
    RG_ENDIAN_MIXED_BL = 2, /**< `><`, `>=`: high half first, each half little-endian */
    RG_ENDIAN_MIXED_LB = 3  /**< `<>`: low half first, each half big-endian */
} rg_endian;

/** A parsed descriptor. */
typedef struct rg_datatype {
    unsigned width;    /**< bytes, 1..8 */
    char format;       /**< as written: 'u', 'i', 'd', 'n'; any other character behaves like 'u' */
    rg_endian endian;  /**< effective byte order */
    char repr[16];     /**< the descriptor as written (at most 15 characters) */
} rg_datatype;

/** Longest descriptor accepted by rg_datatype_parse. A sigil other than `<`, `>`, `=`, `><`, `<>`, `>=`, `<=` reads
 *  as little-endian (Gym Retro's "undefined"). */
#define RG_DATATYPE_MAX_LEN 15

/**
 * Parses a descriptor. The last character is the width (a digit 1-8), the one before it the format, everything
 * before that the sigil.
 * @return RG_OK; RG_EINVAL for NULL, a descriptor shorter than 3 characters or longer than RG_DATATYPE_MAX_LEN, or
 *         a width that is not a digit 1-8 (Gym Retro skips such entries)
 */
RG_API int rg_datatype_parse(const char *desc, rg_datatype *out);

/** Decodes `t->width` bytes (lowest address first) into a value: BCD digits mod 10, `i` sign-extended. */
RG_API int64_t rg_datatype_decode(const rg_datatype *t, const uint8_t *bytes);

/** Encodes a value into `t->width` bytes; digits that do not fit are dropped, as in Gym Retro. */
RG_API void rg_datatype_encode(const rg_datatype *t, int64_t value, uint8_t *bytes);

/**
 * Whether the descriptor passes Gym Retro's integration validator: `|[dinu]1` or `(>[<=]?|<[>=]?|=[><]?)[dinu][2-8]`.
 * Sets *suspicious (when non-NULL) for a two-character sigil or `d5`-`d8`, which the validator warns about.
 */
RG_API int rg_datatype_is_valid(const char *desc, int *suspicious);

#ifdef __cplusplus
}
#endif
#endif

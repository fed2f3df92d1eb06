/* Small jansson helpers shared by the data.json and scenario.json readers. */
#ifndef RG_SRC_GAME_JSON_UTIL_H
#define RG_SRC_GAME_JSON_UTIL_H

#include <jansson.h>
#include <stdint.h>

/* Parses JSON text into an object. RG_ECORRUPT with line/column when it is not JSON or not an object. */
int rg__json_parse(const char *text, size_t len, json_t **out, const char *what);
/* A non-negative integer (an integral real is accepted). RG_EINVAL otherwise (no message set). */
int rg__json_u64(const json_t *j, uint64_t *out);
/* An integer reference as Gym Retro reads it: integers as is, reals truncated. RG_EINVAL otherwise. */
int rg__json_i64(const json_t *j, int64_t *out);
/* A number as a double. RG_EINVAL otherwise. */
int rg__json_number(const json_t *j, double *out);

#endif

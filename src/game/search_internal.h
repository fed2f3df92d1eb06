/* The memory search's layout, shared by search.c (rounds, results) and search_json.c (saving and loading). */
#ifndef RG_SRC_GAME_SEARCH_INTERNAL_H
#define RG_SRC_GAME_SEARCH_INTERNAL_H

#include <retrogym/search.h>

#include <stddef.h>
#include <stdint.h>

#define SR_MAX_TYPES 64
/* Transforms: 0 identity; 1..18 div 10^k; 19..33 div 16^k (k = id - 18); 34 mult 2; 35 mult 4; 36 bias +1;
 * 37 bias -1. */
#define SR_NTR 38

/* What a search holds: nothing yet, every (offset, type) with the identity (after a first delta round), bitmaps per
 * (type, transform), or a sorted list. */
enum { SR_EMPTY = 0, SR_ALL = 1, SR_DENSE = 2, SR_SPARSE = 3 };

typedef struct sr_block {
    uint64_t base;
    size_t size;
    size_t off; /* offset in the flat memory copy */
} sr_block;

typedef struct sr_plane {
    uint16_t type;
    uint8_t tr;
    uint64_t *bits; /* one bit per flat offset (a window starting there) */
    uint64_t count;
} sr_plane;

typedef struct sr_hit {
    uint64_t off;
    uint16_t type;
    uint8_t tr;
} sr_hit;

typedef struct rg__search {
    char *name;
    rg_datatype types[SR_MAX_TYPES];
    size_t n_types;
    unsigned rounds;
    int mode;
    sr_block *blocks;
    size_t n_blocks;
    size_t total;  /* bytes of all blocks */
    uint8_t *snap; /* the memory as the last round saw it (through the overlay), total bytes */
    sr_plane *planes; /* ascending by (tr, type) */
    size_t n_planes;
    sr_hit *hits; /* ascending by (off, tr, type) */
    size_t n_hits;
} rg__search;

struct rg_searchset {
    rg__search **s; /* ascending by name */
    size_t n, cap;
    rg_datatype types[SR_MAX_TYPES];
    size_t n_types; /* 0: the system's or the default list */
};

void rg__search_free(rg__search *s);
size_t rg__search_words(const rg__search *s);
/* The transform's mult, div, bias. */
void rg__search_tr(unsigned id, int64_t *mult, int64_t *div, int64_t *bias);
/* Whether a window of `width` bytes at flat offset `off` lies inside one block. */
int rg__search_window_ok(const rg__search *s, uint64_t off, unsigned width);
/* Block index holding flat offset off. */
size_t rg__search_block_of(const rg__search *s, uint64_t off);
/* Replaces the set's searches with these (sorted by name here); the set takes them. */
void rg__searchset_replace(rg_searchset *set, rg__search **s, size_t n);

#endif

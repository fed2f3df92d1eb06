/* Memory search (include/retrogym/search.h, docs/search.md): named searches over (address, type, transform)
 * candidates, narrowed by value and delta rounds. A first round scans every address for every type with a
 * one-or-two-byte prefilter (the bytes of ranks 0 and 1 must be able to hold the wanted value's low digits) and keeps
 * bitmaps per (type, transform); when the list of survivors is smaller than the bitmaps, a sorted list replaces them. */
#include "search_internal.h"

#include "base/base.h"
#include "gamedata_types.h"

#include <stdlib.h>
#include <string.h>

static const char *const default_types[] = {
    ">d8", ">n8", ">d6", ">n6",
    "<u4", ">u4", "><u4", "<>u4", ">=u4", "<=u4", "=u4",
    "<i4", ">i4", "><i4", "<>i4", ">=i4", "<=i4", "=i4",
    "<d4", ">d4", "><d4", "<>d4", ">=d4", "<=d4", "=d4",
    "<n4", ">n4", "><n4", "<>n4", ">=n4", "<=n4", "=n4",
    "<u2", ">u2", "=u2", "<i2", ">i2", "=i2", "<d2", ">d2", "=d2",
    "|u1", "|i1", "|d1",
};
#define N_DEFAULT (sizeof default_types / sizeof default_types[0])

size_t rg_search_default_type_count(void)
{
    return N_DEFAULT;
}

const char *rg_search_default_type(size_t i)
{
    return i < N_DEFAULT ? default_types[i] : NULL;
}

/* ---- transforms ---- */

static int64_t ipow(int64_t b, unsigned k)
{
    int64_t r = 1;
    while (k--)
        r *= b;
    return r;
}

void rg__search_tr(unsigned id, int64_t *mult, int64_t *div, int64_t *bias)
{
    *mult = 1;
    *div = 1;
    *bias = 0;
    if (id >= 1 && id <= 18)
        *div = ipow(10, id);
    else if (id >= 19 && id <= 33)
        *div = ipow(16, id - 18);
    else if (id == 34)
        *mult = 2;
    else if (id == 35)
        *mult = 4;
    else if (id == 36)
        *bias = 1;
    else if (id == 37)
        *bias = -1;
}

/* The decoded value that represents v under transform id: x = (v + bias) * mult / div, exactly. 0 when the transform
 * does not apply to v (div: v must be a non-zero multiple; mult: v non-zero; no overflow). */
static int tr_expect(unsigned id, int64_t v, int64_t *x)
{
    int64_t mult, div, bias;
    rg__search_tr(id, &mult, &div, &bias);
    if (div != 1) {
        if (v == 0 || v % div != 0)
            return 0;
        *x = v / div;
        return 1;
    }
    if (mult != 1) {
        if (v == 0 || v > INT64_MAX / mult || v < INT64_MIN / mult)
            return 0;
        *x = v * mult;
        return 1;
    }
    if ((bias > 0 && v == INT64_MAX) || (bias < 0 && v == INT64_MIN))
        return 0;
    *x = v + bias;
    return 1;
}

static int is_unsigned_binary(const rg_datatype *t)
{
    return t->format != 'i' && t->format != 'd' && t->format != 'n';
}

/* Whether a decoded value x matches the wanted e: equal, or for unsigned binary types of 1, 2 or 4 bytes, e < 0 as
 * its two's complement in that width. */
static int matches(const rg_datatype *t, int64_t x, int64_t e)
{
    if (x == e)
        return 1;
    if (e < 0 && is_unsigned_binary(t) && (t->width == 1 || t->width == 2 || t->width == 4)) {
        unsigned bits = 8 * t->width;
        if (e < -((int64_t)1 << (bits - 1)))
            return 0;
        return (uint64_t)x == ((uint64_t)e & (((uint64_t)1 << bits) - 1));
    }
    return 0;
}

/* ---- sets ---- */

int rg_searchset_create(rg_searchset **out)
{
    if (!out)
        return rg__error(RG_EINVAL, "rg_searchset_create: NULL argument");
    *out = calloc(1, sizeof **out);
    return *out ? RG_OK : rg__error(RG_ENOMEM, "out of memory");
}

static void free_planes(rg__search *s)
{
    for (size_t i = 0; i < s->n_planes; i++)
        free(s->planes[i].bits);
    free(s->planes);
    s->planes = NULL;
    s->n_planes = 0;
}

void rg__search_free(rg__search *s)
{
    if (!s)
        return;
    free_planes(s);
    free(s->hits);
    free(s->blocks);
    free(s->snap);
    free(s->name);
    free(s);
}

void rg_searchset_free(rg_searchset *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n; i++)
        rg__search_free(set->s[i]);
    free(set->s);
    free(set);
}

int rg_searchset_set_types(rg_searchset *set, const char *const *types, size_t n)
{
    if (!set || (!types && n))
        return rg__error(RG_EINVAL, "rg_searchset_set_types: NULL argument");
    if (n > SR_MAX_TYPES)
        return rg__error(RG_EINVAL, "at most %d search types (got %zu)", SR_MAX_TYPES, n);
    rg_datatype tmp[SR_MAX_TYPES];
    for (size_t i = 0; i < n; i++)
        if (rg_datatype_parse(types[i], &tmp[i]) != RG_OK)
            return rg__error(RG_EINVAL, "search type %zu: bad descriptor \"%s\"", i, types[i] ? types[i] : "(null)");
    memcpy(set->types, tmp, n * sizeof tmp[0]);
    set->n_types = n;
    return RG_OK;
}

static long find_index(const rg_searchset *set, const char *name, size_t *insert_at)
{
    size_t lo = 0, hi = set->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(set->s[mid]->name, name);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (insert_at)
        *insert_at = lo;
    return -1;
}

static const rg__search *find(const rg_searchset *set, const char *name)
{
    if (!set || !name)
        return NULL;
    long i = find_index(set, name, NULL);
    return i < 0 ? NULL : set->s[i];
}

static int not_found(const char *name)
{
    return rg__error(RG_ENOTFOUND, "no search named \"%s\"", name ? name : "(null)");
}

int rg_searchset_remove(rg_searchset *set, const char *name)
{
    if (!set || !name)
        return rg__error(RG_EINVAL, "rg_searchset_remove: NULL argument");
    long i = find_index(set, name, NULL);
    if (i < 0)
        return not_found(name);
    rg__search_free(set->s[i]);
    memmove(&set->s[i], &set->s[i + 1], (set->n - (size_t)i - 1) * sizeof set->s[0]);
    set->n--;
    return RG_OK;
}

size_t rg_searchset_count(const rg_searchset *set)
{
    return set ? set->n : 0;
}

const char *rg_searchset_name_at(const rg_searchset *set, size_t i)
{
    return set && i < set->n ? set->s[i]->name : NULL;
}

static int cmp_search(const void *a, const void *b)
{
    return strcmp((*(rg__search *const *)a)->name, (*(rg__search *const *)b)->name);
}

void rg__searchset_replace(rg_searchset *set, rg__search **s, size_t n)
{
    for (size_t i = 0; i < set->n; i++)
        rg__search_free(set->s[i]);
    free(set->s);
    set->s = s;
    set->n = set->cap = n;
    if (n)
        qsort(s, n, sizeof s[0], cmp_search);
}

/* ---- layout ---- */

size_t rg__search_words(const rg__search *s)
{
    return (s->total + 63) / 64;
}

size_t rg__search_block_of(const rg__search *s, uint64_t off)
{
    size_t lo = 0, hi = s->n_blocks;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (s->blocks[mid].off <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int rg__search_window_ok(const rg__search *s, uint64_t off, unsigned width)
{
    if (off >= s->total)
        return 0;
    const sr_block *b = &s->blocks[rg__search_block_of(s, off)];
    return off + width <= b->off + b->size;
}

/* The memory a game data handle reads: its blocks, and a flat copy of them through the overlay. */
static int capture(const rg_gamedata *gd, sr_block **blocks_out, size_t *n_out, size_t *total_out, uint8_t **view)
{
    const rg_mem_block *mb = NULL;
    size_t n = 0;
    if (gd->emu) {
        int rc = rg_emu_mem_blocks(gd->emu, &mb, &n);
        if (rc != RG_OK)
            return rc;
    } else if (gd->bound_blocks) {
        mb = gd->space.blocks;
        n = gd->space.n;
    } else {
        return rg__error(RG_EMISUSE, "the game data is not bound to any memory");
    }
    if (n == 0)
        return rg__error(RG_EMISUSE, "the address space has no memory to search");
    sr_block *blocks = malloc(n * sizeof *blocks);
    if (!blocks)
        return rg__error(RG_ENOMEM, "out of memory");
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        blocks[i].base = mb[i].base;
        blocks[i].size = mb[i].size;
        blocks[i].off = total;
        total += mb[i].size;
    }
    uint8_t *v = malloc(total ? total : 1);
    if (!v) {
        free(blocks);
        return rg__error(RG_ENOMEM, "out of memory (%zu bytes for a copy of memory)", total);
    }
    for (size_t i = 0; i < n; i++) {
        int rc = rg_gamedata_read(gd, blocks[i].base, v + blocks[i].off, blocks[i].size);
        if (rc != RG_OK) {
            /* a block another one overlaps: its bytes as the core holds them */
            if (!mb[i].data) {
                free(blocks);
                free(v);
                return rc;
            }
            memcpy(v + blocks[i].off, mb[i].data, blocks[i].size);
        }
    }
    *blocks_out = blocks;
    *n_out = n;
    *total_out = total;
    *view = v;
    return RG_OK;
}

/* ---- candidates: planes ---- */

typedef struct sr_scan {
    rg__search *s;
    long index[SR_MAX_TYPES][SR_NTR]; /* plane of (type, tr), or -1 */
    int failed;
} sr_scan;

static void scan_init(sr_scan *sc, rg__search *s)
{
    sc->s = s;
    sc->failed = 0;
    for (size_t t = 0; t < SR_MAX_TYPES; t++)
        for (size_t r = 0; r < SR_NTR; r++)
            sc->index[t][r] = -1;
}

static uint64_t *plane_for(sr_scan *sc, unsigned type, unsigned tr)
{
    long i = sc->index[type][tr];
    if (i >= 0)
        return sc->s->planes[i].bits;
    rg__search *s = sc->s;
    sr_plane *p = realloc(s->planes, (s->n_planes + 1) * sizeof *p);
    if (!p) {
        sc->failed = 1;
        return NULL;
    }
    s->planes = p;
    uint64_t *bits = calloc(rg__search_words(s), sizeof *bits);
    if (!bits) {
        sc->failed = 1;
        return NULL;
    }
    p[s->n_planes] = (sr_plane){.type = (uint16_t)type, .tr = (uint8_t)tr, .bits = bits, .count = 0};
    sc->index[type][tr] = (long)s->n_planes++;
    return bits;
}

static int cmp_plane(const void *a, const void *b)
{
    const sr_plane *x = a, *y = b;
    if (x->tr != y->tr)
        return x->tr < y->tr ? -1 : 1;
    return x->type < y->type ? -1 : x->type > y->type;
}

/* Counts every plane's bits, drops empty planes, sorts them. */
static void planes_settle(rg__search *s)
{
    size_t words = rg__search_words(s), k = 0;
    for (size_t i = 0; i < s->n_planes; i++) {
        uint64_t c = 0;
        for (size_t w = 0; w < words; w++)
            c += (uint64_t)__builtin_popcountll(s->planes[i].bits[w]);
        s->planes[i].count = c;
        if (c)
            s->planes[k++] = s->planes[i];
        else
            free(s->planes[i].bits);
    }
    s->n_planes = k;
    if (k > 1)
        qsort(s->planes, k, sizeof s->planes[0], cmp_plane);
}

static int byte_digit(const rg_datatype *t, unsigned b)
{
    if (t->format == 'd')
        return (int)((b & 15) % 10 + 10 * ((b >> 4) % 10));
    if (t->format == 'n')
        return (int)((b & 15) % 10);
    return (int)b;
}

typedef struct sr_want {
    unsigned tr;
    int64_t x;
} sr_want;

/* A type's decoder with the byte of each rank found once (most significant first). */
typedef struct sr_dec {
    uint8_t order[8];
    unsigned w;
    int fmt; /* 0 binary unsigned, 1 signed, 2 BCD, 3 low-nybble BCD */
    uint8_t digit[256]; /* a byte's digit (BCD formats) */
} sr_dec;

static void dec_init(sr_dec *d, const rg_datatype *t)
{
    rg_datatype u = *t;
    u.format = 'u';
    d->w = t->width;
    d->fmt = t->format == 'i' ? 1 : t->format == 'd' ? 2 : t->format == 'n' ? 3 : 0;
    for (unsigned r = 0; r < t->width; r++) {
        uint8_t b[8] = {0};
        rg_datatype_encode(&u, (int64_t)((uint64_t)1 << (8 * r)), b);
        for (unsigned i = 0; i < t->width; i++)
            if (b[i])
                d->order[t->width - 1 - r] = (uint8_t)i;
    }
    for (unsigned v = 0; v < 256; v++)
        d->digit[v] = (uint8_t)(d->fmt == 2 ? (v & 15) % 10 + 10 * ((v >> 4) % 10) : (v & 15) % 10);
}

static inline int64_t dec(const sr_dec *d, const uint8_t *p)
{
    uint64_t x = 0;
    switch (d->fmt) {
    case 2:
        for (unsigned k = 0; k < d->w; k++)
            x = x * 100 + d->digit[p[d->order[k]]];
        return (int64_t)x;
    case 3:
        for (unsigned k = 0; k < d->w; k++)
            x = x * 10 + d->digit[p[d->order[k]]];
        return (int64_t)x;
    default:
        for (unsigned k = 0; k < d->w; k++)
            x = x << 8 | p[d->order[k]];
        if (d->fmt == 1 && d->w < 8 && (x >> (8 * d->w - 1) & 1))
            x |= ~(uint64_t)0 << (8 * d->w);
        return (int64_t)x;
    }
}

/* Digit of rank r (any) of a wanted value as the type's byte holds it, or -1 when no byte can hold it. */
static int want_digit_r(const rg_datatype *t, int64_t e, unsigned rank)
{
    if (t->format == 'd' || t->format == 'n') {
        if (e < 0)
            return -1;
        uint64_t base = t->format == 'd' ? 100 : 10, v = (uint64_t)e;
        for (unsigned k = 0; k < rank && v; k++)
            v /= base;
        return (int)(v % base);
    }
    return (int)(((uint64_t)e >> (8 * rank)) & 0xFF);
}

/* Bitmaps over flat offsets, one per distinct acceptance table (bit i: view[i] is acceptable), built on demand. */
#define SR_MAX_TABLES 32
typedef struct sr_tables {
    uint8_t table[SR_MAX_TABLES][256];
    uint64_t *bits[SR_MAX_TABLES];
    size_t n;
} sr_tables;

static const uint64_t *table_bits(sr_tables *tb, const uint8_t table[256], const uint8_t *view, size_t total,
                                  size_t words)
{
    for (size_t i = 0; i < tb->n; i++)
        if (memcmp(tb->table[i], table, 256) == 0)
            return tb->bits[i];
    if (tb->n == SR_MAX_TABLES)
        return NULL;
    uint64_t *bits = calloc(words + 1, sizeof *bits);
    if (!bits)
        return NULL;
    for (size_t i = 0; i < total; i++)
        bits[i >> 6] |= (uint64_t)table[view[i]] << (i & 63);
    memcpy(tb->table[tb->n], table, 256);
    tb->bits[tb->n++] = bits;
    return bits;
}

/* First value round (from nothing, or from every (offset, type) with the identity). For each type and each byte
 * rank, a bitmap of the offsets whose byte can be that digit of a wanted value (shared between types with the same
 * table); the window bitmap is their AND, each shifted by the rank's position, 64 windows at a time; only windows
 * that pass are decoded. */
static int scan_value(rg__search *s, const uint8_t *view, const sr_want *want, size_t n_want)
{
    sr_scan *sc = malloc(sizeof *sc);
    sr_tables *tb = calloc(1, sizeof *tb);
    size_t words = rg__search_words(s);
    uint64_t *cand = calloc(words + 1, sizeof *cand);
    int rc = RG_OK;
    if (!sc || !tb || !cand) {
        free(sc);
        free(tb);
        free(cand);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    scan_init(sc, s);
    for (unsigned ti = 0; ti < s->n_types && !sc->failed && rc == RG_OK; ti++) {
        const rg_datatype *t = &s->types[ti];
        int cls = t->format == 'd' ? 1 : t->format == 'n' ? 2 : 0;
        sr_dec d;
        dec_init(&d, t);
        unsigned w = t->width;
        /* the byte of rank r sits at d.order[w - 1 - r] */
        int any = 1;
        for (unsigned r = 0; r < w && any; r++) {
            uint8_t table[256] = {0}, wanted[256] = {0};
            any = 0;
            for (size_t k = 0; k < n_want; k++) {
                int64_t e = want[k].x;
                int dg = e < 0 && cls != 0 ? -1 : want_digit_r(t, e, r);
                if (dg >= 0)
                    wanted[dg] = 1;
            }
            for (unsigned b = 0; b < 256; b++)
                if (wanted[byte_digit(t, b)])
                    table[b] = 1, any = 1;
            if (!any)
                break;
            const uint64_t *bits = table_bits(tb, table, view, s->total, words);
            if (!bits) {
                rc = rg__error(RG_ENOMEM, "out of memory (search bitmaps)");
                break;
            }
            unsigned p = d.order[w - 1 - r];
            if (r == 0) {
                for (size_t wi = 0; wi < words; wi++)
                    cand[wi] = p ? (bits[wi] >> p) | (bits[wi + 1] << (64 - p)) : bits[wi];
            } else {
                for (size_t wi = 0; wi < words; wi++)
                    cand[wi] &= p ? (bits[wi] >> p) | (bits[wi + 1] << (64 - p)) : bits[wi];
            }
        }
        if (!any || rc != RG_OK)
            continue;
        size_t bi = 0;
        for (size_t wi = 0; wi < words && !sc->failed; wi++) {
            uint64_t m = cand[wi];
            while (m) {
                uint64_t o = (uint64_t)wi * 64 + (unsigned)__builtin_ctzll(m);
                m &= m - 1;
                if (o >= s->total)
                    break;
                while (o >= s->blocks[bi].off + s->blocks[bi].size)
                    bi++;
                if (o + w > s->blocks[bi].off + s->blocks[bi].size)
                    continue;
                int64_t x = dec(&d, view + o);
                for (size_t k = 0; k < n_want; k++) {
                    if (!matches(t, x, want[k].x))
                        continue;
                    uint64_t *pb = plane_for(sc, ti, want[k].tr);
                    if (pb)
                        pb[o >> 6] |= (uint64_t)1 << (o & 63);
                    break;
                }
            }
        }
    }
    int failed = sc->failed;
    for (size_t i = 0; i < tb->n; i++)
        free(tb->bits[i]);
    free(tb);
    free(sc);
    free(cand);
    if (rc != RG_OK)
        return rc;
    if (failed)
        return rg__error(RG_ENOMEM, "out of memory (search bitmaps)");
    planes_settle(s);
    return RG_OK;
}

/* First delta round after a delta baseline: every (offset, type) with the identity. Windows whose bytes did not
 * change have delta 0, decided once. */
static int scan_delta_all(rg__search *s, const uint8_t *view, rg_op op, int64_t ref)
{
    uint32_t *changed = malloc((s->total + 1) * sizeof *changed);
    sr_scan *sc = malloc(sizeof *sc);
    if (!changed || !sc) {
        free(changed);
        free(sc);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    changed[0] = 0;
    for (size_t i = 0; i < s->total; i++)
        changed[i + 1] = changed[i] + (s->snap[i] != view[i]);
    scan_init(sc, s);
    int zero_keep = rg_op_apply(op, 0, ref) != 0;
    for (unsigned ti = 0; ti < s->n_types && !sc->failed; ti++) {
        const rg_datatype *t = &s->types[ti];
        unsigned w = t->width;
        sr_dec d;
        dec_init(&d, t);
        for (size_t bi = 0; bi < s->n_blocks && !sc->failed; bi++) {
            const sr_block *b = &s->blocks[bi];
            if (b->size < w)
                continue;
            size_t first = b->off, last = b->off + b->size - w;
            for (size_t off = first; off <= last; off++) {
                int keep;
                if (changed[off + w] == changed[off])
                    keep = zero_keep;
                else {
                    int64_t dl = (int64_t)((uint64_t)dec(&d, view + off) - (uint64_t)dec(&d, s->snap + off));
                    keep = rg_op_apply(op, dl, ref) != 0;
                }
                if (!keep)
                    continue;
                uint64_t *bits = plane_for(sc, ti, 0);
                if (!bits)
                    break;
                bits[off >> 6] |= (uint64_t)1 << (off & 63);
            }
        }
    }
    int failed = sc->failed;
    free(sc);
    free(changed);
    if (failed)
        return rg__error(RG_ENOMEM, "out of memory (search bitmaps)");
    planes_settle(s);
    return RG_OK;
}

/* A later round's test of one candidate. */
typedef struct sr_test {
    int delta;
    int64_t want[SR_NTR];
    uint8_t have[SR_NTR];
    rg_op op;
    int64_t ref;
    sr_dec dec[SR_MAX_TYPES];
} sr_test;

static int keep(const rg__search *s, const sr_test *t, const uint8_t *view, uint64_t off, unsigned type, unsigned tr)
{
    const rg_datatype *dt = &s->types[type];
    int64_t x = dec(&t->dec[type], view + off);
    if (t->delta) {
        int64_t d = (int64_t)((uint64_t)x - (uint64_t)dec(&t->dec[type], s->snap + off));
        return rg_op_apply(t->op, d, t->ref) != 0;
    }
    return t->have[tr] && matches(dt, x, t->want[tr]);
}

static void filter_planes(rg__search *s, const sr_test *t, const uint8_t *view)
{
    size_t words = rg__search_words(s);
    for (size_t i = 0; i < s->n_planes; i++) {
        sr_plane *p = &s->planes[i];
        for (size_t w = 0; w < words; w++) {
            uint64_t m = p->bits[w];
            while (m) {
                unsigned bit = (unsigned)__builtin_ctzll(m);
                m &= m - 1;
                if (!keep(s, t, view, (uint64_t)w * 64 + bit, p->type, p->tr))
                    p->bits[w] &= ~((uint64_t)1 << bit);
            }
        }
    }
    planes_settle(s);
}

static void filter_hits(rg__search *s, const sr_test *t, const uint8_t *view)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n_hits; i++)
        if (keep(s, t, view, s->hits[i].off, s->hits[i].type, s->hits[i].tr))
            s->hits[k++] = s->hits[i];
    s->n_hits = k;
}

/* ---- enumeration in order (offset, tr, type) ---- */

typedef int (*sr_visit)(void *user, uint64_t off, unsigned type, unsigned tr); /* non-zero stops */

static void each_candidate(const rg__search *s, uint64_t first, sr_visit fn, void *user)
{
    uint64_t index = 0;
    if (s->mode == SR_SPARSE) {
        for (size_t i = (size_t)(first < s->n_hits ? first : s->n_hits); i < s->n_hits; i++)
            if (fn(user, s->hits[i].off, s->hits[i].type, s->hits[i].tr))
                return;
        return;
    }
    if (s->mode == SR_ALL) {
        for (size_t bi = 0; bi < s->n_blocks; bi++) {
            const sr_block *b = &s->blocks[bi];
            for (size_t o = 0; o < b->size; o++)
                for (unsigned ti = 0; ti < s->n_types; ti++) {
                    if (o + s->types[ti].width > b->size)
                        continue;
                    if (index++ < first)
                        continue;
                    if (fn(user, b->off + o, ti, 0))
                        return;
                }
        }
        return;
    }
    if (s->mode != SR_DENSE)
        return;
    size_t words = rg__search_words(s);
    for (size_t w = 0; w < words; w++) {
        uint64_t any = 0, n = 0;
        for (size_t i = 0; i < s->n_planes; i++) {
            any |= s->planes[i].bits[w];
            n += (uint64_t)__builtin_popcountll(s->planes[i].bits[w]);
        }
        if (index + n <= first) {
            index += n;
            continue;
        }
        while (any) {
            unsigned bit = (unsigned)__builtin_ctzll(any);
            any &= any - 1;
            for (size_t i = 0; i < s->n_planes; i++) {
                if (!(s->planes[i].bits[w] >> bit & 1))
                    continue;
                if (index++ < first)
                    continue;
                if (fn(user, (uint64_t)w * 64 + bit, s->planes[i].type, s->planes[i].tr))
                    return;
            }
        }
    }
}

static uint64_t count_of(const rg__search *s)
{
    uint64_t c = 0;
    switch (s->mode) {
    case SR_SPARSE: return s->n_hits;
    case SR_DENSE:
        for (size_t i = 0; i < s->n_planes; i++)
            c += s->planes[i].count;
        return c;
    case SR_ALL:
        for (size_t bi = 0; bi < s->n_blocks; bi++)
            for (size_t ti = 0; ti < s->n_types; ti++)
                if (s->blocks[bi].size >= s->types[ti].width)
                    c += s->blocks[bi].size - s->types[ti].width + 1;
        return c;
    default: return 0;
    }
}

typedef struct sr_collect {
    sr_hit *hits;
    size_t n;
} sr_collect;

static int collect_hit(void *user, uint64_t off, unsigned type, unsigned tr)
{
    sr_collect *c = user;
    c->hits[c->n++] = (sr_hit){.off = off, .type = (uint16_t)type, .tr = (uint8_t)tr};
    return 0;
}

/* Bitmaps to a list when the list is smaller. */
static void maybe_sparse(rg__search *s)
{
    if (s->mode != SR_DENSE)
        return;
    uint64_t n = count_of(s);
    uint64_t plane_bytes = (uint64_t)s->n_planes * rg__search_words(s) * 8;
    if (n * sizeof(sr_hit) > plane_bytes)
        return;
    sr_collect c = {malloc((size_t)(n ? n : 1) * sizeof(sr_hit)), 0};
    if (!c.hits)
        return; /* stays dense */
    each_candidate(s, 0, collect_hit, &c);
    free_planes(s);
    free(s->hits);
    s->hits = c.hits;
    s->n_hits = c.n;
    s->mode = SR_SPARSE;
}

/* ---- rounds ---- */

static int same_layout(const rg__search *s, const sr_block *b, size_t n)
{
    if (n != s->n_blocks)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (b[i].base != s->blocks[i].base || b[i].size != s->blocks[i].size)
            return 0;
    return 1;
}

static int new_search(rg_searchset *set, const char *name, const rg_gamedata *gd, rg__search **out)
{
    rg__search *s = calloc(1, sizeof *s);
    int rc = RG_OK;
    if (!s)
        return rg__error(RG_ENOMEM, "out of memory");
    s->name = rg__strdup(name, &rc);
    if (!s->name) {
        free(s);
        return rc;
    }
    if (set->n_types) {
        memcpy(s->types, set->types, set->n_types * sizeof s->types[0]);
        s->n_types = set->n_types;
    } else {
        const rg_system_info *sys = gd->emu ? rg_emu_system(gd->emu) : NULL;
        size_t n = sys && sys->n_search_types ? sys->n_search_types : N_DEFAULT;
        if (n > SR_MAX_TYPES)
            n = SR_MAX_TYPES;
        for (size_t i = 0; i < n; i++) {
            const char *d = sys && sys->n_search_types ? sys->search_types[i] : default_types[i];
            if (rg_datatype_parse(d, &s->types[s->n_types]) == RG_OK)
                s->n_types++;
        }
    }
    *out = s;
    return RG_OK;
}

static int do_round(rg_searchset *set, const char *name, const rg_gamedata *gd, int delta, int64_t value, rg_op op,
                    int64_t ref)
{
    if (!set || !name || !gd)
        return rg__error(RG_EINVAL, "search: NULL argument");
    size_t len = strlen(name);
    if (len == 0 || len > RG_SEARCH_NAME_MAX)
        return rg__error(RG_EINVAL, "a search name must have 1 to %d characters", RG_SEARCH_NAME_MAX);
    if (delta && ((unsigned)op >= RG_OP_COUNT))
        return rg__error(RG_EINVAL, "delta search: unknown operation %d", (int)op);
    sr_block *blocks = NULL;
    size_t n_blocks = 0, total = 0;
    uint8_t *view = NULL;
    int rc = capture(gd, &blocks, &n_blocks, &total, &view);
    if (rc != RG_OK)
        return rc;
    size_t at = 0;
    long idx = find_index(set, name, &at);
    rg__search *s = idx >= 0 ? set->s[idx] : NULL;
    int fresh = !s;
    if (fresh) {
        if ((rc = rg__reserve(&set->s, &set->cap, set->n + 1, sizeof set->s[0])) != RG_OK ||
            (rc = new_search(set, name, gd, &s)) != RG_OK) {
            free(blocks);
            free(view);
            return rc;
        }
        s->blocks = blocks;
        s->n_blocks = n_blocks;
        s->total = total;
        blocks = NULL;
    } else {
        int same = same_layout(s, blocks, n_blocks);
        free(blocks);
        if (!same) {
            free(view);
            return rg__error(RG_EMISUSE, "search \"%s\": the address space changed since its last round", name);
        }
    }

    if (s->mode == SR_EMPTY && delta) {
        s->mode = SR_ALL; /* the baseline */
    } else if (s->mode == SR_EMPTY || (s->mode == SR_ALL && !delta)) {
        sr_want want[SR_NTR];
        size_t n_want = 0;
        for (unsigned tr = 0; tr < (s->mode == SR_ALL ? 1u : SR_NTR); tr++) {
            int64_t x;
            if (!tr_expect(tr, value, &x))
                continue;
            if (value == 0 && tr != 0 && tr < 36)
                continue; /* zero divides and multiplies to itself: the identity only */
            int dup = 0;
            for (size_t k = 0; k < n_want; k++)
                dup |= want[k].x == x;
            if (!dup)
                want[n_want++] = (sr_want){tr, x};
        }
        rc = scan_value(s, view, want, n_want);
        if (rc == RG_OK)
            s->mode = SR_DENSE;
    } else if (s->mode == SR_ALL) {
        rc = scan_delta_all(s, view, op, ref);
        if (rc == RG_OK)
            s->mode = SR_DENSE;
    } else {
        sr_test *t = calloc(1, sizeof *t);
        if (!t)
            rc = rg__error(RG_ENOMEM, "out of memory");
        else {
            t->delta = delta;
            t->op = op;
            t->ref = ref;
            for (unsigned tr = 0; tr < SR_NTR; tr++)
                t->have[tr] = (uint8_t)tr_expect(tr, value, &t->want[tr]);
            for (size_t ti = 0; ti < s->n_types; ti++)
                dec_init(&t->dec[ti], &s->types[ti]);
            if (s->mode == SR_DENSE)
                filter_planes(s, t, view);
            else
                filter_hits(s, t, view);
            free(t);
        }
    }
    if (rc != RG_OK) {
        free(view);
        if (fresh)
            rg__search_free(s);
        else {
            /* a failed round leaves nothing half-done: the search is dropped */
            free_planes(s);
            s->mode = SR_EMPTY;
        }
        return rc;
    }
    maybe_sparse(s);
    free(s->snap);
    s->snap = view;
    s->rounds++;
    if (fresh) {
        memmove(&set->s[at + 1], &set->s[at], (set->n - at) * sizeof set->s[0]);
        set->s[at] = s;
        set->n++;
    }
    return RG_OK;
}

int rg_search_value(rg_searchset *set, const char *name, const rg_gamedata *gd, int64_t value)
{
    return do_round(set, name, gd, 0, value, RG_OP_NOOP, 0);
}

int rg_search_delta(rg_searchset *set, const char *name, const rg_gamedata *gd, rg_op op, int64_t ref)
{
    return do_round(set, name, gd, 1, 0, op, ref);
}

/* ---- queries ---- */

int rg_search_result_count(const rg_searchset *set, const char *name, uint64_t *count)
{
    const rg__search *s = find(set, name);
    if (!s)
        return not_found(name);
    if (count)
        *count = count_of(s);
    return RG_OK;
}

int rg_search_rounds(const rg_searchset *set, const char *name, unsigned *rounds)
{
    const rg__search *s = find(set, name);
    if (!s)
        return not_found(name);
    if (rounds)
        *rounds = s->rounds;
    return RG_OK;
}

int rg_search_memory(const rg_searchset *set, const char *name, size_t *bytes)
{
    const rg__search *s = find(set, name);
    if (!s)
        return not_found(name);
    size_t b = sizeof *s + strlen(s->name) + 1 + s->n_blocks * sizeof(sr_block) + s->total;
    b += s->n_planes * (sizeof(sr_plane) + rg__search_words(s) * 8);
    b += s->n_hits * sizeof(sr_hit);
    if (bytes)
        *bytes = b;
    return RG_OK;
}

static void fill_result(const rg__search *s, uint64_t off, unsigned type, unsigned tr, rg_search_result *r)
{
    const sr_block *b = &s->blocks[rg__search_block_of(s, off)];
    r->address = b->base + (off - b->off);
    r->type = s->types[type];
    rg__search_tr(tr, &r->mult, &r->div, &r->bias);
}

typedef struct sr_out {
    const rg__search *s;
    rg_search_result *out;
    size_t cap, n;
} sr_out;

static int out_result(void *user, uint64_t off, unsigned type, unsigned tr)
{
    sr_out *o = user;
    if (o->n >= o->cap)
        return 1;
    fill_result(o->s, off, type, tr, &o->out[o->n++]);
    return 0;
}

int rg_search_results(const rg_searchset *set, const char *name, uint64_t first, rg_search_result *out, size_t cap,
                      size_t *written)
{
    const rg__search *s = find(set, name);
    if (!s)
        return not_found(name);
    if (!out && cap)
        return rg__error(RG_EINVAL, "rg_search_results: NULL argument");
    sr_out o = {s, out, cap, 0};
    if (cap)
        each_candidate(s, first, out_result, &o);
    if (written)
        *written = o.n;
    return RG_OK;
}

typedef struct sr_uniq {
    const rg__search *s;
    uint64_t n, first_off, first_end;
    unsigned first_type, first_tr;
    int same_end, same_result;
} sr_uniq;

static int uniq_visit(void *user, uint64_t off, unsigned type, unsigned tr)
{
    sr_uniq *u = user;
    uint64_t end = off + u->s->types[type].width - 1;
    if (u->n++ == 0) {
        u->first_off = off;
        u->first_end = end;
        u->first_type = type;
        u->first_tr = tr;
        u->same_end = u->same_result = 1;
        return 0;
    }
    if (end != u->first_end)
        u->same_end = 0;
    if (off != u->first_off || tr != u->first_tr)
        u->same_result = 0;
    return !u->same_end && !u->same_result;
}

int rg_search_unique(const rg_searchset *set, const char *name, int *unique, rg_search_result *out)
{
    const rg__search *s = find(set, name);
    if (!s)
        return not_found(name);
    sr_uniq u = {.s = s};
    each_candidate(s, 0, uniq_visit, &u);
    int yes = u.n > 0 && (u.same_end || u.same_result);
    if (unique)
        *unique = yes;
    if (out && u.n)
        fill_result(s, u.first_off, u.first_type, u.first_tr, out);
    return RG_OK;
}

int rg_search_types(const rg_searchset *set, const char *name, const char **out, size_t cap, size_t *n)
{
    const rg__search *s = find(set, name);
    if (!s)
        return not_found(name);
    uint8_t alive[SR_MAX_TYPES] = {0};
    if (s->mode == SR_ALL)
        memset(alive, 1, sizeof alive);
    for (size_t i = 0; i < s->n_planes; i++)
        alive[s->planes[i].type] = 1;
    for (size_t i = 0; i < s->n_hits && s->mode == SR_SPARSE; i++)
        alive[s->hits[i].type] = 1;
    size_t k = 0;
    for (size_t t = 0; t < s->n_types; t++)
        if (alive[t]) {
            if (out && k < cap)
                out[k] = s->types[t].repr;
            k++;
        }
    if (n)
        *n = k;
    return RG_OK;
}

/* Saved searches (docs/search.md, "Saved searches"): every search of a set as JSON, and loading such a file back,
 * checked whole before anything changes. */
#include "search_internal.h"

#include "base/base.h"
#include "json_util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH_FILE_MAX ((size_t)256 << 20)
#define SEARCH_MEMORY_MAX ((size_t)64 << 20) /* bytes of memory one search may cover */
#define SEARCH_BLOCKS_MAX 4096
#define SEARCHES_MAX 1024
#define FORMAT_NAME "retrogym-searches"

/* ---- hex ---- */

static json_t *hex_string(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char *s = malloc(2 * n + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = digits[p[i] >> 4];
        s[2 * i + 1] = digits[p[i] & 15];
    }
    json_t *j = json_stringn_nocheck(s, 2 * n);
    free(s);
    return j;
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes exactly n bytes; 0 on a bad length or digit. */
static int hex_decode(const json_t *j, uint8_t *out, size_t n)
{
    if (!json_is_string(j) || json_string_length(j) != 2 * n)
        return 0;
    const char *s = json_string_value(j);
    for (size_t i = 0; i < n; i++) {
        int hi = hex_val(s[2 * i]), lo = hex_val(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

/* ---- saving ---- */

static json_t *tr_fields(json_t *o, unsigned tr)
{
    int64_t m, d, b;
    rg__search_tr(tr, &m, &d, &b);
    json_object_set_new(o, "mult", json_integer(m));
    json_object_set_new(o, "div", json_integer(d));
    json_object_set_new(o, "bias", json_integer(b));
    return o;
}

static json_t *save_search(const rg__search *s)
{
    json_t *o = json_object(), *types = json_array(), *blocks = json_array();
    if (!o || !types || !blocks) {
        json_decref(o);
        json_decref(types);
        json_decref(blocks);
        return NULL;
    }
    json_object_set_new(o, "name", json_string(s->name));
    for (size_t i = 0; i < s->n_types; i++)
        json_array_append_new(types, json_string(s->types[i].repr));
    json_object_set_new(o, "types", types);
    json_object_set_new(o, "rounds", json_integer(s->rounds));
    for (size_t i = 0; i < s->n_blocks; i++) {
        json_t *b = json_object();
        json_t *mem = hex_string(s->snap + s->blocks[i].off, s->blocks[i].size);
        if (!b || !mem) {
            json_decref(b);
            json_decref(mem);
            json_decref(o);
            return NULL;
        }
        json_object_set_new(b, "address", json_integer((json_int_t)s->blocks[i].base));
        json_object_set_new(b, "size", json_integer((json_int_t)s->blocks[i].size));
        json_object_set_new(b, "memory", mem);
        json_array_append_new(blocks, b);
    }
    json_object_set_new(o, "blocks", blocks);
    if (s->mode == SR_ALL) {
        json_object_set_new(o, "state", json_string("all"));
    } else if (s->mode == SR_DENSE) {
        json_object_set_new(o, "state", json_string("bitmaps"));
        json_t *arr = json_array();
        size_t words = rg__search_words(s);
        uint8_t *bytes = malloc(words ? words * 8 : 1);
        if (!arr || !bytes) {
            json_decref(arr);
            free(bytes);
            json_decref(o);
            return NULL;
        }
        for (size_t i = 0; i < s->n_planes; i++) {
            const sr_plane *p = &s->planes[i];
            for (size_t w = 0; w < words; w++)
                for (unsigned k = 0; k < 8; k++)
                    bytes[w * 8 + k] = (uint8_t)(p->bits[w] >> (8 * k));
            json_t *po = json_object();
            json_t *bits = hex_string(bytes, (s->total + 7) / 8);
            if (!po || !bits) {
                json_decref(po);
                json_decref(bits);
                json_decref(arr);
                free(bytes);
                json_decref(o);
                return NULL;
            }
            json_object_set_new(po, "type", json_string(s->types[p->type].repr));
            tr_fields(po, p->tr);
            json_object_set_new(po, "bits", bits);
            json_array_append_new(arr, po);
        }
        free(bytes);
        json_object_set_new(o, "bitmaps", arr);
    } else {
        json_object_set_new(o, "state", json_string("list"));
        json_t *arr = json_array();
        if (!arr) {
            json_decref(o);
            return NULL;
        }
        for (size_t i = 0; i < s->n_hits; i++) {
            const sr_hit *h = &s->hits[i];
            const sr_block *b = &s->blocks[rg__search_block_of(s, h->off)];
            int64_t m, d, bias;
            rg__search_tr(h->tr, &m, &d, &bias);
            json_array_append_new(arr, json_pack("[I s I I I]", (json_int_t)(b->base + (h->off - b->off)),
                                                 s->types[h->type].repr, (json_int_t)m, (json_int_t)d,
                                                 (json_int_t)bias));
        }
        json_object_set_new(o, "results", arr);
    }
    return o;
}

int rg_searchset_save_string(const rg_searchset *set, char **json)
{
    if (!set || !json)
        return rg__error(RG_EINVAL, "rg_searchset_save_string: NULL argument");
    json_t *root = json_object(), *arr = json_array();
    int bad = !root || !arr;
    for (size_t i = 0; i < set->n && !bad; i++) {
        json_t *o = save_search(set->s[i]);
        bad = !o || json_array_append_new(arr, o) != 0;
    }
    char *text = NULL;
    if (!bad) {
        json_object_set_new(root, "format", json_string(FORMAT_NAME));
        json_object_set_new(root, "version", json_integer(1));
        json_object_set_new(root, "searches", arr);
        arr = NULL;
        text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    }
    json_decref(arr);
    json_decref(root);
    if (!text)
        return rg__error(RG_ENOMEM, "out of memory (saving searches)");
    *json = text;
    return RG_OK;
}

int rg_searchset_save_file(const rg_searchset *set, const char *path)
{
    if (!set || !path)
        return rg__error(RG_EINVAL, "rg_searchset_save_file: NULL argument");
    char *text;
    int rc = rg_searchset_save_string(set, &text);
    if (rc != RG_OK)
        return rc;
    rc = rg__write_file_atomic(path, text, strlen(text));
    free(text);
    return rc;
}

/* ---- loading ---- */

#define BAD(...) rg__error(RG_ECORRUPT, __VA_ARGS__)

static int type_index(const rg__search *s, const json_t *j, unsigned *out)
{
    if (!json_is_string(j))
        return 0;
    const char *repr = json_string_value(j);
    for (unsigned i = 0; i < s->n_types; i++)
        if (strcmp(s->types[i].repr, repr) == 0) {
            *out = i;
            return 1;
        }
    return 0;
}

static int tr_index(int64_t m, int64_t d, int64_t b, unsigned *out)
{
    for (unsigned id = 0; id < SR_NTR; id++) {
        int64_t m2, d2, b2;
        rg__search_tr(id, &m2, &d2, &b2);
        if (m == m2 && d == d2 && b == b2) {
            *out = id;
            return 1;
        }
    }
    return 0;
}

static int get_i64(const json_t *o, const char *key, int64_t *out)
{
    json_t *j = json_object_get(o, key);
    if (!json_is_integer(j))
        return 0;
    *out = json_integer_value(j);
    return 1;
}

static int load_blocks(rg__search *s, const json_t *jb, size_t i)
{
    if (!json_is_array(jb) || json_array_size(jb) == 0 || json_array_size(jb) > SEARCH_BLOCKS_MAX)
        return BAD("search %zu: \"blocks\" must be an array of 1 to %d blocks", i, SEARCH_BLOCKS_MAX);
    size_t n = json_array_size(jb), total = 0;
    s->blocks = calloc(n, sizeof *s->blocks);
    if (!s->blocks)
        return rg__error(RG_ENOMEM, "out of memory");
    for (size_t k = 0; k < n; k++) {
        json_t *b = json_array_get(jb, k);
        int64_t base, size;
        if (!json_is_object(b) || !get_i64(b, "address", &base) || !get_i64(b, "size", &size) || base < 0 ||
            size <= 0)
            return BAD("search %zu, block %zu: needs a non-negative integer \"address\" and a positive \"size\"", i,
                       k);
        if ((uint64_t)size > SEARCH_MEMORY_MAX - total)
            return BAD("search %zu: its blocks cover more than %zu bytes", i, SEARCH_MEMORY_MAX);
        if (k && (uint64_t)base < s->blocks[k - 1].base + s->blocks[k - 1].size)
            return BAD("search %zu, block %zu: blocks must be ascending and must not overlap", i, k);
        if ((uint64_t)base > UINT64_MAX - (uint64_t)size)
            return BAD("search %zu, block %zu: the block ends past the address space", i, k);
        s->blocks[k] = (sr_block){.base = (uint64_t)base, .size = (size_t)size, .off = total};
        total += (size_t)size;
        s->n_blocks = k + 1;
    }
    s->total = total;
    s->snap = malloc(total);
    if (!s->snap)
        return rg__error(RG_ENOMEM, "out of memory");
    for (size_t k = 0; k < n; k++)
        if (!hex_decode(json_object_get(json_array_get(jb, k), "memory"), s->snap + s->blocks[k].off,
                        s->blocks[k].size))
            return BAD("search %zu, block %zu: \"memory\" must be %zu hex digits", i, k, 2 * s->blocks[k].size);
    return RG_OK;
}

static int load_bitmaps(rg__search *s, const json_t *arr, size_t i)
{
    if (!json_is_array(arr))
        return BAD("search %zu: \"bitmaps\" must be an array", i);
    size_t n = json_array_size(arr), words = rg__search_words(s);
    if (n > (size_t)s->n_types * SR_NTR)
        return BAD("search %zu: more bitmaps than (type, transform) pairs", i);
    s->planes = calloc(n ? n : 1, sizeof *s->planes);
    uint8_t *bytes = malloc(words ? words * 8 : 1);
    if (!s->planes || !bytes) {
        free(bytes);
        return rg__error(RG_ENOMEM, "out of memory");
    }
    int rc = RG_OK;
    for (size_t k = 0; k < n && rc == RG_OK; k++) {
        json_t *p = json_array_get(arr, k);
        unsigned type, tr;
        int64_t m, d, b;
        if (!json_is_object(p) || !type_index(s, json_object_get(p, "type"), &type)) {
            rc = BAD("search %zu, bitmap %zu: \"type\" must be one of the search's types", i, k);
            break;
        }
        if (!get_i64(p, "mult", &m) || !get_i64(p, "div", &d) || !get_i64(p, "bias", &b) || !tr_index(m, d, b, &tr)) {
            rc = BAD("search %zu, bitmap %zu: \"mult\", \"div\", \"bias\" are not a known transform", i, k);
            break;
        }
        for (size_t q = 0; q < k; q++)
            if (s->planes[q].type == type && s->planes[q].tr == tr)
                rc = BAD("search %zu, bitmap %zu: a second bitmap of the same type and transform", i, k);
        if (rc != RG_OK)
            break;
        memset(bytes, 0, words * 8);
        if (!hex_decode(json_object_get(p, "bits"), bytes, (s->total + 7) / 8)) {
            rc = BAD("search %zu, bitmap %zu: \"bits\" must be %zu hex digits", i, k, 2 * ((s->total + 7) / 8));
            break;
        }
        uint64_t *bits = calloc(words ? words : 1, sizeof *bits);
        if (!bits) {
            rc = rg__error(RG_ENOMEM, "out of memory");
            break;
        }
        s->planes[k] = (sr_plane){.type = (uint16_t)type, .tr = (uint8_t)tr, .bits = bits, .count = 0};
        s->n_planes = k + 1;
        for (size_t w = 0; w < words; w++)
            for (unsigned q = 0; q < 8; q++)
                bits[w] |= (uint64_t)bytes[w * 8 + q] << (8 * q);
        for (size_t w = 0; w < words && rc == RG_OK; w++) {
            uint64_t m2 = bits[w];
            while (m2) {
                unsigned bit = (unsigned)__builtin_ctzll(m2);
                m2 &= m2 - 1;
                if (!rg__search_window_ok(s, (uint64_t)w * 64 + bit, s->types[type].width)) {
                    rc = BAD("search %zu, bitmap %zu: bit %llu marks a %s that does not fit in its block", i, k,
                             (unsigned long long)(w * 64 + bit), s->types[type].repr);
                    break;
                }
            }
        }
    }
    free(bytes);
    if (rc != RG_OK)
        return rc;
    /* settle: counts, order, no empty bitmaps */
    size_t keep = 0;
    for (size_t k = 0; k < s->n_planes; k++) {
        uint64_t c = 0;
        for (size_t w = 0; w < words; w++)
            c += (uint64_t)__builtin_popcountll(s->planes[k].bits[w]);
        s->planes[k].count = c;
        if (c)
            s->planes[keep++] = s->planes[k];
        else
            free(s->planes[k].bits);
    }
    s->n_planes = keep;
    for (size_t a = 1; a < keep; a++) /* insertion sort by (tr, type) */
        for (size_t b = a; b > 0; b--) {
            sr_plane *x = &s->planes[b - 1], *y = &s->planes[b];
            if (x->tr < y->tr || (x->tr == y->tr && x->type < y->type))
                break;
            sr_plane t = *x;
            *x = *y;
            *y = t;
        }
    return RG_OK;
}

static int hit_less(const sr_hit *a, const sr_hit *b)
{
    if (a->off != b->off)
        return a->off < b->off;
    if (a->tr != b->tr)
        return a->tr < b->tr;
    return a->type < b->type;
}

static int load_list(rg__search *s, const json_t *arr, size_t i)
{
    if (!json_is_array(arr))
        return BAD("search %zu: \"results\" must be an array", i);
    size_t n = json_array_size(arr);
    s->hits = malloc((n ? n : 1) * sizeof *s->hits);
    if (!s->hits)
        return rg__error(RG_ENOMEM, "out of memory");
    for (size_t k = 0; k < n; k++) {
        json_t *r = json_array_get(arr, k);
        unsigned type, tr;
        if (!json_is_array(r) || json_array_size(r) != 5 || !json_is_integer(json_array_get(r, 0)) ||
            !json_is_integer(json_array_get(r, 2)) || !json_is_integer(json_array_get(r, 3)) ||
            !json_is_integer(json_array_get(r, 4)))
            return BAD("search %zu, result %zu: must be [address, type, mult, div, bias]", i, k);
        if (!type_index(s, json_array_get(r, 1), &type))
            return BAD("search %zu, result %zu: the type is not one of the search's types", i, k);
        if (!tr_index(json_integer_value(json_array_get(r, 2)), json_integer_value(json_array_get(r, 3)),
                      json_integer_value(json_array_get(r, 4)), &tr))
            return BAD("search %zu, result %zu: mult, div, bias are not a known transform", i, k);
        uint64_t addr = (uint64_t)json_integer_value(json_array_get(r, 0));
        size_t bi = 0;
        int found = 0;
        for (bi = 0; bi < s->n_blocks; bi++)
            if (addr >= s->blocks[bi].base && addr - s->blocks[bi].base < s->blocks[bi].size) {
                found = 1;
                break;
            }
        if (!found)
            return BAD("search %zu, result %zu: address %llu is in none of the blocks", i, k,
                       (unsigned long long)addr);
        uint64_t off = s->blocks[bi].off + (addr - s->blocks[bi].base);
        if (!rg__search_window_ok(s, off, s->types[type].width))
            return BAD("search %zu, result %zu: a %s at %llu does not fit in its block", i, k, s->types[type].repr,
                       (unsigned long long)addr);
        sr_hit h = {.off = off, .type = (uint16_t)type, .tr = (uint8_t)tr};
        if (k && !hit_less(&s->hits[k - 1], &h))
            return BAD("search %zu, result %zu: results must be in order (address, transform, type), each once", i,
                       k);
        s->hits[k] = h;
        s->n_hits = k + 1;
    }
    return RG_OK;
}

static int load_search(const json_t *o, size_t i, rg__search **out)
{
    if (!json_is_object(o))
        return BAD("search %zu is not an object", i);
    json_t *jname = json_object_get(o, "name"), *jtypes = json_object_get(o, "types");
    if (!json_is_string(jname) || json_string_length(jname) == 0 || json_string_length(jname) > RG_SEARCH_NAME_MAX ||
        strlen(json_string_value(jname)) != json_string_length(jname))
        return BAD("search %zu: \"name\" must be a string of 1 to %d characters", i, RG_SEARCH_NAME_MAX);
    if (!json_is_array(jtypes) || json_array_size(jtypes) == 0 || json_array_size(jtypes) > SR_MAX_TYPES)
        return BAD("search %zu: \"types\" must be an array of 1 to %d types", i, SR_MAX_TYPES);
    int64_t rounds;
    if (!get_i64(o, "rounds", &rounds) || rounds < 1 || rounds > UINT32_MAX)
        return BAD("search %zu: \"rounds\" must be a positive integer", i);
    const char *state = json_string_value(json_object_get(o, "state"));
    int mode = !state ? -1
               : strcmp(state, "all") == 0     ? SR_ALL
               : strcmp(state, "bitmaps") == 0 ? SR_DENSE
               : strcmp(state, "list") == 0    ? SR_SPARSE
                                               : -1;
    if (mode < 0)
        return BAD("search %zu: \"state\" must be \"all\", \"bitmaps\" or \"list\"", i);
    rg__search *s = calloc(1, sizeof *s);
    int rc = RG_OK;
    if (!s)
        return rg__error(RG_ENOMEM, "out of memory");
    s->name = rg__strdup(json_string_value(jname), &rc);
    s->rounds = (unsigned)rounds;
    s->mode = mode;
    for (size_t k = 0; k < json_array_size(jtypes) && rc == RG_OK; k++) {
        const char *d = json_string_value(json_array_get(jtypes, k));
        if (!d || rg_datatype_parse(d, &s->types[k]) != RG_OK)
            rc = BAD("search %zu, type %zu: not a data type", i, k);
        for (size_t q = 0; q < k && rc == RG_OK; q++)
            if (strcmp(s->types[q].repr, s->types[k].repr) == 0)
                rc = BAD("search %zu, type %zu: \"%s\" is listed twice", i, k, d);
        s->n_types = k + 1;
    }
    if (rc == RG_OK)
        rc = load_blocks(s, json_object_get(o, "blocks"), i);
    if (rc == RG_OK && mode == SR_DENSE)
        rc = load_bitmaps(s, json_object_get(o, "bitmaps"), i);
    if (rc == RG_OK && mode == SR_SPARSE)
        rc = load_list(s, json_object_get(o, "results"), i);
    if (rc != RG_OK) {
        rg__search_free(s);
        return rc;
    }
    *out = s;
    return RG_OK;
}

int rg_searchset_load_string(rg_searchset *set, const char *json, size_t len)
{
    if (!set || (!json && len))
        return rg__error(RG_EINVAL, "rg_searchset_load_string: NULL argument");
    if (len > SEARCH_FILE_MAX)
        return rg__error(RG_ETOOBIG, "saved searches over %zu bytes", SEARCH_FILE_MAX);
    json_t *root;
    int rc = rg__json_parse(json, len, &root, "the saved-search file");
    if (rc != RG_OK)
        return rc;
    json_t *arr = json_object_get(root, "searches");
    int64_t version;
    const char *format = json_string_value(json_object_get(root, "format"));
    if (!format || strcmp(format, FORMAT_NAME) != 0)
        rc = BAD("not saved searches: \"format\" must be \"" FORMAT_NAME "\"");
    else if (!get_i64(root, "version", &version) || version != 1)
        rc = BAD("saved searches: unknown \"version\" (this library reads version 1)");
    else if (!json_is_array(arr) || json_array_size(arr) > SEARCHES_MAX)
        rc = BAD("saved searches: \"searches\" must be an array of at most %d searches", SEARCHES_MAX);
    size_t n = rc == RG_OK ? json_array_size(arr) : 0;
    rg__search **list = rc == RG_OK ? calloc(n ? n : 1, sizeof *list) : NULL;
    if (rc == RG_OK && !list)
        rc = rg__error(RG_ENOMEM, "out of memory");
    size_t done = 0;
    for (; done < n && rc == RG_OK; done++) {
        rc = load_search(json_array_get(arr, done), done, &list[done]);
        for (size_t q = 0; q < done && rc == RG_OK; q++)
            if (strcmp(list[q]->name, list[done]->name) == 0) {
                rc = BAD("search %zu: a second search named \"%s\"", done, list[done]->name);
                rg__search_free(list[done]);
            }
        if (rc != RG_OK)
            break;
    }
    json_decref(root);
    if (rc != RG_OK) {
        for (size_t q = 0; q < done; q++)
            rg__search_free(list[q]);
        free(list);
        return rc;
    }
    rg__searchset_replace(set, list, n);
    return RG_OK;
}

int rg_searchset_load_file(rg_searchset *set, const char *path)
{
    if (!set || !path)
        return rg__error(RG_EINVAL, "rg_searchset_load_file: NULL argument");
    uint8_t *data;
    size_t size;
    int rc = rg__read_file(path, SEARCH_FILE_MAX, &data, &size);
    if (rc != RG_OK)
        return rc;
    rc = rg_searchset_load_string(set, (const char *)data, size);
    free(data);
    return rc == RG_OK ? RG_OK : rg__error_context(rc, "%s", path);
}

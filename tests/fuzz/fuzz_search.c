/* Fuzz target "search": saved memory searches (rg_searchset_load_string, docs/search.md "Saved searches").
 * A file that loads must save back to text that loads again into the same text; every search's results, count,
 * unique result and types must agree; a value round and a delta round over a small bound memory either work or fail
 * cleanly (a different address space), and a failed load leaves the set as it was. */
#include "fuzz.h"

#include <retrogym/error.h>
#include <retrogym/gamedata.h>
#include <retrogym/search.h>

#include <stdlib.h>
#include <string.h>

static uint8_t memory[64];

static void check_search(const rg_searchset *set, const char *name)
{
    uint64_t count;
    FUZZ_CHECK(rg_search_result_count(set, name, &count) == RG_OK);
    enum { CAP = 512 };
    static rg_search_result res[CAP];
    size_t n;
    FUZZ_CHECK(rg_search_results(set, name, 0, res, CAP, &n) == RG_OK);
    FUZZ_CHECK(n == (count < CAP ? count : CAP));
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(res[i].mult >= 1 && res[i].div >= 1);
        FUZZ_CHECK(res[i].type.width >= 1 && res[i].type.width <= 8);
        if (i)
            FUZZ_CHECK(res[i].address >= res[i - 1].address);
    }
    int unique;
    rg_search_result first;
    FUZZ_CHECK(rg_search_unique(set, name, &unique, &first) == RG_OK);
    if (count)
        FUZZ_CHECK(first.address == res[0].address && strcmp(first.type.repr, res[0].type.repr) == 0);
    else
        FUZZ_CHECK(!unique);
    const char *types[64];
    size_t nt;
    FUZZ_CHECK(rg_search_types(set, name, types, 64, &nt) == RG_OK);
    FUZZ_CHECK(nt <= 64 && (count == 0) == (nt == 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rg_searchset *set;
    FUZZ_CHECK(rg_searchset_create(&set) == RG_OK);
    rg_gamedata *gd;
    FUZZ_CHECK(rg_gamedata_create(&gd) == RG_OK);
    for (unsigned i = 0; i < sizeof memory; i++)
        memory[i] = (uint8_t)(i * 37u);
    rg_mem_block b = {256, sizeof memory, memory};
    FUZZ_CHECK(rg_gamedata_bind_blocks(gd, &b, 1, 1) == RG_OK);
    FUZZ_CHECK(rg_search_value(set, "before", gd, 37) == RG_OK);
    char *before;
    FUZZ_CHECK(rg_searchset_save_string(set, &before) == RG_OK);

    int rc = rg_searchset_load_string(set, (const char *)data, size);
    fuzz_note("load: %d %s", rc, rc ? rg_error_last() : "");
    if (rc != RG_OK) {
        char *after;
        FUZZ_CHECK(rg_searchset_save_string(set, &after) == RG_OK);
        FUZZ_CHECK(strcmp(before, after) == 0); /* nothing half-loaded */
        free(after);
    } else {
        char *text;
        FUZZ_CHECK(rg_searchset_save_string(set, &text) == RG_OK);
        rg_searchset *again;
        FUZZ_CHECK(rg_searchset_create(&again) == RG_OK);
        FUZZ_CHECK(rg_searchset_load_string(again, text, strlen(text)) == RG_OK);
        char *text2;
        FUZZ_CHECK(rg_searchset_save_string(again, &text2) == RG_OK);
        FUZZ_CHECK(strcmp(text, text2) == 0);
        free(text);
        free(text2);
        rg_searchset_free(again);
        size_t n = rg_searchset_count(set);
        for (size_t i = 0; i < n; i++) {
            const char *name = rg_searchset_name_at(set, i);
            check_search(set, name);
            memory[i % sizeof memory] ^= 1;
            rc = rg_search_value(set, name, gd, 37);
            FUZZ_CHECK(rc == RG_OK || rc == RG_EMISUSE);
            rc = rg_search_delta(set, name, gd, RG_OP_NOT_EQUAL, 0);
            FUZZ_CHECK(rc == RG_OK || rc == RG_EMISUSE);
            check_search(set, name);
        }
    }
    free(before);
    rg_gamedata_free(gd);
    rg_searchset_free(set);
    return 0;
}

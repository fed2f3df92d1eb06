/* Gzip state files: round trip, and every bad-input path gives its error without over-allocating. */
#include "test_support.h"

#include "emu/state_file.h"

#include <stdlib.h>
#include <string.h>

static uint8_t *pattern(size_t n)
{
    uint8_t *p = malloc(n);
    assert_non_null(p);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(i * 7 + (i >> 9));
    return p;
}

static void round_trip(void **state)
{
    (void)state;
    uint8_t *raw = pattern(100000);
    uint8_t *gz, *back;
    size_t gz_size, back_size;
    assert_int_equal(rg__gzip_compress(raw, 100000, &gz, &gz_size), RG_OK);
    assert_true(rg__is_gzip(gz, gz_size));
    assert_int_equal(rg__gzip_decompress(gz, gz_size, 100000, &back, &back_size), RG_OK);
    assert_int_equal(back_size, 100000);
    assert_memory_equal(back, raw, 100000);
    free(raw), free(gz), free(back);
}

static void corrupt_truncated_trailing(void **state)
{
    (void)state;
    uint8_t *raw = pattern(50000);
    uint8_t *gz, *out;
    size_t gz_size, out_size;
    assert_int_equal(rg__gzip_compress(raw, 50000, &gz, &gz_size), RG_OK);
    /* truncated */
    assert_int_equal(rg__gzip_decompress(gz, gz_size / 2, 50000, &out, &out_size), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "truncated"));
    assert_null(out);
    /* a flipped byte in the deflate stream or the CRC */
    uint8_t *bad = malloc(gz_size + 3);
    memcpy(bad, gz, gz_size);
    bad[gz_size - 6] ^= 0xFF;
    assert_int_equal(rg__gzip_decompress(bad, gz_size, 50000, &out, &out_size), RG_ECORRUPT);
    /* trailing garbage */
    memcpy(bad, gz, gz_size);
    memcpy(bad + gz_size, "xyz", 3);
    assert_int_equal(rg__gzip_decompress(bad, gz_size + 3, 50000, &out, &out_size), RG_ECORRUPT);
    assert_non_null(strstr(rg_error_last(), "unexpected"));
    /* not gzip at all */
    assert_false(rg__is_gzip((const uint8_t *)"plain", 5));
    assert_int_equal(rg__gzip_decompress((const uint8_t *)"plain", 5, 100, &out, &out_size), RG_ECORRUPT);
    free(raw), free(gz), free(bad);
}

/* 64 MiB of zeros compress to ~64 KiB; with a 1 MiB limit the decompressor stops at the limit. */
static void bomb_is_refused(void **state)
{
    (void)state;
    size_t n = 64u << 20;
    uint8_t *zeros = calloc(n, 1);
    assert_non_null(zeros);
    uint8_t *gz, *out;
    size_t gz_size, out_size;
    assert_int_equal(rg__gzip_compress(zeros, n, &gz, &gz_size), RG_OK);
    free(zeros);
    assert_true(gz_size < (1u << 20));
    assert_int_equal(rg__gzip_decompress(gz, gz_size, 1u << 20, &out, &out_size), RG_ETOOBIG);
    assert_null(out);
    /* exactly at the limit is fine */
    uint8_t *small = calloc(1000, 1), *gz2;
    size_t gz2_size;
    assert_int_equal(rg__gzip_compress(small, 1000, &gz2, &gz2_size), RG_OK);
    assert_int_equal(rg__gzip_decompress(gz2, gz2_size, 1000, &out, &out_size), RG_OK);
    assert_int_equal(out_size, 1000);
    free(out);
    assert_int_equal(rg__gzip_decompress(gz2, gz2_size, 999, &out, &out_size), RG_ETOOBIG);
    free(gz), free(small), free(gz2), free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(corrupt_truncated_trailing),
        cmocka_unit_test(bomb_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

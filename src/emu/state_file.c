#include "state_file.h"

#include "base/base.h"

#include <stdlib.h>
#include <zlib.h>

int rg__is_gzip(const uint8_t *data, size_t size)
{
    return size >= 2 && data[0] == 0x1F && data[1] == 0x8B;
}

int rg__gzip_compress(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    z_stream zs = {0};
    /* windowBits 15 + 16: a gzip wrapper rather than zlib's. */
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return rg__error(RG_ENOMEM, "cannot start the gzip compressor");
    uLong bound = deflateBound(&zs, (uLong)size);
    uint8_t *buf = malloc(bound);
    if (!buf) {
        deflateEnd(&zs);
        return rg__error(RG_ENOMEM, "out of memory compressing %zu bytes", size);
    }
    zs.next_in = (Bytef *)data;
    zs.avail_in = (uInt)size;
    zs.next_out = buf;
    zs.avail_out = (uInt)bound;
    int zrc = deflate(&zs, Z_FINISH);
    size_t produced = zs.total_out;
    deflateEnd(&zs);
    if (zrc != Z_STREAM_END) {
        free(buf);
        return rg__error(RG_EIO, "gzip compression failed (%d)", zrc);
    }
    *out = buf;
    *out_size = produced;
    return RG_OK;
}

int rg__gzip_decompress(const uint8_t *data, size_t size, size_t max_out, uint8_t **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    z_stream zs = {0};
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        return rg__error(RG_ENOMEM, "cannot start the gzip decompressor");
    size_t cap = max_out + 1; /* one spare byte tells "exactly max_out" from "more" */
    uint8_t *buf = malloc(cap);
    if (!buf) {
        inflateEnd(&zs);
        return rg__error(RG_ENOMEM, "out of memory decompressing");
    }
    zs.next_in = (Bytef *)data;
    zs.avail_in = (uInt)size;
    zs.next_out = buf;
    zs.avail_out = (uInt)cap;
    int zrc = inflate(&zs, Z_FINISH);
    size_t produced = zs.total_out;
    size_t left = zs.avail_in;
    uInt room = zs.avail_out;
    const char *why = zs.msg ? zs.msg : "inflate error";
    inflateEnd(&zs);
    int rc = RG_OK;
    if (zrc == Z_STREAM_END && left != 0)
        rc = rg__error(RG_ECORRUPT, "gzip data is followed by %zu unexpected bytes", left);
    else if (zrc == Z_STREAM_END && produced > max_out)
        rc = rg__error(RG_ETOOBIG, "gzip data expands past the limit of %zu bytes", max_out);
    else if (zrc == Z_BUF_ERROR && room == 0)
        rc = rg__error(RG_ETOOBIG, "gzip data expands past the limit of %zu bytes", max_out);
    else if (zrc == Z_BUF_ERROR)
        rc = rg__error(RG_ECORRUPT, "gzip data is truncated");
    else if (zrc != Z_STREAM_END)
        rc = rg__error(RG_ECORRUPT, "gzip data is corrupt (%s)", why);
    if (rc != RG_OK) {
        free(buf);
        return rc;
    }
    *out = buf;
    *out_size = produced;
    return RG_OK;
}

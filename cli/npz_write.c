/* NumPy .npz files: a zip (libzip) of uncompressed .npy arrays, format 1.0, as numpy.savez writes them. Each array
 * is streamed into a temporary file while the movie plays (observations do not have to fit in memory), then the
 * files become the zip's entries. */
#define _POSIX_C_SOURCE 200809L
#include "cli_movie.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#define MAX_ARRAYS 16

struct cli_npy {
    char name[64];
    char file[4200];
    FILE *f;
    uint64_t want, have; /* data bytes */
};

struct cli_npz {
    char *path;
    char dir[4096];
    cli_npy arrays[MAX_ARRAYS];
    unsigned n;
};

int cli_npz_open(cli_npz **out, const char *path)
{
    *out = NULL;
    cli_npz *z = calloc(1, sizeof *z);
    if (!z || !(z->path = strdup(path))) {
        free(z);
        return cli_fail("out of memory");
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(z->dir, sizeof z->dir, "%s/retrogym-npz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(z->dir)) {
        int rc = cli_fail("--npz: cannot create a temporary folder: %s", strerror(errno));
        free(z->path);
        free(z);
        return rc;
    }
    *out = z;
    return 0;
}

/* The .npy v1.0 preamble: magic, version, header length, then the dict padded with spaces and a line feed so the
 * data starts at a multiple of 64 bytes. */
static size_t npy_header(char *out, size_t cap, const char *dtype, const uint64_t *shape, unsigned ndim)
{
    char dict[512], dims[256] = "";
    size_t used = 0;
    for (unsigned i = 0; i < ndim; i++)
        used += (size_t)snprintf(dims + used, sizeof dims - used, "%llu%s", (unsigned long long)shape[i],
                                 ndim == 1 ? "," : i + 1 < ndim ? ", " : "");
    int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", dtype, dims);
    size_t total = 10 + (size_t)len + 1;
    size_t padded = (total + 63) / 64 * 64;
    if (padded > cap || padded - 10 > 0xFFFF)
        return 0;
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (char)((padded - 10) & 0xFF);
    out[9] = (char)((padded - 10) >> 8);
    memcpy(out + 10, dict, (size_t)len);
    memset(out + 10 + len, ' ', padded - total);
    out[padded - 1] = '\n';
    return padded;
}

static size_t dtype_size(const char *dtype)
{
    return (size_t)atoi(dtype + 2);
}

int cli_npz_array(cli_npz *z, const char *name, const char *dtype, const uint64_t *shape, unsigned ndim,
                  cli_npy **out)
{
    if (z->n == MAX_ARRAYS)
        return cli_fail("--npz: too many arrays");
    cli_npy *a = &z->arrays[z->n];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s.npy", name);
    snprintf(a->file, sizeof a->file, "%s/%s.npy", z->dir, name);
    a->want = dtype_size(dtype);
    for (unsigned i = 0; i < ndim; i++)
        a->want *= shape[i];
    char header[1024];
    size_t hlen = npy_header(header, sizeof header, dtype, shape, ndim);
    if (!hlen)
        return cli_fail("--npz: array %s has too many dimensions", name);
    if (!(a->f = fopen(a->file, "wb")) || fwrite(header, 1, hlen, a->f) != hlen)
        return cli_fail("--npz: cannot write the temporary file %s: %s", a->file, strerror(errno));
    z->n++;
    *out = a;
    return 0;
}

int cli_npy_write(cli_npy *a, const void *data, size_t size)
{
    if (a->have + size > a->want)
        return cli_fail("--npz: more data than the shape of %s holds", a->name);
    if (size && fwrite(data, 1, size, a->f) != size)
        return cli_fail("--npz: cannot write the temporary file %s: %s", a->file, strerror(errno));
    a->have += size;
    return 0;
}

static void remove_files(cli_npz *z)
{
    for (unsigned i = 0; i < z->n; i++) {
        if (z->arrays[i].f)
            fclose(z->arrays[i].f);
        z->arrays[i].f = NULL;
        unlink(z->arrays[i].file);
    }
    rmdir(z->dir);
}

int cli_npz_finish(cli_npz *z)
{
    int rc = 0;
    for (unsigned i = 0; rc == 0 && i < z->n; i++) {
        cli_npy *a = &z->arrays[i];
        if (a->have != a->want)
            rc = cli_fail("--npz: %s holds %llu of its %llu bytes", a->name, (unsigned long long)a->have,
                          (unsigned long long)a->want);
        else if (fclose(a->f) != 0)
            rc = cli_fail("--npz: cannot write the temporary file %s", a->file);
        a->f = NULL;
    }
    zip_t *za = NULL;
    int err = 0;
    if (rc == 0 && !(za = zip_open(z->path, ZIP_CREATE | ZIP_TRUNCATE, &err))) {
        zip_error_t ze;
        zip_error_init_with_code(&ze, err);
        rc = cli_fail("--npz: cannot create %s: %s", z->path, zip_error_strerror(&ze));
        zip_error_fini(&ze);
    }
    for (unsigned i = 0; rc == 0 && i < z->n; i++) {
        zip_source_t *src = zip_source_file(za, z->arrays[i].file, 0, -1);
        zip_int64_t idx = src ? zip_file_add(za, z->arrays[i].name, src, ZIP_FL_ENC_UTF_8) : -1;
        if (idx < 0) {
            zip_source_free(src);
            rc = cli_fail("--npz: %s: %s", z->path, zip_strerror(za));
        } else {
            zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_STORE, 0); /* as numpy.savez */
        }
    }
    if (za && rc == 0 && zip_close(za) != 0)
        rc = cli_fail("--npz: cannot write %s: %s", z->path, zip_strerror(za));
    if (za && rc != 0)
        zip_discard(za);
    remove_files(z);
    free(z->path);
    free(z);
    return rc;
}

void cli_npz_abort(cli_npz *z)
{
    if (!z)
        return;
    remove_files(z);
    free(z->path);
    free(z);
}

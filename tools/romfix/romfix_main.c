/* romfix KIND FILE        patch the header checksum fields of FILE in place
 * romfix --check KIND FILE exit 0 when FILE already carries correct checksums, 1 when not */
#include "romfix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: romfix [--check] gb|gbc|gba|sms|gg|snes|md FILE\n");
    return 2;
}

int main(int argc, char **argv)
{
    int check = argc > 1 && strcmp(argv[1], "--check") == 0;
    if (argc != 3 + check)
        return usage();
    romfix_kind kind;
    if (romfix_parse_kind(argv[1 + check], &kind) != 0)
        return usage();
    const char *path = argv[2 + check];
    FILE *f = fopen(path, check ? "rb" : "r+b");
    if (!f) {
        perror(path);
        return 1;
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        perror(path);
        fclose(f);
        return 1;
    }
    long size = ftell(f);
    if (size <= 0 || size > (64L << 20)) {
        fprintf(stderr, "%s: unsupported size %ld\n", path, size);
        fclose(f);
        return 1;
    }
    rewind(f);
    unsigned char *buf = malloc((size_t)size);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "%s: read failed\n", path);
        free(buf);
        fclose(f);
        return 1;
    }
    const char *why = NULL;
    int rc;
    if (check) {
        rc = romfix_check(kind, buf, (size_t)size, &why);
        if (rc < 0)
            fprintf(stderr, "%s: %s\n", path, why);
        rc = rc == 1 ? 0 : 1;
    } else {
        rc = romfix_apply(kind, buf, (size_t)size, &why);
        if (rc != 0) {
            fprintf(stderr, "%s: %s\n", path, why);
            rc = 1;
        } else {
            rewind(f);
            if (fwrite(buf, 1, (size_t)size, f) != (size_t)size) {
                perror(path);
                rc = 1;
            }
        }
    }
    free(buf);
    if (fclose(f) != 0 && rc == 0) {
        perror(path);
        rc = 1;
    }
    return rc;
}

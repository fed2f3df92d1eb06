/* The regression mode of a fuzz target (no libFuzzer): runs LLVMFuzzerTestOneInput once on every file of the
 * folders (or files) named on the command line, in name order. A folder that does not exist is skipped (the
 * crashes/<target> folder exists only once something was found); no input at all is a failure, so a test with an
 * empty corpus cannot pass. A crash, a sanitizer report or a failed invariant ends the process with the file name
 * printed before it ran. */
#define _XOPEN_SOURCE 700
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + size, 1, cap - size, f)) > 0) {
        size += n;
        if (size == cap) {
            uint8_t *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "out of memory reading %s\n", path);
        return -1;
    }
    fprintf(stderr, "running %s (%zu bytes)\n", path, size);
    /* An exact-size copy, so ASan sees a read past the input's end. */
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, size);
    free(buf);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs the files of a folder in name order; returns how many ran, or -1 on an error. */
static long run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                abort();
            names = grown;
        }
        if (!(names[n++] = strdup(e->d_name)))
            abort();
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    long ran = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(path) != 0)
                ran = -1;
            else if (ran >= 0)
                ran++;
        }
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    long total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        long ran = stat(argv[i], &st) == 0 && S_ISREG(st.st_mode) ? (run_file(argv[i]) == 0 ? 1 : -1)
                                                                   : run_dir(argv[i]);
        if (ran < 0) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 1;
        }
        total += ran;
    }
    if (total == 0) {
        fprintf(stderr, "no inputs found\n");
        return 1;
    }
    printf("%ld inputs ran\n", total);
    return 0;
}

#define _GNU_SOURCE
#include "soak_proc.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return -1;
    long size, resident;
    int ok = fscanf(f, "%ld %ld", &size, &resident) == 2;
    fclose(f);
    return ok ? resident * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the descriptor of the listing itself */
}

static int threads(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    int n = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &n) == 1)
            break;
    fclose(f);
    return n;
}

/* Every mapping, and those whose file lies under tmpdir (a core copy is unlinked after dlopen: "... (deleted)"). */
static void count_maps(const char *tmpdir, int *all, int *cores)
{
    *all = *cores = -1;
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return;
    size_t tlen = strlen(tmpdir);
    char line[4096];
    int n = 0, c = 0, at_line_start = 1;
    while (fgets(line, sizeof line, f)) {
        if (at_line_start) {
            n++;
            const char *path = strchr(line, '/');
            c += path && strncmp(path, tmpdir, tlen) == 0 && path[tlen] == '/';
        }
        at_line_start = strchr(line, '\n') != NULL;
    }
    fclose(f);
    *all = n;
    *cores = c;
}

static int tree_entries;

static int count_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)path, (void)st, (void)type;
    tree_entries += ftw->level > 0;
    return 0;
}

int soak_count_tree(const char *path)
{
    tree_entries = 0;
    return nftw(path, count_entry, 16, FTW_PHYS) == 0 ? tree_entries : -1;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (type == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void soak_remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void soak_measure(soak_figures *f, const char *tmpdir)
{
    f->rss_kib = rss_kib();
    struct mallinfo2 mi = mallinfo2();
    f->heap_kib = (long)((mi.uordblks + mi.hblkhd) / 1024);
    f->fds = count_fds();
    count_maps(tmpdir, &f->maps, &f->core_maps);
    f->threads = threads();
    f->tmp = soak_count_tree(tmpdir);
}

FILE *soak_report;

void soak_quiet_stdout(void)
{
    fflush(stdout);
    int keep = dup(1), null = open("/dev/null", O_WRONLY);
    if (keep < 0 || null < 0 || dup2(null, 1) < 0 || !(soak_report = fdopen(keep, "w"))) {
        soak_report = stdout;
        return;
    }
    close(null);
    setvbuf(soak_report, NULL, _IOLBF, 0);
}

/* The process figures the soak watches: resident memory, descriptors, mappings, threads, temporary entries. */
#ifndef RG_SOAK_PROC_H
#define RG_SOAK_PROC_H

typedef struct soak_figures {
    long rss_kib;   /* resident set (/proc/self/statm) */
    long heap_kib;  /* bytes allocated through malloc and not freed (mallinfo2: every arena, mmapped chunks) */
    int fds;        /* entries of /proc/self/fd */
    int maps;       /* lines of /proc/self/maps */
    int core_maps;  /* mappings of files under the private TMPDIR: the cores' private copies */
    int threads;    /* Threads: of /proc/self/status */
    int tmp;        /* entries under the private TMPDIR, counted recursively */
} soak_figures;

/* Fills every figure; tmpdir is the private TMPDIR of the run. Fields that cannot be read are -1. */
void soak_measure(soak_figures *f, const char *tmpdir);

/* Entries below path, recursively (the folder itself not counted); -1 when it cannot be read. */
int soak_count_tree(const char *path);

/* Where the soak's report goes: the original standard output. soak_quiet_stdout points descriptor 1 at /dev/null
 * (cores print to stdout) and soak_report at a copy of the original. */
#include <stdio.h>
extern FILE *soak_report;
void soak_quiet_stdout(void);

/* Removes a folder and everything under it (best effort). */
void soak_remove_tree(const char *path);

#endif

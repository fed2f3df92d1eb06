/* A core's built-in game database, written out as the file the core looks for first.
 *
 * nestopia (1.4x-1.52, Debian's 1.52 among them) reads NstDatabase.xml from the system folder when there is one;
 * without it, every retro_load_game parses the copy compiled into the core through a stream it allocates and never
 * frees: ~970 KiB of heap per load, never given back while the process lives (measured, docs/reliability.md). Each
 * environment created and each power-on reset loads the game, so a create/close loop grew without bound. Reusing
 * a loaded copy does not help: the allocation is per retro_load_game, not per dlopen.
 *
 * So before the game loads, the database the loaded core carries (the same bytes it would parse) is written to the
 * instance's private system folder, where the core finds it, reads it through a stream it does free, and behaves as
 * with its built-in copy. Best effort: a core without such a database, or a system folder the caller chose (never
 * written to), keeps the core's own behaviour and its leak. */
#define _GNU_SOURCE
#include "lr_internal.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct db_search {
    uintptr_t base;          /* load address of the core's copy */
    const char *start;       /* the database found: start[0..len) */
    size_t len;
} db_search;

/* The XML document "<?xml ...?>" whose root is <database ...>, up to its closing tag and the line end after it,
 * inside [p, p + n); all text (no NUL byte inside). */
static void find_database(db_search *s, const char *p, size_t n)
{
    static const char head[] = "<?xml", root[] = "<database", tail[] = "</database>";
    const char *end = p + n;
    for (const char *q = p; q && q < end && !s->start;) {
        q = memmem(q, (size_t)(end - q), head, sizeof head - 1);
        if (!q)
            return;
        const char *decl_end = memchr(q, '>', (size_t)(end - q) < 128 ? (size_t)(end - q) : 128);
        const char *r = decl_end ? decl_end + 1 : NULL;
        while (r && r < end && (*r == '\n' || *r == '\r' || *r == ' ' || *r == '\t'))
            r++;
        if (r && (size_t)(end - r) >= sizeof root - 1 && memcmp(r, root, sizeof root - 1) == 0) {
            const char *t = memmem(r, (size_t)(end - r), tail, sizeof tail - 1);
            if (t) {
                const char *stop = t + sizeof tail - 1;
                if (stop < end && *stop == '\n')
                    stop++;
                if (!memchr(q, '\0', (size_t)(stop - q))) {
                    s->start = q;
                    s->len = (size_t)(stop - q);
                    return;
                }
            }
        }
        q++;
    }
}

/* Scans the loaded segments of the one object whose load address is s->base (data and read-only data; not code). */
static int scan_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    db_search *s = arg;
    if ((uintptr_t)info->dlpi_addr != s->base)
        return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum && !s->start; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_X) || ph->p_filesz == 0)
            continue;
        find_database(s, (const char *)(info->dlpi_addr + ph->p_vaddr), ph->p_filesz);
    }
    return 1;
}

/* Whether the system folder is the instance's own (inside its private folder), not one the caller gave. */
static bool own_system_dir(const rg__lr *lr)
{
    size_t n = lr->tmp_dir ? strlen(lr->tmp_dir) : 0;
    return n && lr->system_dir && strncmp(lr->system_dir, lr->tmp_dir, n) == 0 && lr->system_dir[n] == '/';
}

void rg__lr_write_game_db(rg__lr *lr)
{
    if (strcmp(lr->library_name, "Nestopia") != 0 || !own_system_dir(lr))
        return;
    char *path = rg__asprintf("%s/NstDatabase.xml", lr->system_dir);
    if (!path)
        return;
    struct stat st;
    if (stat(path, &st) == 0) { /* written for an earlier load of this instance (a power-on reset) */
        free(path);
        return;
    }
    struct link_map *map = NULL;
    db_search s = {0, NULL, 0};
    if (dlinfo(lr->api.dl, RTLD_DI_LINKMAP, &map) == 0 && map) {
        s.base = (uintptr_t)map->l_addr;
        dl_iterate_phdr(scan_object, &s);
    }
    if (!s.start)
        rg__log(&lr->io->log, RG_LOG_DEBUG, "[%s] no built-in game database found in the core; it parses its own "
                "(and keeps ~1 MB per load)", lr->name);
    else if (rg__write_file_atomic(path, s.start, s.len) != RG_OK)
        rg__log(&lr->io->log, RG_LOG_DEBUG, "[%s] cannot write its game database to %s: %s", lr->name, path,
                rg_error_last());
    free(path);
}

/* The library's own folders (its libretro cores, its integrations), found relative to the file that holds the
 * library's code: libretrogym.so, or the executable or Python extension it is linked into. Nothing of the build
 * tree or the install prefix is compiled in, so an installed tree can be moved (docs/install.md, "C library"). */
#define _GNU_SOURCE
#include "base.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder of the shared object or executable this function is linked into, into buf; 0 when unknown. */
static int code_dir(char *buf, size_t cap)
{
    Dl_info info;
    struct link_map *map = NULL;
    char path[PATH_MAX];
    /* The main program's link map has an empty name: its file is /proc/self/exe (argv[0] may be anything). */
    if (dladdr1((void *)(uintptr_t)&code_dir, &info, (void **)&map, RTLD_DL_LINKMAP) != 0 && map && map->l_name &&
        map->l_name[0]) {
        if (!realpath(map->l_name, path))
            return 0;
    } else {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n <= 0)
            return 0;
        path[n] = '\0';
    }
    char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    size_t len = strlen(path);
    if (len + 1 > cap)
        return 0;
    memcpy(buf, path, len + 1);
    return 1;
}

char *rg__own_dir(const char *const *candidates, size_t n)
{
    char dir[PATH_MAX], path[PATH_MAX], real[PATH_MAX];
    if (!code_dir(dir, sizeof dir))
        return NULL;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (!candidates[i] || !*candidates[i])
            continue;
        int len = snprintf(path, sizeof path, "%s/%s", dir, candidates[i]);
        if (len < 0 || (size_t)len >= sizeof path || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (realpath(path, real))
            return strdup(real);
    }
    return NULL;
}

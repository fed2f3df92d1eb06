#define _XOPEN_SOURCE 700
#include "base.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rg__tempdir_create(char **path, const char *prefix)
{
    const char *root = getenv("TMPDIR");
    if (!root || !*root)
        root = "/tmp";
    char *p = rg__asprintf("%s/%s-XXXXXX", root, prefix);
    if (!p)
        return rg__error(RG_ENOMEM, "out of memory");
    if (!mkdtemp(p)) {
        int e = errno;
        free(p);
        return rg__error(RG_EIO, "cannot create a temporary folder in %s: %s", root, strerror(e));
    }
    *path = p;
    return RG_OK;
}

void rg__remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char *child = rg__asprintf("%s/%s", path, e->d_name);
            if (!child)
                continue;
            struct stat st;
            if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
                rg__remove_tree(child);
            else
                unlink(child);
            free(child);
        }
        closedir(d);
    }
    rmdir(path);
}

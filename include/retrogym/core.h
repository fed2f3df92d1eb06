/**
 * @file core.h
 * Finding and describing emulator cores (libretro shared objects).
 *
 * A core is named by its library stem ("nestopia" means `nestopia_libretro.so`) or given as a path. Names are
 * searched in this order: every folder of `$RETROGYM_CORE_PATH` (colon-separated), retrogym's own core folder
 * (found relative to the library's file: `lib/retrogym/cores` when installed, `cores/` in the build tree;
 * docs/install.md), Debian's `/usr/lib/<multiarch>/libretro` (e.g. x86_64-linux-gnu) and `/usr/lib/libretro`,
 * RetroArch's folders (`~/.config/retroarch/cores`, Flatpak's `~/.var/app/org.libretro.RetroArch/config/retroarch/cores`,
 * Snap's `~/snap/retroarch/current/.config/retroarch/cores`) and an installed stable-retro's
 * `$RETROGYM_STABLE_RETRO/cores` (the Python package and the CLI set that variable; docs/integrations.md).
 */
#ifndef RETROGYM_CORE_H
#define RETROGYM_CORE_H

#include "export.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a core says about itself (retro_get_system_info) and where it was found. */
typedef struct rg_core_info {
    const char *name;            /**< library stem: "nestopia" */
    const char *path;            /**< absolute path of the shared object */
    const char *library_name;    /**< "Nestopia" */
    const char *library_version; /**< "1.52.0" */
    const char *extensions;      /**< "nes|fds|unf|unif" */
    int need_fullpath;
} rg_core_info;

typedef struct rg_core_list rg_core_list;

/**
 * Resolves a core name or path to the path of its shared object.
 * A value containing '/' or ending in ".so" is taken as a path; otherwise it is a name searched as above.
 * @param buf receives the path, NUL-terminated
 * @return RG_OK, RG_EINVAL, RG_ENOTFOUND (message lists the folders searched), RG_EBUFFER if buf is too small
 */
RG_API int rg_core_resolve(const char *name_or_path, char *buf, size_t cap);

/**
 * Lists the cores found in the search path (first occurrence of each name wins), asking each for its info.
 * Files that are not loadable cores are skipped. Caller frees with rg_core_list_free().
 */
RG_API int rg_core_list_create(rg_core_list **out);
RG_API size_t rg_core_list_count(const rg_core_list *list);
/** The i-th core, or NULL. Valid until rg_core_list_free(). */
RG_API const rg_core_info *rg_core_list_at(const rg_core_list *list, size_t i);
RG_API void rg_core_list_free(rg_core_list *list);

/**
 * retrogym's own cores, built into the library (no shared object): their names ("atari2600") are accepted wherever a
 * core name is, and win over a libretro core of the same name (give a path to use that one).
 */
RG_API size_t rg_core_builtin_count(void);
/** The i-th built-in core (path is "(built in)"; the strings are static). @return RG_OK, RG_EINVAL */
RG_API int rg_core_builtin_at(size_t i, rg_core_info *out);
/**
 * Asks one core (name or path) for its info without keeping it loaded. Caller frees with rg_core_list_free();
 * the list then holds exactly that core.
 */
RG_API int rg_core_describe(rg_core_list **out, const char *name_or_path);

/**
 * Where a core's file comes from, by the search-path folder holding it: "env var" ($RETROGYM_CORE_PATH), "own",
 * "Debian", "RetroArch", "stable-retro", "path" (elsewhere), "built in" (a path not starting with '/'). Static string.
 */
RG_API const char *rg_core_origin(const char *path);

/**
 * The one command that installs a core for a system whose preferred cores (`cores`, in order) are all missing:
 * `pip install "retrogym[cores]"` when stable-retro's wheel ships one of them and it is not installed, else the
 * Debian package (`apt-get install libretro-...`), else where to put a build. Written into buf (cut to cap).
 * @return RG_OK, RG_EINVAL
 */
RG_API int rg_core_install_hint(const char *const *cores, size_t n, char *buf, size_t cap);

struct rg_system_info;

/**
 * The installed core of sys's list that saved the state file at path, when the file starts with a signature known to
 * be that core's (nestopia "NST\x1a", FCEUmm "FCS", Genesis Plus GX "GENPLUS-GX", Snes9x "#!s9xsnp"); gzip or raw.
 * A core listed before it that converts that core's states is picked instead (our `nes` converts FCEUmm's).
 * NULL: no signature known, not a regular file, or that core is not installed. The environment runs a game on it
 * when no core is named; so do the CLI and `retrogym library`. Static string (an entry of sys).
 */
RG_API const char *rg_core_for_state_file(const char *path, const struct rg_system_info *sys);

#ifdef __cplusplus
}
#endif
#endif

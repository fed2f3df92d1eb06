/**
 * @file integration.h
 * Game integration data (docs/integrations.md): the data root and its integration folders, finding files of a
 * game, listing games/states/scenarios, `metadata.json`, `rom.sha` and ROM hashing, importing ROMs, and the
 * validators of the integration test-suite. See docs/integrations.md.
 *
 * A game lives in `<root>/<integration>/<Game>-<System>/`, where `<integration>` is `stable`, `contrib`,
 * `experimental` or a custom path. Which folders are searched, and in which order, is decided by an
 * rg_integration_paths handle and a set of integration flags; there is no process-wide state.
 */
#ifndef RETROGYM_INTEGRATION_H
#define RETROGYM_INTEGRATION_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>

#include "system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------------------ */
/* String lists                                                                                                 */

/** A list of strings returned by the library (game names, state names, search folders, hashes). */
typedef struct rg_strlist rg_strlist;

RG_API size_t rg_strlist_count(const rg_strlist *list);
/** The i-th string, or NULL when out of range. Valid until rg_strlist_free(). */
RG_API const char *rg_strlist_at(const rg_strlist *list, size_t i);
RG_API void rg_strlist_free(rg_strlist *list);

/* ------------------------------------------------------------------------------------------------------------ */
/* Data root and integration flags                                                                              */

/** Integration flags, with Gym Retro's values. A set of flags is an `unsigned`; 0 means the handle's default. */
typedef enum rg_integrations {
    RG_INTEGRATIONS_DEFAULT = 0,           /**< the handle's default (initially STABLE) */
    RG_INTEGRATIONS_STABLE = 1,
    RG_INTEGRATIONS_EXPERIMENTAL_ONLY = 2,
    RG_INTEGRATIONS_CONTRIB_ONLY = 4,
    RG_INTEGRATIONS_CUSTOM_ONLY = 8,
    RG_INTEGRATIONS_EXPERIMENTAL = 3,      /**< STABLE | EXPERIMENTAL_ONLY */
    RG_INTEGRATIONS_CONTRIB = 5,           /**< STABLE | CONTRIB_ONLY */
    RG_INTEGRATIONS_CUSTOM = 9,            /**< STABLE | CUSTOM_ONLY */
    RG_INTEGRATIONS_ALL = 15
} rg_integrations;

/** Environment variable naming data roots (several separated by ':', the first searched first). */
#define RG_INTEGRATION_PATH_ENV "RETROGYM_DATA_PATH"
/** Environment variable naming an installed stable-retro package folder (holding `data/` and `cores/`). The Python
 *  package and the CLI set it from the Python installation when it is unset; set it empty to leave stable-retro out. */
#define RG_INTEGRATION_STABLE_RETRO_ENV "RETROGYM_STABLE_RETRO"

/** Where a data root comes from (docs/integrations.md, "Data roots"). */
typedef enum rg_integration_origin {
    RG_INTEGRATION_ORIGIN_GIVEN = 0,     /**< named by the caller (--data-path, retrogym.data.set_path) */
    RG_INTEGRATION_ORIGIN_ENV = 1,       /**< $RETROGYM_DATA_PATH */
    RG_INTEGRATION_ORIGIN_USER = 2,      /**< the user's writable root: $XDG_DATA_HOME/retrogym or ~/.local/share/retrogym */
    RG_INTEGRATION_ORIGIN_OWN = 3,       /**< retrogym's own games (the source tree's or the installed package's data) */
    RG_INTEGRATION_ORIGIN_STABLE_RETRO = 4 /**< an installed stable-retro's data folder */
} rg_integration_origin;

/** "given", "env var", "user", "own", "stable-retro" ("?" for other values). */
RG_API const char *rg_integration_origin_name(rg_integration_origin origin);

/** Where integration data is searched: data roots in priority order, a default set of flags and an ordered list of
 *  custom paths. */
typedef struct rg_integration_paths rg_integration_paths;

/**
 * Creates a handle. When `root` is non-NULL and non-empty it names the only roots (several separated by ':'),
 * each of origin GIVEN. Otherwise the default roots, in priority order: each folder of `$RETROGYM_DATA_PATH`
 * (ENV), the user root (USER, rg_integration_user_root(); kept even before it exists, imports create it), the data folder
 * of the source tree the library was built from (OWN, when it is a folder) and `$RETROGYM_STABLE_RETRO/data`
 * (STABLE_RETRO, when it is a folder). The default flags are STABLE; there are no custom paths.
 * @return RG_OK, RG_ENOMEM, RG_ENOTFOUND when a given or $RETROGYM_DATA_PATH root is not a folder
 */
RG_API int rg_integration_paths_create(rg_integration_paths **out, const char *root);
/**
 * Creates a handle over exactly these roots, in priority order (the Python package passes its own list). A root
 * that is not a folder is kept (nothing is found in it) unless its origin is GIVEN or ENV (RG_ENOTFOUND).
 * @return RG_OK, RG_EINVAL (no roots, an empty path), RG_ENOMEM, RG_ENOTFOUND
 */
RG_API int rg_integration_paths_create_roots(rg_integration_paths **out, const char *const *roots, const rg_integration_origin *origins,
                                     size_t n);
RG_API void rg_integration_paths_free(rg_integration_paths *dp);

/** The first (highest-priority) data root (without trailing '/'). Valid until rg_integration_paths_free(). */
RG_API const char *rg_integration_paths_root(const rg_integration_paths *dp);
/** Number of data roots, the i-th root (NULL when out of range) and its origin. */
RG_API size_t rg_integration_paths_root_count(const rg_integration_paths *dp);
RG_API const char *rg_integration_paths_root_at(const rg_integration_paths *dp, size_t i);
RG_API rg_integration_origin rg_integration_paths_root_origin(const rg_integration_paths *dp, size_t i);
/** The roots as one line for messages, "/a (env var), /home/u/.local/share/retrogym (user), ...", into buf (cut to
 *  cap, always terminated when cap > 0). @return the length of the whole text (as snprintf) */
RG_API size_t rg_integration_paths_roots_text(const rg_integration_paths *dp, char *buf, size_t cap);
/** The user root: `$XDG_DATA_HOME/retrogym` (an absolute XDG_DATA_HOME), else `$HOME/.local/share/retrogym`.
 *  @return RG_OK, RG_ENOTFOUND (no HOME), RG_EBUFFER (buf too small) */
RG_API int rg_integration_user_root(char *buf, size_t cap);
/** The root imports write ROMs into for games found in OWN or STABLE_RETRO roots (installed package folders): the
 *  USER root when the handle has one, else NULL (ROMs are written into the game's own folder). */
RG_API const char *rg_integration_paths_write_root(const rg_integration_paths *dp);

/** Appends a custom integration folder: absolute, or relative to the data root. Order is kept; no duplicates check. */
RG_API int rg_integration_paths_add_custom_path(rg_integration_paths *dp, const char *path);
/** Removes every custom path (the default flags are unchanged). */
RG_API void rg_integration_paths_clear_custom_paths(rg_integration_paths *dp);
/** rg_integration_paths_add_custom_path() and ORs CUSTOM_ONLY into the default flags (Gym Retro's add_custom_integration). */
RG_API int rg_integration_paths_add_custom_integration(rg_integration_paths *dp, const char *path);
/** ORs flags into the default. @return RG_OK, RG_EINVAL for bits outside ALL */
RG_API int rg_integration_paths_add_integrations(rg_integration_paths *dp, unsigned flags);
/** Sets the default back to STABLE; custom paths remain. */
RG_API void rg_integration_paths_reset_default(rg_integration_paths *dp);
/** The default flags. */
RG_API unsigned rg_integration_paths_default(const rg_integration_paths *dp);

/**
 * The folders searched for `flags`, in priority order, as written: "contrib", "experimental", the custom paths in
 * insertion order, "stable" (each only when its flag is set). Gym Retro's `Integrations.paths`.
 * @return RG_OK, RG_EINVAL (NULL, bits outside ALL), RG_ENOMEM
 */
RG_API int rg_integration_paths_dirs(const rg_integration_paths *dp, unsigned flags, rg_strlist **out);

/**
 * Parses integration names for a command line: "stable", "contrib", "experimental", "custom" (each including
 * stable, as in Gym Retro), "contrib-only", "experimental-only", "custom-only", "all", "default"; several may be
 * joined with '|' or ','. @return RG_OK or RG_EINVAL with a message naming the unknown word
 */
RG_API int rg_integrations_parse(const char *text, unsigned *flags);
/** A name for flags: "all" for ALL, "default" for 0, else the set names joined by '|' ("stable|contrib"). */
RG_API const char *rg_integrations_name(unsigned flags, char *buf, size_t cap);

/* ------------------------------------------------------------------------------------------------------------ */
/* Finding and listing                                                                                          */

/**
 * The first existing `<root>/<dir>/<game>/<file>` over the folders of `flags` (0: the default). An absolute custom
 * path or an absolute `file` is used as is; an empty `game` looks in the folder itself, an empty `file` finds the
 * game's folder.
 * @param path receives a string freed with free()
 * @return RG_OK, RG_EINVAL, RG_ENOMEM, RG_ENOTFOUND (message names the game and file)
 */
RG_API int rg_integration_file_path(const rg_integration_paths *dp, const char *game, const char *file, unsigned flags, char **path);

/**
 * The ROM of a game: `rom.<ext>` for the extensions of the system named by the game's `-<System>` suffix, else for
 * the extensions of every known system. @return as rg_integration_file_path(); RG_ENOTFOUND "no ROM for game G (searched
 * ...)" naming the roots searched
 */
RG_API int rg_integration_rom_path(const rg_integration_paths *dp, const char *game, unsigned flags, char **path);

/** The system of a game from its `-<System>` suffix ("StarCatcher-Nes" -> Nes). @return RG_OK, RG_ENOTFOUND */
RG_API int rg_integration_game_system(const char *game, const rg_system_info **out);

/**
 * The name of a game's folder: `game` itself when a folder of that name exists over flags, else its other form
 * (stable-retro 1.x names folders `<Game>-<System>-v0`: "Airstriker-Genesis" finds "Airstriker-Genesis-v0", and
 * "StarCatcher-Nes-v0" finds "StarCatcher-Nes"). Every lookup of this header accepts both forms.
 * @param name receives a string freed with free()
 * @return RG_OK, RG_EINVAL, RG_ENOMEM, RG_ENOTFOUND (message names the roots searched)
 */
RG_API int rg_integration_game_folder(const rg_integration_paths *dp, const char *game, unsigned flags, char **name);

/** Sorted unique names of the game folders (holding a `rom.sha`) over the folders of flags. */
RG_API int rg_integration_list_games(const rg_integration_paths *dp, unsigned flags, rg_strlist **out);
/** Sorted unique stems of `*.state` files of a game, without those starting with '_'. */
RG_API int rg_integration_list_states(const rg_integration_paths *dp, const char *game, unsigned flags, rg_strlist **out);
/** Sorted unique stems of the game's `*.json` files that parse as objects with `reward`, `rewards` or `done`. */
RG_API int rg_integration_list_scenarios(const rg_integration_paths *dp, const char *game, unsigned flags, rg_strlist **out);

/* ------------------------------------------------------------------------------------------------------------ */
/* The game library                                                                                             */

/** One integration of the library. Strings are valid until rg_integration_library_free(); NULL where noted. */
typedef struct rg_integration_library_game {
    const char *game;          /**< the folder's name ("Airstriker-Genesis-v0") */
    const char *system;        /**< from the name's suffix; "" when unknown */
    const char *integration;   /**< the folder it was found in, relative to its root ("stable"), or a custom path */
    const char *root;          /**< that data root (NULL for an absolute custom path) */
    rg_integration_origin origin;     /**< the root's origin */
    const char *rom;           /**< the ROM found over every root (NULL: none imported) */
    const char *state;         /**< the default state for one player (NULL: none) */
    const char *core;          /**< the core it would run on: the installed core that saved its default state when
                                    the state's file says which, else the first of the system's cores built in or
                                    installed (NULL: none) */
    const char *core_path;     /**< that core's file ("(built in)" for ours) */
    const char *core_origin;   /**< rg_core_origin() of it ("own" for a built-in core) */
    const char *hint;          /**< without a core: the command that installs one (rg_core_install_hint) */
} rg_integration_library_game;

typedef struct rg_integration_library rg_integration_library;

/**
 * Every integration (a folder with a rom.sha) over the folders of flags and every root, sorted by name; a name
 * found twice is listed once (the first, as lookups do). ROMs, states and cores are found as rg_env_create would.
 * @return RG_OK, RG_EINVAL, RG_ENOMEM
 */
RG_API int rg_integration_library_create(const rg_integration_paths *dp, unsigned flags, rg_integration_library **out);
RG_API size_t rg_integration_library_count(const rg_integration_library *lib);
/** The i-th game, or NULL. */
RG_API const rg_integration_library_game *rg_integration_library_at(const rg_integration_library *lib, size_t i);
RG_API void rg_integration_library_free(rg_integration_library *lib);

/* ------------------------------------------------------------------------------------------------------------ */
/* metadata.json                                                                                                */

/** A parsed `metadata.json`: default_state, default_player_state, whitelist (other keys are ignored). */
typedef struct rg_integration_metadata rg_integration_metadata;

/** Reads and parses a file (at most 4 MiB). @return RG_OK, RG_ENOTFOUND, RG_EIO, RG_ETOOBIG, RG_ECORRUPT */
RG_API int rg_integration_metadata_load(rg_integration_metadata **out, const char *path);
/**
 * Parses JSON text: it must be an object; `default_state` a string, `default_player_state` an array of strings,
 * `whitelist` an object of arrays of strings, when present. @return RG_OK, RG_ECORRUPT (message says what), RG_ENOMEM
 */
RG_API int rg_integration_metadata_parse(rg_integration_metadata **out, const char *text, size_t len);
RG_API void rg_integration_metadata_free(rg_integration_metadata *m);

/** `default_state`, or NULL. Strings are valid until rg_integration_metadata_free(). */
RG_API const char *rg_integration_metadata_default_state(const rg_integration_metadata *m);
/** Number of `default_player_state` entries, and the i-th (NULL when out of range). */
RG_API size_t rg_integration_metadata_player_state_count(const rg_integration_metadata *m);
RG_API const char *rg_integration_metadata_player_state(const rg_integration_metadata *m, size_t i);
/** The state for a number of players: `default_player_state[players-1]` when players <= its length, else
 *  `default_state`; NULL when neither applies (or players is 0). */
RG_API const char *rg_integration_metadata_state_for_players(const rg_integration_metadata *m, unsigned players);
/** The whitelisted warnings of one file ("data.json", "scenario.json"): count, and the i-th. */
RG_API size_t rg_integration_metadata_whitelist_count(const rg_integration_metadata *m, const char *file);
RG_API const char *rg_integration_metadata_whitelist_at(const rg_integration_metadata *m, const char *file, size_t i);

/**
 * The default state name of a game for a number of players (>= 1), from the first `metadata.json` over flags.
 * @param state receives a string freed with free()
 * @return RG_OK; RG_ENOTFOUND when there is no metadata.json or it names no state; RG_ECORRUPT, RG_EINVAL
 */
RG_API int rg_integration_default_state(const rg_integration_paths *dp, const char *game, unsigned players, unsigned flags,
                                 char **state);

/* ------------------------------------------------------------------------------------------------------------ */
/* rom.sha and ROM hashes                                                                                       */

/** ROMs larger than this are not hashed or imported ("ROM is too big"). */
#define RG_INTEGRATION_ROM_MAX_SIZE (32u * 1024u * 1024u)
/** Length of a SHA-1 in hex. */
#define RG_INTEGRATION_SHA1_HEX 40

/**
 * SHA-1 of a ROM as Gym Retro computes it: when `name` ends in ".nes" (any case), of the bytes after the 16-byte
 * iNES header (no signature check); otherwise of all bytes. `hex` receives 40 lower-case digits and a NUL.
 */
RG_API int rg_integration_rom_sha1(const void *data, size_t size, const char *name, char hex[RG_INTEGRATION_SHA1_HEX + 1]);
/** The same for a file (at most RG_INTEGRATION_ROM_MAX_SIZE bytes). @return RG_OK, RG_ENOTFOUND, RG_EIO, RG_ETOOBIG */
RG_API int rg_integration_rom_sha1_file(const char *path, char hex[RG_INTEGRATION_SHA1_HEX + 1]);

/**
 * Parses `rom.sha` text: one SHA-1 per line, 40 hex digits (upper case is lowered), spaces and CR around a line
 * and blank lines ignored. An empty file gives an empty list.
 * @return RG_OK, RG_ECORRUPT naming the first bad line, RG_ENOMEM
 */
RG_API int rg_integration_romsha_parse(const char *text, size_t len, rg_strlist **out);
/** Reads (at most 1 MiB) and parses a `rom.sha` file. */
RG_API int rg_integration_romsha_load(const char *path, rg_strlist **out);

/* ------------------------------------------------------------------------------------------------------------ */
/* Import                                                                                                       */

/** Progress: `done` of `total` files of the walk handled; `current` is the file (or "archive.zip:member"). */
typedef void (*rg_integration_import_progress_fn)(size_t done, size_t total, const char *current, void *user);
/** A skipped file or archive member, with the reason. */
typedef void (*rg_integration_import_warning_fn)(const char *message, void *user);
/** A ROM written: the game and the file written. */
typedef void (*rg_integration_import_imported_fn)(const char *game, const char *path, void *user);

/** A candidate whose file name matches a game but whose hash is not in its rom.sha (another dump of the game):
 *  the game, the candidate ("path" or "archive.zip:member") and its SHA-1. */
typedef void (*rg_integration_import_near_fn)(const char *game, const char *candidate, const char *sha1, void *user);

#define RG_INTEGRATION_IMPORT_OPTIONS_VERSION 2

/** Import settings. Start from RG_INTEGRATION_IMPORT_OPTIONS_INIT; zeros mean the defaults given. */
typedef struct rg_integration_import_options {
    unsigned version;                 /**< RG_INTEGRATION_IMPORT_OPTIONS_VERSION */
    rg_integration_import_progress_fn progress;   /**< may be NULL */
    rg_integration_import_warning_fn warning;     /**< may be NULL */
    rg_integration_import_imported_fn imported;   /**< may be NULL */
    void *user;                       /**< passed to the callbacks */
    size_t max_rom_size;              /**< largest candidate ROM; 0: RG_INTEGRATION_ROM_MAX_SIZE */
    size_t max_nested_zip_size;       /**< largest zip inside a zip read into memory; 0: 128 MiB */
    uint64_t max_archive_bytes;       /**< bytes inflated from one archive on disk, nested ones included;
                                           0: 1 GiB */
    unsigned max_zip_depth;           /**< zips inside zips followed this deep (1: only archives on disk); 0: 4 */
    unsigned max_dir_depth;           /**< folders walked this deep; 0: 64 */
    /* version 2 */
    rg_integration_import_near_fn near;           /**< may be NULL */
    const char *force_game;           /**< NULL; or a game (either name form) whose ROM is taken from a candidate
                                           that matches it by file name whatever its hash, or from the one file
                                           given when a single file is the whole import */
} rg_integration_import_options;

#define RG_INTEGRATION_IMPORT_OPTIONS_INIT {RG_INTEGRATION_IMPORT_OPTIONS_VERSION, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0, NULL, NULL}

/** What an import did. */
typedef struct rg_integration_import_report {
    size_t known;     /**< hashes known from all integration folders */
    size_t files;     /**< files found by the walk */
    size_t scanned;   /**< candidates hashed (files and archive members) */
    size_t skipped;   /**< files, archives and members skipped with a warning */
    size_t imported;  /**< distinct games written */
    size_t near;      /**< candidates matching a game by file name only (reported through `near`) */
    size_t forced;    /**< candidates written for force_game */
} rg_integration_import_report;

/**
 * Imports ROMs (Gym Retro's `retro.import`): builds the table of known hashes from every game of every
 * integration folder (ALL plus the custom paths; for a hash in several, the later folder wins, stable last), walks
 * `paths` (files, folders recursively without following folder links, `.zip` archives and zips inside them), and
 * writes each matching ROM atomically to `<integration folder>/<Game>/rom.<ext>`, `<ext>` being the first
 * extension of the game's system. Nothing is written anywhere else: names inside archives are never used as paths.
 * Unreadable files, bad archives, members over the limits are skipped with a warning. A game found in a root of
 * origin OWN or STABLE_RETRO gets its ROM under the user root instead (rg_integration_paths_write_root), at the same
 * relative place. A candidate whose hash is unknown but whose file name is a game's (letters and digits, case and
 * bracketed tags ignored: "Super Mario Bros. (World).nes" is SuperMarioBros-Nes) with an extension of the game's
 * system is reported through `near`, or written when it is `force_game`'s.
 * @return RG_OK (even when nothing matched), RG_EINVAL, RG_ENOMEM, RG_ENOTFOUND (force_game names no game), RG_EIO
 *         when a matching ROM cannot be written (the import goes on; the last write error is returned)
 */
RG_API int rg_integration_import(const rg_integration_paths *dp, const char *const *paths, size_t n_paths, const rg_integration_import_options *opts,
                     rg_integration_import_report *report);

/* ------------------------------------------------------------------------------------------------------------ */
/* Validation (the integration test-suite's checks)                                                            */

typedef enum rg_integration_severity {
    RG_INTEGRATION_SEVERITY_WARNING = 1,
    RG_INTEGRATION_SEVERITY_ERROR = 2
} rg_integration_severity;

/** One finding: the file it is about (a path, or a game name), its severity and a message. */
typedef struct rg_integration_diag {
    const char *file;
    rg_integration_severity severity;
    const char *message;
} rg_integration_diag;

/** A growing list of findings. */
typedef struct rg_integration_diags rg_integration_diags;

RG_API int rg_integration_diags_create(rg_integration_diags **out);
RG_API void rg_integration_diags_free(rg_integration_diags *d);
RG_API size_t rg_integration_diags_count(const rg_integration_diags *d);
/** The i-th finding, or NULL. Valid until the next append or rg_integration_diags_free(). */
RG_API const rg_integration_diag *rg_integration_diags_at(const rg_integration_diags *d, size_t i);
/** Number of findings of a severity. */
RG_API size_t rg_integration_diags_severity_count(const rg_integration_diags *d, rg_integration_severity severity);

/*
 * Each validator appends to `out` and returns RG_OK when it could run (findings, errors included, are in `out`);
 * RG_EINVAL, RG_ENOMEM, or RG_ENOTFOUND when the game folder does not exist for those flags. Files are found over
 * `flags` (0: the default); like Gym Retro, metadata.json (whitelist), data.json for a scenario and the states for
 * the default state are also looked for in stable.
 */

/** data.json: info present, each variable an object with an integer address and a valid type, suspicious types
 *  warned, whitelist reconciled. No data.json: nothing (rg_integration_validate_missing reports it). */
RG_API int rg_integration_validate_data(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out);
/** A scenario (stem, e.g. "scenario", or file name "contest.json"): reward/done presence, reward variables exist
 *  and have reward or penalty, done variables have op, `condition: all` needs two checks, `negative` on unsigned
 *  absolute variables, whitelist reconciled. */
RG_API int rg_integration_validate_scenario(const rg_integration_paths *dp, const char *game, const char *scenario, unsigned flags,
                                rg_integration_diags *out);
/** metadata.json's default_state (and default_player_state entries) name existing states. */
RG_API int rg_integration_validate_default_state(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out);
/** Every game over flags has data.json, scenario.json, metadata.json, a state and rom.sha (scan_missing). */
RG_API int rg_integration_validate_missing(const rg_integration_paths *dp, unsigned flags, rg_integration_diags *out);
/** The ROM's SHA-1 is listed in rom.sha ("sha mismatch"); a missing ROM is an error. */
RG_API int rg_integration_validate_hash(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out);
/** The ROM's extension belongs to the game's system; a Genesis ROM has "SEGA " or " SEGA" at 0x100 unless the
 *  whitelist has an entry for "rom.md". A missing ROM is an error. */
RG_API int rg_integration_validate_rom(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out);

/** All data checks of one game: missing files, data, every listed scenario (scenario.json always), default state;
 *  and hash and ROM when a ROM is present. */
RG_API int rg_integration_validate_game(const rg_integration_paths *dp, const char *game, unsigned flags, rg_integration_diags *out);
/** rg_integration_validate_game() on one game folder given by path (its name is the folder's name; nothing else is searched). */
RG_API int rg_integration_validate_dir(const char *game_dir, rg_integration_diags *out);

#ifdef __cplusplus
}
#endif
#endif

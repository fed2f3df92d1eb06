/**
 * @file system.h
 * The per-system table: one JSON file per console in `systems/` (compiled into the library), giving the
 * integration suffix, ROM extensions, preferred cores, button names per libretro joypad id, default action groups,
 * RAM base address and byte-order overlay. The table is read-only and shared by all threads.
 */
#ifndef RETROGYM_SYSTEM_H
#define RETROGYM_SYSTEM_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Number of libretro joypad ids (B, Y, SELECT, START, UP, DOWN, LEFT, RIGHT, A, X, L, R, L2, R2, L3, R3). */
#define RG_MAX_BUTTONS 16

/** One default action group: the allowed button combinations, each a mask of joypad-id bits, in file order. */
typedef struct rg_action_group {
    const uint16_t *combos;
    size_t n_combos;
} rg_action_group;

/** An option value the system asks of one core, e.g. gpgx's "genesis_plus_gx_addr_error" = "disabled". */
typedef struct rg_system_core_option {
    const char *core;  /**< library stem, "genesis_plus_gx" */
    const char *key;
    const char *value;
} rg_system_core_option;

/** A system, e.g. "Nes". All strings and arrays live as long as the process. */
typedef struct rg_system_info {
    const char *name;                /**< integration suffix: "Nes", "Snes", "Genesis", "Atari2600", ... */
    const char *title;               /**< human name, "Nintendo Entertainment System" */
    const char *const *extensions;   /**< ROM extensions without the dot, lower case */
    size_t n_extensions;
    const char *const *cores;        /**< preferred cores, best first: library stems such as "fceumm" */
    size_t n_cores;
    const char *buttons[RG_MAX_BUTTONS]; /**< console button wired to each joypad id; NULL = unused id */
    unsigned n_buttons;              /**< length of the JSON "buttons" array (= MultiBinary size) */
    const rg_action_group *actions;  /**< default action groups (FILTERED/DISCRETE/MULTI_DISCRETE) */
    size_t n_actions;
    uint64_t ram_base;               /**< address of SYSTEM_RAM when the core sends no memory map */
    unsigned overlay_width;          /**< 0: none; else the word width of the byte-order overlay */
    char overlay_backing;            /**< '=' native, '<' little, '>' big: how the core stores RAM */
    char overlay_real;               /**< how the emulated CPU sees it */
    const char *const *search_types; /**< data types for memory search (may be empty) */
    size_t n_search_types;
    size_t min_rom_size;             /**< smaller ROMs are refused before reaching a core */
    const uint8_t *rom_magic;        /**< bytes every ROM must start with (NULL: none) */
    size_t rom_magic_len;
    size_t copier_header;            /**< size of a copier header (SNES: 512) removed before the ROM reaches the
                                          core when the file size modulo 1024 equals it; 0: none */
    uint16_t button_mask;            /**< joypad ids that have a name: the buttons the console really has */
    const rg_system_core_option *core_options; /**< option values answered to these cores instead of their
                                                    declared defaults, so games run as in stable-retro */
    size_t n_core_options;
    size_t ram_max;                  /**< most bytes of SYSTEM_RAM the console has (0: no limit): a core reporting
                                          more gets its first ram_max bytes as the RAM block */
} rg_system_info;

/** Number of known systems. */
RG_API size_t rg_system_count(void);

/** The i-th system (0 <= i < rg_system_count()), or NULL. */
RG_API const rg_system_info *rg_system_at(size_t i);

/**
 * Finds a system by name ("Nes"; exact match).
 * @return RG_OK, RG_EINVAL for NULL arguments, RG_ENOTFOUND for an unknown name
 */
RG_API int rg_system_find(const rg_system_info **out, const char *name);

/**
 * Finds the system of a ROM file from its extension (case-insensitive; ".nes" and "nes" both work, as does a path).
 * @return RG_OK, RG_EINVAL, RG_ENOTFOUND when no system claims the extension
 */
RG_API int rg_system_for_path(const rg_system_info **out, const char *path_or_ext);

/** The joypad id of a button name for this system, or -1. */
RG_API int rg_system_button_id(const rg_system_info *sys, const char *button);

#ifdef __cplusplus
}
#endif
#endif

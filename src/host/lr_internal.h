/* Internals of the libretro host: one rg__lr per emulator instance, each with its own private copy of the core. */
#ifndef RG_SRC_HOST_LR_INTERNAL_H
#define RG_SRC_HOST_LR_INTERNAL_H

#include <libretro.h>
#include <stdbool.h>

#include "emu/core_iface.h"

/* The retro_* entry points of one loaded copy. */
typedef struct rg__lr_api {
    void *dl;
    void (*init)(void);
    void (*deinit)(void);
    unsigned (*api_version)(void);
    void (*get_system_info)(struct retro_system_info *);
    void (*get_system_av_info)(struct retro_system_av_info *);
    void (*set_controller_port_device)(unsigned, unsigned);
    void (*reset)(void);
    void (*run)(void);
    size_t (*serialize_size)(void);
    bool (*serialize)(void *, size_t);
    bool (*unserialize)(const void *, size_t);
    bool (*load_game)(const struct retro_game_info *);
    void (*unload_game)(void);
    void *(*get_memory_data)(unsigned);
    size_t (*get_memory_size)(unsigned);
    void (*set_environment)(retro_environment_t);
    void (*set_video_refresh)(retro_video_refresh_t);
    void (*set_audio_sample)(retro_audio_sample_t);
    void (*set_audio_sample_batch)(retro_audio_sample_batch_t);
    void (*set_input_poll)(retro_input_poll_t);
    void (*set_input_state)(retro_input_state_t);
} rg__lr_api;

/* Opens a private copy of the core at path inside dir (the copy is unlinked once loaded) and resolves symbols. */
int rg__lr_api_load(rg__lr_api *api, const char *path, const char *dir);
void rg__lr_api_unload(rg__lr_api *api);
/* Opens the core itself (no copy) just to read its system info; used for listing. */
int rg__lr_api_probe(const char *path, struct retro_system_info *info, void **dl);

/* Core options: declared keys with their default, plus the caller's overrides. */
typedef struct rg__lr_option {
    char *key;
    char *value;       /* answered to GET_VARIABLE */
} rg__lr_option;

typedef struct rg__lr_options {
    rg__lr_option *items;
    size_t count, cap;
    rg_core_option *overrides; /* owned copies: the caller's first, then the system's for this core */
    size_t n_overrides;
} rg__lr_options;

/* Copies the caller's overrides and the system's option values for this core (the caller's win). */
int rg__lr_options_set_overrides(rg__lr_options *o, const rg_core_option *caller, size_t n_caller,
                                 const rg_system_info *sys, const char *core_name);

/* Records the options of SET_VARIABLES (v0) and of the v1/v2 interfaces. Returns false when out of memory. */
bool rg__lr_options_set_v0(rg__lr_options *o, const struct retro_variable *vars);
bool rg__lr_options_set_v1(rg__lr_options *o, const struct retro_core_option_definition *defs);
bool rg__lr_options_set_v2(rg__lr_options *o, const struct retro_core_option_v2_definition *defs);
const char *rg__lr_options_get(const rg__lr_options *o, const char *key);
void rg__lr_options_free(rg__lr_options *o);

typedef struct rg__lr {
    rg__lr_api api;
    rg__core_io *io;
    char *name;          /* library stem */
    char *core_path;
    char *tmp_dir;       /* private folder: the .so copy, default system and save folders */
    int tmp_lock;        /* the folder's lock (rg__tempdir_create_locked), held while the instance lives; -1: none */
    char *system_dir;
    char *save_dir;
    char *rom_path;
    uint8_t *rom;
    size_t rom_size;
    char library_name[128];
    char library_version[128];
    bool need_fullpath;
    bool initialized;    /* retro_init was called */
    bool game_loaded;
    rg__lr_options options;
    enum retro_pixel_format pixel_format;
    uint64_t serialization_quirks;
    uint8_t *state_scratch;   /* serialize_size bytes, so a short state never makes a core read past a buffer */
    size_t state_scratch_size;
    size_t state_size_seen;   /* the core's last answer to retro_serialize_size */
    bool shutdown;            /* the core asked for RETRO_ENVIRONMENT_SHUTDOWN: it is not run again */
    bool bad_frame_logged;    /* a malformed video_refresh was reported once */
    uint8_t *boot_state;      /* the state right after the game loaded, for cores that power on from it (below) */
    size_t boot_size;
} rg__lr;

/* States larger than this are refused: a core answering an absurd retro_serialize_size must get an error, not an
 * allocation of that size (the largest real cores stay under 32 MiB). */
#define RG__LR_MAX_STATE ((size_t)256 << 20)

/* The instance whose core is being called on this thread (set around every call into a core). */
extern _Thread_local rg__lr *rg__lr_current;

bool rg__lr_environment(unsigned cmd, void *data);

/* Before a game loads: writes the built-in game database of a core that leaks it on every load (nestopia) to the
 * instance's own system folder, where the core reads it without leaking (lr_gamedb.c). Best effort, never fails. */
void rg__lr_write_game_db(rg__lr *lr);

#endif

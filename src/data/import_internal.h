/* Internal state of rg_integration_import (import.c, import_zip.c, knownhash.c). */
#ifndef RG_SRC_DATA_IMPORT_INTERNAL_H
#define RG_SRC_DATA_IMPORT_INTERNAL_H

#include "data_internal.h"

/* One known hash: where its game lives and the extension its ROM gets. */
typedef struct rg__known {
    char sha[RG_INTEGRATION_SHA1_HEX + 1];
    char *game;      /* "StarCatcher-Nes" */
    char *game_dir;  /* "<integration folder>/<game>": the only folder a ROM is ever written to */
    const char *ext; /* the first extension of the game's system (static) */
    size_t order;    /* precedence: the highest wins for a hash listed several times */
    char key[64];    /* the game's name as a file name key (rg__rom_name_key) */
} rg__known;

typedef struct rg__known_table {
    rg__known *items;
    size_t count, cap;
} rg__known_table;

typedef struct rg__import {
    const rg_integration_paths *dp;
    rg_integration_import_options opts;
    rg_integration_import_report *report;
    rg__known_table known;
    rg_strlist imported_games;
    int write_rc;            /* last failure to write a ROM */
    char write_msg[512];     /* and its message */
    uint64_t budget;         /* bytes left to inflate from the current archive on disk */
    int stopped;             /* the current archive on disk ran out of budget */
    int single_file;         /* the import is one file given directly (force_game takes it whatever its name) */
    const rg__known *force;  /* force_game's entry */
} rg__import;

/* The key of a name for matching ROM files to games: letters and digits, lower case. A game name loses its
 * "-v<digits>" and "-<System>" suffixes; a file name (is_file) its folder, extension and anything from the first
 * '(' or '['. */
void rg__rom_name_key(const char *name, int is_file, char *out, size_t cap);
/* A game whose key equals the candidate file name's key and whose system has the file's extension, or NULL. */
const rg__known *rg__known_by_file_name(const rg__known_table *t, const char *file_name);
/* An entry of a game by its name (either form), or NULL. */
const rg__known *rg__known_by_game(const rg__known_table *t, const char *game);

/* Builds the table from every game of every integration folder (ALL and the custom paths). */
int rg__known_build(rg__import *im);
void rg__known_clear(rg__known_table *t);
/* The entry for a hash, or NULL. */
const rg__known *rg__known_find(const rg__known_table *t, const char *sha);

/* Reports a warning (formatted) to the caller. */
void rg__import_warn(rg__import *im, const char *fmt, ...) RG_PRINTF(2, 3);
/* Hashes one candidate (its name decides the iNES rule) and writes it when the hash is known. */
int rg__import_candidate(rg__import *im, const char *name, const uint8_t *data, size_t size);
/* Checks every member of an archive on disk. */
int rg__import_zip_file(rg__import *im, const char *path);

#endif

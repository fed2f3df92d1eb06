/**
 * @file retrogym.h
 * Umbrella header of the retrogym C library.
 *
 * Conventions (docs/conventions.md): every function that can fail returns RG_OK or a negative RG_E* code and
 * leaves a message for rg_error_last(); handles are opaque with create/free pairs and free accepts NULL; the library
 * never prints, exits or aborts. Objects are thread-compatible: one handle on one thread at a time, distinct handles
 * on distinct threads at once.
 */
#ifndef RETROGYM_RETROGYM_H
#define RETROGYM_RETROGYM_H

#include "actions.h"
#include "core.h"
#include "datatype.h"
#include "emu.h"
#include "env.h"
#include "error.h"
#include "gamedata.h"
#include "integration.h"
#include "log.h"
#include "movie.h"
#include "outfile.h"
#include "pool.h"
#include "scenario.h"
#include "search.h"
#include "system.h"
#include "version.h"

#endif

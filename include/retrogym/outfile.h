/**
 * @file outfile.h
 * Files written whole or not at all: the data goes to a temporary file beside the destination, which replaces it
 * only once everything is written and flushed to disk. A failure (full disk, a read-only folder, an abort) leaves the
 * previous file as it was and no temporary file behind. The library writes its states, movies and variables this
 * way; the CLI writes its outputs (CSV, JSON, PNG) this way too.
 *
 * Destinations that are not regular files: a symbolic link stays a link (its target is replaced), a device or FIFO
 * (`/dev/stdout`, a pipe) is written in place (not atomic, by nature), a folder is refused.
 *
 * The temporary file is `<destination>.tmp-XXXXXX` in the destination's folder, locked (flock) by its writer. One
 * left by a writer that was killed before its commit is removed by the next write into that folder, once it is a
 * minute old and its lock is free; nothing else is ever removed.
 */
#ifndef RETROGYM_OUTFILE_H
#define RETROGYM_OUTFILE_H

#include "export.h"
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_outfile rg_outfile;

/**
 * Starts writing path.
 * @return RG_OK; RG_EINVAL (NULL argument); RG_EIO (a folder, no temporary file can be made beside it, the link
 *         cannot be resolved, the device cannot be opened); RG_ENOMEM
 */
RG_API int rg_outfile_open(rg_outfile **out, const char *path);
/** The stream to write to (stdio), owned by the outfile. */
RG_API FILE *rg_outfile_stream(rg_outfile *f);
/**
 * Finishes: flushes, syncs and renames the temporary file over the destination, and frees f (also on failure).
 * @return RG_OK; RG_EIO naming the destination and the cause (a write failed earlier, the disk is full ...): the
 *         destination is then unchanged and the temporary file removed
 */
RG_API int rg_outfile_commit(rg_outfile *f);
/** Gives up: the temporary file is removed, the destination unchanged, f freed. NULL is allowed. */
RG_API void rg_outfile_abort(rg_outfile *f);

#ifdef __cplusplus
}
#endif

#endif

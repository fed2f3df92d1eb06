/* Save states in the C tests: taking one, reading our own core's state struct out of it, a refused load that must
 * leave the machine unchanged, and a replay from a state. */
#ifndef RG_TESTS_EMU_STATE_H
#define RG_TESTS_EMU_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "retrogym/retrogym.h"

/* A state of emu now, malloc'd (the caller frees it), its length in *len; fails the test when it cannot be saved. */
uint8_t *test_state_save(rg_emu *emu, size_t *len);
/* Our own core's state struct out of a state of emu: the state must be exactly `header` bytes (the library's snapshot
 * header) and then `size` bytes, copied into out. */
void test_state_body(rg_emu *emu, size_t header, void *out, size_t size);
/* Loading state (len bytes) into emu must fail with RG_ESTATE and a message mentioning text, and leave the machine's
 * state byte for byte as it was. */
void test_state_refused(rg_emu *emu, const uint8_t *state, size_t len, const char *text);
/* A hostile byte in a state: the byte at `at` set to val, to be refused with a message mentioning text. */
typedef struct test_state_edit {
    size_t at;
    uint8_t val;
    const char *text;
} test_state_edit;
/* Each edit applied alone to a copy of good (len bytes, copied into bad) is refused (test_state_refused). */
void test_state_edits_refused(rg_emu *emu, const uint8_t *good, uint8_t *bad, size_t len, const test_state_edit *edits,
                              size_t n);
/* The save RAM of a and of b (rg_emu_save_ram): the same size and bytes. */
void test_save_ram_same(rg_emu *a, rg_emu *b);
/* state (len bytes) was just saved from emu: runs `frames` frames with pad(first + i) on port 0 and records the frame
 * and RAM hashes, loads the state back and runs them again: the same hashes every frame. */
void test_state_replays(rg_emu *emu, const uint8_t *state, size_t len, uint16_t (*pad)(unsigned), unsigned first,
                        unsigned frames);

#endif

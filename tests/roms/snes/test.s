; retrogym SNES test ROM (32 KiB LoROM), see ../README.md for the contract.
;   $7E0010      frame counter, +1 per NMI
;   $7E0012-0013 player-1 pad as read from $4218/$4219, 1 = pressed; as a little-endian word:
;                B Y Select Start Up Down Left Right (bits 15..8), A X L R (bits 7..4)
;   $7E0020-0027 "HOMEBREW"
; No BG layer is enabled, so the whole picture is the backdrop (CGRAM colour 0).

.define ROM_TITLE "RETROGYM TEST ROM    "
.include "test_start.inc"

        rep #$20
        .a16
        lda JOY1L
        sta pad
        ; Every button moves one distinct colour bit (bits 3..14), so each pad state has
        ; its own backdrop.
        lsr a
        eor #IDLE_COLOUR
.include "test_end.inc"

; retrogym SNES test ROM that changes the picture's size (32 KiB LoROM), built like ../test.s into bin/snes/modes.sfc.
; It keeps ../test.s's contract at the same addresses:
;   $7E0010      frame counter, +1 per NMI
;   $7E0012-0013 player-1 pad as read from $4218/$4219, 1 = pressed (little-endian word, as in ../test.s)
;   $7E0020-0027 "HOMEBREW"
;   $7E0014      the modes the next frame is drawn in: bit 0 = BG mode 5 (512 pixels wide, else mode 1: 256),
;                bit 1 = overscan (239 lines, else 224)
; Every 32 frames the width flips (Start held flips it at once), every 64 frames the height. No BG layer is enabled,
; so the whole picture is the backdrop, whose colour follows the counter and the pad.

.define ROM_TITLE "RETROGYM MODES ROM   "
.include "test_start.inc"

        ; Modes for the next frame: width from counter bit 5 (flipped while Start is held), height from bit 6.
        lda counter
        lsr a
        lsr a
        lsr a
        lsr a
        lsr a                   ; bit 0 = counter bit 5, bit 1 = counter bit 6
        and #$03
        bit JOY1L+1             ; high byte: B Y Select Start Up Down Left Right
        pha
        lda JOY1L+1
        and #$10                ; Start
        beq @nostart
        pla
        eor #$01
        pha
@nostart:
        pla
        sta modes
        lsr a                   ; bit 0 -> carry: mode 5 or mode 1
        lda #$01
        bcc @mode1
        lda #$05
@mode1: sta BGMODE
        lda modes
        and #$02
        asl a                   ; overscan is SETINI bit 2
        sta SETINI

        rep #$20
        .a16
        lda JOY1L
        sta pad
        ; Every button moves one distinct colour bit (bits 3..14) and the counter the low red bits, so each pad
        ; state and each frame has its own backdrop.
        lsr a
        eor #IDLE_COLOUR
        eor counter
        and #$7FFF
.include "test_end.inc"

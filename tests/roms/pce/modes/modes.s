; retrogym PC Engine test ROM that changes the dot clock (8 KiB HuCard), built like ../test.s into bin/pce/modes.pce.
; It keeps ../test.s's contract at the same RAM offsets:
;   $10      frame counter, +1 per VDC vblank IRQ
;   $11      player-1 pad, 1 = pressed: Left Down Right Up (bits 7..4), Run Select II I (bits 3..0)
;   $20-$27  "HOMEBREW"
; Every 32 frames the VCE dot clock flips between 5.37 MHz and 7.16 MHz, so the core's frame changes width. The
; picture is VCE colour 0, from the counter and the pad.

.include "test_start.inc"
        lda counter             ; dot clock for the next frame: counter bit 5
        and #$20
        beq @slow
        lda #$01                ; 7.16 MHz
@slow:  sta VCE_CR
        lda pad
        eor counter
.include "test_end.inc"

; retrogym PC Engine test ROM (8 KiB HuCard), see ../README.md for the contract.
; RAM bank $F8 is mapped at logical $2000, which is where the HuC6280 keeps its zero page,
; so the zero-page addresses below are RAM offsets:
;   $10      frame counter, +1 per VDC vblank IRQ
;   $11      player-1 pad, 1 = pressed: Left Down Right Up (bits 7..4), Run Select II I (bits 3..0)
;   $20-$27  "HOMEBREW"
; The VDC shows a blank background (BAT and tile 0 cleared), so the picture is VCE colour 0.

.include "test_start.inc"
        ; A = pad: the colour shows the buttons held
.include "test_end.inc"

; retrogym TIA feature ROM: object positions after RESP0 / RESBL / RESM1 written at many different cycles.
;
; 48 entries of 4 lines, top to bottom; entry k resets at E = c(k): 17 .. 47 (every cycle: the end of HBLANK,
; E < 22.7, is in there), 48 .. 64 (even cycles), 65 .. 72 (every cycle), with a clock slide for 1-cycle steps:
;  line 1: RESP0 at E = c;  line 2: RESBL at E = c;  line 3: RESM1 at E = c, and player 0 (red, GRP0 = $80: one
;  pixel) and the ball (yellow, size 1) shown;  line 4: missile 1 (blue, size 1) shown.
; No HMOVE is ever strobed, so each dot sits where the reset alone put it: a correct picture shows three columns of
; dots forming diagonals three pixels per cycle to the right, all objects reset during HBLANK stacked at the left
; edge, and the latest resets near the right edge. Dark grey background. Every frame is identical.

        include "a26.inc"

COL_BK  = $04
COL_P0  = $48
COL_P1  = $88
COL_PF  = $1E

PA      = USER          ; slide pointers for lines 1-3 (2 bytes each)
PB      = USER + 2
PC      = USER + 4
IDX     = USER + 6      ; entry number
EndA    = SlideA + 63
EndB    = SlideB + 63
EndC    = SlideC + 63


; Points PA, PB, PC at the slide entries for entry Y (m = Delay[Y]); 33 cycles.
        MAC SET_POINTERS
        lda #<EndA
        sec
        sbc Delay,y
        sta PA
        lda #<EndB
        sec
        sbc Delay,y
        sta PB
        lda #<EndC
        sec
        sbc Delay,y
        sta PC
        ENDM

        seg code
        org $F000

Reset:
        START_UP

Frame:
        VSYNC_FRAME
        lda #COL_BK     ; VBLANK line 1
        sta COLUBK
        lda #COL_P0
        sta COLUP0
        lda #COL_P1
        sta COLUP1
        lda #COL_PF
        sta COLUPF
        lda #0
        sta NUSIZ0
        sta NUSIZ1
        sta CTRLPF
        sta GRP0
        sta ENAM1
        sta ENABL
        sta WSYNC       ; VBLANK line 2
        lda #>EndA
        sta PA+1
        lda #>EndB
        sta PB+1
        lda #>EndC
        sta PC+1
        ldy #0
        sty IDX
        SET_POINTERS
        LINES 35        ; lines 2-36
        ldy #0
        sta WSYNC       ; VBLANK line 37
        sty VBLANK      ;  3  visible line 1
        sty ENAM1       ;  6
        jmp (PA)        ; 11  line 1 of entry 0

        align 256       ; the three slides each stay inside one page
SlideA:
        CLOCK_SLIDE     ; 14 + m
        sta RESP0       ; 17 + m
        sta WSYNC
        lda #$80        ;  2  for line 3
        ldx #2          ;  4
        nop             ;  6
        jmp (PB)        ; 11
SlideB:
        CLOCK_SLIDE
        sta RESBL       ; 17 + m
        sta WSYNC
        sta GRP0        ;  3
        stx ENABL       ;  6
        jmp (PC)        ; 11
SlideC:
        CLOCK_SLIDE
        sta RESM1       ; 17 + m
        sta WSYNC
        lda #0          ;  2
        sta GRP0        ;  5
        sta ENABL       ;  8
        lda #2          ; 10
        sta ENAM1       ; 13
        inc IDX
        ldy IDX
        cpy #48
        beq Out
        SET_POINTERS
        ldy #0
        sta WSYNC       ; line 1 of the next entry, as for entry 0
        sty VBLANK      ;  3  (already 0)
        sty ENAM1       ;  6
        jmp (PA)        ; 11

Out:    sta WSYNC       ; end of visible line 192
        lda #2
        sta VBLANK
        lda #0
        sta ENAM1
        LINES 30        ; overscan
        jmp Frame

; m = c - 17 for each entry.
Delay:  .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27
        .byte 28, 29, 30, 31, 33, 35, 37, 39, 41, 43, 45, 47, 48, 49, 50, 51, 52, 53, 54, 55

        VECTORS

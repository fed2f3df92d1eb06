; retrogym TIA feature ROM: the RIOT timer (TIM1T, TIM8T, TIM64T, T1024T; INTIM and TIMINT around underflow).
;
; Measurements (every one at a fixed cycle, so the values are exact; stored in RAM):
;  S1 (VBLANK, 12 lines): TIM1T = 20, then TIMINT read 12+k and INTIM 16+k cycles after the write, k = 0..11
;     (a clock slide gives 1-cycle steps): INTIM -> $90-$9B, TIMINT -> $9C-$A7.
;  S2 (VBLANK, 16 lines): TIM8T = 2, INTIM at 12+k, then TIMINT at 16+k, k = 0..15: -> $A8-$B7 and $B8-$C7.
;  S3 (visible lines 146-169, 3 lines each): TIM64T = 1, TIMINT at 124+k and INTIM at 128+k cycles after the
;     write, k = 0..7 (long after the underflow at 64 cycles): -> $D0-$D7 and $C8-$CF.
;  S4 (overscan): T1024T = 1 at the start, INTIM read every second line (14 reads, across 0 at 1024 cycles and
;     the underflow at 2048) -> $D8-$E5, then TIMINT -> $E6 and INTIM -> $E7 on line 29.
;  S5 (next VBLANK, line 1): INTIM and TIMINT long after S4's underflow (-> $E8, $E9), the mirrors $0286/$0287
;     (-> $EA, $EB), then TIM8T = 0 and INTIM / TIMINT 4 and 8 cycles later (-> $EC, $ED) and 7 cycles after that
;     (-> $EE, $EF).
; Picture: the bytes $90-$EF as 48 rows of 3 lines (2 lines shown + 1 gap), two bytes per row: PF1 left shows the
; even address (bit 7 at pixel 16, 4 pixels per bit), PF1 right (pixels 96-127) the odd one; white on dark grey.
; Rows 1-12 come from S1 ($90-$A7), 13-28 from S2, 29-36 from S3, 37-44 from S4,
; 45-48 from S5. A correct picture is the same every frame (S3 and S4 are shown one frame later).

        include "a26.inc"

COL_BK  = $04
COL_PF  = $0E

PTR     = USER          ; slide pointer (2 bytes)
S1I     = $90
S1F     = $9C
S2I     = $A8
S2F     = $B8
S3I     = $C8
S3F     = $D0
S4I     = $D8
S5      = $E8
End1    = Slide1 + 63
End2    = Slide2 + 63
End3    = Slide3 + 63

        seg code
        org $F000

Reset:
        START_UP
        jmp Frame

Frame:
        VSYNC_FRAME
        ; S5, VBLANK line 1 (E = 10)
        lda INTIM       ; 14
        sta S5          ; 17
        lda TIMINT      ; 21
        sta S5+1        ; 24
        lda $0286       ; 28  INTIM mirror
        sta S5+2        ; 31
        lda $0287       ; 35  TIMINT mirror
        sta S5+3        ; 38
        lda #0          ; 40
        sta TIM8T       ; 44
        lda INTIM       ; 48  4 cycles after the write
        ldx TIMINT      ; 52  8 after
        ldy INTIM       ; 56  12 after
        sta S5+4        ; 59
        stx S5+5        ; 62
        sty S5+6        ; 65
        lda TIMINT      ; 69  25 after
        sta S5+7        ; 72
        sta WSYNC

        lda #COL_BK     ; VBLANK line 2
        sta COLUBK
        lda #COL_PF
        sta COLUPF
        lda #0
        sta CTRLPF
        sta PF0
        sta PF2
        lda #<End1
        sta PTR
        lda #>End1
        sta PTR+1
        ldy #0
        sta WSYNC
        jmp Sweep1      ;  3  VBLANK line 3

        align 256
Sweep1:                 ;  3  (lines 3-14)
        lda #20         ;  5
        sta TIM1T       ;  9
        jmp (PTR)       ; 14
Slide1:
        CLOCK_SLIDE     ; 17 + k
        ldx TIMINT      ; 21 + k: 12 + k after the write
        lda INTIM       ; 25 + k
        sta S1I,y
        stx S1F,y
        dec PTR
        iny
        cpy #12
        sta WSYNC
        bne Sweep1
Sweep1End:
        SAME_PAGE Sweep1, Sweep1End
        lda #<End2
        sta PTR
        lda #>End2
        sta PTR+1
        ldy #0
        sta WSYNC       ; line 15
        jmp Sweep2      ;  3

        align 256
Sweep2:                 ;  3  (lines 16-31)
        lda #2          ;  5
        sta TIM8T       ;  9
        jmp (PTR)       ; 14
Slide2:
        CLOCK_SLIDE     ; 17 + k
        lda INTIM       ; 21 + k: 12 + k after the write
        ldx TIMINT      ; 25 + k
        sta S2I,y
        stx S2F,y
        dec PTR
        iny
        cpy #16
        sta WSYNC
        bne Sweep2
Sweep2End:
        SAME_PAGE Sweep2, Sweep2End
        LINES 6         ; 32-37
        lda #0
        sta VBLANK

        ; 48 rows of 3 lines (visible lines 1-144)
        ldx #0
Rows:   ldy #2          ;  5 (after the bne)
Row:    lda S1I,x       ;  9 on a row's first line, 7 on its second
        sta PF1         ; 12 / 10  left half
        lda S1I+1,x
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        sta PF1         ; 45 / 43  right half (PF1 shows there from E = 54.7)
        dey
        sta WSYNC
        bne Row
        lda #0          ; gap line
        sta PF1
        inx
        inx
        cpx #96
        sta WSYNC
        bne Rows

        ; S3: TIM64T sweep, 1 + 8 x 3 lines (visible lines 145-169)
        lda #<End3-45
        sta PTR
        lda #>End3
        sta PTR+1
        ldy #0
        sta WSYNC
        jmp Sweep3

        align 256
Sweep3:                 ;  3
        lda #1          ;  5
        sta TIM64T      ;  9
        sta WSYNC
        jmp (PTR)       ;  5
Slide3:
        CLOCK_SLIDE     ;  8 + m, m = 45 .. 52
        ldx TIMINT      ; 12 + m: 67 + 12 + m = 124 + k after the write
        lda INTIM       ; 16 + m
        sta WSYNC
        sta S3I,y
        stx S3F,y
        dec PTR
        iny
        cpy #8
        sta WSYNC
        bne Sweep3
Sweep3End:
        SAME_PAGE Sweep3, Sweep3End
        LINES 23        ; 170-192

        ; overscan, S4: T1024T = 1, 30 lines
        lda #2
        sta VBLANK
        lda #1
        sta T1024T
        ldy #0
Sweep4: sta WSYNC
        sta WSYNC
        lda INTIM       ; E = 4 of every second line
        sta S4I,y
        iny
        cpy #14
        bne Sweep4      ; 28 lines
        lda TIMINT      ; line 29
        sta S4I+14
        lda INTIM
        sta S4I+15
        sta WSYNC
        sta WSYNC       ; line 30
        jmp Frame

        VECTORS

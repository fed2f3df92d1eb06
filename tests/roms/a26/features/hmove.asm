; retrogym TIA feature ROM: HMOVE (motion registers, HMCLR, the HMOVE blank "comb", HMOVE at cycle 74).
;
; Objects, all 2 pixels wide: player 0 red, player 1 blue, missile 0 red, missile 1 blue, ball green; light grey
; background. What a correct picture shows:
;  S1, 48 lines, HMOVE at E = 3 on every line (sta WSYNC / sta HMOVE): diagonal staircases, per line P0 +1
;      (HMP0 $F0, to the right), P1 -1 ($10), M0 +2 ($E0), M1 -3 ($30), BL +4 ($C0), starting at x = 10, 140,
;      40, 130, 70 (reset each frame in VBLANK). Every line starts with the 8-pixel black HMOVE bar.
;  S2, 16 lines after HMCLR, HMOVE on every line: no motion (vertical lines), the black bar on every line.
;  S3, 24 lines, the same motion values as S1 but HMOVE only on even lines: staircases with steps of 2 lines
;      and the black bar only on the lines of an HMOVE: the late-HMOVE comb at the left edge.
;  S4, 24 lines, HMOVE written at E = 74 (the last cycles of the line, no WSYNC in the loop): objects move by
;      what an HMOVE at that cycle gives and no black bar appears.
;  S5, 64 lines, HMOVE at E = 3 with HMP0 = HMM1 = $80, $90 ... $F0, $00, $10 ... $70 (4 lines each, written at
;      E >= 30 after the HMOVE): player 0 and missile 1 move 8, 7 ... 1 to the right, then 0, 1 ... 7 to the
;      left per line; the other objects stand still.
; Every frame is identical.

        include "a26.inc"

COL_BK  = $0A
COL_P0  = $46
COL_P1  = $86
COL_PF  = $C6

TMP     = USER

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
        lda #$10        ; missiles 2 wide, one copy
        sta NUSIZ0
        sta NUSIZ1
        sta CTRLPF      ; ball 2 wide
        lda #0
        sta GRP0
        sta GRP1
        sta ENAM0
        sta ENAM1
        sta ENABL
        lda #10
        ldx #0
        jsr PosObj      ; lines 1-2
        lda #140
        ldx #1
        jsr PosObj      ; 3-4
        lda #40
        ldx #2
        jsr PosObj      ; 5-6
        lda #130
        ldx #3
        jsr PosObj      ; 7-8
        lda #70
        ldx #4
        jsr PosObj      ; 9-10
        sta WSYNC       ; 11
        sta HMOVE
        LINES 26        ; 12-37 (the HMxx must not change within 24 cycles of the HMOVE)
        lda #0
        sta VBLANK

        ; S1: staircase, 2 + 48 lines (visible lines 1-50)
        jsr SetMotion
        LINES 2
        jsr ShowAll
        ldy #48
S1:     sta WSYNC
        sta HMOVE       ; 3
        dey
        bne S1

        ; S2: HMCLR, 2 + 16 lines (51-68)
        sta WSYNC
        sta HMCLR
        sta WSYNC
        ldy #16
S2:     sta WSYNC
        sta HMOVE
        dey
        bne S2

        ; S3: HMOVE on even lines only, 2 + 24 lines (69-94)
        sta WSYNC
        jsr SetMotion
        sta WSYNC
        ldy #12
S3:     sta WSYNC
        sta HMOVE
        sta WSYNC
        dey
        bne S3

        ; S4: HMOVE at E = 74, 2 + 24 + 1 lines (95-121)
        sta WSYNC
        ldy #24
        sta WSYNC
        jmp S4          ;  3
        align 256
S4:     ldx #13         ;  5  each pass starts at E = 3 and lasts 76 cycles
        nop             ;  7
.wait   dex
        bne .wait       ; 71  (12 passes of 5 cycles, the last 4)
        sta HMOVE       ; 74
        dey             ; 76
        bne S4          ;  3  of the next line
S4End:
        SAME_PAGE S4, S4End
        sta WSYNC

        ; S5: every HM value, 2 + 64 lines (122-187), then 5 blank lines
        sta WSYNC
        sta HMCLR
        ldy #0
        sta WSYNC
S5:     sta WSYNC
        sta HMOVE       ;  3
        tya             ;  5
        lsr             ;  7
        lsr             ;  9
        tax             ; 11
        lda HmValues,x  ; 15
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop             ; 31  more than 24 cycles after the HMOVE
        sta HMP0
        sta HMM1
        iny
        cpy #64
        bne S5
        lda #0
        sta GRP0
        sta GRP1
        sta ENAM0
        sta ENAM1
        sta ENABL
        LINES 5

        ; overscan: 30 lines
        lda #2
        sta VBLANK
        LINES 30
        jmp Frame

SetMotion:
        lda #$F0
        sta HMP0
        lda #$10
        sta HMP1
        lda #$E0
        sta HMM0
        lda #$30
        sta HMM1
        lda #$C0
        sta HMBL
        rts

ShowAll:
        lda #$C0
        sta GRP0
        sta GRP1
        lda #2
        sta ENAM0
        sta ENAM1
        sta ENABL
        rts

        POS_OBJ_SUB

HmValues:
        .byte $80, $90, $A0, $B0, $C0, $D0, $E0, $F0, $00, $10, $20, $30, $40, $50, $60, $70

        VECTORS

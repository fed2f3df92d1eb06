; retrogym TIA feature ROM: collision latches (all 15 pairs, the 8 CXxx registers, CXCLR).
;
; All objects sit in one cluster (x = 46-47, players 8 wide, missiles and ball 8 wide) inside playfield bits PF2
; 0-2 (pixels 48-59). Each "pair band" enables exactly two of them (or one object and PF2 = $07) for 4 lines, then
; 2 lines of nothing, so exactly the chosen pairs latch. Three phases, each read into RAM (bits 7-6 of the 8
; registers CXM0P .. CXPPMM, masked with $C0) and then cleared with CXCLR:
;   V (in VBLANK, beam off):  P0-P1, M1-PF                                  -> RV  = $8A-$91
;   A (visible lines 43-84):  P0-P1, M0-P0, M1-P1, P0-PF, M0-BL, M1-PF, BL-PF -> R1 = $92-$99
;   B (visible lines 86-133): M0-P1, M1-P0, P0-BL, P1-PF, P1-BL, M0-PF, M1-BL, M0-M1 -> R2 = $9A-$A1
; Expected RAM: R1 = 40 40 80 00 40 80 80 80, R2 = 80 80 40 C0 80 40 00 40 (as Stella 3.9.3 gives), and
; RV = 00 00 00 00 00 00 00 00 in Stella 3.9.3, which latches no collision while VBLANK is on (a TIA that
; latched them there would give RV = 00 00 00 00 00 80 00 80).
; Picture: the top 40 lines show the previous frame's results as 8 rows (one per register, 2 gap lines + 3):
; white playfield bits PF0 = RV >> 2 (pixels 0-7, again at 80-87), PF1 left = R1 (pixels 16-23), PF1 right = R2
; (pixels 96-103, written in mid-line), on a background whose colour is R1 | (R2 >> 2) | (RV >> 4) | 2. Below come
; the pair bands (red player 0 / missile 0, blue player 1 / missile 1, white ball and playfield). Dark grey
; background elsewhere. Stable from the second frame on.

        include "a26.inc"

COL_BK  = $04
COL_P0  = $46
COL_P1  = $86
COL_PF  = $0E

RV      = USER          ; 8 bytes each
R1      = USER + 8
R2      = USER + 16
ROW     = USER + 24

; One pair band: {1} = {2} and {3} = {4} for 4 lines, then both cleared for 2 lines (6 lines). Starts at E <= 10.
        MAC PAIR
        lda #{2}
        sta {1}
        lda #{4}
        sta {3}         ; E <= 20: before the cluster (E >= 38)
        LINES 4
        lda #0
        sta {1}
        sta {3}
        LINES 2
        ENDM

; Reads the 8 collision registers into {1}..{1}+7 (bits 7-6), then CXCLR: 67 cycles.
        MAC READ_CX
        lda CXM0P
        and #$C0
        sta {1}
        lda CXM1P
        and #$C0
        sta {1}+1
        lda CXP0FB
        and #$C0
        sta {1}+2
        lda CXP1FB
        and #$C0
        sta {1}+3
        lda CXM0FB
        and #$C0
        sta {1}+4
        lda CXM1FB
        and #$C0
        sta {1}+5
        lda CXBLPF
        and #$C0
        sta {1}+6
        lda CXPPMM
        and #$C0
        sta {1}+7
        sta CXCLR
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
        lda #$30        ; missiles 8 wide, one copy
        sta NUSIZ0
        sta NUSIZ1
        sta CTRLPF      ; ball 8 wide, repeated playfield
        lda #46
        ldx #0
        jsr PosObj      ; lines 1-2
        lda #46
        ldx #1
        jsr PosObj      ; 3-4
        lda #47
        ldx #2
        jsr PosObj      ; 5-6
        lda #47
        ldx #3
        jsr PosObj      ; 7-8
        lda #47
        ldx #4
        jsr PosObj      ; 9-10
        sta WSYNC       ; 11
        sta HMOVE
        sta WSYNC       ; 12

        ; phase V, beam off (lines 13-25)
        PAIR GRP0, $FF, GRP1, $FF
        PAIR ENAM1, 2, PF2, $07
        READ_CX RV
        sta WSYNC       ; 25
        LINES 12        ; 26-37
        lda #0
        sta VBLANK

        ; results of the previous frame: 8 rows of 5 lines (visible lines 1-40)
        ldx #0
Rows:   lda #COL_BK     ; gap line a (E <= 10 on entry): nothing shown
        sta COLUBK
        lda #0
        sta PF0
        sta PF1
        sta PF2         ; E <= 24
        lda RV,x
        lsr
        lsr
        lsr
        lsr
        and #$0C
        sta ROW
        lda R2,x
        lsr
        lsr
        and #$30
        ora R1,x
        ora ROW
        ora #2
        sta ROW         ; the row's background colour
        sta WSYNC
        lda ROW         ;  3  gap line b: the row colour, no playfield
        sta COLUBK      ;  6
        lda RV,x
        lsr
        lsr
        sta ROW+1       ; the row's PF0
        ldy #3
        sta WSYNC
Row:    lda ROW+1       ;  6 (after the bne)
        sta PF0         ;  9
        lda R1,x        ; 13
        sta PF1         ; 16  left half
        lda R2,x        ; 20
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
        nop             ; 44
        sta PF1         ; 47  right half (PF1 shows there from pixel 96, E 54.7)
        dey
        sta WSYNC
        bne Row
        inx
        cpx #8
        bne Rows
        lda #0
        sta PF0
        sta PF1
        lda #COL_BK
        sta COLUBK
        LINES 2         ; 41-42

        ; phase A (visible lines 43-85)
        PAIR GRP0, $FF, GRP1, $FF       ; P0-P1
        PAIR ENAM0, 2, GRP0, $FF        ; M0-P0
        PAIR ENAM1, 2, GRP1, $FF        ; M1-P1
        PAIR GRP0, $FF, PF2, $07        ; P0-PF
        PAIR ENAM0, 2, ENABL, 2         ; M0-BL
        PAIR ENAM1, 2, PF2, $07         ; M1-PF
        PAIR ENABL, 2, PF2, $07         ; BL-PF
        READ_CX R1
        sta WSYNC

        ; phase B (visible lines 86-133)
        PAIR ENAM0, 2, GRP1, $FF        ; M0-P1
        PAIR ENAM1, 2, GRP0, $FF        ; M1-P0
        PAIR GRP0, $FF, ENABL, 2        ; P0-BL
        PAIR GRP1, $FF, PF2, $07        ; P1-PF
        PAIR GRP1, $FF, ENABL, 2        ; P1-BL
        PAIR ENAM0, 2, PF2, $07         ; M0-PF
        PAIR ENAM1, 2, ENABL, 2         ; M1-BL
        PAIR ENAM0, 2, ENAM1, 2         ; M0-M1
        LINES 58        ; 134-191
        READ_CX R2
        sta WSYNC       ; 192

        lda #2          ; overscan: 30 lines
        sta VBLANK
        LINES 30
        jmp Frame

        POS_OBJ_SUB

        VECTORS

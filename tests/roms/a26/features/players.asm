; retrogym TIA feature ROM: the players (NUSIZ, REFP, VDELP, GRP writes in mid-line).
;
; What a correct picture shows, on a dark grey background:
;  Top, 8 bands of 12 lines (2-line gaps), NUSIZ0 = NUSIZ1 = 0..7 from top to bottom: player 0 (red, x=8) shows an
;  "F"-like 12-line shape, player 1 (blue, x=84) the same shape mirrored by REFP1. Copies per band: one; two close
;  (16 px apart); two medium (32); three close; two wide (64); one double width; three medium; one quad width.
;  Then three 16-line bands where player 0 and player 1 (still reflected) each draw a diagonal going down to the
;  right, GRP0 and GRP1 rewritten on every line:
;    B1: VDELP0 = VDELP1 = 0, GRP1 written before GRP0: both diagonals start on the band's first line.
;    B2: VDELP0 = 1, same order: player 0 shows the previous line's GRP0 (its diagonal starts one line lower).
;    B3: VDELP1 = 1, GRP0 written before GRP1: player 1 starts one line lower instead.
;  Last, the 48-pixel six-glyph display: NUSIZ 3 (three close copies) for both players 8 pixels apart, both
;  vertically delayed, GRP1/GRP0/GRP1/GRP0 rewritten in mid-line at E = 45, 48, 51, 54: it reads "123456" in
;  white-ish (player 0 yellow, player 1 green), 16 lines high. An 8-pixel black HMOVE bar shows on the line above.
; Every frame is identical.

        include "a26.inc"

COL_BK  = $04
COL_P0  = $46
COL_P1  = $86

LINE    = USER
TMP     = USER + 1

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
        lda #0
        sta VDELP0
        sta VDELP1
        sta GRP0
        sta GRP1
        sta GRP0
        sta REFP0
        lda #8
        sta REFP1
        lda #8
        ldx #0
        jsr PosObj      ; lines 1-2
        lda #84
        ldx #1
        jsr PosObj      ; lines 3-4
        sta WSYNC       ; line 5
        sta HMOVE
        LINES 32        ; lines 6-37
        lda #0
        sta VBLANK      ; E = 5

        ; section A: NUSIZ 0-7, 8 bands of 2 + 12 lines (visible lines 1-112)
        ldy #0
NusizBand:
        lda #0
        sta GRP0
        sta GRP1
        sty NUSIZ0
        sty NUSIZ1
        sty TMP
        LINES 2
        ldy #12
Shape:                  ; E = 0 (3 after the bne)
        lda ShapeData-1,y
        sta GRP0
        sta GRP1
        dey
        sta WSYNC
        bne Shape
        ldy TMP
        iny
        cpy #8
        bne NusizBand

        ; section B1-B3: vertical delay, 3 bands of 2 + 16 lines (visible lines 113-166)
        lda #0          ; B1: no delay, GRP1 then GRP0
        sta NUSIZ0
        sta NUSIZ1
        sta GRP0
        sta GRP1
        LINES 2
        ldy #16
B1:     lda DiagR-1,y
        sta GRP1
        lda DiagL-1,y
        sta GRP0
        dey
        sta WSYNC
        bne B1

        lda #0          ; B2: VDELP0, GRP1 then GRP0
        sta GRP1
        sta GRP0
        sta GRP1        ; old GRP0 = 0 as well
        lda #1
        sta VDELP0
        LINES 2
        ldy #16
B2:     lda DiagR-1,y
        sta GRP1
        lda DiagL-1,y
        sta GRP0
        dey
        sta WSYNC
        bne B2

        lda #0          ; B3: VDELP1, GRP0 then GRP1
        sta VDELP0
        sta GRP0
        sta GRP1
        sta GRP0        ; old GRP1 = 0 as well
        lda #1
        sta VDELP1
        LINES 2
        ldy #16
B3:     lda DiagL-1,y
        sta GRP0
        lda DiagR-1,y
        sta GRP1
        dey
        sta WSYNC
        bne B3

        ; section B4: six glyphs, 6 + 16 lines (visible lines 167-188), then 4 blank lines
        lda #0
        sta GRP0
        sta GRP1
        sta GRP0
        lda #3
        sta NUSIZ0
        sta NUSIZ1
        lda #1
        sta VDELP0
        sta VDELP1
        lda #$1A
        sta COLUP0
        lda #$CA
        sta COLUP1
        lda #0
        sta REFP1
        lda #54
        ldx #0
        jsr PosObj      ; gap lines 1-2
        lda #62
        ldx #1
        jsr PosObj      ; gap lines 3-4
        sta WSYNC       ; gap line 5
        sta HMOVE
        lda #16
        sta LINE
        ldy #16
        sta WSYNC       ; gap line 6
        jmp Six

        align 256
Six:                    ; E = 0 (3 after the bne)
        lda Glyph1-1,y  ;  7
        sta GRP0        ; 10
        lda Glyph2-1,y  ; 14
        sta GRP1        ; 17
        lda Glyph3-1,y  ; 21
        sta GRP0        ; 24
        lda Glyph6-1,y  ; 28
        sta TMP         ; 31
        ldx Glyph5-1,y  ; 35
        lda Glyph4-1,y  ; 39
        ldy TMP         ; 42
        sta GRP1        ; 45  shows glyph 3 from copy 2 of player 0
        stx GRP0        ; 48  glyph 4 for copy 2 of player 1
        sty GRP1        ; 51  glyph 5 for copy 3 of player 0
        sta GRP0        ; 54  glyph 6 for copy 3 of player 1
        dec LINE        ; 59
        ldy LINE        ; 62
        sta WSYNC
        bne Six
SixEnd:
        SAME_PAGE Six, SixEnd
        lda #0
        sta VDELP0
        sta VDELP1
        sta GRP0
        sta GRP1
        lda #COL_P0
        sta COLUP0
        lda #COL_P1
        sta COLUP1
        lda #8
        sta REFP1
        LINES 4

        ; overscan: 30 lines
        lda #2
        sta VBLANK
        LINES 30
        jmp Frame

        POS_OBJ_SUB

        align 256
; Tables are read with Y counting down to 1, so each lists its bottom row first; none crosses a page.
ShapeData:
        .byte %11000011, %11000001, %11000000, %11000000, %11111000, %11111000
        .byte %11000000, %11000000, %11000000, %11111110, %11111111, %11111111
DiagL:  .byte $01, $01, $02, $02, $04, $04, $08, $08, $10, $10, $20, $20, $40, $40, $80, $80
DiagR:  .byte $80, $C0, $40, $60, $20, $30, $10, $18, $08, $0C, $04, $06, $02, $03, $01, $01
Glyph1: .byte $7E, $7E, $18, $18, $18, $18, $18, $18, $18, $18, $18, $18, $38, $38, $18, $18
Glyph2: .byte $7E, $7E, $60, $60, $30, $30, $18, $18, $0C, $0C, $06, $06, $66, $66, $3C, $3C
Glyph3: .byte $3C, $3C, $66, $66, $06, $06, $06, $06, $1C, $1C, $06, $06, $66, $66, $3C, $3C
Glyph4: .byte $0C, $0C, $0C, $0C, $0C, $0C, $7E, $7E, $4C, $4C, $2C, $2C, $1C, $1C, $0C, $0C
Glyph5: .byte $3C, $3C, $66, $66, $06, $06, $06, $06, $06, $06, $7C, $7C, $60, $60, $7E, $7E
Glyph6: .byte $3C, $3C, $66, $66, $66, $66, $66, $66, $7C, $7C, $60, $60, $60, $60, $3C, $3C

        VECTORS

; retrogym TIA feature ROM: missiles and the ball (sizes, copies, ENAMx/ENABL, RESMPx, VDELBL).
;
; What a correct picture shows, on a dark grey background (red = player/missile 0, blue = 1, yellow = ball):
;  S1, 4 bands of 8 lines: sizes 1, 2, 4, 8 pixels from top to bottom for missile 0 (x=20), missile 1 (x=60,
;      NUSIZ1 three close copies: x=60, 76, 92) and the ball (x=120, CTRLPF size bits).
;  S2, RESMPx: one line with both missiles at their S1 places (x=20 and x=60, three copies), then player 0
;      (double width, GRP0 $81: two 2-pixel posts 16 apart) and player 1 (x=80, quad width, 32 pixels) with both
;      missiles enabled: first 12 lines with RESMP0/RESMP1 set (missiles hidden), then 12 lines after clearing
;      them: each missile now sits at the centre of its player.
;  S3, VDELBL (ball 4 wide at x=120; missile 1 toggled by ENAM1 with the same on/off table for reference):
;      12 lines without delay (ball rows equal missile 1 rows), 12 lines with VDELBL = 1 and GRP1 written
;      before ENABL on every line (ball one line lower than missile 1), then 12 lines with VDELBL = 1 where
;      ENABL goes 2 -> GRP1 -> 0: the ball stays on (delayed copy) until GRP1 is written again after 6 lines.
;  S4, 8 bands of 8 lines: missile copies with NUSIZ 0-7: missile 0 (size 8, at its S2 place, the centre of
;      player 0) and missile 1 (size 2, at player 1's centre); the "double/quad width" settings show one copy.
; Every frame is identical (RESMPx and the VBLANK positioning put the missiles back each frame).

        include "a26.inc"

COL_BK  = $04
COL_P0  = $46
COL_P1  = $86
COL_PF  = $1E

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
        lda #0
        sta RESMP0
        sta RESMP1
        sta VDELBL
        sta ENAM0
        sta ENAM1
        sta ENABL
        lda #20
        ldx #0
        jsr PosObj      ; lines 1-2
        lda #80
        ldx #1
        jsr PosObj      ; 3-4
        lda #20
        ldx #2
        jsr PosObj      ; 5-6
        lda #60
        ldx #3
        jsr PosObj      ; 7-8
        lda #120
        ldx #4
        jsr PosObj      ; 9-10
        sta WSYNC       ; 11
        sta HMOVE
        LINES 26        ; 12-37
        lda #0
        sta VBLANK

        ; S1: sizes, 4 bands of 2 + 8 lines (visible lines 1-40)
        ldy #0
Sizes:  lda #0
        sta ENAM0
        sta ENAM1
        sta ENABL
        tya
        asl
        asl
        asl
        asl
        sta NUSIZ0
        sta CTRLPF
        ora #3
        sta NUSIZ1
        sty TMP
        LINES 2
        lda #2
        sta ENAM0
        sta ENAM1
        sta ENABL
        LINES 8
        ldy TMP
        iny
        cpy #4
        bne Sizes

        ; S2: RESMPx, 2 + 12 + 2 + 12 lines (visible lines 41-68)
        lda #0
        sta ENAM0
        sta ENAM1
        sta ENABL
        lda #$15        ; missile 0 size 2, player 0 double width
        sta NUSIZ0
        lda #$07        ; missile 1 size 1, player 1 quad width
        sta NUSIZ1
        lda #2
        sta ENAM0       ; one line with both missiles where S1 left them (their pictures built there) ...
        sta ENAM1
        sta WSYNC
        sta RESMP0      ; ... then locked to the players (hidden); the release below moves them with no other
        sta RESMP1      ; write in between that would redraw them
        LINES 1
        lda #$81
        sta GRP0
        lda #$FF
        sta GRP1
        lda #2
        sta ENAM0
        sta ENAM1
        LINES 12
        lda #0
        sta GRP0
        sta GRP1
        sta ENAM0
        sta ENAM1
        sta RESMP0      ; the missiles stay at the players' centres
        sta RESMP1
        LINES 2
        lda #$81
        sta GRP0
        sta GRP1
        lda #2
        sta ENAM0
        sta ENAM1
        LINES 12

        ; S3: VDELBL, 3 bands of 2 + 12 lines (visible lines 69-110)
        lda #0
        sta GRP0
        sta GRP1
        sta ENAM0
        sta ENAM1
        sta ENABL
        sta NUSIZ1
        lda #$20        ; ball 4 wide
        sta CTRLPF
        LINES 2
        ldy #12
S3a:    lda #0          ; E = 3
        sta GRP1
        lda Blink-1,y
        sta ENAM1
        sta ENABL
        dey
        sta WSYNC
        bne S3a

        lda #0
        sta ENAM1
        sta ENABL
        sta GRP1        ; old ENABL = 0
        lda #1
        sta VDELBL
        LINES 2
        ldy #12
S3b:    lda #0
        sta GRP1        ; old ENABL = the previous line's
        lda Blink-1,y
        sta ENAM1
        sta ENABL
        dey
        sta WSYNC
        bne S3b

        lda #0
        sta ENAM1
        sta ENABL
        sta GRP1
        LINES 2
        lda #2
        sta ENABL
        lda #0
        sta GRP1        ; old ENABL = 2
        sta ENABL       ; new ENABL = 0, not shown while VDELBL = 1
        LINES 6
        sta GRP1        ; old ENABL = 0
        LINES 6

        ; S4: missile copies, 8 bands of 2 + 8 lines (visible lines 111-190), 2 blank lines
        lda #0
        sta VDELBL
        sta ENABL
        ldy #0
Copies: lda #0
        sta ENAM0
        sta ENAM1
        tya
        ora #$30
        sta NUSIZ0
        tya
        ora #$10
        sta NUSIZ1
        sty TMP
        LINES 2
        lda #2
        sta ENAM0
        sta ENAM1
        LINES 8
        ldy TMP
        iny
        cpy #8
        bne Copies
        lda #0
        sta ENAM0
        sta ENAM1
        LINES 2

        ; overscan: 30 lines
        lda #2
        sta VBLANK
        LINES 30
        jmp Frame

        POS_OBJ_SUB

; On/off pattern for S3 (read with Y = 12 .. 1, so the last byte is the top line).
Blink:  .byte 2, 0, 2, 2, 0, 0, 0, 2, 2, 2, 0, 2

        VECTORS

; retrogym TIA feature ROM: inputs (both joysticks through SWCHA, both fire buttons INPT4/INPT5, console
; switches SWCHB).
;
; What a correct picture shows, on a dark blue background:
;  lines 9-64: two direction crosses made of playfield blocks (yellow), the left joystick's in the left half, the
;     right joystick's in the right half (PF1 rewritten in mid-line). Three 16-line bands with 4-line gaps: the top
;     band shows a block for Up, the middle band blocks for Left, Fire (centre) and Right, the bottom one for Down.
;     Nothing pressed: no blocks.
;  lines 73-84: SWCHB as read (PF1 left, bit 7 at pixel 16, 4 pixels per bit) and the contract byte PAD (right).
;  lines 93-104: player 0 (red, quad width) at XPOS: each frame Right adds 1 (at most 120), Left subtracts 1 (at
;     least 20); it starts at 70. Lines 109-120: player 1 (blue) moved the same way by the right joystick.
; RAM: $89 PAD = left stick and console (bit 7 Right, 6 Left, 5 Down, 4 Up, 3 Fire, 1 Select, 0 Reset; 1 = pressed,
; like test.asm), $8A PAD2 = right stick (bits 7-4 as PAD, bit 3 its fire), $8B XPOS, $8C X2POS, $8D-$92 the six
; PF1 values of the crosses. With inputs held from power-on the picture is the same every frame once the players
; have reached their limits (50 frames at most).

        include "a26.inc"

COL_BK  = $82
COL_PF  = $1E
COL_P0  = $46
COL_P1  = $88

PAD2    = USER
XPOS    = USER + 1
X2POS   = USER + 2
CROSS   = USER + 3      ; 6 bytes: up left, up right, middle left, middle right, down left, down right
TMP     = USER + 11     ; (CROSS+6, CROSS+7: the switch row)

        seg code
        org $F000

Reset:
        START_UP
        lda #70
        sta XPOS
        sta X2POS

Frame:
        VSYNC_FRAME
        ; VBLANK line 1 (E = 10): sample the inputs
        lda SWCHA
        eor #$FF
        sta TMP         ; 1 = pressed
        and #$F0
        sta PAD
        lda SWCHB
        eor #$FF
        and #$03
        ora PAD
        bit INPT4
        bmi .nofire0
        ora #$08
.nofire0:
        sta PAD
        lda TMP
        asl
        asl
        asl
        asl
        bit INPT5
        bmi .nofire1
        ora #$08
.nofire1:
        sta PAD2
        sta WSYNC

        ; VBLANK lines 2-3: the crosses (Up, Left/Fire/Right, Down of each stick as PF1 blocks)
        ldx #0
        lda PAD
        jsr Cross
        sta WSYNC
        ldx #1
        lda PAD2
        jsr Cross
        sta WSYNC

        ; VBLANK lines 4-5: move the players
        lda PAD
        ldx #0
        jsr Move
        sta WSYNC
        lda PAD2
        ldx #1
        jsr Move
        sta WSYNC

        lda XPOS        ; lines 6-10
        ldx #0
        jsr PosObj
        lda X2POS
        ldx #1
        jsr PosObj
        sta WSYNC
        sta HMOVE
        lda #COL_BK
        sta COLUBK
        lda #COL_PF
        sta COLUPF
        lda #COL_P0
        sta COLUP0
        lda #COL_P1
        sta COLUP1
        lda #7
        sta NUSIZ0
        sta NUSIZ1
        lda #0
        sta CTRLPF
        sta PF0
        sta PF2
        LINES 27        ; 11-37
        lda #0
        sta VBLANK

        LINES 7         ; visible 1-7
        ldy #0
        jsr Band        ; 8 (its first WSYNC), 9-24 up
        LINES 3
        ldy #2
        jsr Band        ; 28, 29-44 left, fire, right
        LINES 3
        ldy #4
        jsr Band        ; 48, 49-64 down
        LINES 7         ; 65-71
        lda SWCHB
        sta CROSS+6     ; scratch: the two values of the switch row
        lda PAD
        sta CROSS+7
        ldy #6
        ldx #12
        jsr BandN       ; 72, 73-84 switches
        LINES 8         ; 85-92
        lda #$FF
        sta GRP0
        LINES 12        ; 93-104 player 0
        lda #0
        sta GRP0
        LINES 4         ; 105-108
        lda #$FF
        sta GRP1
        LINES 12        ; 109-120 player 1
        lda #0
        sta GRP1
        LINES 72        ; 121-192

        lda #2          ; overscan
        sta VBLANK
        LINES 30
        jmp Frame

; Cross: A = pad byte (bit 7 Right, 6 Left, 5 Down, 4 Up, 3 Fire), X = 0 left stick / 1 right stick. Table driven,
; so it takes the same time whatever is pressed (the line count never depends on the input).
Cross:  lsr
        lsr
        lsr
        tay             ; R L D U F
        lda UpTab,y
        sta CROSS,x
        lda MidTab,y
        sta CROSS+2,x
        lda DownTab,y
        sta CROSS+4,x
        rts

; Move: A = pad byte, X = 0 (XPOS) or 1 (X2POS).
Move:   SUBROUTINE
        sta TMP
        bit TMP
        bpl .noright
        lda XPOS,x
        cmp #120
        bcs .noright
        inc XPOS,x
.noright:
        bit TMP
        bvc .noleft
        lda XPOS,x
        cmp #21
        bcc .noleft
        dec XPOS,x
.noleft:
        rts

; Band: 16 lines with PF1 = CROSS+Y on the left and CROSS+Y+1 on the right; BandN: X lines. Its first WSYNC ends
; the caller's line; returns early in the line after the band, with PF1 = 0.
Band:   SUBROUTINE
        ldx #16
BandN:  lda CROSS+1,y
        sta TMP
        lda CROSS,y
        sta WSYNC
.line:  sta PF1         ;  3  left half
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
        nop
        nop
        nop             ; 33
        ldy TMP         ; 36
        sty PF1         ; 39  right half (from E = 54.7), after the left PF1 (until E = 38.3)
        dex
        sta WSYNC
        bne .line
        lda #0
        sta PF1
        rts

        POS_OBJ_SUB

; PF1 blocks of the crosses for each R L D U F combination (left block $C0, centre $18, right block $03).
UpTab:
        .byte $00, $00, $18, $18, $00, $00, $18, $18, $00, $00, $18, $18, $00, $00, $18, $18
        .byte $00, $00, $18, $18, $00, $00, $18, $18, $00, $00, $18, $18, $00, $00, $18, $18
MidTab:
        .byte $00, $18, $00, $18, $00, $18, $00, $18, $C0, $D8, $C0, $D8, $C0, $D8, $C0, $D8
        .byte $03, $1B, $03, $1B, $03, $1B, $03, $1B, $C3, $DB, $C3, $DB, $C3, $DB, $C3, $DB
DownTab:
        .byte $00, $00, $00, $00, $18, $18, $18, $18, $00, $00, $00, $00, $18, $18, $18, $18
        .byte $00, $00, $00, $00, $18, $18, $18, $18, $00, $00, $00, $00, $18, $18, $18, $18

        VECTORS

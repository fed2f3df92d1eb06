; retrogym TIA feature ROM: the playfield.
;
; What a correct picture shows (top to bottom, on a dark grey background, each band after a 4-line gap):
;  1. repeated playfield (CTRLPF $00): the same yellow PF0/PF1/PF2 pattern in both halves.
;  2. reflected playfield ($01): the right half is the mirror image of the left.
;  3. score mode ($02): as band 1, left half in red (COLUP0), right half in blue (COLUP1).
;  4. score + reflect ($03): as band 2 in the score colours.
;  5. no priority ($30, ball 8 wide): a red quad-width player 0 (x=20) and a blue player 1 (x=116) drawn over the
;     playfield; the yellow 8-pixel ball at x=100.
;  6. priority ($34): the same objects, the playfield now hides the players where they overlap.
;  7. score + priority ($36): the same with the score colours.
;  8. asymmetric playfield: PF0/PF1/PF2 rewritten in mid-line, so the right half differs from the left.
;  9. PF1 write timing: each of 32 lines clears PF1 at the start and writes $FF one cycle later than the line above
;     (writes end at E = 24 .. 55), a staircase whose steps show where a PF1 write takes effect (4-pixel steps).
; Every frame is identical; RAM holds only the signature, the frame counter and the slide pointer.

        include "a26.inc"

; One 20-line band: 4 gap lines (playfield and objects off), then 16 lines of the test pattern with CTRLPF = {1};
; {2} = 1 also shows both players and the ball. Starts and ends at E = 0-5 of a line.
        MAC PF_BAND
        jsr ClearObjects ; E <= 30: every object is written before its first pixel
        lda #{1}
        sta CTRLPF
        LINES 4
        lda #$70        ; PF0 bits 4-6: pixels 0-11
        sta PF0
        lda #$C5        ; PF1 11000101
        sta PF1
        lda #$1D        ; PF2 (drawn bit 0 first) 00011101
        sta PF2
        if {2}
        lda #$DB
        sta GRP0
        sta GRP1
        lda #2
        sta ENABL
        endif
        LINES 16
        ENDM

COL_BK  = $04           ; dark grey
COL_PF  = $1E           ; yellow
COL_P0  = $46           ; red
COL_P1  = $86           ; blue

SLIDEPTR = USER         ; 2 bytes
COUNT    = USER + 2
SlideEnd = PfSlide + 63

        seg code
        org $F000

Reset:
        START_UP

Frame:
        VSYNC_FRAME
        ; VBLANK line 1 (E = 10): colours, sizes, positions
        lda #COL_BK
        sta COLUBK
        lda #COL_PF
        sta COLUPF
        lda #COL_P0
        sta COLUP0
        lda #COL_P1
        sta COLUP1
        lda #7          ; quad-width player 0
        sta NUSIZ0
        lda #0
        sta NUSIZ1
        lda #20
        ldx #0
        jsr PosObj      ; ends VBLANK lines 1 and 2
        lda #116
        ldx #1
        jsr PosObj      ; lines 3, 4
        lda #100
        ldx #4
        jsr PosObj      ; lines 5, 6
        sta WSYNC       ; line 7
        sta HMOVE
        lda #<(SlideEnd - 7)
        sta SLIDEPTR
        lda #>SlideEnd
        sta SLIDEPTR+1
        LINES 30        ; VBLANK lines 8-37
        lda #0
        sta VBLANK      ; E = 5 of visible line 1

        PF_BAND $00, 0  ; 20 lines each
        PF_BAND $01, 0
        PF_BAND $02, 0
        PF_BAND $03, 0
        PF_BAND $30, 1
        PF_BAND $34, 1
        PF_BAND $36, 1

        ; band 8: asymmetric playfield, 4 gap lines + 12 lines (visible lines 141-156)
        jsr ClearObjects
        lda #$00
        sta CTRLPF
        LINES 4
        ldy #12
Asym:                   ;  0 (3 after the bne)
        lda #$F0        ;  5
        sta PF0         ;  8  left half
        lda #$A5        ; 10
        sta PF1         ; 13
        lda #$0F        ; 15
        sta PF2         ; 18
        nop             ; 20
        nop             ; 22
        nop             ; 24
        nop             ; 26
        nop             ; 28
        nop             ; 30
        lda #$30        ; 32
        sta PF0         ; 35  right half: PF0 shows from pixel 80 (E 49)
        nop             ; 37
        nop             ; 39
        nop             ; 41
        nop             ; 43
        lda #$0F        ; 45
        sta PF1         ; 48  PF1 from pixel 96 (E 54.7)
        lda #$3C        ; 50
        sta PF2         ; 53  PF2 from pixel 128 (E 65.3)
        dey             ; 55
        sta WSYNC
        bne Asym
AsymEnd:
        SAME_PAGE Asym, AsymEnd

        ; band 9: PF1 write timing staircase, 4 gap lines + 32 lines (visible lines 157-192)
        jsr ClearObjects
        jmp Band9       ; the loop and its slide sit on one page
        align 256
Band9:
        lda #32
        sta COUNT
        LINES 3
        ldx #$FF
        ldy #0
        sta WSYNC       ; gap line 4
        bit SIG         ;  3  takes what the bne takes on the later lines
Stair:                  ;  3 (after the bne)
        sty PF1         ;  6  PF1 off before pixel 16
        jmp (SLIDEPTR)  ; 11
PfSlide:
        CLOCK_SLIDE     ; 14 + m, m = 7 .. 38
        stx PF1         ; 17 + m = 24 .. 55
        dec SLIDEPTR    ; one cycle later on the next line
        dec COUNT
        sta WSYNC
        bne Stair
StairEnd:
        SAME_PAGE Stair, StairEnd

        ; overscan: 30 lines
        lda #2
        sta VBLANK
        lda #0
        sta PF1
        lda #<(SlideEnd - 7)
        sta SLIDEPTR
        LINES 30
        jmp Frame

; Clears the playfield and the objects (early in a line, before any is drawn) and returns by E = 30.
ClearObjects:
        lda #0
        sta PF0
        sta PF1
        sta PF2
        sta GRP0
        sta GRP1
        sta ENABL
        rts

        POS_OBJ_SUB

        VECTORS

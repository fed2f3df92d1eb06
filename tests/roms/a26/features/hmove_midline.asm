; retrogym TIA feature ROM: HMOVE strobed in the middle of a line, at every cycle from E = 11 to E = 72.
;
; 62 entries of 3 lines each, top to bottom (E of the HMOVE write = 11, 12 ... 72), then 6 blank lines:
;  line 1: objects off; RESP0, RESP1, RESM0, RESM1, RESBL at E = 25, 35, 45, 55, 65 (fixed places);
;  line 2: objects off; HMOVE written at E = 11 + entry (a clock slide gives 1-cycle steps);
;  line 3: each object shown as one pixel (GRP $80, missile and ball size 1) where that HMOVE left it.
; Motion values: HMP0 $70 (7 left), HMP1 $80 (8 right), HMM0 $F0 (1 right), HMM1 $50 (5 left), HMBL $A0 (6 right).
; Colours: player and missile 0 red, player and missile 1 blue, ball yellow, dark grey background.
; A correct picture is five columns of dots (one dot per entry) whose horizontal offsets follow how far an HMOVE
; at that cycle moves each object: the full amount early in the line (where the HMOVE also blanks the first 8
; pixels of line 2: a black bar on the first entries), then less or more as the write moves into the visible part.
; Every frame is identical.

        include "a26.inc"

COL_BK  = $04
COL_P0  = $48
COL_P1  = $88
COL_PF  = $1E

SLIDEPTR = USER         ; 2 bytes
COUNT    = USER + 2
SlideEnd = MidSlide + 63

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
        sta NUSIZ0      ; one copy, missiles size 1
        sta NUSIZ1
        sta CTRLPF      ; ball size 1
        sta WSYNC       ; VBLANK line 2
        lda #$70
        sta HMP0
        lda #$80
        sta HMP1
        lda #$F0
        sta HMM0
        lda #$50
        sta HMM1
        lda #$A0
        sta HMBL
        lda #<SlideEnd
        sta SLIDEPTR
        lda #>SlideEnd
        sta SLIDEPTR+1
        lda #62
        sta COUNT
        LINES 35        ; lines 2-36
        lda #0
        sta WSYNC       ; VBLANK line 37
        sta VBLANK      ;  3  visible line 1
L1:                     ;  3  (the jmp of later entries)
        lda #0          ;  5
        sta GRP0        ;  8
        sta GRP1        ; 11
        sta ENAM0       ; 14
        sta ENAM1       ; 17
        sta ENABL       ; 20
        nop             ; 22
        sta RESP0       ; 25
        nop
        nop
        nop
        nop
        sta RESP1       ; 35
        nop
        nop
        nop
        nop
        sta RESM0       ; 45
        nop
        nop
        nop
        nop
        sta RESM1       ; 55
        nop
        nop
        nop
        nop
        sta RESBL       ; 65
        sta WSYNC
        jmp (SLIDEPTR)  ;  5
MidSlide:
        CLOCK_SLIDE     ;  8 + m
        sta HMOVE       ; 11 + m
        sta WSYNC
        lda #$80        ;  2
        sta GRP0        ;  5
        sta GRP1        ;  8
        lda #2          ; 10
        sta ENAM0       ; 13
        sta ENAM1       ; 16
        sta ENABL       ; 19
        dec SLIDEPTR    ; 24  m + 1 for the next entry
        dec COUNT       ; 29
        beq Out         ; 31
        sta WSYNC
        jmp L1          ;  3
Out:    sta WSYNC
        lda #0          ; 6 blank lines (visible lines 187-192)
        sta GRP0
        sta GRP1
        sta ENAM0
        sta ENAM1
        sta ENABL
        LINES 6

        ; overscan: 30 lines
        lda #2
        sta VBLANK
        LINES 30
        jmp Frame

        VECTORS

; retrogym TIA feature ROM: instructions fetched from outside the plain ROM window, and the data bus they leave.
;
; The bank-switching carts' CPU loops read an opcode and the byte after it together where both are plain ROM (the
; F8 twin of this ROM, code_fetch_f8.a26, runs there; this 4K image runs the plain carts' per-byte reads). It runs
; the code that cannot be read so, and checks the TIA reads that show the data bus (bits 5-0 of a TIA read are the
; last byte on the bus, here an operand just fetched):
;  S1 (VBLANK line 1): a routine copied into RAM at $C0 and called there (opcodes, operands and dummy reads from
;     RAM, a branch back within RAM): it reads the TIA at $30 (CXM0P: no collision, so $30 from the bus) -> R0 and
;     at $3D (INPT5, bit 7 set: $BD) -> R1, counts a loop down -> R2 = 0, and returns.
;  S2 (VBLANK line 2): a TIA read from ROM code (INPT5 at $3D again: $BD, after a WSYNC strobe that left 0 on the
;     bus: only the operand fetched with the opcode gives $3D) -> R3, then JMP to $FFFE, where a JMP's
;     opcode and low byte ($F0) are the last two bytes of the window: its high byte is the read of $0000 (CXM0P,
;     $30 from the bus), so it lands at $30F0 (= $F0F0), which stores $1E -> R4.
; Picture: four bands of 48 lines with the background colour R0, R1, R3, R4 ($30, $BD, $BD, $1E): red-brown,
; grey-blue, grey-blue, yellow-white. A correct picture is the same every frame.

        include "a26.inc"

RAMCODE = $C0
R0      = USER
R1      = USER+1
R2      = USER+2
R3      = USER+3
R4      = USER+4

        seg code
        org $F000

Reset:
        START_UP
        ldx #RamEnd-RamSrc-1
Copy:   lda RamSrc,x
        sta RAMCODE,x
        dex
        bpl Copy
        jmp Frame

; The routine copied to RAM (position-independent: zero-page accesses and a relative branch only).
RamSrc:
        lda $30         ;  3  TIA CXM0P: bits 5-0 from the bus, the operand $30
        sta R0          ;  3
        lda $3D         ;  3  TIA INPT5: $3D from the bus, bit 7 (no button) set
        sta R1          ;  3
        nop             ;  2  its dummy read is the next RAM byte
        ldx #3          ;  2
RamLoop:
        dex             ;  2
        bne RamLoop     ;  3/2
        stx R2          ;  3
        rts             ;  6
RamEnd:

        org $F0F0
Edge:                   ; the JMP at $FFFE lands here ($30F0: the same 13-bit address)
        lda #$1E        ;  2
        sta R4          ;  3
        jmp EdgeDone    ;  3

Frame:
        VSYNC_FRAME     ; 10  VBLANK line 1
        lda #0          ; 12
        sta CXCLR       ; 15  no collision latched (nothing is drawn anyway)
        jsr RAMCODE     ; 21 + 34 + 6 = 61
        lda #0          ; 63  the strobe below leaves 0 on the bus, so the read after it shows its own operand
        sta WSYNC
        lda $3D         ;  3  VBLANK line 2: INPT5 read from ROM code
        sta R3          ;  6
        jmp $FFFE       ;  9
EdgeDone:               ; 20
        sta WSYNC
        LINES 35        ; VBLANK lines 3-37
        lda #0
        sta VBLANK
        lda R0
        sta COLUBK
        LINES 48
        lda R1
        sta COLUBK
        LINES 48
        lda R3
        sta COLUBK
        LINES 48
        lda R4
        sta COLUBK
        LINES 48
        lda #2          ; overscan
        sta VBLANK
        LINES 30
        jmp Frame

        org $FFFA
        .word Reset     ; NMI (unused on the 6507)
        .word Reset     ; RESET
        .byte $4C, $F0  ; IRQ vector (unused on the 6507): JMP $xxF0 whose high byte is read at $0000

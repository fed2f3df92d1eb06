; retrogym TIA feature ROM: an 8 KiB E0 (Parker Brothers) cartridge whose instructions straddle its 1 KiB slices.
;
; E0 maps four 1 KiB window slots: $1000, $1400 and $1800 each show any of the eight ROM slices (a read of
; $1FE0-$1FE7, $1FE8-$1FEF, $1FF0-$1FF7 picks slot 0, 1, 2's slice), $1C00 always slice 7. The E0 CPU loop reads an
; opcode and the byte after it together where both lie in one slice (a26_bus.h's bus_fetch2); an instruction whose
; opcode is a slot's last byte takes its operand from the next slot, whose slice is not the one after it in the ROM.
;  S1: slot 0 <- slice 0, slot 1 <- slice 5: LDA # at $13FF (slice 0's last byte), its operand at $1400 (slice 5's
;      first byte, $55; slice 1's is $11) -> R0; the code goes on in slice 5, which stores A and jumps back.
;  S2: slot 2 <- slice 3: LDA # at $1BFF (slice 3's last byte), its operand at $1C00 (slice 7's first byte, $77;
;      slice 4's is $44) -> R1, the code going on in slice 7.
; Picture: two bands of 96 lines with the background colours R0 and R1 ($55 and $77). A correct picture is the same
; every frame.

        include "a26.inc"

R0      = USER
R1      = USER+1

; ---- slice 0 (file $0000), shown in slot 0 ($1000-$13FF)
        seg slice0
        org $0000
        rorg $1000
        ds.b $3FF, $EA
        .byte $A9       ; $13FF: LDA #, operand at $1400

; ---- slice 1 (file $0400): the byte the straddling fetch must not read
        seg slice1
        org $0400
        rorg $1400
        .byte $11
        ds.b $3FF, $EA

; ---- slices 2 and 3 (file $0800, $0C00); slice 3 is shown in slot 2 ($1800-$1BFF)
        seg slice2
        org $0800
        rorg $1800
        ds.b $400, $EA
        seg slice3
        org $0C00
        rorg $1800
        ds.b $3FF, $EA
        .byte $A9       ; $1BFF: LDA #, operand at $1C00

; ---- slice 4 (file $1000): the byte the straddling fetch must not read
        seg slice4
        org $1000
        rorg $1400
        .byte $44
        ds.b $3FF, $EA

; ---- slice 5 (file $1400), shown in slot 1 ($1400-$17FF)
        seg slice5
        org $1400
        rorg $1400
        .byte $55       ; $1400: S1's operand
        sta R0          ; $1401
        jmp Back1
        ds.b $3FF-5, $EA

; ---- slice 6 (file $1800): unused
        seg slice6
        org $1800
        rorg $1800
        ds.b $400, $EA

; ---- slice 7 (file $1C00), always in slot 3 ($1C00-$1FFF): the program
        seg slice7
        org $1C00
        rorg $1C00
        .byte $77       ; $1C00: S2's operand
        sta R1          ; $1C01
        jmp Back2

Reset:
        START_UP
        lda $1FE0       ; slot 0 <- slice 0
        lda $1FED       ; slot 1 <- slice 5
        lda $1FF3       ; slot 2 <- slice 3
Frame:
        VSYNC_FRAME     ; 10  VBLANK line 1
        lda #0          ; 12
        jmp $13FF       ; 15  S1: LDA #$55 (2), STA R0 (3), JMP (3)
Back1:                  ; 23
        jmp $1BFF       ; 26  S2: LDA #$77 (2), STA R1 (3), JMP (3)
Back2:                  ; 34
        sta WSYNC
        LINES 36        ; VBLANK lines 2-37
        lda #0
        sta VBLANK
        lda R0
        sta COLUBK
        LINES 96
        lda R1
        sta COLUBK
        LINES 96
        lda #2          ; overscan
        sta VBLANK
        LINES 30
        jmp Frame

        org $1FE0
        rorg $1FE0
        ds.b $1A, $00   ; $1FE0-$1FF9: the hot spots (read only by the program's own accesses)
        .word Reset     ; NMI (unused on the 6507)
        .word Reset     ; RESET
        .word Reset     ; IRQ (unused on the 6507)

; retrogym test ROM for the Atari 2600 (4 KiB, no bank switching). Build: dasm test.asm -f3 -otest.a26
;
; Contract (tests/roms/README.md): "HOMEBREW" at $80, frame counter at $88 (+1 per frame), player-0 input at $89
; (1 = pressed), background green with no input and another colour while anything is held.
;
; The 2600 has no video interrupt: this program *is* the frame. Each pass of the Frame loop strobes WSYNC exactly
; 262 times and never spends a full line (76 CPU cycles) between two strobes, so every pass is exactly one NTSC frame:
; 3 VSYNC + 37 VBLANK + 192 visible + 30 overscan lines.

        processor 6502

; TIA write registers (Debian's dasm ships no vcs.h)
VSYNC   = $00           ; bit 1: vertical sync on
VBLANK  = $01           ; bit 1: beam off
WSYNC   = $02           ; any write halts the CPU until the start of the next line
COLUBK  = $09           ; background colour: hue in bits 7-4, luminance in bits 3-1
; TIA read registers
INPT4   = $0C           ; bit 7 = 0 while the player-0 fire button is held
; RIOT (6532) ports
SWCHA   = $0280         ; bits 7-4: player 0 Right Left Down Up, 0 = pressed
SWACNT  = $0281         ; port A direction, 0 = input
SWCHB   = $0282         ; console switches: bit 0 Reset, bit 1 Select, 0 = pressed
SWBCNT  = $0283         ; port B direction, 0 = input

; RAM ($80-$FF; the stack grows down from $FF and uses only a couple of bytes here)
SIG     = $80           ; 8 bytes "HOMEBREW"
FRAME   = $88           ; frame counter
PAD     = $89           ; bit 7 Right, 6 Left, 5 Down, 4 Up, 3 Fire, 1 Select, 0 Reset; 1 = pressed
TMP     = $8A

IDLE    = $C6           ; NTSC mid green

        seg code
        org $F000

Reset:
        sei
        cld
        ldx #$FF
        txs
        ; Zero-page clear: resets every TIA write register and all RAM, so no stale state shows on screen.
        lda #0
        tax
Clear:  sta $00,x
        inx
        bne Clear
        sta SWACNT      ; both RIOT ports as inputs (the power-on state, made explicit)
        sta SWBCNT

        ldx #7
CopySig:
        lda Signature,x
        sta SIG,x
        dex
        bpl CopySig

; Cycle counts in the comments are CPU cycles into the current line (WSYNC resumes the CPU at cycle 0).
Frame:                  ;  7  (dex, bne, jmp after the last overscan WSYNC)
        lda #2          ;  9
        sta VBLANK      ; 12  beam off through VSYNC and VBLANK
        sta VSYNC       ; 15
        sta WSYNC       ;     line 1 of 3 VSYNC lines
        sta WSYNC       ;     line 2
        sta WSYNC       ;     line 3
        lda #0          ;  2  VBLANK line 1: end VSYNC, count the frame, sample the input
        sta VSYNC       ;  5
        inc FRAME       ; 10
        lda SWCHA       ; 14
        eor #$FF        ; 16  RIOT pins read 0 when pressed; the contract wants 1
        and #$F0        ; 18  player 0 only
        sta TMP         ; 21
        lda SWCHB       ; 25
        eor #$FF        ; 27
        and #$03        ; 29  Reset and Select keep their SWCHB bit positions
        ora TMP         ; 32
        bit INPT4       ; 35  N = fire bit
        bmi NoFire      ; 37/38
        ora #$08        ; 39
NoFire: sta PAD         ; 42  one store, so RAM never holds a half-built value
        sta WSYNC       ; 45  end of VBLANK line 1
        lda PAD         ;  3  VBLANK line 2: pick the background colour
        beq Idle        ;  5/6
        ora #$0E        ;  7  brightest luminance: every held input differs from the idle green
        bne SetBk       ; 10  always taken
Idle:   lda #IDLE       ;  8
SetBk:  sta COLUBK      ; 13
        sta WSYNC       ; 16  end of VBLANK line 2
        ldx #35
VBlankLines:
        sta WSYNC       ;     VBLANK lines 3-37
        dex
        bne VBlankLines
        lda #0
        sta VBLANK      ;     beam on: the visible lines show COLUBK
        ldx #192
VisibleLines:
        sta WSYNC
        dex
        bne VisibleLines
        lda #2
        sta VBLANK      ;     beam off for the overscan
        ldx #30
OverscanLines:
        sta WSYNC
        dex
        bne OverscanLines
        jmp Frame

Signature:
        .byte "HOMEBREW"

        org $FFFA
        .word Reset     ; NMI (the 6507 has no NMI pin)
        .word Reset     ; RESET
        .word Reset     ; IRQ/BRK (no IRQ pin either)

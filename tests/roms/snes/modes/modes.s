; retrogym SNES test ROM that changes the picture's size (32 KiB LoROM), built like ../test.s into bin/snes/modes.sfc.
; It keeps ../test.s's contract at the same addresses:
;   $7E0010      frame counter, +1 per NMI
;   $7E0012-0013 player-1 pad as read from $4218/$4219, 1 = pressed (little-endian word, as in ../test.s)
;   $7E0020-0027 "HOMEBREW"
;   $7E0014      the modes the next frame is drawn in: bit 0 = BG mode 5 (512 pixels wide, else mode 1: 256),
;                bit 1 = overscan (239 lines, else 224)
; Every 32 frames the width flips (Start held flips it at once), every 64 frames the height. No BG layer is enabled,
; so the whole picture is the backdrop, whose colour follows the counter and the pad.

.p816

INIDISP = $2100
CGADD   = $2121
CGDATA  = $2122
TM      = $212C
TS      = $212D
CGWSEL  = $2130
CGADSUB = $2131
SETINI  = $2133
BGMODE  = $2105
NMITIMEN = $4200
RDNMI   = $4210
HVBJOY  = $4212
JOY1L   = $4218

counter   = $10
pad       = $12
signature = $20
modes     = $14

; BGR555. Red's low three bits are set and no pad bit reaches them (see nmi), so the
; backdrop can never turn black whatever is held.
IDLE_COLOUR = (4 << 10) | (12 << 5) | 31

.segment "CODE"

reset:
        sei
        clc
        xce                     ; leave 6502 emulation mode
        rep #$38                ; 16-bit A/X/Y, binary arithmetic
        .a16
        .i16
        ldx #$1FFF
        txs
        lda #$0000
        tcd                     ; direct page = $0000, so dp variables are WRAM $7E:00xx
        sep #$20
        .a8
        lda #$80
        sta INIDISP             ; forced blank while we set up
        stz NMITIMEN

        ; Clear the low 8 KiB of WRAM (bank 0 mirrors it) so counter and pad start at 0.
        ldx #$1FFF
@clear: stz a:$0000,x
        dex
        bpl @clear

        ldx #7
@sig:   lda sigtext,x
        sta a:signature,x
        dex
        bpl @sig

        ; PPU registers are undefined at power-on: the ones that decide what the backdrop
        ; looks like get explicit values (no layers, no colour math, 224 lines, no interlace).
        stz TM
        stz TS
        stz CGWSEL
        stz CGADSUB
        stz SETINI
        rep #$20
        .a16
        lda #IDLE_COLOUR
        jsr set_backdrop
        .a8

        lda #$0F
        sta INIDISP             ; display on, full brightness
        lda RDNMI               ; drop a stale NMI flag
        lda #$81
        sta NMITIMEN            ; NMI at vblank + automatic joypad read
@idle:  bra @idle

nmi:
        rep #$20                ; save all 16 bits of A: set_backdrop uses xba
        .a16
        pha
        sep #$20
        .a8
        lda RDNMI               ; acknowledge
        inc counter

        ; The automatic joypad read starts early in line 225, just after the NMI. Waiting for
        ; that line's hblank first guarantees it has begun, so the busy flag below is meaningful.
@hbl:   bit HVBJOY
        bvc @hbl
@busy:  lda HVBJOY
        lsr a
        bcs @busy

        ; Modes for the next frame: width from counter bit 5 (flipped while Start is held), height from bit 6.
        lda counter
        lsr a
        lsr a
        lsr a
        lsr a
        lsr a                   ; bit 0 = counter bit 5, bit 1 = counter bit 6
        and #$03
        bit JOY1L+1             ; high byte: B Y Select Start Up Down Left Right
        pha
        lda JOY1L+1
        and #$10                ; Start
        beq @nostart
        pla
        eor #$01
        pha
@nostart:
        pla
        sta modes
        lsr a                   ; bit 0 -> carry: mode 5 or mode 1
        lda #$01
        bcc @mode1
        lda #$05
@mode1: sta BGMODE
        lda modes
        and #$02
        asl a                   ; overscan is SETINI bit 2
        sta SETINI

        rep #$20
        .a16
        lda JOY1L
        sta pad
        ; Every button moves one distinct colour bit (bits 3..14) and the counter the low red bits, so each pad
        ; state and each frame has its own backdrop.
        lsr a
        eor #IDLE_COLOUR
        eor counter
        and #$7FFF
        jsr set_backdrop
        rep #$20
        .a16
        pla
        rti

; Writes 16-bit A (BGR555) to CGRAM colour 0. Leaves A 8-bit.
set_backdrop:
        .a16
        sep #$20
        .a8
        stz CGADD
        sta CGDATA              ; low byte first
        xba
        sta CGDATA
        rts

; Nothing else is enabled, so the other vectors are never taken.
unused:
        rti

sigtext:
        .byte "HOMEBREW"

.segment "HEADER"
        .byte "RETROGYM MODES ROM   "  ; title, 21 bytes
        .byte $20               ; LoROM, SlowROM
        .byte $00               ; ROM only
        .byte $05               ; 2^5 KiB = 32 KiB
        .byte $00               ; no SRAM
        .byte $01               ; North America: NTSC timing
        .byte $00               ; developer id
        .byte $00               ; version
        .word $FFFF, $0000      ; checksum complement and checksum, filled in by romfix

.segment "VECTORS"
        ; native mode
        .word unused, unused    ; reserved
        .word unused            ; COP
        .word unused            ; BRK
        .word unused            ; ABORT
        .word nmi               ; NMI
        .word unused            ; reserved
        .word unused            ; IRQ
        ; 6502 emulation mode (only RESET is used: the CPU starts there)
        .word unused, unused    ; reserved
        .word unused            ; COP
        .word unused            ; reserved
        .word unused            ; ABORT
        .word unused            ; NMI
        .word reset             ; RESET
        .word unused            ; IRQ/BRK

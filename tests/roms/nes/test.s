; retrogym NES test ROM (NROM-128, mapper 0), see ../README.md for the contract.
;   $0010      frame counter, +1 per NMI
;   $0011      player-1 pad, 1 = pressed: A B Select Start Up Down Left Right (bit 7 .. bit 0)
;   $0020-0027 "HOMEBREW"
; The picture is the PPU backdrop ($3F00): CHR is all zero, so every background pixel shows it.

PPUCTRL   = $2000
PPUMASK   = $2001
PPUSTATUS = $2002
PPUSCROLL = $2005
PPUADDR   = $2006
PPUDATA   = $2007
DMC_FREQ  = $4010
JOY1      = $4016
APU_FRAME = $4017

counter   = $10
pad       = $11
signature = $20

.segment "HEADER"
        .byte "NES", $1A
        .byte 1                 ; 16 KiB PRG
        .byte 1                 ; 8 KiB CHR
        .byte $00, $00          ; mapper 0, no battery, no trainer
        .res 8, 0

.segment "CODE"

reset:
        sei
        cld
        ldx #$40
        stx APU_FRAME           ; the APU frame IRQ would otherwise fire once the I flag is cleared
        ldx #$FF
        txs
        inx
        stx PPUCTRL             ; no NMI until RAM and the palette are set up
        stx PPUMASK
        stx DMC_FREQ

        ; The PPU ignores writes for about 30000 cycles after power-on: wait out two vblanks.
        bit PPUSTATUS
@vbl1:  bit PPUSTATUS
        bpl @vbl1

        ; Clear all 2 KiB so the counter and pad start from a known value.
        lda #0
        tax
@clear: sta $0000,x
        sta $0100,x
        sta $0200,x
        sta $0300,x
        sta $0400,x
        sta $0500,x
        sta $0600,x
        sta $0700,x
        inx
        bne @clear

@vbl2:  bit PPUSTATUS
        bpl @vbl2

        ldx #7
@sig:   lda sigtext,x
        sta signature,x
        dex
        bpl @sig

        lda #0                  ; no button held yet: show the idle colour before the first NMI
        jsr set_backdrop

        lda #$80
        sta PPUCTRL             ; NMI at every vblank
        lda #$0A
        sta PPUMASK             ; background on (left column too), sprites off: OAM is garbage
@idle:  jmp @idle

; NMI: the only place that touches the PPU once rendering is on, so it cannot race the main loop.
nmi:
        pha
        txa
        pha
        inc counter

        ; Latch the pad, then shift its 8 buttons in. pad starts as 1; that bit reaches
        ; carry after exactly eight ROLs, which ends the loop without a separate count.
        lda #1
        sta JOY1
        sta pad
        lsr a
        sta JOY1
@bit:   lda JOY1
        lsr a                   ; button state (1 = pressed) is bit 0
        rol pad
        bcc @bit

        lda pad
        jsr set_backdrop
        pla
        tax
        pla
irq:    rti

; Backdrop colour for pad state A, then restore the scroll that the PPUADDR writes clobbered.
set_backdrop:
        tax
        bit PPUSTATUS           ; reset the PPUADDR/PPUSCROLL write latch
        lda #$3F
        sta PPUADDR
        lda #$00
        sta PPUADDR
        lda colours,x
        sta PPUDATA
        lda #0
        sta PPUSCROLL
        sta PPUSCROLL
        lda #$80
        sta PPUCTRL             ; also selects nametable 0 again
        rts

sigtext:
        .byte "HOMEBREW"

; One NES palette index per pad value. Hues 1-12 in rows 1-3 only: never one of the black
; entries ($xD-$xF) or row 0's near-blacks, so every pad state gives a visible colour, and
; the idle colour ($11, blue) differs from every single-button colour.
colours:
        .repeat 256, P
        .byte ((P / 12) .mod 3 + 1) * 16 + (P .mod 12) + 1
        .endrepeat

.segment "VECTORS"
        .word nmi, reset, irq

.segment "CHARS"
        .res $2000, 0

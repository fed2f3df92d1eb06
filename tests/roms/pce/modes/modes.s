; retrogym PC Engine test ROM that changes the dot clock (8 KiB HuCard), built like ../test.s into bin/pce/modes.pce.
; It keeps ../test.s's contract at the same RAM offsets:
;   $10      frame counter, +1 per VDC vblank IRQ
;   $11      player-1 pad, 1 = pressed: Left Down Right Up (bits 7..4), Run Select II I (bits 3..0)
;   $20-$27  "HOMEBREW"
; Every 32 frames the VCE dot clock flips between 5.37 MHz and 7.16 MHz, so the core's frame changes width. The
; picture is VCE colour 0, from the counter and the pad.

.setcpu "huc6280"

VDC_STATUS = $0200              ; VDC mirror: an absolute address, unlike $0000 which ca65 would make zero page
VCE_CR     = $0400
VCE_CTA    = $0402              ; colour table address (low, high)
VCE_CTW    = $0404              ; colour data (low, high); the address advances after the high byte
JOYPAD     = $1000
TIMER_CR   = $0C01
IRQ_MASK   = $1402
IRQ_STATUS = $1403

; VDC register numbers (selected with st0, written with st1 low / st2 high)
MAWR = $00
VWR  = $02
CR   = $05
RCR  = $06
BXR  = $07
BYR  = $08
MWR  = $09
HSR  = $0A
HDR  = $0B
VPR  = $0C
VDW  = $0D
VCR  = $0E
DCR  = $0F

counter   = $10
pad       = $11
signature = $20

; VCE colours are 9 bits GGGRRRBBB. Blue's lowest bit is set and no pad bit reaches it (see
; irq1), so the picture never turns black whatever is held.
IDLE_COLOUR = (5 << 6) | (1 << 3) | 5

.segment "CODE"

reset:
        sei
        csh                     ; 7.16 MHz
        cld
        lda #$FF
        tam #%00000001          ; MPR0 = I/O page at $0000
        lda #$F8
        tam #%00000010          ; MPR1 = RAM at $2000 (zero page and stack)
        ldx #$FF
        txs
        lda #$07
        sta IRQ_MASK            ; no interrupt until the VDC is programmed
        stz TIMER_CR
        stz IRQ_STATUS          ; acknowledge a pending timer IRQ

        ; Clear the 8 KiB of RAM: zero one byte, then let the block move smear it upwards.
        stz $2000
        tii $2000, $2001, $1FFF

        ldx #7
@sig:   lda sigtext,x
        sta signature,x
        dex
        bpl @sig

        ; VDC timing for a 256x240 picture at the 5.37 MHz dot clock.
        stz VCE_CR
        ldx #0
@vdc:   lda vdc_init,x
        sta a:$0000             ; register select (st0 only takes immediates)
        lda vdc_init+1,x
        sta a:$0002
        lda vdc_init+2,x
        sta a:$0003
        inx
        inx
        inx
        cpx #vdc_init_end - vdc_init
        bne @vdc

        ; Zero the 32x32 BAT. Entry 0 points at tile 0 with palette 0, and tile 0's pattern
        ; lies inside the BAT itself, so the background is colour 0 everywhere.
        st0 #MAWR
        st1 #0
        st2 #0
        st0 #VWR
        ldx #0
        ldy #4                  ; 4 x 256 words
@bat:   st1 #0
        st2 #0
        dex
        bne @bat
        dey
        bne @bat

        lda #0                  ; nothing held yet: show the idle colour before the first IRQ
        jsr set_colour

        st0 #CR
        st1 #$88                ; vblank IRQ on, background on
        st2 #$00
        lda VDC_STATUS          ; drop a stale vblank flag
        lda #$05
        sta IRQ_MASK            ; unmask IRQ1 (VDC) only
        cli
@idle:  bra @idle

irq1:
        pha
        phx
        phy
        lda VDC_STATUS          ; acknowledges; only the vblank IRQ is enabled, so no need to test it
        inc counter

        ; Reset the pad's multiplexer (CLR pulse with SEL=1), then read the d-pad nibble,
        ; then with SEL=0 the buttons nibble. Hardware wants a few cycles between select and read.
        lda #$01
        sta JOYPAD
        lda #$03
        sta JOYPAD
        lda #$01
        sta JOYPAD
        jsr pad_delay
        lda JOYPAD              ; Up Right Down Left in bits 0..3, 0 = pressed
        asl a
        asl a
        asl a
        asl a
        sta pad
        stz JOYPAD
        jsr pad_delay
        lda JOYPAD              ; I II Select Run in bits 0..3, 0 = pressed
        and #$0F
        ora pad
        eor #$FF                ; 1 = pressed
        sta pad

        lda counter             ; dot clock for the next frame: counter bit 5
        and #$20
        beq @slow
        lda #$01                ; 7.16 MHz
@slow:  sta VCE_CR
        lda pad
        eor counter
        jsr set_colour
        ply
        plx
        pla
        rti

; Writes IDLE_COLOUR xor (A << 1) to VCE colour 0 (background) and colour $100 (the border
; outside the VDC's display area), so the whole frame shows it. Every button moves one colour bit.
set_colour:
        asl a                   ; bit 7 of the pad goes to carry = colour bit 8
        tax
        lda #0
        rol a
        eor #>IDLE_COLOUR
        tay                     ; Y = colour bit 8
        txa
        eor #<IDLE_COLOUR
        tax                     ; X = colour bits 7..0
        stz VCE_CTA
        stz VCE_CTA+1
        stx VCE_CTW
        sty VCE_CTW+1
        stz VCE_CTA
        lda #1
        sta VCE_CTA+1
        stx VCE_CTW
        sty VCE_CTW+1
        rts

pad_delay:
        nop
        nop
        rts

; Nothing else is enabled, so the other vectors are never taken.
unused:
        rti

sigtext:
        .byte "HOMEBREW"

vdc_init:                       ; register, low byte, high byte
        .byte MWR, $00, $00     ; 32x32 BAT
        .byte HSR, $02, $02
        .byte HDR, $1F, $04     ; 32 tiles = 256 pixels
        .byte VPR, $02, $0F
        .byte VDW, $EF, $00     ; 240 lines
        .byte VCR, $03, $00
        .byte RCR, $00, $00
        .byte BXR, $00, $00
        .byte BYR, $00, $00
        .byte DCR, $00, $00
        .byte CR,  $00, $00     ; display and IRQs stay off until the BAT is cleared
vdc_init_end:

.segment "VECTORS"
        .word unused            ; IRQ2 / BRK
        .word irq1              ; IRQ1: VDC
        .word unused            ; timer
        .word unused            ; NMI
        .word reset

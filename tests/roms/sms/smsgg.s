; retrogym test ROM for the Sega Master System and the Game Gear (sdasz80 syntax).
; Not assembled on its own: sms/sms.s sets GG = 0 and gg/gg.s sets GG = 1, then include this file. The .if GG
; blocks hold the only differences: the Start button on port $00, and 12-bit colours taking two CRAM bytes each.
;
; RAM contract ($C000+ is the CPU bus address; RAM is $C000-$DFFF):
;   $C000      frame counter, +1 per VDP frame interrupt
;   $C001      pad, 1 = pressed: bit 0..5 = Up Down Left Right Button1 Button2 (port $DC, inverted);
;              Game Gear only: bit 7 = Start (port $00 bit 7, inverted)
;   $C002      SMS only: number of Pause presses (each press is one NMI; the button cannot be read as held)
;   $C010-7    "HOMEBREW"
; Picture: the name table is cleared so every background cell shows tile 0, rewritten every frame: its rows
; hold the pad byte, so each held key draws a black vertical stripe (colour 1) every 8 pixels. CRAM entry 0
; (the background) and 16 (backdrop/border, R7 = 0) get a colour computed from the pad: white with no input,
; each held key drops one colour bit. The Game Gear's 160x144 window shows only the background, hence entry 0.

COUNTER = 0xC000
PAD     = 0xC001
PAUSES  = 0xC002
SIG     = 0xC010

VDP_DATA = 0xBE
VDP_CTRL = 0xBF                 ; writes: address/register words; reads: status (acknowledges the IRQ)
PORT_AB  = 0xDC                 ; pad 1 (and half of pad 2), 0 = pressed
GG_START = 0x00                 ; Game Gear: bit 7 = Start, 0 = pressed

	.area _HOME (ABS)

	.org 0x0000
	di
	im 1                        ; maskable interrupts go to $0038, where the VDP frame interrupt lands
	ld sp,#0xDFF0               ; below $DFFC-$DFFF, the RAM mirror of the mapper registers
	jp start

	.org 0x0038                 ; VDP interrupt (IM 1)
	jp irq

	.org 0x0066                 ; NMI: the SMS Pause button (no NMI source in Game Gear mode)
	push af
	ld a,(PAUSES)
	inc a
	ld (PAUSES),a
	pop af
	retn

start:
	ld hl,#signature
	ld de,#SIG
	ld bc,#8
	ldir
	xor a
	ld (COUNTER),a
	ld (PAD),a
	ld (PAUSES),a

	in a,(VDP_CTRL)             ; a status read resets the control port to expect a first byte
	ld hl,#vdp_regs
	ld bc,#((vdp_regs_end - vdp_regs) << 8) | VDP_CTRL
	otir                        ; R1 = 0 turns the display off: VRAM then takes writes at full speed

	; Name table $3800-$3EFF and sprite table $3F00-$3FFF: all zero = tile 0, palette 0 everywhere.
	ld de,#0x7800               ; $4000 | $3800: VRAM write at $3800
	call vdp_address
	ld c,#VDP_DATA
	xor a
	ld d,#8                     ; 8 x 256 bytes
1$:	out (c),a                   ; otir left B = 0, so djnz runs 256 times
	djnz 1$
	dec d
	jr nz,1$

	ld de,#0x7F00               ; first sprite Y = $D0 ends the sprite list: no sprites at all
	call vdp_address
	ld a,#0xD0
	out (VDP_DATA),a

	ld de,#0xC000               ; whole CRAM black: entry 1 draws the key stripes; 0 and 16 are set per frame
	call vdp_address
	xor a
	.if GG
	ld b,#64
	.else
	ld b,#32
	.endif
3$:	out (c),a
	djnz 3$

	xor a
	call show_pad               ; the first frame already looks like "no input"

	ld de,#0x8160               ; R1: display on, frame interrupt on
	call vdp_address
	in a,(VDP_CTRL)             ; drop a frame flag raised during the setup, so the first IRQ is a real frame
	ei
4$:	halt                        ; everything else happens in the interrupt handler
	jr 4$

irq:
	push af
	push bc
	push de
	push hl
	in a,(VDP_CTRL)             ; reading the status acknowledges the interrupt
	or a
	jp p,9$                     ; bit 7 clear: not the frame interrupt (the line interrupt is off anyway)
	ld hl,#COUNTER
	inc (hl)
	in a,(PORT_AB)
	cpl
	and #0x3F                   ; bits 6-7 belong to pad 2
	.if GG
	ld l,a
	in a,(GG_START)
	cpl
	and #0x80
	or l
	.endif
	ld (PAD),a
	call show_pad
9$:	pop hl
	pop de
	pop bc
	pop af
	ei                          ; IM 1 entered with interrupts off; the VDP line is released by the read
	reti

; D = high byte, E = low byte of a VDP command word (address | $4000 VRAM write, | $C000 CRAM write,
; $8000 | reg << 8 | value register write). Low byte goes first.
vdp_address:
	ld a,e
	out (VDP_CTRL),a
	ld a,d
	out (VDP_CTRL),a
	ret

; A = pad byte (1 = pressed). Rewrites tile 0, whose bitplane 0 rows are the pad byte (one vertical stripe of
; colour 1 = black per held key, Start leftmost), and CRAM entries 0 and 16 with a colour computed from the pad.
; Only called in vblank or with the display off. Uses A, B, D, E, H, L.
show_pad:
	ld l,a
	ld de,#0x4000               ; VRAM write at $0000: tile 0
	call vdp_address
	ld b,#8
1$:	ld a,l
	out (VDP_DATA),a            ; 4 bitplanes per row: colour index = 1 exactly where a key is held
	xor a
	out (VDP_DATA),a
	out (VDP_DATA),a
	out (VDP_DATA),a
	djnz 1$

	ld a,l
	cpl                         ; back to 1 = released: white ($3F / $FFF) with no input
	ld h,a
	ld de,#0xC000
	call vdp_address
	call put_colour
	.if GG
	ld de,#0xC020               ; entry 16 is at byte 32: two bytes per entry
	.else
	ld de,#0xC010
	.endif
	call vdp_address
put_colour:
	ld a,h
	.if GG
	out (VDP_DATA),a            ; GGGGRRRR: red = the d-pad, green = buttons 1/2 and Start
	ld a,#0x0F                  ; ----BBBB: blue stays full, so the colour is never black
	out (VDP_DATA),a            ; the odd byte commits the pair
	.else
	and #0x3F                   ; --BBGGRR: red = Up/Down, green = Left/Right, blue = buttons 1/2
	out (VDP_DATA),a
	.endif
	ret

vdp_regs:                       ; value, $80 | register
	.db 0x04, 0x80              ; R0: mode 4, no line interrupt, no scroll locks
	.db 0x00, 0x81              ; R1: display off while we set up
	.db 0xFF, 0x82              ; R2: name table at $3800
	.db 0xFF, 0x83              ; R3/R4: unused in mode 4, all ones as documented
	.db 0xFF, 0x84
	.db 0xFF, 0x85              ; R5: sprite attribute table at $3F00
	.db 0xFB, 0x86              ; R6: sprite patterns at $0000
	.db 0x00, 0x87              ; R7: backdrop = sprite palette entry 0 (CRAM 16)
	.db 0x00, 0x88              ; R8/R9: no scroll
	.db 0x00, 0x89
	.db 0xFF, 0x8A              ; R10: line counter reload (line interrupt disabled in R0)
vdp_regs_end:

signature:
	.ascii "HOMEBREW"

; retrogym test ROM for the Game Boy and the Game Boy Color (sdasgb syntax).
; One program serves both images: test.gb (DMG header) and test.gbc (same code, header flag $0143 = $80).
; Every register it writes is harmless on the other model: a DMG ignores VBK and the palette-RAM ports,
; and a CGB running in CGB mode ignores BGP, so no model test is needed for the picture.
;
; RAM contract (WRAM bank 0, which every core exposes):
;   $C000      frame counter, +1 per VBlank interrupt
;   $C001      pad, 1 = pressed: bit 7..4 = Down Up Left Right, bit 3..0 = Start Select B A
;   $C002      register A as the boot ROM left it: $01 on DMG, $11 on CGB (the usual way to detect a CGB)
;   $C010-7    "HOMEBREW"
; Picture: tile 0 fills the whole background; its rows hold the pad byte as colour 1 (one vertical stripe per
; pressed bit) over colour 0, so every pad state gives a different picture. DMG: light grey with black stripes.
; CGB: colour 0 of BG palette 0 is itself computed from the pad (yellow with no input, magenta-ish while any
; key is held), stripes black.

COUNTER = 0xC000
PAD     = 0xC001
BOOT_A  = 0xC002
SIG     = 0xC010

; I/O registers, as offsets for ldh from $FF00
P1   = 0x00                     ; joypad matrix
IF   = 0x0F
LCDC = 0x40
LY   = 0x44
BGP  = 0x47
VBK  = 0x4F                     ; CGB VRAM bank
BCPS = 0x68                     ; CGB BG palette index
BCPD = 0x69                     ; CGB BG palette data
IE   = 0xFF                     ; $FFFF

	.area _HOME (ABS)

	.org 0x0040                 ; VBlank interrupt vector
	jp vblank

	.org 0x0100                 ; entry point; makebin -Z fills the header from $0104
	nop
	jp start

	.org 0x0150
start:
	ld (BOOT_A),a               ; before anything changes A
	di
	ld sp,#0xE000               ; stack at the top of WRAM, well away from the contract bytes

	ld hl,#signature
	ld de,#SIG
	ld b,#8
1$:	ld a,(hl+)
	ld (de),a
	inc de
	dec b
	jr nz,1$
	xor a
	ld (COUNTER),a
	ld (PAD),a

	; The LCD may only be switched off during VBlank (doing it mid-frame can damage a real DMG screen).
2$:	ldh a,(LY)
	cp #144
	jr c,2$
	xor a
	ldh (LCDC),a

	; Point every cell of the BG map at tile 0 (the boot ROM leaves the logo's tile numbers in it, and VRAM
	; is undefined at power-on), so tile 0, rewritten every frame, decides the whole picture. Bank 1 holds the
	; CGB map attributes (0 = palette 0, no flips); on a DMG the VBK write is ignored and bank 0 is cleared twice.
	ld a,#1
	ldh (VBK),a
	call clear_map
	xor a
	ldh (VBK),a
	call clear_map

	ld a,#0xED                  ; colour 0 light grey, colour 1 black (3 and 2 unused)
	ldh (BGP),a
	xor a
	call show_pad               ; the first frame already looks like "no input"

	ld a,#0x91                  ; LCD on, BG tile data at $8000, BG map $9800, BG on
	ldh (LCDC),a
	xor a
	ldh (IF),a                  ; drop any request raised while we were busy
	inc a
	ldh (IE),a                  ; VBlank only
	ei
3$:	halt                        ; everything else happens in the VBlank handler
	jr 3$

clear_map:
	ld hl,#0x9800
	xor a
1$:	ld (hl+),a
	bit 2,h                     ; H runs $98-$9B; bit 2 first becomes 1 at $9C00, the end of the map
	jr z,1$
	ret

vblank:
	push af
	push bc
	push hl
	ld hl,#COUNTER
	inc (hl)

	; Select one half of the key matrix at a time; the extra reads give the lines time to settle
	; (hardware reads the key state a few cycles after the select write).
	ld a,#0x20                  ; P14 low: directions
	ldh (P1),a
	ldh a,(P1)
	ldh a,(P1)
	cpl                         ; keys read 0 when pressed
	and #0x0F
	swap a
	ld b,a
	ld a,#0x10                  ; P15 low: buttons
	ldh (P1),a
	ldh a,(P1)
	ldh a,(P1)
	ldh a,(P1)
	ldh a,(P1)
	cpl
	and #0x0F
	or b
	ld (PAD),a
	ld b,a
	ld a,#0x30                  ; deselect both halves
	ldh (P1),a
	ld a,b
	call show_pad

	pop hl
	pop bc
	pop af
	reti

; A = pad byte. Only called with VRAM and palette RAM accessible (VBlank or LCD off).
show_pad:
	ld c,a
	ld hl,#0x8000               ; tile 0: 8 rows of (low plane = pad, high plane = 0)
	ld b,#8
1$:	ld a,c
	ld (hl+),a
	xor a
	ld (hl+),a
	dec b
	jr nz,1$

	ld a,#0x80                  ; CGB: palette 0 colour 0, auto-increment
	ldh (BCPS),a
	ld a,c                      ; RGB555, low byte = ~pad: red and the low green bits follow the buttons
	cpl
	ldh (BCPD),a
	ld a,c
	or a
	ld a,#0x03                  ; no input: $03FF, yellow
	jr z,2$
	ld a,#0x7C                  ; any key: full blue on top (magenta-ish), so a press is obvious at a glance
2$:	ldh (BCPD),a                ; the high byte is never 0, so the colour is never black
	xor a                       ; colour 1 black
	ldh (BCPD),a
	ldh (BCPD),a
	ret

signature:
	.ascii "HOMEBREW"

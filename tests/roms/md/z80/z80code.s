; Z80 side of the Genesis Z80 test program (md/z80/z80.s uploads it to Z80 RAM; sdasz80 syntax, a 256-byte image).
; Counts main-loop turns and V interrupts (IM 1), echoes a byte the 68000 writes, and on request sets the bank
; register (nine writes to $6000, address bits 15-23) and copies 8 bytes of 68000 ROM from the window at $8000.
; Every variable the 68000 reads is a byte at an even address (words as two bytes, low first, 2 apart), so a 68000
; byte read at an odd Z80 RAM address, done once on purpose ($1F01, $1F03), stays apart from the rest:
;   $1F00/$1F02 starts (+1 at every start from $0000), $1F04/$1F06 V interrupts since the start,
;   $1F08/$1F0A loop turns since the last V interrupt, $1F0C/$1F0E loop turns between the last two V interrupts,
;   $1F10/$1F12 bank wanted (9 bits), $1F14 window offset, $1F16 request number, $1F18 last request done,
;   $1F20-$1F2E the 8 bytes read, $1F30 PARAM + 1, $1F32 PARAM (written by the 68000),
;   $1F01 $A5 and $1F03 the starts' low byte (the odd bytes).

BOOTS  = 0x1F00
VCOUNT = 0x1F04
LOOPS  = 0x1F08
SNAP   = 0x1F0C
BANKW  = 0x1F10
OFFS   = 0x1F14
SEQ    = 0x1F16
DONE   = 0x1F18
WIN    = 0x1F20
ECHO   = 0x1F30
PARAM  = 0x1F32

	.area _HOME (ABS)

	.org 0x0000
	di
	ld sp,#0x1EF0
	im 1
	jp start

	.org 0x0038
	push af
	push hl
	ld hl,#VCOUNT
	inc (hl)
	jr nz,1$
	ld hl,#VCOUNT+2
	inc (hl)
1$:	ld a,(LOOPS)
	ld (SNAP),a
	ld a,(LOOPS+2)
	ld (SNAP+2),a
	xor a
	ld (LOOPS),a
	ld (LOOPS+2),a
	pop hl
	pop af
	ei
	reti

start:
	ld hl,#BOOTS
	inc (hl)
	jr nz,1$
	ld hl,#BOOTS+2
	inc (hl)
1$:	ld a,(BOOTS)
	ld (BOOTS+3),a
	ld a,#0xA5
	ld (BOOTS+1),a
	xor a
	ld (VCOUNT),a
	ld (VCOUNT+2),a
	ld (LOOPS),a
	ld (LOOPS+2),a
	ld a,(SEQ)
	ld (DONE),a
	ei
loop:
	ld hl,#LOOPS
	inc (hl)
	jr nz,2$
	ld hl,#LOOPS+2
	inc (hl)
2$:	ld a,(PARAM)
	inc a
	ld (ECHO),a
	ld a,(DONE)
	ld b,a
	ld a,(SEQ)
	cp b
	jr z,loop
	ld (DONE),a
	ld hl,#0x6000           ; bank register: bit 0 of each of nine writes, address bit 15 first
	ld a,(BANKW)
	ld b,#8
3$:	ld (hl),a
	rrca
	djnz 3$
	ld a,(BANKW+2)
	ld (hl),a
	ld a,(OFFS)
	ld l,a
	ld h,#0x80
	ld de,#WIN
	ld b,#8
4$:	ld a,(hl)
	ld (de),a
	inc hl
	inc de
	inc de
	djnz 4$
	jr loop

; Z80 side of the Genesis YM2612 timer test program (md/ym/ym.s uploads it; sdasz80 syntax, a 256-byte image).
; Polls the YM2612 status ($4000) forever: counts polls, polls that see timer A's flag (the 68000 resets it), and
; timer B's overflows, which it acknowledges ($27 = $2F: both timers running with their flags enabled, B's flag reset),
; logging the poll count at the first 8 of them; counts its V interrupts (IM 1). The 68000 reads and clears the
; counts each frame while it holds the bus. Every variable is a byte at an even address (words low byte first, 2
; apart; md/z80/z80code.s says why):
;   $1F00/$1F02 polls, $1F04/$1F06 polls with A's flag, $1F08 B overflows, $1F0A log entries, $1F0C/$1F0E V interrupts,
;   $1F20 + 4 x i / $1F22 + 4 x i the poll count at B overflow i (i < 8)

POLLS  = 0x1F00
ASEEN  = 0x1F04
BOVF   = 0x1F08
LOGN   = 0x1F0A
VCOUNT = 0x1F0C
LOG    = 0x1F20
YM     = 0x4000

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
1$:	pop hl
	pop af
	ei
	reti

start:
	ei
loop:
	ld a,(YM)
	ld c,a
	ld hl,#POLLS
	inc (hl)
	jr nz,1$
	ld hl,#POLLS+2
	inc (hl)
1$:	bit 0,c
	jr z,2$
	ld hl,#ASEEN
	inc (hl)
	jr nz,2$
	ld hl,#ASEEN+2
	inc (hl)
2$:	bit 1,c
	jr z,loop
	ld a,#0x27              ; B overflowed: reset its flag
	ld (YM),a
	ld a,#0x2F
	ld (YM+1),a
	ld hl,#BOVF
	inc (hl)
	ld a,(LOGN)
	cp #8
	jr nc,loop
	ld hl,#LOGN
	inc (hl)
	add a,a
	add a,a
	ld e,a
	ld d,#0
	ld hl,#LOG
	add hl,de
	ld a,(POLLS)
	ld (hl),a
	inc hl
	inc hl
	ld a,(POLLS+2)
	ld (hl),a
	jr loop

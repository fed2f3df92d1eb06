; retrogym VDP feature ROM: mode 4 scrolling, line interrupts, sprite overflow/collision and the Sega mapper
; (sdasz80 syntax; 128 KiB, eight 16 KiB pages, no header). Run as .sms and as .gg against Genesis Plus GX
; (tests/cores/sms/test_sms_vs_gpgx.c): RAM and pixels must agree on every frame (docs/sms.md, "Tests").
;
; VRAM is filled with LFSR bytes (random name table entries: patterns, flips, palettes, priority); sprite patterns
; 0-15 ($0000-$01FF) are solid, pattern p in colour p + 1. Registers change only in the vertical blank (the frame
; interrupt) or from the line interrupt (every 8 lines, reg 10 = 7): each interrupt first writes register 8 (the
; horizontal scroll) at $0038, so the scroll steps by a per-frame delta every 8 lines. In the vertical blank: reg 0
; (left column blank, H and V scroll locks from the frame counter), reg 9 (V scroll, with the joypad), twelve solid
; sprites (all within 4 lines of each other: 9+ on a line, overflow; or 6 lines apart), moving X (collisions), sprite
; 0 on the joypad; the Sega mapper: slot 0, 1 and 2 switched to pages from the counter and each page's marker
; ($3FF0 of the page) read into RAM; cartridge RAM (bank 0 or 1 by the counter) enabled through $FFFC, a byte
; written and one written two frames before read back, then disabled. Every interrupt logs status and V counter.
;
; RAM: $C000 frame counter, $C001 ring index, $C002 pad (1 = pressed), $C003/$C004 sprite 0's X/Y offsets, $C005
; V scroll, $C006 next H scroll, $C007 H scroll delta, $C010-$C012 the markers of slots 0/1/2, $C013 the cartridge
; RAM byte read back, $C100-$C1FF the ring, $C200-$C23F the sprite table written to VRAM.

COUNTER = 0xC000
RINGIX  = 0xC001
PAD     = 0xC002
PADX    = 0xC003
PADY    = 0xC004
VSCROLL = 0xC005
HNEXT   = 0xC006
HDELTA  = 0xC007
MARKS   = 0xC010
CRAMRD  = 0xC013
RING    = 0xC100
SAT     = 0xC200

VDP_DATA = 0xBE
VDP_CTRL = 0xBF
VCOUNT   = 0x7E
PORT_AB  = 0xDC
NSPR     = 12

	.area _HOME (ABS)

	.org 0x0000
	di
	im 1
	ld sp,#0xDFF0
	jp start

	.org 0x0038                 ; first: register 8 = D (the main loop's copy of HNEXT)
	out (c),d
	out (c),e
	jp irq

	.org 0x0066
	retn

; below $0400 (fixed whatever page slot 0 holds): A = page for slot 0; its marker into (HL)
	.org 0x0080
read_slot0:
	ld (0xFFFD),a
	ld a,(0x3FF0)
	ld (hl),a
	xor a
	ld (0xFFFD),a
	ret

	.org 0x0400
start:
	xor a                       ; mapper: no cartridge RAM, pages 0, 1, 2
	ld (0xFFFC),a
	ld (0xFFFD),a
	inc a
	ld (0xFFFE),a
	inc a
	ld (0xFFFF),a
	ld hl,#0xC000               ; clear the RAM we use
	ld de,#0xC001
	ld bc,#0x02FF
	ld (hl),#0
	ldir
	ld a,#0x08                  ; cartridge RAM: the first 64 bytes of both banks cleared
	call clear_cart
	ld a,#0x0C
	call clear_cart
	xor a
	ld (0xFFFC),a

	in a,(VDP_CTRL)
	ld hl,#init_regs
	ld bc,#((init_regs_end - init_regs) << 8) | VDP_CTRL
	otir                        ; display off, mode 4 registers

	ld de,#0x4000               ; VRAM from $0000: 16 KiB of LFSR bytes
	call vdp_address
	ld hl,#0xACE1
	ld de,#0x4000
1$:	srl h
	rr l
	jr nc,2$
	ld a,h
	xor #0xB4
	ld h,a
2$:	ld a,l
	out (VDP_DATA),a
	dec de
	ld a,d
	or e
	jr nz,1$

	ld de,#0x4000               ; sprite patterns 0-15 solid: plane i of pattern p = $FF where bit i of p + 1
	call vdp_address
	ld b,#1
3$:	ld c,#8
4$:	ld a,b
	ld d,#4
5$:	rrca
	ld e,a
	sbc a,a
	out (VDP_DATA),a
	ld a,e
	dec d
	jr nz,5$
	dec c
	jr nz,4$
	inc b
	ld a,b
	cp #17
	jr nz,3$

	ld de,#0x7F00               ; no sprites until the first frame writes them
	call vdp_address
	ld a,#0xD0
	out (VDP_DATA),a

	ld de,#0xC000               ; CRAM: 64 varied bytes (32 SMS entries or 32 GG words)
	call vdp_address
	ld a,#0x13
	ld b,#64
6$:	out (VDP_DATA),a
	add a,#0x2B
	djnz 6$

	in a,(VDP_CTRL)             ; wait for the frame flag: the display goes on in the vertical blank
7$:	in a,(VDP_CTRL)
	rlca
	jr nc,7$
	ld a,#0xE0                  ; reg 1: display on, frame interrupt
	out (VDP_CTRL),a
	ld a,#0x81
	out (VDP_CTRL),a
	ld c,#VDP_CTRL
	ld e,#0x88
	ei
loop:
	ld a,(HNEXT)
	ld d,a
	halt
	jr loop

; A = $FFFC value enabling a cartridge RAM bank: its first 64 bytes cleared
clear_cart:
	ld (0xFFFC),a
	ld hl,#0x8000
	ld b,#64
8$:	ld (hl),#0
	inc hl
	djnz 8$
	ret

; DE = VDP address word (with the command bits)
vdp_address:
	ld a,e
	out (VDP_CTRL),a
	ld a,d
	out (VDP_CTRL),a
	ret

; A = value, B = register number | $80
set_reg:
	out (VDP_CTRL),a
	ld a,b
	out (VDP_CTRL),a
	ret

irq:
	push af
	push bc
	push de
	push hl
	in a,(VDP_CTRL)             ; status: acknowledges the interrupt
	ld b,a
	ld a,(RINGIX)
	ld l,a
	ld h,#>RING
	ld (hl),b
	inc l
	in a,(VCOUNT)
	ld (hl),a
	inc l
	ld a,l
	ld (RINGIX),a
	bit 7,b
	jr z,9$
	call frame
	jr 10$
9$:	ld a,(HDELTA)               ; a line interrupt: the next 8 lines' scroll
	ld b,a
	ld a,(HNEXT)
	add a,b
	ld (HNEXT),a
10$:	pop hl
	pop de
	pop bc
	pop af
	ei
	reti

frame:
	push ix
	ld hl,#COUNTER
	inc (hl)
	in a,(PORT_AB)
	cpl
	ld (PAD),a
	ld b,a                      ; sprite 0 and the V scroll follow the pad
	ld hl,#PADY
	bit 0,b
	jr z,11$
	dec (hl)
11$:	bit 1,b
	jr z,12$
	inc (hl)
12$:	dec hl
	bit 2,b
	jr z,13$
	dec (hl)
	dec (hl)
13$:	bit 3,b
	jr z,14$
	inc (hl)
	inc (hl)
14$:
	; reg 0: mode 4, line interrupts; bit 5 (left column blank) = counter bit 4, bit 6 (H lock) = counter bit 5,
	; bit 7 (V lock) = counter bit 6
	ld a,(COUNTER)
	and #0x70
	add a,a
	or #0x14
	ld b,#0x80
	call set_reg
	; reg 9: V scroll = counter / 2 + pad Y, below 224
	ld a,(COUNTER)
	srl a
	ld b,a
	ld a,(PADY)
	add a,b
15$:	cp #224
	jr c,16$
	sub #224
	jr 15$
16$:	ld (VSCROLL),a
	ld b,#0x89
	call set_reg
	; reg 8: this frame's first scroll = counter; the delta per 8 lines = (counter / 8 & 7) - 3
	ld a,(COUNTER)
	ld b,#0x88
	call set_reg
	ld a,(COUNTER)
	rrca
	rrca
	rrca
	and #7
	sub #3
	ld (HDELTA),a
	ld b,a
	ld a,(COUNTER)
	add a,b
	ld (HNEXT),a
	; reg 1: 8x16 sprites when counter bit 7 is set
	ld a,(COUNTER)
	rlca
	rlca
	and #2
	or #0xE0
	ld b,#0x81
	call set_reg

	; the mapper: slot 0 = counter & 7, slot 1 = (counter + 3) & 7, slot 2 = (counter * 3) & 7; markers
	ld hl,#MARKS
	ld a,(COUNTER)
	and #7
	call read_slot0
	inc hl
	ld a,(COUNTER)
	add a,#3
	and #7
	ld (0xFFFE),a
	ld a,(0x7FF0)
	ld (hl),a
	inc hl
	ld a,(COUNTER)
	ld b,a
	add a,a
	add a,b
	and #7
	ld (0xFFFF),a
	ld a,(0xBFF0)
	ld (hl),a
	inc hl
	; cartridge RAM: bank = counter bit 0; write counter at (counter / 2) & 63, read ((counter / 2) - 1) & 63
	ld a,(COUNTER)
	and #1
	add a,a
	add a,a
	or #0x08
	ld (0xFFFC),a
	ld a,(COUNTER)
	ld b,a
	srl a
	ld e,a
	and #63
	ld d,#0x80
	push de
	ld e,a
	ld a,b
	ld (de),a
	pop de
	ld a,e
	dec a
	and #63
	ld e,a
	ld a,(de)
	ld (hl),a
	xor a
	ld (0xFFFC),a

	; the sprite table: Y (bytes 0-63) and X, pattern (bytes 64-127) for NSPR sprites, $D0 after them
	ld a,(COUNTER)
	and #0x40
	ld c,#1                     ; Y step: k & 3 (all within 4 lines), or 6 lines apart
	jr z,17$
	ld c,#6
17$:	ld ix,#SAT
	ld b,#0
18$:	ld a,c
	cp #1
	ld a,b
	jr nz,19$
	and #3
	jr 20$
19$:	add a,a                     ; 6k
	add a,b
	add a,a
20$:	ld e,a
	ld a,(COUNTER)
	add a,#40
	and #0x7F
	add a,e
	ld e,a
	ld a,b
	or a
	jr nz,21$
	ld a,(PADY)
	add a,e
	ld e,a
21$:	ld a,e                      ; never $D0, which would end the list
	cp #0xD0
	jr nz,22$
	inc a
22$:	ld 0(ix),a
	ld a,b                      ; X = 16k + counter * (k & 3) (+ pad for k = 0)
	add a,a
	add a,a
	add a,a
	add a,a
	ld e,a
	ld a,b
	and #3
	jr z,24$
	push bc
	ld b,a
	ld a,(COUNTER)
	ld c,a
	ld a,e
23$:	add a,c
	djnz 23$
	ld e,a
	pop bc
24$:	ld a,b
	or a
	jr nz,25$
	ld a,(PADX)
	add a,e
	ld e,a
25$:	ld a,b                      ; ix = SAT + 64 + 2k
	add a,a
	add a,#64
	ld l,a
	ld h,#>SAT
	ld (hl),e
	inc hl
	ld a,b
	and #15
	ld (hl),a
	inc ix
	inc b
	ld a,b
	cp #NSPR
	jr nz,18$
	ld 0(ix),#0xD0
	ld de,#0x7F00
	call vdp_address
	ld hl,#SAT
	ld bc,#(64 << 8) | VDP_DATA
	otir
	ld de,#0x7F80
	call vdp_address
	ld bc,#(64 << 8) | VDP_DATA
	otir
	pop ix
	ret

init_regs:
	.db 0x14,0x80, 0xA0,0x81, 0xFF,0x82, 0xFF,0x83, 0xFF,0x84, 0xFF,0x85, 0xFB,0x86, 0x00,0x87
	.db 0x00,0x88, 0x00,0x89, 0x07,0x8A
init_regs_end:

; each page's marker at $3FF0 of the page
	.org 0x03FF0
	.db 0xB0
	.org 0x07FF0
	.db 0xB1
	.org 0x0BFF0
	.db 0xB2
	.org 0x0FFF0
	.db 0xB3
	.org 0x13FF0
	.db 0xB4
	.org 0x17FF0
	.db 0xB5
	.org 0x1BFF0
	.db 0xB6
	.org 0x1FFF0
	.db 0xB7

; retrogym VDP feature ROM: the TMS9918 modes of the SMS/GG VDP (sdasz80 syntax; 32 KiB, no mapper, no header).
; Run as .sms and as .gg against Genesis Plus GX (tests/cores/sms/test_sms_vs_gpgx.c): RAM and pixels must agree
; on every frame (docs/sms.md, "VDP (TMS9918 modes)").
;
; VRAM is filled with pseudo-random bytes (a 16-bit LFSR), so every table of every mode holds varied data; the
; sprite patterns 0-31 ($3000-$30FF) are solid (Genesis Plus GX's collision differs from the hardware's for sprites
; with holes or colour 0, docs/sms.md). Every 16 frames the next entry of `modes` sets registers 0-7 in the vertical
; blank: Graphics I, II (8x8, 16x16, magnified), Text, Multicolor, their M2 variants, the invalid M1+M3, Graphics I
; with the display off. Each interrupt first sets register 7 (the backdrop) from the ring index, early in the line. Line interrupts every 24 lines and the frame interrupt log the status (the
; TMS modes' 5th sprite number, overflow, collision) and the V counter into a ring at $C100. In the frame interrupt
; eight sprites are rewritten at $3F80 ($D0 after them): solid, colours 1-8, sprites 2 and 5 with the early clock,
; X even (Genesis Plus GX clips magnified sprites by source dots), Y following the frame counter (through $D0, which
; ends the list, and the wrap at 224), 1 or 5 lines apart; sprite 0 moves with the joypad.
;
; RAM: $C000 frame counter, $C001 mode index, $C002 pad (1 = pressed), $C003 ring index, $C004/$C005 sprite 0's
; X/Y offsets, $C100-$C1FF the ring, $C200-$C224 the sprite table written to VRAM.

COUNTER = 0xC000
MODE    = 0xC001
PAD     = 0xC002
RINGIX  = 0xC003
PADX    = 0xC004
PADY    = 0xC005
RING    = 0xC100
SAT     = 0xC200

VDP_DATA = 0xBE
VDP_CTRL = 0xBF
VCOUNT   = 0x7E
PORT_AB  = 0xDC
NMODES   = 12

	.area _HOME (ABS)

	.org 0x0000
	di
	im 1
	ld sp,#0xDFF0
	jp start

	.org 0x0038                 ; first, within the line's first 860 master clocks: register 7 = D (the main loop's
	out (c),d                   ; ring index), a backdrop change Genesis Plus GX shows on the whole line
	out (c),e
	jp irq

	.org 0x0066
	retn

start:
	ld hl,#0xC000               ; clear the RAM we use
	ld de,#0xC001
	ld bc,#0x02FF
	ld (hl),#0
	ldir

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

	ld de,#0x7000               ; sprite patterns 0-31 ($3000-$30FF) solid
	call vdp_address
	ld a,#0xFF
	ld b,#0
3$:	out (VDP_DATA),a
	djnz 3$

	ld de,#0x7F80               ; no sprites until the first frame writes them (the random table would make
	call vdp_address            ; sprites with holes, where Genesis Plus GX's collision differs)
	ld a,#0xD0
	out (VDP_DATA),a

	ld de,#0xC000               ; CRAM: 64 varied bytes (the GG's TMS colours are CRAM words 16-31)
	call vdp_address
	ld a,#0x13
	ld b,#64
4$:	out (VDP_DATA),a
	add a,#0x2B
	djnz 4$

	in a,(VDP_CTRL)             ; wait for the frame flag: the registers change in the vertical blank
20$:	in a,(VDP_CTRL)
	rlca
	jr nc,20$
	xor a
	call set_mode
	ld c,#VDP_CTRL
	ld e,#0x87
	ei
loop:
	ld a,(RINGIX)
	ld d,a
	halt
	jr loop

; DE = VDP address word (with the command bits)
vdp_address:
	ld a,e
	out (VDP_CTRL),a
	ld a,d
	out (VDP_CTRL),a
	ret

; A = mode index: registers 0-7 from `modes`
set_mode:
	ld l,a
	ld h,#0
	add hl,hl
	add hl,hl
	add hl,hl
	ld de,#modes
	add hl,de
	ld b,#0x80
5$:	ld a,(hl)
	out (VDP_CTRL),a
	ld a,b
	out (VDP_CTRL),a
	inc hl
	inc b
	bit 3,b
	jr z,5$
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
	ld a,b
	and #0xFD                   ; bit 1 (of the 5th sprite's number) reads 0 in Genesis Plus GX (docs/sms.md)
	ld (hl),a
	inc l
	in a,(VCOUNT)
	ld (hl),a
	inc l
	ld a,l
	ld (RINGIX),a
	bit 7,b
	call nz,frame
	pop hl
	pop de
	pop bc
	pop af
	ei
	reti

frame:
	ld hl,#COUNTER
	inc (hl)
	in a,(PORT_AB)
	cpl
	ld (PAD),a
	ld b,a                      ; sprite 0 follows the pad: up/down 1 line, left/right 2 dots
	ld hl,#PADY
	bit 0,b
	jr z,6$
	dec (hl)
6$:	bit 1,b
	jr z,7$
	inc (hl)
7$:	dec hl
	bit 2,b
	jr z,8$
	dec (hl)
	dec (hl)
8$:	bit 3,b
	jr z,9$
	inc (hl)
	inc (hl)
9$:
	ld a,(COUNTER)              ; every 16 frames the next mode
	and #0x0F
	jr nz,10$
	ld a,(MODE)
	inc a
	cp #NMODES
	jr c,11$
	xor a
11$:	ld (MODE),a
	call set_mode
10$:
	; the sprite table: Y = counter + k * step (+ pad for k = 0), X = k * 28 + counter * (k & 3) (+ pad), even
	ld a,(COUNTER)
	and #0x20
	ld c,#1
	jr nz,12$
	ld c,#5
12$:	ld ix,#SAT
	ld a,(COUNTER)
	ld e,a                      ; e: Y of sprite k
	ld b,#0                     ; b: k
13$:	ld a,e
	ld d,a
	ld a,b
	or a
	jr nz,14$
	ld a,(PADY)
	add a,d
	ld d,a
14$:	ld 0(ix),d
	ld a,b                      ; X
	add a,a
	add a,a
	ld d,a                      ; 4k
	add a,a
	add a,a
	add a,a                     ; 32k
	sub d                       ; 28k
	ld d,a
	ld a,b
	and #3
	jr z,16$
	push bc
	ld b,a
	ld a,(COUNTER)
	ld c,a
	ld a,d
15$:	add a,c
	djnz 15$
	ld d,a
	pop bc
16$:	ld a,b
	or a
	jr nz,17$
	ld a,(PADX)
	add a,d
	ld d,a
17$:	ld a,d
	and #0xFE
	ld 1(ix),a
	ld a,b                      ; pattern 4k
	add a,a
	add a,a
	ld 2(ix),a
	ld a,b                      ; colour k + 1, early clock on sprites 2 and 5
	inc a
	cp #3
	jr z,18$
	cp #6
	jr nz,19$
18$:	or #0x80
19$:	ld 3(ix),a
	ld a,e
	add a,c
	ld e,a
	inc ix
	inc ix
	inc ix
	inc ix
	inc b
	ld a,b
	cp #8
	jr nz,13$
	ld 0(ix),#0xD0
	ld de,#0x7F80
	call vdp_address
	ld hl,#SAT
	ld bc,#(33 << 8) | VDP_DATA
	otir
	ret

init_regs:
	.db 0x04,0x80, 0xA0,0x81, 0xFF,0x82, 0xFF,0x83, 0xFF,0x84, 0xFF,0x85, 0xFB,0x86, 0x00,0x87
	.db 0x00,0x88, 0x00,0x89, 0x17,0x8A
init_regs_end:

; registers 0-7 of each mode (register 0 bit 4: line interrupts; register 1 $20: frame interrupt, $40: display)
modes:
	.db 0x10,0xE0,0x0E,0x80,0x00,0x7F,0x06,0xF4 ; Graphics I, 8x8
	.db 0x30,0xE3,0x0E,0x80,0x00,0x7F,0x06,0x5A ; Graphics I, 16x16 magnified, left column blank
	.db 0x12,0xE1,0x06,0xFF,0x03,0x7F,0x06,0x15 ; Graphics II, 8x8 magnified (colours $2000, patterns $0000)
	.db 0x02,0xE3,0x0A,0xFF,0x07,0x7F,0x06,0x61 ; Graphics II, 16x16 magnified, no line interrupts
	.db 0x12,0xE2,0x06,0x7F,0x06,0x7F,0x06,0x2E ; Graphics II, 16x16 (colours $0000, patterns $2000)
	.db 0x10,0xF0,0x02,0x00,0x01,0x7F,0x06,0xF1 ; Text
	.db 0x10,0xE8,0x05,0x00,0x02,0x7F,0x06,0x06 ; Multicolor, 8x8
	.db 0x12,0xF0,0x0B,0x00,0x04,0x7F,0x06,0x9D ; Text, M2 (patterns by thirds from $2000)
	.db 0x12,0xEA,0x05,0x00,0x00,0x7F,0x06,0x3C ; Multicolor, M2, 16x16
	.db 0x10,0xF8,0x0C,0x00,0x00,0x7F,0x06,0x4C ; invalid M1+M3
	.db 0x10,0xA1,0x0E,0x80,0x00,0x7F,0x06,0x08 ; Graphics I, display off (flags still counted)
	.db 0x10,0xE1,0x03,0x40,0x06,0x7F,0x06,0x7B ; Graphics I, 8x8 magnified

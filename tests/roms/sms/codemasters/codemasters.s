; retrogym Codemasters-mapper test ROM (sdasz80 syntax; 128 KiB, eight 16 KiB pages). Run as .sms and as .gg against
; Genesis Plus GX (tests/cores/sms/test_sms_vs_gpgx.c): RAM and pixels must agree on every frame (docs/sms.md).
;
; The Codemasters header at $7FE0 (page 1): our core picks the mapper when the words at $7FE6 (checksum) and $7FE8
; (its complement) add up to $10000. Genesis Plus GX picks it only from its CRC32 list of known games, so the last
; four bytes of the image (FORGE, below) make the image's CRC32 that of a listed Codemasters SMS title (the test
; patches them for the .gg run to a listed GG one); forge_crc.py recomputes them after any change to this file.
;
; No interrupts (DI throughout): each frame the program polls the VDP status for the frame flag, then switches the
; three slots by writes to $0000, $4000 and $8000 (slot 0 from a routine copied to RAM, as the code lives in page 0),
; reads each page's marker ($3FF0 of the page) into RAM, writes to other ROM addresses (ignored), and draws: the
; markers as CRAM colours 0-2 and as name table entries at a position that walks the screen.
;
; RAM: $C000 frame counter, $C001 pad (port $DC), $C002 name table offset, $C010-$C012 the markers of slots 0/1/2,
; $C013 a slot 2 byte read back after a write to it, $C014-$C016 the pages asked for, $C020 the RAM routine.

COUNTER = 0xC000
PAD     = 0xC001
NTOFF   = 0xC002
MARKS   = 0xC010
WRBACK  = 0xC013
PAGES   = 0xC014
SW0     = 0xC020

VDP_DATA = 0xBE
VDP_CTRL = 0xBF
PORT_AB  = 0xDC

	.area _HOME (ABS)

	.org 0x0000
	di
	im 1
	ld sp,#0xDFF0
	jp start

	.org 0x0100
start:
	ld hl,#0xC000               ; clear the RAM we use
	ld de,#0xC001
	ld bc,#0x00FF
	ld (hl),#0
	ldir
	ld hl,#sw0_code             ; the slot 0 routine into RAM
	ld de,#SW0
	ld bc,#(sw0_end - sw0_code)
	ldir

	in a,(VDP_CTRL)
	ld hl,#init_regs
	ld bc,#((init_regs_end - init_regs) << 8) | VDP_CTRL
	otir                        ; display off, mode 4 registers

	ld de,#0x4000               ; VRAM from $0000: 16 KiB of LFSR bytes
	call vdp_address
	ld hl,#0xBEEF
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

	ld de,#0x7F00               ; no sprites
	call vdp_address
	ld a,#0xD0
	out (VDP_DATA),a

	ld de,#0xC000               ; CRAM: 64 varied bytes
	call vdp_address
	ld a,#0x21
	ld b,#64
3$:	out (VDP_DATA),a
	add a,#0x35
	djnz 3$

	in a,(VDP_CTRL)             ; display on in the vertical blank
4$:	in a,(VDP_CTRL)
	rlca
	jr nc,4$
	ld a,#0xC0
	out (VDP_CTRL),a
	ld a,#0x81
	out (VDP_CTRL),a

frame:
	in a,(VDP_CTRL)             ; wait for the next frame flag
5$:	in a,(VDP_CTRL)
	rlca
	jr nc,5$
	ld hl,#COUNTER
	inc (hl)
	in a,(PORT_AB)
	cpl
	ld (PAD),a

	ld a,(COUNTER)              ; slot 0: page counter & 7, from RAM (the code's page goes away meanwhile)
	and #7
	ld (PAGES),a
	ld hl,#MARKS
	call SW0
	ld a,(PAD)                  ; slot 1: page (counter + 3) ^ pad, masked to 15 (pages 8-15 mirror 0-7)
	ld b,a
	ld a,(COUNTER)
	add a,#3
	xor b
	and #15
	ld (PAGES + 1),a
	ld (0x4000),a
	ld a,(0x7FF0)
	ld (MARKS + 1),a
	ld a,(COUNTER)              ; slot 2: page counter * 3, masked to 15
	ld b,a
	add a,a
	add a,b
	and #15
	ld (PAGES + 2),a
	ld (0x8000),a
	ld a,(0xBFF0)
	ld (MARKS + 2),a
	ld a,#0x5A                  ; writes elsewhere in ROM change nothing
	ld (0x8001),a
	ld (0xBFF0),a
	ld (0x4001),a
	ld (0x0001),a
	ld a,(0xBFF0)
	ld (WRBACK),a
	ld a,#1                     ; slot 1 back to page 1 (the header page) every 4th frame
	ld b,a
	ld a,(COUNTER)
	and #3
	jr nz,6$
	ld a,b
	ld (0x4000),a

6$:	ld de,#0xC000               ; draw: CRAM bytes 0-2 = the markers
	call vdp_address
	ld hl,#MARKS
	ld b,#3
	ld c,#VDP_DATA
	otir
	ld a,(NTOFF)                ; name table: the three markers and the pad at $3800 + 8 x offset
	ld l,a
	ld h,#0
	add hl,hl
	add hl,hl
	add hl,hl
	ld de,#0x7800
	add hl,de
	ex de,hl
	call vdp_address
	ld hl,#MARKS
	ld b,#3
7$:	ld a,(hl)
	out (VDP_DATA),a
	ld a,(COUNTER)
	and #0x0E
	out (VDP_DATA),a
	inc hl
	djnz 7$
	ld a,(PAD)
	out (VDP_DATA),a
	ld a,(NTOFF)                ; offset += 5 (wraps within the 2 KiB name table)
	add a,#5
	ld (NTOFF),a
	jp frame

vdp_address:
	ld a,e
	out (VDP_CTRL),a
	ld a,d
	out (VDP_CTRL),a
	ret

; copied to SW0 and run from RAM: A = page for slot 0; its marker into (HL); slot 0 back to page 0
sw0_code:
	ld (0x0000),a
	ld a,(0x3FF0)
	ld (hl),a
	xor a
	ld (0x0000),a
	ret
sw0_end:

init_regs:
	.db 0x04,0x80, 0x80,0x81, 0xFF,0x82, 0xFF,0x83, 0xFF,0x84, 0xFF,0x85, 0xFB,0x86, 0x03,0x87
	.db 0x00,0x88, 0x00,0x89, 0xFF,0x8A
init_regs_end:

; each page's marker at $3FF0 of the page
	.org 0x03FF0
	.db 0x81
	.org 0x07FE0                ; the Codemasters header: banks, date (BCD), checksum, its complement
	.db 0x08, 0x27, 0x11, 0x26, 0x07, 0x00
	.dw 0x1234, 0xEDCC
	.org 0x07FF0
	.db 0x92
	.org 0x0BFF0
	.db 0xA3
	.org 0x0FFF0
	.db 0xB4
	.org 0x13FF0
	.db 0xC5
	.org 0x17FF0
	.db 0xD6
	.org 0x1BFF0
	.db 0xE7
	.org 0x1FFF0
	.db 0xF8
	.org 0x1FFFC                ; FORGE: the image's CRC32 = $EA5C3A6F (forge_crc.py)
	.db 0xDD, 0x18, 0x9F, 0x10

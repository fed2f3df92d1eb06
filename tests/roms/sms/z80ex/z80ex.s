; retrogym Z80 instruction exerciser (our own; sdasz80 syntax; 32 KiB, no header, no mapper). Run as .sms and as
; .gg against Genesis Plus GX (tests/cores/sms/test_sms_vs_gpgx.c): RAM and pixels must agree on every frame, so the
; two Z80s give the same results on every operand/flag combination below (docs/z80.md, "Exerciser").
;
; Each group runs one or more instructions for every A (256 values) x NX operand values (step SX) x NF values of F
; (from F0, step SF) and folds the results (A, F with its undocumented bits 3 and 5, 16-bit registers, memory) into a
; CRC-16 (CCITT, polynomial $1021, start $FFFF, table built in RAM at $D000/$D100). Operands come from VX; F is set
; with POP AF. No interrupts; the pause button's NMI returns at once. CRAM entry 0 (the whole screen: VRAM cleared,
; display on) takes the colour of the number of groups done.
;
; RAM: $C000 VF, $C001 VA, $C002 VX, $C00C groups done, $C00D $A5 when all are done, $C020 + 2 x group the CRC-16s
; (low byte first), $C080 a code stub, $C800-$CFFF operand memory.

VF     = 0xC000
VA     = 0xC001
VX     = 0xC002
CNX    = 0xC003
CNF    = 0xC004
PNX    = 0xC005
PSX    = 0xC006
PNF    = 0xC007
PSF    = 0xC008
PF0    = 0xC009
CRC    = 0xC00A
GIDX   = 0xC00C
DONE   = 0xC00D
PTR    = 0xC00E
RESULT = 0xC020
STUB   = 0xC080
MEMP   = 0xC800
TABH   = 0xD0

	.area _HOME (ABS)

	.org 0x0000
	di
	im 1
	ld sp,#0xDFF0
	jp start

	.org 0x0038
	reti

	.org 0x0066
	retn

	.macro GROUP rout, nx, sx, nf, sf, f0
	ld iy,#rout
	ld a,#nx
	ld (PNX),a
	ld a,#sx
	ld (PSX),a
	ld a,#nf
	ld (PNF),a
	ld a,#sf
	ld (PSF),a
	ld a,#f0
	ld (PF0),a
	call run_group
	.endm

	.macro STUB1 op
	ld a,#op
	ld (STUB),a
	ld a,#0xC9
	ld (STUB+1),a
	.endm

	.org 0x0100
start:
	ld hl,#0xC000               ; RAM cleared below the stack
	ld de,#0xC001
	ld bc,#0x1FEF
	ld (hl),#0
	ldir
	ld hl,#vdpregs              ; mode 4, display off
	ld b,#22
	ld c,#0xBF
	otir
	xor a                       ; VRAM cleared
	out (0xBF),a
	ld a,#0x40
	out (0xBF),a
	ld bc,#0x4000
vclr:
	xor a
	out (0xBE),a
	dec bc
	ld a,b
	or c
	jr nz,vclr
	xor a                       ; no sprites: Y = $D0 ends the table at $3F00
	out (0xBF),a
	ld a,#0x7F
	out (0xBF),a
	ld a,#0xD0
	out (0xBE),a
	ld a,#0x40                  ; display on
	out (0xBF),a
	ld a,#0x81
	out (0xBF),a
	call mktab

	STUB1 0x80
	GROUP g_alu_r, 0, 1, 1, 0xFF, 0x00
	STUB1 0x88
	GROUP g_alu_r, 0, 1, 2, 0xFF, 0x00
	STUB1 0x90
	GROUP g_alu_r, 0, 1, 1, 0xFF, 0x00
	STUB1 0x98
	GROUP g_alu_r, 0, 1, 2, 0xFF, 0x00
	STUB1 0xA0
	GROUP g_alu_r, 0, 1, 1, 0xFF, 0x00
	STUB1 0xA8
	GROUP g_alu_r, 0, 1, 1, 0xFF, 0x00
	STUB1 0xB0
	GROUP g_alu_r, 0, 1, 1, 0xFF, 0x00
	STUB1 0xB8
	GROUP g_alu_r, 0, 1, 1, 0xFF, 0x00
	GROUP g_alu_n, 16, 0x11, 2, 0xFF, 0x00
	GROUP g_incdec, 1, 0, 2, 0xFF, 0x00
	GROUP g_daa, 1, 0, 0, 1, 0x00
	GROUP g_misc, 1, 0, 16, 0x11, 0x00
	GROUP g_cb_a, 1, 0, 2, 0xFF, 0x00
	GROUP g_cb_mem, 1, 0, 2, 0xFF, 0x00
	GROUP g_bit, 8, 0x25, 2, 0xFF, 0x00
	GROUP g_add16, 16, 0x11, 2, 0xFF, 0x00
	GROUP g_block, 16, 0x11, 2, 0xFF, 0x00
	GROUP g_rld, 32, 0x0B, 1, 0, 0x00
	GROUP g_in, 1, 0, 16, 0x11, 0x00
	ld a,#0xA5
	ld (DONE),a
halt_loop:
	jr halt_loop

vdpregs:
	.db 0x04,0x80, 0x00,0x81, 0xFF,0x82, 0xFF,0x83, 0xFF,0x84, 0xFF,0x85, 0xFB,0x86, 0x00,0x87
	.db 0x00,0x88, 0x00,0x89, 0xFF,0x8A

; CRC-16 table: TABH page high bytes, TABH+1 page low bytes
mktab:
	ld b,#0
mk:
	ld h,b
	ld l,#0
	ld c,#8
mk1:
	add hl,hl
	jr nc,mk2
	ld a,h
	xor #0x10
	ld h,a
	ld a,l
	xor #0x21
	ld l,a
mk2:
	dec c
	jr nz,mk1
	ld d,#TABH
	ld e,b
	ld a,h
	ld (de),a
	inc d
	ld a,l
	ld (de),a
	inc b
	jr nz,mk
	ret

; A folded into the CRC (clobbers A, DE, HL)
fold:
	ld hl,(CRC)
	xor h
	ld e,a
	ld d,#TABH
	ld a,(de)
	xor l
	ld h,a
	inc d
	ld a,(de)
	ld l,a
	ld (CRC),hl
	ret

; A then F folded (clobbers A, BC, DE, HL)
fold_af:
	push af
	pop bc
	ld hl,(CRC)
	ld a,b
	xor h
	ld e,a
	ld d,#TABH
	ld a,(de)
	xor l
	ld h,a
	inc d
	ld a,(de)
	ld l,a
	ld a,c
	xor h
	ld e,a
	dec d
	ld a,(de)
	xor l
	ld h,a
	inc d
	ld a,(de)
	ld l,a
	ld (CRC),hl
	ret

; F only
fold_f:
	push af
	pop hl
	ld a,l
	jp fold

; H, L, then A and F
fold_hlf:
	push af
	push hl
	ld a,h
	call fold
	pop hl
	ld a,l
	call fold
	pop af
	jp fold_af

; A, F, H, L, D, E, B, C
fold_all:
	push bc
	push de
	push hl
	push af
	call fold
	pop hl
	ld a,l
	call fold
	pop hl
	push hl
	ld a,h
	call fold
	pop hl
	ld a,l
	call fold
	pop hl
	push hl
	ld a,h
	call fold
	pop hl
	ld a,l
	call fold
	pop hl
	push hl
	ld a,h
	call fold
	pop hl
	ld a,l
	jp fold

; A = VA, F = VF; every other register kept
setaf:
	push hl
	ld hl,(VF)
	ex (sp),hl
	pop af
	ret

call_iy:
	jp (iy)

; the group at IY over VF x VA x VX; its CRC into RESULT + 2 x GIDX; CRAM 0 = the new GIDX
run_group:
	ld hl,#0xFFFF
	ld (CRC),hl
	ld a,(PF0)
	ld (VF),a
	ld a,(PNF)
	ld (CNF),a
rg_f:
	xor a
	ld (VA),a
rg_a:
	xor a
	ld (VX),a
	ld a,(PNX)
	ld (CNX),a
rg_x:
	call call_iy
	ld a,(PSX)
	ld hl,#VX
	add a,(hl)
	ld (hl),a
	ld hl,#CNX
	dec (hl)
	jr nz,rg_x
	ld hl,#VA
	inc (hl)
	jr nz,rg_a
	ld a,(PSF)
	ld hl,#VF
	add a,(hl)
	ld (hl),a
	ld hl,#CNF
	dec (hl)
	jr nz,rg_f
	ld a,(GIDX)
	add a,a
	add a,#RESULT & 0xFF
	ld l,a
	ld h,#RESULT >> 8
	ld de,(CRC)
	ld (hl),e
	inc hl
	ld (hl),d
	ld hl,#GIDX
	inc (hl)
	xor a
	out (0xBF),a
	ld a,#0xC0
	out (0xBF),a
	ld a,(hl)
	add a,a
	add a,(hl)
	out (0xBE),a
	out (0xBE),a
	ret

; ALU op in the stub with B = VX
g_alu_r:
	ld a,(VX)
	ld b,a
	call setaf
	call STUB
	jp fold_af

; ADD/ADC/SUB/SBC/AND/XOR/OR/CP n, n = VX
g_alu_n:
	ld a,(VX)
	ld (STUB+1),a
	ld a,#0xC9
	ld (STUB+2),a
	ld a,#0xC6
alun1:
	ld (STUB),a
	call setaf
	call STUB
	call fold_af
	ld a,(STUB)
	add a,#8
	jr nc,alun1
	ret

; INC/DEC A, B and (HL)
g_incdec:
	call setaf
	inc a
	call fold_af
	call setaf
	dec a
	call fold_af
	ld a,(VA)
	ld b,a
	call setaf
	inc b
	push af
	ld a,b
	call fold
	pop af
	call fold_f
	ld a,(VA)
	ld b,a
	call setaf
	dec b
	push af
	ld a,b
	call fold
	pop af
	call fold_f
	ld hl,#MEMP
	ld a,(VA)
	ld (hl),a
	call setaf
	inc (hl)
	call fold_f
	ld a,(MEMP)
	call fold
	ld hl,#MEMP
	ld a,(VA)
	ld (hl),a
	call setaf
	dec (hl)
	call fold_f
	ld a,(MEMP)
	jp fold

g_daa:
	call setaf
	daa
	jp fold_af

g_misc:
	call setaf
	cpl
	call fold_af
	call setaf
	neg
	call fold_af
	call setaf
	scf
	call fold_af
	call setaf
	ccf
	call fold_af
	call setaf
	rlca
	call fold_af
	call setaf
	rrca
	call fold_af
	call setaf
	rla
	call fold_af
	call setaf
	rra
	call fold_af
	ret

; RLC RRC RL RR SLA SRA SLL SRL on A
g_cb_a:
	call setaf
	.db 0xCB,0x07
	call fold_af
	call setaf
	.db 0xCB,0x0F
	call fold_af
	call setaf
	.db 0xCB,0x17
	call fold_af
	call setaf
	.db 0xCB,0x1F
	call fold_af
	call setaf
	.db 0xCB,0x27
	call fold_af
	call setaf
	.db 0xCB,0x2F
	call fold_af
	call setaf
	.db 0xCB,0x37
	call fold_af
	call setaf
	.db 0xCB,0x3F
	call fold_af
	ret

; the same on (HL) and (IX+5), (MEMP) = VA
cbm_pre:
	ld hl,#MEMP
	ld ix,#MEMP-5
	ld a,(VA)
	ld (hl),a
	jp setaf
cbm_post:
	call fold_f
	ld a,(MEMP)
	jp fold
g_cb_mem:
	call cbm_pre
	.db 0xCB,0x06
	call cbm_post
	call cbm_pre
	.db 0xDD,0xCB,0x05,0x06
	call cbm_post
	call cbm_pre
	.db 0xCB,0x0E
	call cbm_post
	call cbm_pre
	.db 0xDD,0xCB,0x05,0x0E
	call cbm_post
	call cbm_pre
	.db 0xCB,0x16
	call cbm_post
	call cbm_pre
	.db 0xDD,0xCB,0x05,0x16
	call cbm_post
	call cbm_pre
	.db 0xCB,0x1E
	call cbm_post
	call cbm_pre
	.db 0xDD,0xCB,0x05,0x1E
	call cbm_post
	call cbm_pre
	.db 0xCB,0x26
	call cbm_post
	call cbm_pre
	.db 0xDD,0xCB,0x05,0x26
	call cbm_post
	call cbm_pre
	.db 0xCB,0x2E
	call cbm_post
	call cbm_pre
	.db 0xDD,0xCB,0x05,0x2E
	call cbm_post
	call cbm_pre
	.db 0xCB,0x36
	call cbm_post
	call cbm_pre
	.db 0xDD,0xCB,0x05,0x36
	call cbm_post
	call cbm_pre
	.db 0xCB,0x3E
	call cbm_post
	call cbm_pre
	.db 0xDD,0xCB,0x05,0x3E
	call cbm_post
	ret

; BIT n,(HL) and BIT n,(IX+3) with the byte VA at $C8xx-$CFxx (page VX & 7, low byte VX)
g_bit:
	ld a,(VX)
	ld l,a
	and #7
	or #0xC8
	ld h,a
	ld a,(VA)
	ld (hl),a
	ld (PTR),hl
	ld hl,(PTR)
	call setaf
	bit 0,(hl)
	call fold_f
	ld ix,(PTR)
	dec ix
	dec ix
	dec ix
	call setaf
	bit 0,3(ix)
	call fold_f
	ld hl,(PTR)
	call setaf
	bit 1,(hl)
	call fold_f
	ld ix,(PTR)
	dec ix
	dec ix
	dec ix
	call setaf
	bit 1,3(ix)
	call fold_f
	ld hl,(PTR)
	call setaf
	bit 2,(hl)
	call fold_f
	ld ix,(PTR)
	dec ix
	dec ix
	dec ix
	call setaf
	bit 2,3(ix)
	call fold_f
	ld hl,(PTR)
	call setaf
	bit 3,(hl)
	call fold_f
	ld ix,(PTR)
	dec ix
	dec ix
	dec ix
	call setaf
	bit 3,3(ix)
	call fold_f
	ld hl,(PTR)
	call setaf
	bit 4,(hl)
	call fold_f
	ld ix,(PTR)
	dec ix
	dec ix
	dec ix
	call setaf
	bit 4,3(ix)
	call fold_f
	ld hl,(PTR)
	call setaf
	bit 5,(hl)
	call fold_f
	ld ix,(PTR)
	dec ix
	dec ix
	dec ix
	call setaf
	bit 5,3(ix)
	call fold_f
	ld hl,(PTR)
	call setaf
	bit 6,(hl)
	call fold_f
	ld ix,(PTR)
	dec ix
	dec ix
	dec ix
	call setaf
	bit 6,3(ix)
	call fold_f
	ld hl,(PTR)
	call setaf
	bit 7,(hl)
	call fold_f
	ld ix,(PTR)
	dec ix
	dec ix
	dec ix
	call setaf
	bit 7,3(ix)
	call fold_f
	ret

; 16-bit: H = VA, L = VA ^ VX, B = VX, C = VA + VX
set16:
	ld a,(VA)
	ld h,a
	ld a,(VX)
	ld b,a
	xor h
	ld l,a
	ld a,(VX)
	add a,h
	ld c,a
	jp setaf
g_add16:
	call set16
	add hl,bc
	call fold_hlf
	call set16
	adc hl,bc
	call fold_hlf
	call set16
	sbc hl,bc
	call fold_hlf
	call set16
	add hl,hl
	call fold_hlf
	call set16
	adc hl,hl
	call fold_hlf
	call set16
	sbc hl,hl
	call fold_hlf
	call set16
	push hl
	pop ix
	add ix,bc
	push ix
	pop hl
	call fold_hlf
	call set16
	push hl
	pop ix
	add ix,ix
	push ix
	pop hl
	call fold_hlf
	ret

; LDI/LDD/CPI/CPD: HL = $C880 holding VX, DE = $C980, BC = VX & 15, A = VA
blk_pre:
	ld hl,#0xC880
	ld a,(VX)
	ld (hl),a
	and #0x0F
	ld c,a
	ld b,#0
	ld de,#0xC980
	jp setaf
g_block:
	call blk_pre
	ldi
	call fold_all
	call blk_pre
	ldd
	call fold_all
	call blk_pre
	cpi
	call fold_all
	call blk_pre
	cpd
	call fold_all
	ld a,(0xC980)
	call fold
	ld a,(0xC97F)
	jp fold

; RLD/RRD: (MEMP) = VX, A = VA
g_rld:
	ld hl,#MEMP
	ld a,(VX)
	ld (hl),a
	call setaf
	rld
	call fold_af
	ld a,(MEMP)
	call fold
	ld hl,#MEMP
	ld a,(VX)
	ld (hl),a
	call setaf
	rrd
	call fold_af
	ld a,(MEMP)
	jp fold

; IN A,(C), IN B,(C), IN F,(C) from the joypad ports $DC and $DD
g_in:
	ld bc,#0xDC
	call setaf
	.db 0xED,0x78
	push af
	ld a,b
	call fold
	pop af
	call fold_af
	ld bc,#0xDC
	call setaf
	.db 0xED,0x40
	push af
	ld a,b
	call fold
	pop af
	call fold_af
	ld bc,#0xDC
	call setaf
	.db 0xED,0x70
	push af
	ld a,b
	call fold
	pop af
	call fold_af
	ld bc,#0xDD
	call setaf
	.db 0xED,0x78
	push af
	ld a,b
	call fold
	pop af
	call fold_af
	ld bc,#0xDD
	call setaf
	.db 0xED,0x40
	push af
	ld a,b
	call fold
	pop af
	call fold_af
	ld bc,#0xDD
	call setaf
	.db 0xED,0x70
	push af
	ld a,b
	call fold
	pop af
	call fold_af
	ret


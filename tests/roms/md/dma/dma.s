| retrogym Genesis DMA test program (68000, GNU as; tests/cores/genesis/test_genesis_programs_sys.c runs it against
| Genesis Plus GX frame by frame). Every frame it runs the same seven DMA steps three times: in the vertical blank
| (from line 225), in the picture (from line 100, display on) and in the picture with the display off (from line 170),
| each step timed with the HV counter, and writes 48 bytes per run into RES (+$00, +$80, +$100):
|   +0  68000 -> VRAM ($8000, 16-128 words from ROM): HV before, HV after (the 68000 is frozen meanwhile)
|   +4  68000 -> CRAM (the 16-colour palette): HV before, after
|   +8  68000 -> VSRAM (40 words from RAM, all = frame & 7: plane A's vertical scroll): HV before, after
|   +12 fill ($A000, 32-224 bytes of the frame's low byte): HV before, polls of the DMA busy bit until clear, HV after
|   +18 copy ($8000 -> $B000, 32-128 bytes): HV before, polls of the busy bit, HV after
|   +24 read back: VRAM $8000 and the last word written there, $A000, the last fill word and the word after it,
|       $B000 and the last copied word, CRAM 1 (its colour bits; the whole word at RAW, $FF0300 + 2 x run), VSRAM 0
|       and 39
|   +44 the status register after the run, +46 the frame (FRAMEW)
| Lengths follow the frame (FRAMEW & 7 and & 3), so a few hundred frames cover every size.

        .include "common.inc"
        .include "prog.inc"

        .equ    VSBUF,      0xFF0400    | 40 words, the VSRAM transfer's source
        .equ    RAW,        0xFF0300    | 3 words: the CRAM word read back in each run, unmasked

        .text
        .global reset
        prog_vectors
        prog_header "RETROGYM DMA TEST PROGRAM"
reset:
        prog_init
main:
        move.b  #0xE1,%d0               | line 225: the blank
        bsr     wait_line
        move.w  FRAMEW,%d7
        lea     VSBUF,%a0
        move.w  %d7,%d0
        andi.w  #7,%d0
        moveq   #39,%d1
1:      move.w  %d0,(%a0)+
        dbra    %d1,1b
        lea     RES,%a2
        bsr     run
        bsr     prog_show
        move.b  #100,%d0                | the picture, display on
        bsr     wait_line
        lea     RES+0x80,%a2
        bsr     run
        move.b  #170,%d0                | the picture, display off
        bsr     wait_line
        move.w  #0x8134,(%a1)
        lea     RES+0x100,%a2
        bsr     run
        move.w  #0x8174,(%a1)
        bra.s   main

| One run of the seven steps; a1 = VDP_CTRL, a2 = where the results go, d7 = frame.
run:
        move.w  %d7,%d0                 | 68000 -> VRAM $8000: 16 + 16 x (frame & 7) words
        andi.w  #7,%d0
        addq.w  #1,%d0
        lsl.w   #4,%d0
        move.w  %d0,%d6
        lea     srcdata(%pc),%a0
        move.l  #0x40000082,%d2
        bsr     dma68k
        moveq   #16,%d0                 | 68000 -> CRAM 0: the palette
        lea     prog_palette(%pc),%a0
        move.l  #0xC0000080,%d2
        bsr     dma68k
        moveq   #40,%d0                 | 68000 -> VSRAM 0: 40 words
        lea     VSBUF,%a0
        move.l  #0x40000090,%d2
        bsr     dma68k

        move.w  #0x8F01,(%a1)           | fill $A000: 32 + 64 x (frame & 3) bytes
        move.w  %d7,%d0
        andi.w  #3,%d0
        lsl.w   #6,%d0
        addi.w  #32,%d0
        move.w  %d0,%d5
        bsr     set_len
        move.w  #0x9780,(%a1)
        move.w  VDP_HV,(%a2)+
        move.l  #0x60000082,(%a1)
        move.w  %d7,%d0
        lsl.w   #8,%d0
        move.w  %d0,VDP_DATA            | starts the fill (this word is written first, as a normal write)
        bsr     poll_busy

        move.w  %d7,%d0                 | copy $8000 -> $B000: 32 + 32 x (frame & 3) bytes
        andi.w  #3,%d0
        addq.w  #1,%d0
        lsl.w   #5,%d0
        move.w  %d0,%d4
        bsr     set_len
        move.w  #0x9500,(%a1)
        move.w  #0x9680,(%a1)
        move.w  #0x97C0,(%a1)
        move.w  VDP_HV,(%a2)+
        move.l  #0x300000C2,(%a1)
        bsr     poll_busy
        move.w  #0x8F02,(%a1)

        move.w  #0x8000,%d1             | read back
        bsr     vram_rd
        move.w  %d6,%d1
        add.w   %d1,%d1
        addi.w  #0x8000-2,%d1
        bsr     vram_rd
        move.w  #0xA000,%d1
        bsr     vram_rd
        move.w  #0xA000-2,%d1
        add.w   %d5,%d1
        bsr     vram_rd
        move.w  #0xA000,%d1
        add.w   %d5,%d1
        bsr     vram_rd
        move.w  #0xB000,%d1
        bsr     vram_rd
        move.w  #0xB000-2,%d1
        add.w   %d4,%d1
        bsr     vram_rd
        move.l  #0x00020020,(%a1)       | CRAM 1: its colour bits shown, the whole word (the unused bits come from the
        move.w  VDP_DATA,%d0            | VDP's write FIFO on a console) to RAW + 2 x run, which is not shown
        move.w  %d0,%d1
        andi.w  #0x0EEE,%d1
        move.w  %d1,(%a2)+
        move.l  %a2,%d1                 | a2 = RES + $28, $A8, $128 here: 2 x run into d1
        subi.w  #0x0100,%d1
        lsr.w   #6,%d1
        andi.w  #6,%d1
        lea     RAW,%a0
        move.w  %d0,(%a0,%d1.w)
        move.l  #0x00000010,(%a1)       | VSRAM 0
        move.w  VDP_DATA,(%a2)+
        move.l  #0x004E0010,(%a1)       | VSRAM 39
        move.w  VDP_DATA,(%a2)+
        move.w  (%a1),(%a2)+
        move.w  %d7,(%a2)+
        rts

| 68000 -> VDP transfer: a0 = source, d0 = length in words, d2 = the command with CD5; HV before and after to (a2)+.
dma68k:
        bsr     set_len
        move.l  %a0,%d0
        lsr.l   #1,%d0
        move.w  %d0,%d1
        andi.w  #0xFF,%d1
        ori.w   #0x9500,%d1
        move.w  %d1,(%a1)
        lsr.l   #8,%d0
        move.w  %d0,%d1
        andi.w  #0xFF,%d1
        ori.w   #0x9600,%d1
        move.w  %d1,(%a1)
        lsr.l   #8,%d0
        andi.w  #0x7F,%d0
        ori.w   #0x9700,%d0
        move.w  %d0,(%a1)
        move.w  VDP_HV,(%a2)+
        move.l  %d2,(%a1)
        move.w  VDP_HV,(%a2)+
        rts

| DMA length registers 19-20 from d0.w; clobbers d0, d1.
set_len:
        move.w  %d0,%d1
        andi.w  #0xFF,%d1
        ori.w   #0x9300,%d1
        move.w  %d1,(%a1)
        lsr.w   #8,%d0
        ori.w   #0x9400,%d0
        move.w  %d0,(%a1)
        rts

| Polls status bit 1 (DMA busy) until clear; the number of polls and then the HV counter to (a2)+.
poll_busy:
        moveq   #0,%d3
1:      addq.w  #1,%d3
        move.w  (%a1),%d0
        btst    #1,%d0
        bne.s   1b
        move.w  %d3,(%a2)+
        move.w  VDP_HV,(%a2)+
        rts

| Reads the VRAM word at d1.w to (a2)+.
vram_rd:
        move.w  %d1,%d0
        andi.w  #0x3FFF,%d0
        swap    %d0
        move.w  %d1,%d0
        rol.w   #2,%d0
        andi.w  #3,%d0
        move.l  %d0,(%a1)
        move.w  VDP_DATA,(%a2)+
        rts

vint:
        addq.w  #1,FRAMEW
        addq.b  #1,RAM_FRAME
        rte
hint:
        rte

        .balign 2
srcdata:                                | 128 words for the VRAM transfer
        .set    i, 0
        .rept   128
        .word   (i * 0x0301 + 0x1234) & 0xFFFF
        .set    i, i + 1
        .endr

        prog_tail

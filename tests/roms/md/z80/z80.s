| retrogym Genesis Z80 test program (68000, GNU as; the Z80's code is z80code.s, uploaded at reset;
| tests/cores/genesis/test_genesis_programs_sys.c runs it against Genesis Plus GX frame by frame).
| At reset the 68000 takes the Z80's bus out of reset, copies the Z80 program into Z80 RAM, and starts it. Every frame:
|   line 225 (blank): bus request, polls until granted (count), the even bytes of Z80 RAM $1F00-$1F3F and $1F40
|     (written without the bus at line 150: lost) copied into RES, a new bank request (bank 1-3 of the 128 KiB ROM, where each 32 KiB bank's
|     first 256 bytes are a pattern of its own, offset (7 x frame) & $F8) and PARAM = frame written; every 64 frames
|     (frame & 63 = 32) the Z80 is reset and restarted; the bus is held for (frame & 7) x 40 DBRA turns, released.
|   line 100 (picture): bus request, polls, the Z80's loop and V interrupt counters read, bus released at once.
|   line 150: a byte read from Z80 RAM and a write to $A01F30 without the bus (open bus, lost).
| RES ($FF0100): +$00 Z80 RAM $1F00, $1F02 ... $1F3E (at line 225; z80code.s lists them) but for the loop counts
|   ($1F08-$1F0E, at +$04-$07: 0 here, at RAW + 8), +$20 $1F40, +$22 polls until granted (225), +$24 polls (100),
|   +$2A the frame (FRAMEW), +$2C HV after the release (225), +$2E HV after the release (100).
| RAW ($FF0300, not shown): the words read at $A11100 while granted (225, 100), the byte read from Z80 RAM without
|   the bus (150): open-bus bits; the odd bytes $1F01 ($A5) and $1F03 (the starts' low byte) read with the bus (225);
|   +8 the Z80's loop counts $1F08, $1F0A, $1F0C, $1F0E at line 225 and +12 at line 100 (they depend on the Z80's
|   clock phase after each bus release, to the master clock).

        .include "common.inc"
        .include "prog.inc"

        .equ    RAW,        0xFF0300

        .text
        .global reset
        prog_vectors
        prog_header "RETROGYM Z80 TEST PROGRAM"
reset:
        prog_init
        move.w  #0x100,Z80_BUSREQ       | upload: bus held, reset released (the 68000 reaches Z80 RAM only then)
        move.w  #0x100,Z80_RESET
1:      btst    #0,Z80_BUSREQ
        bne.s   1b
        lea     z80code(%pc),%a0
        lea     Z80_RAM,%a2
        move.w  #z80code_end-z80code-1,%d0
2:      move.b  (%a0)+,(%a2)+
        dbra    %d0,2b
        lea     Z80_RAM+0x1F00,%a2      | clear the Z80's variables
        moveq   #127,%d0
3:      clr.b   (%a2)+
        dbra    %d0,3b
        move.w  #0,Z80_RESET
        move.w  #0,Z80_BUSREQ
        moveq   #20,%d0
4:      dbra    %d0,4b
        move.w  #0x100,Z80_RESET        | the Z80 starts at $0000
main:
        move.b  #0xE1,%d0               | line 225
        bsr     wait_line
        move.w  FRAMEW,%d7
        move.w  %d7,RES+0x2A
        bsr     request
        move.w  %d1,RES+0x22
        move.w  Z80_BUSREQ,RAW
        lea     Z80_RAM+0x1F00,%a0
        lea     RES,%a2
        moveq   #31,%d0
1:      move.b  (%a0),(%a2)+
        addq.l  #2,%a0
        dbra    %d0,1b
        move.l  RES+4,RAW+8
        clr.l   RES+4
        move.b  Z80_RAM+0x1F40,RES+0x20
        move.b  Z80_RAM+0x1F01,RAW+6
        move.b  Z80_RAM+0x1F03,RAW+7
        move.w  %d7,%d0                 | bank 1 + frame mod 3
        andi.l  #0xFFFF,%d0
        divu.w  #3,%d0
        swap    %d0
        addq.w  #1,%d0
        move.b  %d0,Z80_RAM+0x1F10
        clr.b   Z80_RAM+0x1F12
        move.w  %d7,%d0
        mulu.w  #7,%d0
        andi.b  #0xF8,%d0
        move.b  %d0,Z80_RAM+0x1F14
        move.b  %d7,Z80_RAM+0x1F32
        move.b  %d7,%d0
        addq.b  #1,%d0
        move.b  %d0,Z80_RAM+0x1F16      | request number: frame + 1 (never the last one done)
        move.w  %d7,%d0
        andi.w  #63,%d0
        cmpi.w  #32,%d0
        bne.s   2f
        move.w  #0,Z80_RESET            | reset the Z80, then let it go again
        moveq   #10,%d0
3:      dbra    %d0,3b
        move.w  #0x100,Z80_RESET
2:      move.w  %d7,%d0
        andi.w  #7,%d0
        mulu.w  #40,%d0
4:      dbra    %d0,4b
        move.w  #0,Z80_BUSREQ
        move.w  VDP_HV,RES+0x2C
        bsr     prog_show

        move.b  #100,%d0                | line 100
        bsr     wait_line
        bsr     request
        move.w  %d1,RES+0x24
        move.w  Z80_BUSREQ,RAW+2
        move.b  Z80_RAM+0x1F08,RAW+12
        move.b  Z80_RAM+0x1F0A,RAW+13
        move.b  Z80_RAM+0x1F0C,RAW+14
        move.b  Z80_RAM+0x1F0E,RAW+15
        move.w  #0,Z80_BUSREQ
        move.w  VDP_HV,RES+0x2E

        move.b  #150,%d0                | line 150: no bus
        bsr     wait_line
        move.b  Z80_RAM+0x1F00,RAW+4
        move.b  %d7,Z80_RAM+0x1F40
        bra     main

| Bus request; d1 = polls of $A11100 until bit 8 reads 0 (granted).
request:
        move.w  #0x100,Z80_BUSREQ
        moveq   #0,%d1
1:      addq.w  #1,%d1
        btst    #0,Z80_BUSREQ
        bne.s   1b
        rts

vint:
        addq.w  #1,FRAMEW
        addq.b  #1,RAM_FRAME
        rte
hint:
        rte

z80code:
        .incbin "z80code.bin"
z80code_end:

        prog_tail

| The first 256 bytes of 32 KiB banks 1-3 of the ROM: what the Z80 reads through its window.
        .org    0x8000
        .set    i, 0
        .rept   256
        .byte   (i * 3 + 0x11) & 0xFF
        .set    i, i + 1
        .endr
        .org    0x10000
        .set    i, 0
        .rept   256
        .byte   (i * 5 + 0x22) & 0xFF
        .set    i, i + 1
        .endr
        .org    0x18000
        .set    i, 0
        .rept   256
        .byte   (i ^ 0x5A)
        .set    i, i + 1
        .endr

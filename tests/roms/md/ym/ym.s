| retrogym Genesis YM2612 timer test program (68000, GNU as; the Z80's code is z80code.s, uploaded at reset;
| tests/cores/genesis/test_genesis_programs_sys.c runs it against Genesis Plus GX frame by frame).
| Timer A: NA = 1024 - (60 + (frame & 31)) (60-91 samples a period); timer B: NB = 256 - (2 + (frame & 3)) (32-80
| samples); both written each frame at line 226 (a new value loads at the next overflow) and started at reset with
| their flags enabled ($27 = $0F). Every 16 frames (frame & 15 = 8) timer A is stopped and started again ($27 = $1E,
| $1F: the counter reloads). Each frame, holding the Z80's bus from line 226 to line 20 of the next frame, the 68000
| polls the status itself: polls, A overflows (it resets A's flag: $27 = $1F) with the poll count at the first 8,
| the busy bit after each register write. From line 20 to 226 the Z80 polls (z80code.s): its counts go to RAW.
| RES ($FF0100): +$00 polls, +$02 A overflows, +$16 busy bits seen after the writes (bit i: write i), +$18 NA,
|   +$1A NB, +$1C the frame (FRAMEW), +$1E polls until the bus was granted.
| RAW ($FF0300, not shown): the Z80's counts of the frame (even bytes of Z80 RAM $1F00-$1F3E: polls, polls with A's
|   flag, B overflows, log entries, V interrupts taken since the start (the INT line stays asserted to the end of
|   line 224, so the short handler is taken more than once a frame), poll counts at B overflows), which depend on the
|   Z80's clock phase after each bus release (md/z80/z80.s); +$20 the 68000's poll counts at its first 8 A overflows
|   of the frame (words); +$30 the status at line 226 (word read at $A04000), +$32 the same through the other three
|   port addresses ($A04001-$A04003, bytes): whether the Z80 acknowledged B's last overflow depends on its phase too.

        .include "common.inc"
        .include "prog.inc"

        .equ    RAW,        0xFF0300

        .text
        .global reset
        prog_vectors
        prog_header "RETROGYM YM2612 TIMER TEST PROGRAM"
reset:
        prog_init
        move.w  #0x100,Z80_BUSREQ       | upload the Z80 program (bus held, reset released)
        move.w  #0x100,Z80_RESET
1:      btst    #0,Z80_BUSREQ
        bne.s   1b
        lea     z80code(%pc),%a0
        lea     Z80_RAM,%a2
        move.w  #z80code_end-z80code-1,%d0
2:      move.b  (%a0)+,(%a2)+
        dbra    %d0,2b
        lea     Z80_RAM+0x1F00,%a2
        moveq   #127,%d0
3:      clr.b   (%a2)+
        dbra    %d0,3b
        lea     YM_ADDR0,%a3
        move.b  #0x24,(%a3)             | timer A = 1024 - 60, B = 256 - 2, started with flags enabled
        move.b  #0xF1,1(%a3)
        move.b  #0x25,(%a3)
        move.b  #0x00,1(%a3)
        move.b  #0x26,(%a3)
        move.b  #0xFE,1(%a3)
        move.b  #0x27,(%a3)
        move.b  #0x0F,1(%a3)
        move.w  #0,Z80_RESET            | reset pulse: the Z80 starts at $0000 once the bus is released
        moveq   #10,%d0
4:      dbra    %d0,4b
        move.w  #0x100,Z80_RESET
        move.w  #0,Z80_BUSREQ
main:
        move.b  #0xE2,%d0               | line 226
        bsr     wait_line
        move.w  FRAMEW,%d7
        move.w  %d7,RES+0x1C
        move.w  #0x100,Z80_BUSREQ
        moveq   #0,%d1
1:      addq.w  #1,%d1
        btst    #0,Z80_BUSREQ
        bne.s   1b
        move.w  %d1,RES+0x1E
        lea     YM_ADDR0,%a3
        move.w  (%a3),RAW+0x30
        move.b  1(%a3),RAW+0x32
        move.b  2(%a3),RAW+0x33
        move.b  3(%a3),RAW+0x34
        lea     Z80_RAM+0x1F00,%a0      | the Z80's counts (even bytes) to RAW, then cleared
        lea     RAW,%a2
        moveq   #31,%d0
2:      move.b  (%a0),(%a2)+
        clr.b   (%a0)
        addq.l  #2,%a0
        dbra    %d0,2b
        move.b  RAW+6,Z80_RAM+0x1F0C    | its V interrupts: kept
        move.b  RAW+7,Z80_RAM+0x1F0E

        moveq   #0,%d6                  | busy bits
        moveq   #0,%d5                  | write index
        move.w  %d7,%d0                 | NA = 1024 - (60 + (frame & 31))
        andi.w  #31,%d0
        addi.w  #60,%d0
        neg.w   %d0
        addi.w  #1024,%d0
        move.w  %d0,RES+0x18
        move.w  %d0,%d1
        lsr.w   #2,%d1
        moveq   #0x24,%d2
        bsr     ym_write
        move.w  %d0,%d1
        andi.w  #3,%d1
        moveq   #0x25,%d2
        bsr     ym_write
        move.w  %d7,%d1                 | NB = 256 - (2 + (frame & 3))
        andi.w  #3,%d1
        addq.w  #2,%d1
        neg.w   %d1
        andi.w  #0xFF,%d1
        move.w  %d1,RES+0x1A
        moveq   #0x26,%d2
        bsr     ym_write
        move.w  %d7,%d0
        andi.w  #15,%d0
        cmpi.w  #8,%d0
        bne.s   3f
        moveq   #0x1E,%d1               | stop A, then start it again: its counter reloads
        moveq   #0x27,%d2
        bsr     ym_write
        moveq   #0x1F,%d1
        moveq   #0x27,%d2
        bsr     ym_write
3:      move.w  %d6,RES+0x16
        bsr     prog_show

        moveq   #0,%d2                  | poll until line 20
        moveq   #0,%d3
        lea     RAW+0x20,%a4
4:      addq.w  #1,%d2
        move.b  (%a3),%d0
        btst    #0,%d0
        beq.s   5f
        addq.w  #1,%d3
        cmpi.w  #8,%d3
        bhi.s   6f
        move.w  %d2,(%a4)+
6:      move.b  #0x27,(%a3)
        move.b  #0x1F,1(%a3)
5:      cmpi.b  #20,VDP_HV
        bne.s   4b
        move.w  %d2,RES+0x00
        move.w  %d3,RES+0x02
        move.w  #0,Z80_BUSREQ
        bra     main

| YM2612 part I register d2 = d1; then the status: its busy bit (7) into bit d5 of d6; d5 + 1. Keeps d0.
ym_write:
        move.b  %d2,(%a3)
        move.b  %d1,1(%a3)
        move.b  (%a3),%d2
        btst    #7,%d2
        beq.s   1f
        bset    %d5,%d6
1:      addq.w  #1,%d5
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

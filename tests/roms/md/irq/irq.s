| retrogym Genesis interrupt test program (68000, GNU as; tests/cores/genesis/test_genesis_programs_sys.c runs it
| against Genesis Plus GX frame by frame). H interrupts on (R0 bit 4) every N + 1 lines, N = R10 = (5 x frame) & 31,
| written each frame at line 225; V interrupts on. Every interrupt is logged; the 68000 masks interrupts over lines
| 60-80 and 200-227 and then unmasks them, so pending interrupts are taken late (odd frames: SR $2000 at once; even
| frames: $2500, then $2300 eight NOPs later). RES ($FF0100):
|   +$000 the log: 64 entries of (HV counter, type << 8 | status low byte), type 4 = H, 6 = V; from line 225 on
|   +$100 16 HV samples 40 DBRA turns apart from line 225 (the blank), +$120 the same from line 100
|   +$140 the status polled from line 200 (interrupts masked) until the V counter reads $E3: polls, polls with
|         VBLANK (bit 3), with HBLANK (bit 2), with the V interrupt flag (bit 7), index of the first VBLANK poll
|   +$14A H interrupts in the last frame, log entries in it (may exceed 64), N
|   +$150 after the unmask at line 80: the last H interrupt's HV, H interrupts so far in the frame, the HV read
|         right after the unmask; +$156 the same after the unmask at $E3, and the last V interrupt's HV
|   +$15E the frame (FRAMEW)

        .include "common.inc"
        .include "prog.inc"

        .equ    HCOUNT,     0xFF0012    | H interrupts since line 225
        .equ    LOGN,       0xFF0014    | log entries since line 225
        .equ    LASTH,      0xFF0016    | HV at the last H interrupt
        .equ    LASTV,      0xFF0018    | HV at the last V interrupt

        .text
        .global reset
        prog_vectors
        prog_header "RETROGYM INTERRUPT TEST PROGRAM"
reset:
        prog_init
        move.w  #0x8014,(%a1)           | R0: H interrupts on
main:
        move.b  #0xE1,%d0               | line 225
        bsr     wait_line
        move.w  FRAMEW,%d7
        move.w  HCOUNT,RES+0x14A
        move.w  LOGN,RES+0x14C
        clr.w   HCOUNT
        clr.w   LOGN
        move.w  %d7,%d0
        mulu.w  #5,%d0
        andi.w  #31,%d0
        move.w  %d0,RES+0x14E
        ori.w   #0x8A00,%d0
        move.w  %d0,(%a1)               | R10 = N
        move.w  %d7,RES+0x15E
        lea     RES+0x100,%a2
        bsr     samples
        bsr     prog_show

        move.b  #60,%d0                 | lines 60-80 masked
        bsr     wait_line
        move.w  #0x2700,%sr
        move.b  #80,%d0
        bsr     wait_line
        bsr     unmask
        move.w  %d0,RES+0x154
        move.w  LASTH,RES+0x150
        move.w  HCOUNT,RES+0x152

        move.b  #100,%d0
        bsr     wait_line
        lea     RES+0x120,%a2
        bsr     samples

        move.b  #200,%d0                | lines 200-227 masked, the status polled
        bsr     wait_line
        move.w  #0x2700,%sr
        moveq   #0,%d2
        moveq   #0,%d3
        moveq   #0,%d4
        moveq   #0,%d5
        moveq   #-1,%d6
1:      addq.w  #1,%d2
        move.w  (%a1),%d0
        btst    #3,%d0
        beq.s   2f
        addq.w  #1,%d3
        tst.w   %d6
        bpl.s   2f
        move.w  %d2,%d6
2:      btst    #2,%d0
        beq.s   3f
        addq.w  #1,%d4
3:      tst.b   %d0
        bpl.s   4f
        addq.w  #1,%d5
4:      cmpi.b  #0xE3,VDP_HV
        bne.s   1b
        lea     RES+0x140,%a2
        move.w  %d2,(%a2)+
        move.w  %d3,(%a2)+
        move.w  %d4,(%a2)+
        move.w  %d5,(%a2)+
        move.w  %d6,(%a2)+
        bsr     unmask
        move.w  %d0,RES+0x15A
        move.w  LASTH,RES+0x156
        move.w  HCOUNT,RES+0x158
        move.w  LASTV,RES+0x15C
        bra     main

| Unmasks: odd frames SR = $2000, even frames $2500 then $2300 eight NOPs later; d0 = the HV counter after.
unmask:
        btst    #0,%d7
        beq.s   1f
        move.w  #0x2000,%sr
        move.w  VDP_HV,%d0
        rts
1:      move.w  #0x2500,%sr
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        nop
        move.w  #0x2300,%sr
        move.w  VDP_HV,%d0
        rts

| 16 HV samples to (a2)+, 40 DBRA turns apart.
samples:
        moveq   #15,%d1
1:      move.w  VDP_HV,(%a2)+
        moveq   #40,%d0
2:      dbra    %d0,2b
        dbra    %d1,1b
        rts

| Appends (HV, type << 8 | status low byte) to the log while it has room; d0 = HV, d1 = type << 8. Keeps a0.
log:
        move.l  %a0,-(%sp)
        move.w  (VDP_CTRL),%d2
        andi.w  #0xFF,%d2
        or.w    %d2,%d1
        move.w  LOGN,%d2
        addq.w  #1,LOGN
        cmpi.w  #64,%d2
        bcc.s   1f
        lsl.w   #2,%d2
        lea     RES,%a0
        move.w  %d0,(%a0,%d2.w)
        move.w  %d1,2(%a0,%d2.w)
1:      move.l  (%sp)+,%a0
        rts

hint:
        movem.l %d0-%d2,-(%sp)
        move.w  VDP_HV,%d0
        move.w  %d0,LASTH
        addq.w  #1,HCOUNT
        move.w  #0x0400,%d1
        bsr     log
        movem.l (%sp)+,%d0-%d2
        rte

vint:
        movem.l %d0-%d2,-(%sp)
        move.w  VDP_HV,%d0
        move.w  %d0,LASTV
        addq.w  #1,FRAMEW
        addq.b  #1,RAM_FRAME
        move.w  #0x0600,%d1
        bsr     log
        movem.l (%sp)+,%d0-%d2
        rte

        prog_tail

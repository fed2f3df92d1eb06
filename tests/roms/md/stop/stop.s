| retrogym Genesis STOP test program (68000, GNU as; tests/roms/md/stop/build.mk -> bin/md/stop.md).
|
| The 68000 waits for interrupts in STOP, entered after a delay that changes from one wait to the next (so STOP
| starts at many places in a line), and each handler's first instruction reads the HV counter: the time at which the
| 68000 left STOP. H interrupts every N + 1 lines (N changing frame by frame), the V interrupt; in every fourth frame
| the wait is STOP #$2500 (only the V interrupt wakes it; H interrupts stay pending).
|
| RAM: $FF0010 frame word; $FF0012 H interrupts this frame; $FF0014 wakes this frame; $FF0016 the HV counter after
| the last wake (read after the handler returned); $FF0100-$FF02FF the HV counter read first in each handler (256
| words, ring: $FF0018 its index); $FF0300 the delay count.

        .include "common.inc"
        .include "prog.inc"

        .equ    HCNT,       0xFF0012
        .equ    WAKES,      0xFF0014
        .equ    AFTER,      0xFF0016
        .equ    LOGI,       0xFF0018
        .equ    LOG,        0xFF0100
        .equ    DELAY,      0xFF0300

        .text
        .global reset
        prog_vectors
        prog_header "RETROGYM STOP TEST PROGRAM"
reset:
        prog_init
        move.w  #0x8014,(%a1)           | R0: H interrupts on
        move.w  #0x8A07,(%a1)           | R10: every 8 lines
main:
        move.w  DELAY,%d0
        addi.w  #7,%d0
        andi.w  #63,%d0
        move.w  %d0,DELAY
1:      dbra    %d0,1b                  | 10 clocks a turn: STOP starts at another place each wait
        move.w  FRAMEW,%d1
        andi.w  #3,%d1
        bne.s   2f
        stop    #0x2500
        bra.s   3f
2:      stop    #0x2000
3:      move.w  VDP_HV,AFTER
        addq.w  #1,WAKES
        bra.s   main

log_hv:                                 | d7: the HV counter read first in the handler
        move.l  %a0,-(%sp)
        move.w  LOGI,%d6
        addq.w  #2,%d6
        andi.w  #0x1FE,%d6
        move.w  %d6,LOGI
        lea     LOG,%a0
        move.w  %d7,(%a0,%d6.w)
        movea.l (%sp)+,%a0
        rts

hint:
        move.w  VDP_HV,%d7
        addq.w  #1,HCNT
        bsr.s   log_hv
        rte

vint:
        move.w  VDP_HV,%d7
        bsr.s   log_hv
        clr.w   HCNT
        clr.w   WAKES
        move.w  FRAMEW,%d5
        addq.w  #1,%d5
        move.w  %d5,FRAMEW
        mulu.w  #5,%d5
        andi.w  #15,%d5
        addq.w  #3,%d5
        ori.w   #0x8A00,%d5
        move.w  %d5,VDP_CTRL            | R10: 3-18
        rte

        prog_tail

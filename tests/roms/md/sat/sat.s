| retrogym Genesis sprite-table test program (68000, GNU as; tests/roms/md/sat/build.mk -> bin/md/sat.md).
|
| The VDP reads a sprite's y, size and link from its own copy of the sprite table, which only VRAM writes into the
| table's place at the time (register 5) update; x and the attribute word come from VRAM. Two tables of 16 sprites:
| A at $D800 (written while register 5 points there) and B at $DC00 (written while it does not), and a third at $DA00.
| Every 16 frames the V interrupt takes the next of 8 scenes:
|   0  register 5 = $D800 (table A)
|   1  register 5 = $DC00: A's y, size and link with B's x and tiles
|   2  the same, B's first 8 entries written again each frame (the copy takes them)
|   3  double buffering: the table shown alternates between $D800 and $DC00, the other one's y values are written
|   4  H32 with the table at $DA00 (the copy's low 9 bits), its first 8 y values written each frame
|   5  H40 at $D800, a DMA fill into the table and a VRAM copy from $DC00 into it each frame
|   6  an H interrupt at line 100 moves the table to $DC00 (back to $D800 at the V interrupt)
|   7  the table at $DC00, A's y values written each frame (not seen)
|
| RAM: $FF0010 frame word; $FF0012 the scene; $FF0014 the HV counter at the V interrupt's start; $FF0016 the status
| then; $FF0018 H interrupts this frame; $FF1000 table A's image, $FF1080 table B's.

        .include "common.inc"
        .include "prog.inc"

        .equ    SCENE,      0xFF0012
        .equ    HVV,        0xFF0014
        .equ    STAT,       0xFF0016
        .equ    HCNT,       0xFF0018
        .equ    TABA,       0xFF1000
        .equ    TABB,       0xFF1080

        .text
        .global reset
        prog_vectors
        prog_header "RETROGYM SPRITE TABLE TEST PROGRAM"
reset:
        prog_init
        move.w  #0x2700,%sr
        move.w  #0x8134,(%a1)           | R1: display off while VRAM is set up (DMA on)
        lea     VDP_DATA,%a0

| Tiles 256-263: solid colours 1-8.
        move.l  #0x60000000,(%a1)       | VRAM $2000
        move.l  #0x11111111,%d1
        move.l  %d1,%d2
        moveq   #7,%d3
1:      moveq   #7,%d4
2:      move.l  %d2,(%a0)
        dbra    %d4,2b
        add.l   %d1,%d2
        dbra    %d3,1b

| Table images in RAM: A entry i: y 144 + 12 i, size i & 5, link i + 1 (the last 0), tile 256 + (i & 3), x 152 + 18 i;
| B entry i: y 188 + 7 i, size 5 (2x2), link i + 1, tile 260 + (i & 3), x 408 - 16 i.
        lea     TABA,%a2
        lea     TABB,%a3
        moveq   #0,%d3                  | i
3:      move.w  %d3,%d0
        mulu.w  #12,%d0
        addi.w  #144,%d0
        move.w  %d0,(%a2)+
        move.w  %d3,%d0
        andi.w  #5,%d0
        lsl.w   #8,%d0
        move.w  %d3,%d1
        addq.w  #1,%d1
        cmpi.w  #16,%d1
        bne.s   4f
        moveq   #0,%d1
4:      or.w    %d1,%d0
        move.w  %d0,(%a2)+
        move.w  %d3,%d0
        andi.w  #3,%d0
        addi.w  #256,%d0
        move.w  %d0,(%a2)+
        move.w  %d3,%d0
        mulu.w  #18,%d0
        addi.w  #152,%d0
        move.w  %d0,(%a2)+
        move.w  %d3,%d0                 | B
        mulu.w  #7,%d0
        addi.w  #188,%d0
        move.w  %d0,(%a3)+
        move.w  #0x0500,%d0
        or.w    %d1,%d0
        move.w  %d0,(%a3)+
        move.w  %d3,%d0
        andi.w  #3,%d0
        addi.w  #260,%d0
        move.w  %d0,(%a3)+
        move.w  %d3,%d0
        lsl.w   #4,%d0
        neg.w   %d0
        addi.w  #408,%d0
        move.w  %d0,(%a3)+
        addq.w  #1,%d3
        cmpi.w  #16,%d3
        bne.s   3b

| Into VRAM with register 5 at $D800 (H40): A at $D800 (in the copy), B at $DC00 (not), A's image with B's tiles at
| $DA00 (in the copy's upper half: $DA00 is in the 1 KiB table place $D800 in H40).
        move.l  #0x58000003,(%a1)
        lea     TABA,%a2
        moveq   #31,%d0
5:      move.l  (%a2)+,(%a0)
        dbra    %d0,5b
        move.l  #0x5C000003,(%a1)
        lea     TABB,%a2
        moveq   #31,%d0
6:      move.l  (%a2)+,(%a0)
        dbra    %d0,6b
        move.l  #0x5A000003,(%a1)
        lea     TABA,%a2
        moveq   #15,%d0
7:      move.l  (%a2)+,(%a0)
        move.l  (%a2)+,%d1
        addi.l  #0x00040000,%d1
        move.l  %d1,(%a0)
        dbra    %d0,7b

        move.w  #0x8174,(%a1)           | R1: display, V interrupt, DMA on
        move.w  #0x2000,%sr
main:
        bra.s   main                    | (not STOP: GPGX wakes from it at another H counter, a separate difference)

hint:
        addq.w  #1,HCNT
        move.w  #0x856E,VDP_CTRL        | R5: the table at $DC00 (the copy unchanged)
        rte

vint:
        movem.l %d0-%d4/%a0-%a3,-(%sp)
        move.w  VDP_HV,HVV
        lea     VDP_CTRL,%a1
        lea     VDP_DATA,%a0
        move.w  (%a1),STAT
        clr.w   HCNT
        move.w  FRAMEW,%d2
        addq.w  #1,%d2
        move.w  %d2,FRAMEW
        move.w  %d2,%d3
        lsr.w   #4,%d3
        andi.w  #7,%d3
        move.w  %d3,SCENE
        move.w  #0x8004,(%a1)           | R0: H interrupts off
        move.w  #0x8C81,(%a1)           | R12: H40
        move.w  #0x8F02,(%a1)           | R15: 2
        add.w   %d3,%d3
        move.w  scenes(%pc,%d3.w),%d3
        jmp     scenes(%pc,%d3.w)
scenes:
        .word   sc0-scenes, sc1-scenes, sc2-scenes, sc3-scenes, sc4-scenes, sc5-scenes, sc6-scenes, sc7-scenes

sc0:    move.w  #0x856C,(%a1)
        bra     done
sc1:    move.w  #0x856E,(%a1)
        bra     done
sc2:    move.w  #0x856E,(%a1)
        move.l  #0x5C000003,(%a1)       | B's entries 0-7 again, y moved by the frame
        lea     TABB,%a2
        moveq   #7,%d4
1:      move.w  (%a2)+,%d0
        add.w   %d2,%d0
        move.w  %d0,(%a0)
        move.w  (%a2)+,(%a0)
        move.l  (%a2)+,(%a0)
        dbra    %d4,1b
        bra     done
sc3:    move.w  #0x8F08,(%a1)           | R15: 8, one y a write
        btst    #0,%d2
        bne.s   1f
        move.w  #0x856C,(%a1)           | shown: $D800; written: $DC00's y
        move.l  #0x5C000003,(%a1)
        bra.s   2f
1:      move.w  #0x856E,(%a1)           | shown: $DC00; written: $D800's y
        move.l  #0x58000003,(%a1)
2:      bsr     write_y
        bra     done
sc4:    move.w  #0x8C00,(%a1)           | R12: H32
        move.w  #0x856D,(%a1)           | R5: $DA00
        move.w  #0x8F08,(%a1)
        move.l  #0x5A000003,(%a1)
        bsr     write_y
        bra     done
sc5:    move.w  #0x856C,(%a1)
        move.w  #0x8F01,(%a1)
        move.w  #0x9310,(%a1)           | fill 16 bytes at $D810
        move.w  #0x9400,(%a1)
        move.w  #0x9780,(%a1)
        move.l  #0x58100083,(%a1)
        move.w  %d2,%d0
        andi.w  #63,%d0
        addi.w  #0x80,%d0
        lsl.w   #8,%d0
        move.w  %d0,(%a0)
        bsr     dma_wait
        move.w  #0x9320,(%a1)           | copy 32 bytes from $DC00 to $D840
        move.w  #0x9400,(%a1)
        move.w  #0x9500,(%a1)
        move.w  #0x96DC,(%a1)
        move.w  #0x97C0,(%a1)
        move.l  #0x184000C3,(%a1)
        bsr     dma_wait
        bra.s   done
sc6:    move.w  #0x856C,(%a1)
        move.w  #0x8A63,(%a1)           | R10: 99
        move.w  #0x8014,(%a1)           | R0: H interrupts on
        bra.s   done
sc7:    move.w  #0x856E,(%a1)
        move.w  #0x8F08,(%a1)
        move.l  #0x58000003,(%a1)
        bsr     write_y
done:
        move.w  #0x8F02,(%a1)
        movem.l (%sp)+,%d0-%d4/%a0-%a3
        rte

| Eight y values, one an entry (R15 = 8): 168 + ((3 f + 20 i) & 127).
write_y:
        moveq   #0,%d4
1:      move.w  %d2,%d0
        mulu.w  #3,%d0
        move.w  %d4,%d1
        mulu.w  #20,%d1
        add.w   %d1,%d0
        andi.w  #127,%d0
        addi.w  #168,%d0
        move.w  %d0,(%a0)
        addq.w  #1,%d4
        cmpi.w  #8,%d4
        bne.s   1b
        rts

dma_wait:
1:      move.w  (%a1),%d0
        btst    #1,%d0
        bne.s   1b
        rts

        prog_tail

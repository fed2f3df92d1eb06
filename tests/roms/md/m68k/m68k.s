| retrogym Genesis 68000 clock-count test program (68000, GNU as; tests/roms/md/m68k/build.mk -> bin/md/m68k.md).
|
| The instructions whose counts Genesis Plus GX 1.7.4 has otherwise than the 68000 (docs/genesis.md, "Equivalence"),
| each 20 times in a row, the HV counter read after each batch: TAS (An), TAS Dn, TRAP #3, TRAPV with V clear and set,
| CHK Dn,Dn above the bound, below zero, within it, CHK #imm,Dn above the bound, line A. The batches repeat without end
| (the V interrupt only counts frames), so a count that differs moves every later HV sample.
|
| RAM: $FF0010 frame word; $FF0012 the log index; $FF0100-$FF02FF the HV samples (256 words, ring); $FF0400 TAS's
| byte (cleared each turn: TAS's write-back never reaches it on the console, nor in GPGX).

        .include "common.inc"
        .include "prog.inc"

        .equ    LOGI,       0xFF0012
        .equ    TASB,       0xFF0400

        .text
        .global reset
        .long   0x00FFFE00
        .long   reset
        .long   fault, fault, fault, fault      | bus error, address error, illegal, zero divide
        .long   except                          | CHK
        .long   except                          | TRAPV
        .long   fault, fault                    | privilege, trace
        .long   except, fault                   | line A, line F
        .rept   12
        .long   fault
        .endr
        .rept   4                               | spurious, levels 1-3
        .long   ignore
        .endr
        .long   ignore, ignore, vint, ignore    | levels 4-7
        .rept   16                              | TRAP #0-15
        .long   except
        .endr
        .rept   16
        .long   fault
        .endr
        prog_header "RETROGYM 68000 CLOCK COUNT TEST PROGRAM"
reset:
        prog_init
        lea     TASB,%a0
        lea     RES,%a3
main:
        bsr     sample
        .rept   20
        tas     (%a0)
        .endr
        bsr     sample
        .rept   20
        tas     %d0
        .endr
        bsr     sample
        .rept   20
        trap    #3
        .endr
        bsr     sample
        move.w  #0,%ccr
        .rept   20
        trapv
        .endr
        bsr     sample
        move.w  #2,%ccr                 | V set: each TRAPV traps
        .rept   20
        trapv
        .endr
        bsr     sample
        moveq   #5,%d0
        moveq   #3,%d1
        .rept   20
        chk.w   %d1,%d0                 | above the bound
        .endr
        bsr     sample
        moveq   #-1,%d0
        .rept   20
        chk.w   %d1,%d0                 | below zero
        .endr
        bsr     sample
        moveq   #2,%d0
        .rept   20
        chk.w   %d1,%d0                 | within
        .endr
        bsr     sample
        moveq   #5,%d0
        .rept   20
        chk.w   #3,%d0                  | above an immediate bound
        .endr
        bsr     sample
        .rept   20
        .word   0xA000                  | line A
        .endr
        clr.b   (%a0)
        bra     main

sample:
        move.w  LOGI,%d6
        addq.w  #2,%d6
        andi.w  #0x1FE,%d6
        move.w  %d6,LOGI
        move.w  VDP_HV,(%a3,%d6.w)
        rts

except:
        rte

hint:
        rte

vint:
        addq.w  #1,FRAMEW
        rte

        prog_tail

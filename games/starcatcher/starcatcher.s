; StarCatcher: a small NES game written for retrogym (NROM-128, mapper 0). See README.md for the rules and RAM map.
;
; Structure: the main loop runs the game once per frame, right after the NMI. It never touches the PPU while
; rendering is on; instead it fills the OAM buffer ($0200) and a VRAM update buffer ($0300), and the NMI handler copies
; both during vblank. Whole-screen redraws (title, new game) switch rendering off first (ppu_off/ppu_on).

.linecont +

; ---------------------------------------------------------------------------------------------------------------------
; Hardware registers

PPUCTRL   = $2000
PPUMASK   = $2001
PPUSTATUS = $2002
OAMADDR   = $2003
PPUSCROLL = $2005
PPUADDR   = $2006
PPUDATA   = $2007
SQ1_VOL   = $4000
SQ1_SWEEP = $4001
SQ1_LO    = $4002
SQ1_HI    = $4003
NOISE_VOL = $400C
NOISE_LO  = $400E
NOISE_HI  = $400F
DMC_FREQ  = $4010
OAMDMA    = $4014
APU_STATUS = $4015
JOY1      = $4016
APU_FRAME = $4017

; Pad bits as read by read_pad (1 = pressed).
BTN_A     = $80
BTN_B     = $40
BTN_SELECT = $20
BTN_START = $10
BTN_UP    = $08
BTN_DOWN  = $04
BTN_LEFT  = $02
BTN_RIGHT = $01

; ---------------------------------------------------------------------------------------------------------------------
; RAM map (fixed addresses: the Gym Retro integration data.json refers to them; keep README.md in step)

tmp0        = $00       ; scratch
tmp1        = $01
tmp2        = $02
tmp3        = $03
ptr         = $04       ; 2 bytes, scratch pointer

frame       = $10       ; +1 every NMI, wraps
pad         = $11       ; player 1 pad, 1 = pressed: A B Select Start Up Down Left Right (bit 7 .. 0)
pad_prev    = $12       ; pad on the previous frame
pad_new     = $13       ; buttons pressed this frame and not on the previous one
game_state  = $14       ; STATE_TITLE, STATE_PLAY or STATE_OVER
nmi_done    = $15       ; set by the NMI; the main loop clears it and waits
ppu_busy    = $16       ; nonzero: the main loop owns the PPU (rendering off), the NMI leaves it alone
mask_shadow = $17       ; PPUMASK value the NMI writes
vram_ready  = $18       ; nonzero: vram_buf holds updates for the next NMI
rng         = $1A       ; 2 bytes, little-endian: 16-bit Galois LFSR state (never 0)

score       = $20       ; 3 bytes packed BCD, big-endian (score+0 = the two highest digits)
lives       = $23       ; lives left (3 at the start)
gameover    = $24       ; 1 once lives reach 0, else 0
player_x    = $25       ; left edge of the ship (PLAYER_MIN_X .. PLAYER_MAX_X)
level       = $26       ; difficulty 0 .. MAX_LEVEL (shown as level + 1)
stars       = $27       ; stars caught this game (stops at 255)
level_stars = $28       ; stars caught towards the next level
spawn_timer = $29       ; frames until the next item falls
hit_timer   = $2A       ; frames of invulnerability left after a hit (ship blinks)
play_frames = $2C       ; 2 bytes, little-endian: frames played this game (stops counting at game over)

NUM_OBJS    = 6
obj_type    = $30       ; NUM_OBJS bytes each: OBJ_NONE, OBJ_STAR or OBJ_ROCK
obj_x       = $36       ; left edge
obj_y       = $3C       ; top edge, whole pixels
obj_yfrac   = $42       ; top edge, 1/256 pixels

oam         = $0200     ; sprite buffer copied by OAM DMA
vram_buf    = $0300     ; records: address high, address low, count, bytes...; a zero high byte ends the list

STATE_TITLE = 0
STATE_PLAY  = 1
STATE_OVER  = 2

OBJ_NONE    = 0
OBJ_STAR    = 1
OBJ_ROCK    = 2

; ---------------------------------------------------------------------------------------------------------------------
; Game constants

PLAYER_Y     = 207      ; top scanline of the ship
PLAYER_MIN_X = 8
PLAYER_MAX_X = 232      ; the ship is 16 pixels wide
PLAYER_START_X = 120
WALK_SPEED   = 2        ; pixels per frame
DASH_SPEED   = 4        ; pixels per frame with A held
SPAWN_Y      = 24       ; items appear just under the score line
GROUND_Y     = 216      ; an item whose top reaches this line has landed and disappears
START_LIVES  = 3
HIT_FRAMES   = 90       ; invulnerability after losing a life
FIRST_SPAWN  = 40       ; frames before the first item of a game
STARS_PER_LEVEL = 5
MAX_LEVEL    = 15

TILE_DOT     = $01
TILE_BRIGHT  = $02
TILE_GRASS   = $03
TILE_SOIL    = $04
TILE_SHIP_L  = $40
TILE_SHIP_R  = $41
TILE_STAR    = $42
TILE_ROCK    = $43

; Text is stored as tile numbers: tile = ASCII - $20 (space = 0, '0' = $10, 'A' = $21), as laid out in chr.s.
.repeat $40, C
        .charmap $20 + C, C
.endrepeat

; Nametable address of row, column.
.define NT(row, col) ($2000 + (row) * 32 + (col))

HUD_ROW       = 2
SCORE_ADDR    = NT(HUD_ROW, 7)
LEVEL_ADDR    = NT(HUD_ROW, 18)
LIVES_ADDR    = NT(HUD_ROW, 29)

; ---------------------------------------------------------------------------------------------------------------------

.segment "HEADER"
        .byte $4E, $45, $53, $1A ; "NES", EOF (as bytes: the charmap below would remap a string)
        .byte 1                 ; 16 KiB PRG
        .byte 1                 ; 8 KiB CHR
        .byte $00, $00          ; mapper 0, horizontal mirroring, no battery, no trainer
        .res 8, 0

.segment "CODE"

reset:
        sei
        cld
        ldx #$40
        stx APU_FRAME           ; no APU frame IRQ
        ldx #$FF
        txs
        inx
        stx PPUCTRL             ; no NMI yet
        stx PPUMASK
        stx DMC_FREQ

        bit PPUSTATUS           ; the PPU needs two vblanks to warm up
@vbl1:  bit PPUSTATUS
        bpl @vbl1

        lda #0
        tax
@clear: sta $0000,x
        sta $0100,x
        sta $0300,x
        sta $0400,x
        sta $0500,x
        sta $0600,x
        sta $0700,x
        inx
        bne @clear
        jsr hide_sprites

@vbl2:  bit PPUSTATUS
        bpl @vbl2

        lda #%00001001          ; square 1 and noise on
        sta APU_STATUS
        lda #$08                ; square 1 sweep off (negate bit set so low periods are not muted)
        sta SQ1_SWEEP

        lda #$E1                ; any nonzero seed; the title screen reseeds from the frame counter
        sta rng
        lda #$AC
        sta rng+1

        jsr load_palette
        lda #%00011110          ; background and sprites, left column included
        sta mask_shadow
        lda #1
        sta ppu_busy            ; rendering stays off until the title is drawn
        lda #$80
        sta PPUCTRL             ; NMI on
        jsr draw_title
        jsr ppu_on

main_loop:
        jsr wait_nmi
        jsr read_pad
        lda game_state
        cmp #STATE_PLAY
        beq @play
        cmp #STATE_OVER
        beq @over
        jsr title_frame
        jmp main_loop
@play:  jsr play_frame
        jmp main_loop
@over:  jsr over_frame
        jmp main_loop

; ---------------------------------------------------------------------------------------------------------------------
; NMI: sprites, queued nametable writes, scroll. Leaves the PPU alone while ppu_busy is set.

nmi:
        pha
        txa
        pha
        tya
        pha
        inc frame
        lda ppu_busy
        bne @done

        lda #0
        sta OAMADDR
        lda #>oam
        sta OAMDMA

        lda vram_ready
        beq @scroll
        ldx #0
@record:
        lda vram_buf,x
        beq @flushed
        sta PPUADDR
        lda vram_buf+1,x
        sta PPUADDR
        ldy vram_buf+2,x
        inx
        inx
        inx
@byte:  lda vram_buf,x
        sta PPUDATA
        inx
        dey
        bne @byte
        beq @record             ; always taken
@flushed:
        lda #0
        sta vram_ready

@scroll:
        bit PPUSTATUS
        lda #0
        sta PPUSCROLL
        sta PPUSCROLL
        lda #$80                ; NMI on, nametable $2000, both pattern tables at $0000, 8x8 sprites
        sta PPUCTRL
        lda mask_shadow
        sta PPUMASK
@done:
        lda #1
        sta nmi_done
        pla
        tay
        pla
        tax
        pla
irq:    rti

; ---------------------------------------------------------------------------------------------------------------------
; Frame helpers

wait_nmi:
        lda #0
        sta nmi_done
@wait:  lda nmi_done
        beq @wait
        rts

; Rendering off for a full redraw: from the next NMI on the main loop owns the PPU.
ppu_off:
        lda #1
        sta ppu_busy
        jsr wait_nmi
        lda #0
        sta PPUMASK
        rts

; Hands the PPU back to the NMI, which turns rendering on at the next vblank.
ppu_on:
        lda #0
        sta ppu_busy
        jmp wait_nmi

read_pad:
        lda pad
        sta pad_prev
        lda #1
        sta JOY1
        sta pad                 ; the 1 reaches carry after eight ROLs and ends the loop
        lsr a
        sta JOY1
@bit:   lda JOY1
        lsr a
        rol pad
        bcc @bit
        lda pad_prev
        eor #$FF
        and pad
        sta pad_new
        rts

; One step of the 16-bit Galois LFSR (taps $B400, period 65535). Clobbers A.
rng_step:
        lsr rng+1
        ror rng
        bcc @done
        lda rng+1
        eor #$B4
        sta rng+1
@done:  rts

; A = a fresh random byte (eight steps). Clobbers Y.
rand8:
        ldy #8
@step:  jsr rng_step
        dey
        bne @step
        lda rng
        rts

; The LFSR must never hold 0 (it would stay there).
rng_fix_zero:
        lda rng
        ora rng+1
        bne @ok
        lda #$AC
        sta rng+1
@ok:    rts

hide_sprites:
        lda #$FF
        ldx #0
@loop:  sta oam,x
        inx
        inx
        inx
        inx
        bne @loop
        rts

; ---------------------------------------------------------------------------------------------------------------------
; Title screen: waits for START, which seeds the random generator from the frame counter.

title_frame:
        lda pad_new
        and #BTN_START
        beq @wait
        lda frame
        eor rng
        sta rng
        jsr rng_fix_zero
        jmp start_game
@wait:  rts

; ---------------------------------------------------------------------------------------------------------------------
; A new game: reset the game variables and draw the playfield. Play begins on the next frame.

start_game:
        jsr ppu_off
        lda #0
        sta score
        sta score+1
        sta score+2
        sta gameover
        sta level
        sta stars
        sta level_stars
        sta hit_timer
        sta play_frames
        sta play_frames+1
        ldx #NUM_OBJS - 1
@objs:  sta obj_type,x
        dex
        bpl @objs
        lda #START_LIVES
        sta lives
        lda #PLAYER_START_X
        sta player_x
        lda #FIRST_SPAWN
        sta spawn_timer
        lda #STATE_PLAY
        sta game_state

        jsr clear_nametable
        jsr draw_scenery
        lda #<playfield_text
        ldx #>playfield_text
        jsr draw_text

        jsr hide_sprites
        jsr build_sprites
        jsr begin_vram
        jsr queue_hud
        jsr end_vram
        jmp ppu_on

; ---------------------------------------------------------------------------------------------------------------------
; One frame of play.

play_frame:
        ; The random generator runs every frame and takes in the pad, so it depends on the player's input.
        lda rng
        eor pad
        sta rng
        jsr rng_step
        jsr rng_fix_zero

        inc play_frames
        bne @counted
        inc play_frames+1
@counted:

        jsr move_player

        lda hit_timer
        beq @spawn
        dec hit_timer
@spawn: dec spawn_timer
        bne @objects
        jsr spawn_item
        ldx level
        lda spawn_interval,x
        sta spawn_timer
@objects:
        jsr update_items

        jsr build_sprites
        jsr begin_vram
        jsr queue_hud
        lda gameover
        beq @end
        lda #<gameover_text
        sta ptr
        lda #>gameover_text
        sta ptr+1
        jsr queue_text
@end:   jmp end_vram

move_player:
        ldy #WALK_SPEED
        lda pad
        and #BTN_A
        beq @speed
        ldy #DASH_SPEED
@speed: sty tmp0
        lda pad
        and #BTN_LEFT
        beq @right
        lda player_x
        sec
        sbc tmp0
        cmp #PLAYER_MIN_X
        bcs @left_ok            ; (no wrap below 0: player_x >= 8 > speed before the move)
        lda #PLAYER_MIN_X
@left_ok:
        sta player_x
@right: lda pad
        and #BTN_RIGHT
        beq @done
        lda player_x
        clc
        adc tmp0
        cmp #PLAYER_MAX_X + 1
        bcc @right_ok
        lda #PLAYER_MAX_X
@right_ok:
        sta player_x
@done:  rts

; Starts a new falling item in a free slot (none free: skipped). Its column and kind are random.
spawn_item:
        ldx #0
@find:  lda obj_type,x
        beq @found
        inx
        cpx #NUM_OBJS
        bne @find
        rts
@found: jsr rand8                ; column = 8 + r * 29/32 (r - r/16 - r/32): 8 .. 241, close to uniform
        sta tmp0
        lsr a
        lsr a
        lsr a
        lsr a
        sta tmp1                ; r / 16
        lsr a                   ; r / 32
        clc
        adc tmp1
        eor #$FF
        sec
        adc tmp0                ; r - (r/16 + r/32)
        clc
        adc #8
        sta obj_x,x
        lda #SPAWN_Y
        sta obj_y,x
        lda #0
        sta obj_yfrac,x
        jsr rand8
        ldy level
        cmp rock_chance,y
        lda #OBJ_STAR
        bcs @kind
        lda #OBJ_ROCK
@kind:  sta obj_type,x
        rts

; Moves every item down at the current level's speed and resolves landings and collisions with the ship.
update_items:
        ldx #NUM_OBJS - 1
@loop:  lda obj_type,x
        bne @active
@next:  dex
        bpl @loop
        rts

@active:
        ldy level
        lda obj_yfrac,x
        clc
        adc fall_speed_lo,y
        sta obj_yfrac,x
        lda obj_y,x
        adc fall_speed_hi,y
        sta obj_y,x
        cmp #GROUND_Y
        bcc @collide
        lda #OBJ_NONE           ; landed
        sta obj_type,x
        beq @next               ; always taken

@collide:
        ; Vertical overlap with the ship: obj_y + 8 - PLAYER_Y in 1 .. 15.
        clc
        adc #<(8 - PLAYER_Y - 1) ; = obj_y + 8 - PLAYER_Y - 1, modulo 256
        cmp #15
        bcs @next
        ; Horizontal overlap of at least two pixels: obj_x + 8 - player_x in 2 .. 22.
        lda obj_x,x
        clc
        adc #8 - 2
        sec
        sbc player_x
        cmp #21
        bcs @next

        lda obj_type,x
        cmp #OBJ_STAR
        bne @rock
        lda #OBJ_NONE
        sta obj_type,x
        jsr catch_star
        jmp @next

@rock:  lda hit_timer
        bne @next               ; invulnerable: the rock falls through the ship
        lda #OBJ_NONE
        sta obj_type,x
        jsr lose_life
        lda gameover
        beq @next
        rts                     ; the last life is gone: nothing else moves or scores this frame

catch_star:
        txa
        pha
        ldx level
        lda star_points,x
        jsr add_score
        lda stars
        cmp #255
        beq @counted
        inc stars
@counted:
        lda level
        cmp #MAX_LEVEL
        beq @sound
        inc level_stars
        lda level_stars
        cmp #STARS_PER_LEVEL
        bcc @sound
        lda #0
        sta level_stars
        inc level
@sound: lda #%10011000          ; 50% duty, length counter on, constant volume 8
        sta SQ1_VOL
        lda #$5E                ; a short high blip
        sta SQ1_LO
        lda #$00
        sta SQ1_HI
        pla
        tax
        rts

lose_life:
        lda #HIT_FRAMES
        sta hit_timer
        lda #%00011111          ; length counter on, constant volume 15
        sta NOISE_VOL
        lda #$0A
        sta NOISE_LO
        lda #$20
        sta NOISE_HI
        dec lives
        bne @alive
        lda #1
        sta gameover
        lda #STATE_OVER
        sta game_state
        lda #0
        sta hit_timer           ; the ship stays visible on the game-over screen
@alive: rts

; Adds A (packed BCD, 00-99) to the 6-digit score, one decimal digit at a time. Stops at 999999.
add_score:
        sta tmp0                ; amount for the current byte; the higher bytes only take the carry
        lda #0
        sta tmp1                ; decimal carry
        ldx #2
@byte:  lda score,x
        and #$0F
        sta tmp2
        lda tmp0
        and #$0F
        clc
        adc tmp2
        adc tmp1                ; 0 .. 19, carry clear
        ldy #0
        cmp #10
        bcc @low_ok
        sbc #10
        iny
@low_ok:
        sta tmp2                ; new low digit
        sty tmp1
        lda score,x
        lsr a
        lsr a
        lsr a
        lsr a
        sta tmp3
        lda tmp0
        lsr a
        lsr a
        lsr a
        lsr a
        clc
        adc tmp3
        adc tmp1
        ldy #0
        cmp #10
        bcc @high_ok
        sbc #10
        iny
@high_ok:
        sty tmp1
        asl a
        asl a
        asl a
        asl a
        ora tmp2
        sta score,x
        lda #0
        sta tmp0
        dex
        bpl @byte
        lda tmp1
        beq @done
        lda #$99                ; overflow: hold at 999999
        sta score
        sta score+1
        sta score+2
@done:  rts

; ---------------------------------------------------------------------------------------------------------------------
; Game over: everything stands still until START starts a new game.

over_frame:
        lda pad_new
        and #BTN_START
        beq @wait
        jmp start_game
@wait:  rts

; ---------------------------------------------------------------------------------------------------------------------
; Sprites: 0-1 the ship, 2-7 the items.

build_sprites:
        lda hit_timer           ; blink while invulnerable
        and #4
        beq @ship
        lda #$FF
        sta oam+0
        sta oam+4
        bne @items
@ship:  lda #PLAYER_Y - 1       ; OAM Y is one line above the sprite's first line
        sta oam+0
        sta oam+4
        lda #TILE_SHIP_L
        sta oam+1
        lda #TILE_SHIP_R
        sta oam+5
        lda #0
        sta oam+2
        sta oam+6
        lda player_x
        sta oam+3
        clc
        adc #8
        sta oam+7

@items: ldx #0
        ldy #8
@item:  lda obj_type,x
        bne @shown
        lda #$FF
        sta oam,y
        bne @item_next
@shown: cmp #OBJ_STAR
        bne @rock
        lda #TILE_STAR
        sta oam+1,y
        lda #1
        bne @attr
@rock:  lda #TILE_ROCK
        sta oam+1,y
        lda #2
@attr:  sta oam+2,y
        lda obj_y,x
        sec
        sbc #1
        sta oam,y
        lda obj_x,x
        sta oam+3,y
@item_next:
        tya
        clc
        adc #4
        tay
        inx
        cpx #NUM_OBJS
        bne @item
        rts

; ---------------------------------------------------------------------------------------------------------------------
; VRAM update buffer. begin_vram/end_vram bracket a frame's queue; X is the write index in between.

begin_vram:
        lda #0
        sta vram_ready
        ldx #0
        rts

end_vram:
        lda #0
        sta vram_buf,x
        lda #1
        sta vram_ready
        rts

; Queues score (6 digits), level (2 digits) and lives (1 digit).
queue_hud:
        lda #>SCORE_ADDR
        sta vram_buf,x
        lda #<SCORE_ADDR
        sta vram_buf+1,x
        lda #6
        sta vram_buf+2,x
        ldy #0
@digits:
        lda score,y
        lsr a
        lsr a
        lsr a
        lsr a
        ora #$10                ; tile of digit 0
        sta vram_buf+3,x
        lda score,y
        and #$0F
        ora #$10
        sta vram_buf+4,x
        inx
        inx
        iny
        cpy #3
        bne @digits
        inx
        inx
        inx

        lda #>LEVEL_ADDR
        sta vram_buf,x
        lda #<LEVEL_ADDR
        sta vram_buf+1,x
        lda #2
        sta vram_buf+2,x
        ldy level
        lda level_tens,y
        sta vram_buf+3,x
        lda level_ones,y
        sta vram_buf+4,x
        txa
        clc
        adc #5
        tax

        lda #>LIVES_ADDR
        sta vram_buf,x
        lda #<LIVES_ADDR
        sta vram_buf+1,x
        lda #1
        sta vram_buf+2,x
        lda lives
        ora #$10
        sta vram_buf+3,x
        inx
        inx
        inx
        inx
        rts

; Queues the text records at ptr (format as draw_text) at write index X; returns the new index in X.
queue_text:
        ldy #0
@record:
        lda (ptr),y
        beq @done
        sta vram_buf,x
        iny
        inx
        lda (ptr),y
        sta vram_buf,x
        iny
        inx
        lda (ptr),y
        sta vram_buf,x
        sta tmp0
        iny
        inx
@byte:  lda (ptr),y
        sta vram_buf,x
        iny
        inx
        dec tmp0
        bne @byte
        beq @record             ; always taken
@done:  rts

; ---------------------------------------------------------------------------------------------------------------------
; Full-screen drawing, only with rendering off (between ppu_off and ppu_on).

load_palette:
        bit PPUSTATUS
        lda #$3F
        sta PPUADDR
        lda #$00
        sta PPUADDR
        ldx #0
@loop:  lda palette,x
        sta PPUDATA
        inx
        cpx #32
        bne @loop
        rts

clear_nametable:
        bit PPUSTATUS
        lda #$20
        sta PPUADDR
        lda #$00
        sta PPUADDR
        ldy #4
        tax
@loop:  sta PPUDATA
        inx
        bne @loop
        dey
        bne @loop
        rts

; Night sky, ground and the ground's attributes (palette 1).
draw_scenery:
        ldx #0
@dot:   lda dot_addr_hi,x
        sta PPUADDR
        lda dot_addr_lo,x
        sta PPUADDR
        txa
        and #3
        cmp #3
        lda #TILE_DOT
        bcc @faint
        lda #TILE_BRIGHT        ; every fourth star is a bright one
@faint: sta PPUDATA
        inx
        cpx #NUM_DOTS
        bne @dot

        lda #>NT(27, 0)
        sta PPUADDR
        lda #<NT(27, 0)
        sta PPUADDR
        lda #TILE_GRASS
        ldx #32
@grass: sta PPUDATA
        dex
        bne @grass
        lda #TILE_SOIL
        ldx #64                 ; rows 28 and 29
@soil:  sta PPUDATA
        dex
        bne @soil

        lda #$23                ; attribute rows 6 (lower half) and 7: palette 1
        sta PPUADDR
        lda #$F0
        sta PPUADDR
        ldx #8
        lda #$50
@attr6: sta PPUDATA
        dex
        bne @attr6
        ldx #8
        lda #$55
@attr7: sta PPUDATA
        dex
        bne @attr7
        rts

; Writes text records straight to the PPU: A = low, X = high byte of the list.
; Record: address high, address low, count, tiles...; a zero high byte ends the list.
draw_text:
        sta ptr
        stx ptr+1
        ldy #0
@record:
        lda (ptr),y
        beq @done
        sta PPUADDR
        iny
        lda (ptr),y
        sta PPUADDR
        iny
        lda (ptr),y
        tax
        iny
@byte:  lda (ptr),y
        sta PPUDATA
        iny
        dex
        bne @byte
        beq @record             ; always taken
@done:  rts

draw_title:
        jsr clear_nametable
        jsr draw_scenery
        lda #$23                ; attribute row 2, upper half (tile rows 8-9): palette 2, the yellow title
        sta PPUADDR
        lda #$D0
        sta PPUADDR
        ldx #8
        lda #$0A
@attr:  sta PPUDATA
        dex
        bne @attr
        lda #<title_text
        ldx #>title_text
        jmp draw_text

; ---------------------------------------------------------------------------------------------------------------------
; Data

.segment "RODATA"

palette:
        .byte $0F, $30, $28, $00        ; background 0: text white, bright stars yellow, faint stars grey
        .byte $0F, $1A, $2A, $17        ; background 1: ground
        .byte $0F, $28, $38, $00        ; background 2: title
        .byte $0F, $30, $28, $00
        .byte $0F, $21, $30, $16        ; sprite 0: ship
        .byte $0F, $28, $38, $30        ; sprite 1: star
        .byte $0F, $10, $30, $00        ; sprite 2: rock
        .byte $0F, $10, $30, $00

; Text record: nametable address, length, tiles.
.macro TEXT row, col, str
        .byte >NT(row, col), <NT(row, col), .strlen(str), str
.endmacro

title_text:
        TEXT  8, 10, "STARCATCHER"
        TEXT 12,  8, "CATCH THE STARS"
        TEXT 14,  8, "DODGE THE ROCKS"
        TEXT 18, 10, "PRESS START"
        TEXT 22,  5, "LEFT RIGHT MOVE  A DASH"
        .byte 0

playfield_text:
        TEXT HUD_ROW, 1, "SCORE"
        TEXT HUD_ROW, 15, "LV"
        TEXT HUD_ROW, 23, "LIVES"
        .byte 0

gameover_text:
        TEXT 13, 11, "GAME OVER"
        TEXT 15, 10, "PRESS START"
        .byte 0

; Background stars: rows 4-25, scattered by a fixed formula.
NUM_DOTS = 28
dot_addr_hi:
        .repeat NUM_DOTS, I
        .byte >NT(4 + (I * 9 + 3) .mod 22, (I * 13 + I * I * 3 + 5) .mod 32)
        .endrepeat
dot_addr_lo:
        .repeat NUM_DOTS, I
        .byte <NT(4 + (I * 9 + 3) .mod 22, (I * 13 + I * I * 3 + 5) .mod 32)
        .endrepeat

; Per-level tables (level 0 .. MAX_LEVEL).
fall_speed_lo:                          ; pixels per frame, 8.8 fixed point: 1.0 + level / 8
        .repeat MAX_LEVEL + 1, L
        .byte <($100 + L * $20)
        .endrepeat
fall_speed_hi:
        .repeat MAX_LEVEL + 1, L
        .byte >($100 + L * $20)
        .endrepeat
spawn_interval:                         ; frames between items: 64 .. 19
        .repeat MAX_LEVEL + 1, L
        .byte 64 - L * 3
        .endrepeat
rock_chance:                            ; an item is a rock when a random byte is below this: 32/256 .. 182/256
        .repeat MAX_LEVEL + 1, L
        .byte 32 + L * 10
        .endrepeat
star_points:                            ; packed BCD points per star
        .byte $10, $10, $10, $10, $20, $20, $20, $20, $30, $30, $30, $30, $50, $50, $50, $50
level_tens:                             ; the level is shown as level + 1, two digits
        .repeat MAX_LEVEL + 1, L
        .byte $10 + (L + 1) / 10
        .endrepeat
level_ones:
        .repeat MAX_LEVEL + 1, L
        .byte $10 + (L + 1) .mod 10
        .endrepeat

.segment "VECTORS"
        .word nmi, reset, irq

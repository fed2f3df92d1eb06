/* The bank-switching loops (a26_cpu_4k.c, a26_cpu_e0.c, a26_cpu_fe.c) without GCC's guessed branch probabilities
 * (all branches even): its static estimate of a threaded loop (256 computed-goto targets) takes some hot handler
 * paths for cold and compiles them for size. Measured on Cascade Lake (bench_a26 --ours, 5 alternating rounds):
 * Ms. Pac-Man (F8), Robotank (FE) and Montezuma's Revenge (E0) +3-5%; the plain loop was 10% slower so (Pong), and
 * keeps GCC's estimate. Their handlers' labels aligned to 16 bytes: Robotank +1-3% (its FE loop had lost 3% to a
 * change that only removed instructions: code placement), the others within +-1%. */
#if defined(__GNUC__) && !defined(__clang__)
#define M6502_ATTR __attribute__((optimize("no-guess-branch-probability", "align-labels=16")))
#endif

/* The same loops read the opcode and the byte after it at once where both are plain ROM (bus_fetch2): instructions
 * Ms. Pac-Man -8.5%, Montezuma's Revenge -2.8%, Robotank -5%; time +8-10%, +16-20%, +1-2%. The plain loop does not:
 * it lost 2-4% so (Seaquest, Enduro, Pitfall, Pong, with 2-4% fewer instructions), GCC spilling the pc there. */
#define A26_FETCH2 1

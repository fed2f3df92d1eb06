/* The bank-switching loops (a26_cpu_4k.c, a26_cpu_e0.c, a26_cpu_fe.c) without GCC's guessed branch probabilities
 * (all branches even): its static estimate of a threaded loop (256 computed-goto targets) takes some hot handler
 * paths for cold and compiles them for size. Measured on Cascade Lake (bench_a26 --ours, 5 alternating rounds):
 * Ms. Pac-Man (F8), Robotank (FE) and Montezuma's Revenge (E0) +3-5%; the plain loop was 10% slower so (Pong), and
 * keeps GCC's estimate. */
#if defined(__GNUC__) && !defined(__clang__)
#define M6502_ATTR __attribute__((optimize("no-guess-branch-probability")))
#endif

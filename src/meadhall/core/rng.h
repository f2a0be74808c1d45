/*
 * meadhall's random generator in C, for the C search engines (games/<game>/_search.c).
 *
 * The generator of meadhall.core.rng (rng.py, beside this file), draw for draw: xoshiro256**
 * seeded through SplitMix64, and below(n) by rejection on the top bits of one 64-bit draw.
 * A C engine that rolls a die or shuffles a deck where the Python engine does draws the same
 * numbers, so the two engines stay equal (Valda's lockstep test, tests/valda/test_search_engine.py,
 * compares the generator's state after every step; tests/voluspa/test_search_rng.py follows
 * a random playout draw for draw).
 * Any change here is a change to rng.py first.
 *
 * Every function is static inline: each engine compiles its own copy, and nothing here is
 * exported from the extensions.
 */
#ifndef MEADHALL_RNG_H
#define MEADHALL_RNG_H

#include <stdint.h>

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* Rng.next64: the next 64-bit draw. */
static inline uint64_t next64(uint64_t *s) {
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Rng(seed) for a seed below 2**64: four SplitMix64 outputs (never all zero). */
static inline void seed_rng(uint64_t *s, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) {
        x += 0x9E3779B97F4A7C15ULL;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        s[i] = z ^ (z >> 31);
    }
    if (!(s[0] | s[1] | s[2] | s[3])) s[0] = 1;
}

/* Rng.below: a uniform int in [0, n), unbiased: the top bits of a draw (as many as n - 1 has),
   drawn again until they fall below n. n <= 1 draws nothing and gives 0 (Rng.below(1) draws
   nothing either; the engines never ask for less). */
static inline int below(uint64_t *s, int n) {
    if (n <= 1) return 0;
    uint64_t top = (uint64_t)(n - 1);
#if defined(__GNUC__) || defined(__clang__)
    int shift = __builtin_clzll(top);
#else
    int shift = 64;
    for (; top; top >>= 1) shift--;
#endif
    for (;;) {
        uint64_t r = next64(s) >> shift;
        if (r < (uint64_t)n) return (int)r;
    }
}

/* Rng.shuffle over bytes: Fisher-Yates from the last item down, one below() per step. */
static inline void shuffle_bytes(uint64_t *s, uint8_t *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = below(s, i + 1);
        uint8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

#endif /* MEADHALL_RNG_H */

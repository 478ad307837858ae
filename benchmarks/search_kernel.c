/* The Caza-Tesoros search kernel as a plain C loop, the yardstick for the compiled one.
 *
 * Same rules and same generator as simulator/caza_tesoros/treasure_search.py:search_kernel with
 * simulator/rng.py (xoshiro256**, Lemire's bounded integers), so from the same state both play
 * the same dice and count the same successes. benchmarks/search_kernel.py builds it with the
 * system compiler (cc -O2 -shared) and calls `simulate` through ctypes.
 */
#include <stdint.h>
#include <stdlib.h>

#define FACES 6
#define MAX_DICE 8
#define MARK_ALL 0
#define PAIRS_ANY 0

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next_u64(uint64_t *s) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline int64_t below(uint64_t *s, uint64_t n) {
    uint64_t m = (next_u64(s) >> 32) * n;
    uint64_t low = m & 0xFFFFFFFFu;
    if (low < n) {
        uint64_t floor = (0x100000000ull - n) % n;
        while (low < floor) {
            m = (next_u64(s) >> 32) * n;
            low = m & 0xFFFFFFFFu;
        }
    }
    return (int64_t)(m >> 32);
}

static inline int64_t throw_mask(int level, const int64_t *dice, int n_dice, int pairs) {
    int boxes = level == 1 ? 6 : 12;
    int64_t shown = 0;
    for (int i = 0; i < n_dice; i++) shown |= (int64_t)1 << (dice[i] - 1);
    if (level == 2) {
        int n_paired = pairs == PAIRS_ANY ? n_dice : (n_dice < 2 ? n_dice : 2);
        for (int i = 0; i < n_paired; i++)
            for (int j = i + 1; j < n_paired; j++) {
                int64_t total = dice[i] + dice[j];
                if (total <= boxes) shown |= (int64_t)1 << (total - 1);
                int64_t gap = llabs(dice[i] - dice[j]);
                if (gap >= 1) shown |= (int64_t)1 << (gap - 1);
            }
    }
    return shown;
}

/* order: the greedy table GREEDY_ORDER[3][MAX_DICE + 1][2][12]; worth: rows of 1 << boxes
 * values, one per rerolls left (worth_cols 0: mark by the greedy rule). */
static int search(uint64_t *s, int level, int n_dice, int rerolls, int marking, int pairs,
                  const double *worth, int64_t worth_cols, const int64_t *order) {
    int64_t dice[MAX_DICE];
    int64_t full = ((int64_t)1 << (level == 1 ? 6 : 12)) - 1;
    const int64_t *pref = order + ((level * (MAX_DICE + 1) + n_dice) * 2 + pairs) * 12;
    int64_t marked = 0;
    int left = rerolls;
    for (;;) {
        for (int i = 0; i < n_dice; i++) dice[i] = below(s, FACES) + 1;
        int64_t fresh = throw_mask(level, dice, n_dice, pairs) & ~marked;
        if (fresh == 0) {
            if (left > 0) {
                left--;
                continue;
            }
            return 0;
        }
        if (marking == MARK_ALL) {
            marked |= fresh;
        } else if (worth_cols == 0) {
            for (int k = 0; k < 12; k++) {
                int64_t v = pref[k];
                if (v > 0 && ((fresh >> (v - 1)) & 1)) {
                    marked |= (int64_t)1 << (v - 1);
                    break;
                }
            }
        } else {
            const double *row = worth + left * worth_cols;
            int64_t best = 0;
            double best_worth = -1.0;
            for (int k = 0; k < 12; k++) {
                int64_t v = pref[k];
                if (v > 0 && ((fresh >> (v - 1)) & 1)) {
                    double w = row[marked | ((int64_t)1 << (v - 1))];
                    if (w > best_worth + 1e-12) {
                        best = v;
                        best_worth = w;
                    }
                }
            }
            marked |= (int64_t)1 << (best - 1);
        }
        if (marked == full) return 1;
    }
}

int64_t simulate(uint64_t *state, int64_t trials, int level, int n_dice, int rerolls,
                 int marking, int pairs, const double *worth, int64_t worth_cols,
                 const int64_t *order) {
    int64_t successes = 0;
    for (int64_t t = 0; t < trials; t++)
        successes += search(state, level, n_dice, rerolls, marking, pairs, worth, worth_cols,
                            order);
    return successes;
}

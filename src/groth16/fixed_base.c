#include "groth16/fixed_base.h"

unsigned fixed_base_window(uint64_t n)
{
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned w = 1; w <= FIXED_BASE_MAX_WINDOW; w++) {
        double windows = (double)((255 + w - 1) / w);
        double cost = windows * ((double)((1u << w) - 1) + (double)n);
        if (w == 1 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

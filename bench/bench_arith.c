/* bench_arith [scale]: the BLS12-381 arithmetic benchmark, JSON lines. */
#include <stdlib.h>

#include "suite.h"

int main(int argc, char **argv)
{
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    if (scale <= 0) {
        fprintf(stderr, "usage: bench_arith [scale > 0]\n");
        return 2;
    }
    return bench_arith_run(stdout, scale);
}

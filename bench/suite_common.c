#define _POSIX_C_SOURCE 200809L
#include "suite.h"

#include <string.h>
#include <time.h>

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

const char *bench_cpu_name(void)
{
    static char name[128];
    if (name[0])
        return name;
    strcpy(name, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return name;
    char line[256];
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ')
                    colon++;
                size_t len = strcspn(colon, "\n");
                if (len >= sizeof(name))
                    len = sizeof(name) - 1;
                /* JSON-safe: drop quotes and backslashes */
                size_t j = 0;
                for (size_t i = 0; i < len; i++)
                    if (colon[i] != '"' && colon[i] != '\\')
                        name[j++] = colon[i];
                name[j] = 0;
            }
            break;
        }
    }
    fclose(f);
    return name;
}

/* x86-64 side of the limb layer: the run-time choice between the portable
 * and the mulx/adcx/adox bodies. */
#include "field/limbs.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>

bool limbs_cpu_has_mulx(void)
{
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7)
        return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    (void)eax, (void)ecx, (void)edx;
    /* CPUID.(EAX=7,ECX=0):EBX bit 8 is BMI2 (mulx), bit 19 is ADX (adcx/adox). */
    return ((ebx >> 8) & 1) && ((ebx >> 19) & 1);
}
#else
bool limbs_cpu_has_mulx(void)
{
    return false;
}
#endif

#ifdef LIMBS_MULX
int limbs_use_mulx;

/* Runs before main(), so every thread sees the flag already set. */
__attribute__((constructor)) static void limbs_choose(void)
{
    const char *off = getenv("CUZK_NO_ASM");
    bool forced_off = off && *off && strcmp(off, "0") != 0;
    limbs_use_mulx = !forced_off && limbs_cpu_has_mulx();
}

bool limbs_mulx_active(void)
{
    return limbs_use_mulx != 0;
}
#else
bool limbs_mulx_active(void)
{
    return false;
}
#endif

/* The INI configuration of `cuzk serve` (config/config.h): the file read
 * over the defaults, the whole-picture check, every circuit's engine spec,
 * then the first line once more as a command-line --set, and the byte
 * sizes' syntax on its own. */
#include "fuzz/fuzz.h"

#include "config/config.h"
#include "util/byte_size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    char msg[512];
    cuzk_config c;
    cuzk_config_init(&c);
    if (cuzk_config_load_string(&c, text, "fuzz.ini", msg, sizeof(msg)) == CUZK_OK) {
        /* A built-in circuit of 2^15 constraints or more is sized by
         * counting the constraints of its SHA challenges (seconds under the
         * sanitizers, and no parsing): its spec, which the check makes
         * too, is left out. */
        bool sized_by_counting = false;
        for (size_t i = 0; i < c.num_circuits; i++) {
            const config_circuit *cc = &c.circuits[i];
            FUZZ_CHECK(config_valid_circuit_name(cc->name));
            if (cc->kind == CIRCUIT_BUILTIN && cc->log_constraints >= 15) {
                sized_by_counting = true;
                continue;
            }
            circuit_spec spec;
            (void)config_circuit_spec(cc, &spec, msg, sizeof(msg));
        }
        if (!sized_by_counting)
            (void)cuzk_config_check(&c, msg, sizeof(msg));
    }
    char *nl = strchr(text, '\n');
    if (nl)
        *nl = 0;
    (void)cuzk_config_set(&c, text, "--set", msg, sizeof(msg));
    cuzk_config_free(&c);
    uint64_t bytes;
    (void)parse_byte_size(text, &bytes);
    free(text);
    return 0;
}

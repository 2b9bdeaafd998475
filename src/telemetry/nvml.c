/* The NVML source: libnvidia-ml is opened at run time with dlopen, so a
 * build needs no NVML header and a machine without the driver still runs
 * (telemetry_nvml_open then says why). The few types, constants and
 * signatures used are declared here from NVML's public API reference
 * (docs.nvidia.com/deploy/nvml-api, "Device Queries" and "Initialization
 * and Cleanup"). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "telemetry/telemetry.h"

/* nvmlReturn_t: NVML_SUCCESS = 0, NVML_ERROR_NOT_SUPPORTED = 3 (NVML API
 * reference, nvmlReturn_t). */
typedef int nvml_return;
#define NVML_OK 0
#define NVML_NOT_SUPPORTED 3

typedef struct nvml_device_st *nvml_device; /* nvmlDevice_t, an opaque pointer */

/* nvmlUtilization_t: gpu = % of the sample period in which one or more
 * kernels ran, memory = % in which device memory was read or written. */
typedef struct nvml_utilization {
    unsigned int gpu;
    unsigned int memory;
} nvml_utilization;

#define NVML_CLOCK_SM 1          /* nvmlClockType_t */
#define NVML_PCIE_UTIL_TX_BYTES 0 /* nvmlPcieUtilCounter_t: sent by the device */
#define NVML_PCIE_UTIL_RX_BYTES 1 /* received by the device */

typedef struct nvml_api {
    void *lib;
    nvml_return (*init)(void);     /* nvmlInit_v2 */
    nvml_return (*shutdown)(void); /* nvmlShutdown */
    const char *(*error_string)(nvml_return);
    nvml_return (*count)(unsigned int *);                         /* nvmlDeviceGetCount_v2 */
    nvml_return (*by_index)(unsigned int, nvml_device *);         /* ..GetHandleByIndex_v2 */
    nvml_return (*by_uuid)(const char *, nvml_device *);          /* ..GetHandleByUUID */
    nvml_return (*utilization)(nvml_device, nvml_utilization *);  /* ..GetUtilizationRates */
    nvml_return (*power)(nvml_device, unsigned int *);            /* ..GetPowerUsage: mW */
    nvml_return (*clock)(nvml_device, int, unsigned int *);       /* ..GetClockInfo: MHz */
    nvml_return (*pcie)(nvml_device, int, unsigned int *);        /* ..GetPcieThroughput: KB/s
                                                                     over a 20 ms window */
} nvml_api;

typedef struct nvml_source {
    telemetry_source base;
    nvml_api api;
    nvml_device *dev;
    /* The utilization call returns both percentages: one call per round
     * serves sm_util and mem_util. */
    nvml_utilization *util;
    bool *util_fresh;
} nvml_source;

static const char *nvml_error(const nvml_api *api, nvml_return r)
{
    const char *s = api->error_string ? api->error_string(r) : NULL;
    return s ? s : "unknown NVML error";
}

static nvml_return read_util(nvml_source *ns, unsigned d)
{
    nvml_return r = ns->api.utilization(ns->dev[d], &ns->util[d]);
    return r;
}

static cuzk_status status_of(nvml_return r)
{
    return r == NVML_OK ? CUZK_OK : r == NVML_NOT_SUPPORTED ? CUZK_ERR_UNSUPPORTED : CUZK_ERR_DEVICE;
}

static cuzk_status nvml_read(telemetry_source *s, unsigned device, telemetry_metric m,
                             uint64_t ts_ns, double *value)
{
    (void)ts_ns; /* NVML reads "now" */
    nvml_source *ns = s->impl;
    if (device >= s->devices)
        return CUZK_ERR_INVALID_ARGUMENT;
    nvml_device dv = ns->dev[device];
    unsigned int v = 0;
    nvml_return r = NVML_OK;
    switch (m) {
    case TELEMETRY_SM_UTIL:
        /* sm_util is read first in a round: it fetches both percentages. */
        r = read_util(ns, device);
        ns->util_fresh[device] = r == NVML_OK;
        v = ns->util[device].gpu;
        break;
    case TELEMETRY_MEM_UTIL:
        if (!ns->util_fresh[device])
            r = read_util(ns, device);
        ns->util_fresh[device] = false;
        v = ns->util[device].memory;
        break;
    case TELEMETRY_POWER_W:
        r = ns->api.power(dv, &v);
        if (r == NVML_OK) {
            *value = v / 1000.0; /* milliwatts */
            return CUZK_OK;
        }
        break;
    case TELEMETRY_SM_CLOCK_MHZ:
        r = ns->api.clock(dv, NVML_CLOCK_SM, &v);
        break;
    case TELEMETRY_PCIE_RX_BPS:
    case TELEMETRY_PCIE_TX_BPS:
        r = ns->api.pcie(dv, m == TELEMETRY_PCIE_RX_BPS ? NVML_PCIE_UTIL_RX_BYTES
                                                        : NVML_PCIE_UTIL_TX_BYTES,
                         &v);
        if (r == NVML_OK) {
            *value = v * 1024.0; /* KB/s */
            return CUZK_OK;
        }
        break;
    default:
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (r != NVML_OK)
        return status_of(r);
    *value = v;
    return CUZK_OK;
}

static void nvml_destroy(telemetry_source *s)
{
    nvml_source *ns = s->impl;
    if (ns->api.shutdown)
        ns->api.shutdown();
    if (ns->api.lib)
        dlclose(ns->api.lib);
    free(ns->dev);
    free(ns->util);
    free(ns->util_fresh);
    free(ns);
}

/* dlsym's object pointer as a function pointer: POSIX requires the
 * conversion to work (dlsym, "Application Usage"); the copy avoids the
 * ISO C cast warning. */
static bool load_symbol(void *lib, const char *name, void *fn_slot, size_t size)
{
    void *p = dlsym(lib, name);
    if (!p)
        return false;
    memcpy(fn_slot, &p, size);
    return true;
}

#define LOAD(field, name) load_symbol(api->lib, name, &api->field, sizeof(api->field))

static bool load_api(nvml_api *api, char *missing, size_t missing_len)
{
    struct {
        bool ok;
        const char *name;
    } syms[] = {
        {LOAD(init, "nvmlInit_v2"), "nvmlInit_v2"},
        {LOAD(shutdown, "nvmlShutdown"), "nvmlShutdown"},
        {LOAD(error_string, "nvmlErrorString"), "nvmlErrorString"},
        {LOAD(count, "nvmlDeviceGetCount_v2"), "nvmlDeviceGetCount_v2"},
        {LOAD(by_index, "nvmlDeviceGetHandleByIndex_v2"), "nvmlDeviceGetHandleByIndex_v2"},
        {LOAD(by_uuid, "nvmlDeviceGetHandleByUUID"), "nvmlDeviceGetHandleByUUID"},
        {LOAD(utilization, "nvmlDeviceGetUtilizationRates"), "nvmlDeviceGetUtilizationRates"},
        {LOAD(power, "nvmlDeviceGetPowerUsage"), "nvmlDeviceGetPowerUsage"},
        {LOAD(clock, "nvmlDeviceGetClockInfo"), "nvmlDeviceGetClockInfo"},
        {LOAD(pcie, "nvmlDeviceGetPcieThroughput"), "nvmlDeviceGetPcieThroughput"},
    };
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
        if (!syms[i].ok) {
            snprintf(missing, missing_len, "%s", syms[i].name);
            return false;
        }
    return true;
}

/* The NVML handle of engine device d: the d-th entry of
 * CUDA_VISIBLE_DEVICES when set (an index, or a "GPU-..." UUID), else
 * NVML index d. Without the CUDA runtime's PCI bus ids this is the best
 * match available; both orders agree when CUDA_DEVICE_ORDER=PCI_BUS_ID. */
static nvml_return device_handle(const nvml_api *api, unsigned d, nvml_device *out)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis && *vis) {
        char entry[96] = "";
        unsigned k = 0;
        const char *p = vis;
        while (*p) {
            size_t len = strcspn(p, ",");
            if (k++ == d) {
                snprintf(entry, sizeof(entry), "%.*s", (int)(len < 95 ? len : 95), p);
                break;
            }
            p += len + (p[len] == ',');
        }
        if (entry[0] >= '0' && entry[0] <= '9')
            return api->by_index((unsigned)strtoul(entry, NULL, 10), out);
        if (entry[0])
            return api->by_uuid(entry, out);
    }
    return api->by_index(d, out);
}

cuzk_status telemetry_nvml_open(telemetry_source **out, const char *library, unsigned devices,
                                char *why, size_t why_len)
{
    *out = NULL;
    if (!library)
        library = getenv("CUZK_NVML_LIBRARY");
    if (!library || !*library)
        library = "libnvidia-ml.so.1";
    nvml_source *ns = calloc(1, sizeof(*ns));
    if (!ns)
        return CUZK_ERR_OUT_OF_MEMORY;
    nvml_api *api = &ns->api;
    api->lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!api->lib) {
        const char *err = dlerror();
        backend_msg(why, why_len, "cannot load %s (%s)", library, err ? err : "not found");
        free(ns);
        return CUZK_ERR_UNSUPPORTED;
    }
    char missing[64];
    if (!load_api(api, missing, sizeof(missing))) {
        backend_msg(why, why_len, "%s lacks %s", library, missing);
        dlclose(api->lib);
        free(ns);
        return CUZK_ERR_UNSUPPORTED;
    }
    nvml_return r = api->init();
    if (r != NVML_OK) {
        backend_msg(why, why_len, "nvmlInit failed: %s", nvml_error(api, r));
        dlclose(api->lib);
        free(ns);
        return CUZK_ERR_UNSUPPORTED;
    }
    ns->dev = calloc(devices + 1, sizeof(nvml_device));
    ns->util = calloc(devices + 1, sizeof(nvml_utilization));
    ns->util_fresh = calloc(devices + 1, sizeof(bool));
    ns->base.impl = ns;
    if (!ns->dev || !ns->util || !ns->util_fresh) {
        nvml_destroy(&ns->base);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (unsigned d = 0; d < devices; d++) {
        r = device_handle(api, d, &ns->dev[d]);
        if (r != NVML_OK) {
            backend_msg(why, why_len, "NVML has no handle for device %u: %s", d,
                        nvml_error(api, r));
            nvml_destroy(&ns->base);
            return CUZK_ERR_UNSUPPORTED;
        }
    }
    ns->base.name = "nvml";
    ns->base.devices = devices;
    ns->base.slow = (1u << TELEMETRY_PCIE_RX_BPS) | (1u << TELEMETRY_PCIE_TX_BPS);
    ns->base.read = nvml_read;
    ns->base.destroy = nvml_destroy;
    *out = &ns->base;
    return CUZK_OK;
}

#ifndef CUZK_CUDA_DEVICE_H
#define CUZK_CUDA_DEVICE_H

/* GPU discovery, callable from C. Built only when nvcc is present
 * (CUZK_HAVE_CUDA); without it the backend layer reports no devices. */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuda_device_info {
    int index;
    char name[128];
    size_t total_memory;
    int sm_count;
    int cc_major, cc_minor;
} cuda_device_info;

/* Number of usable CUDA devices; 0 when there is no driver or no GPU. On 0,
 * *why (if not NULL) points at a static string saying why. */
int cuda_device_count(const char **why);

/* Fills info for device index; returns 0, or -1 when it cannot be queried. */
int cuda_device_query(int index, cuda_device_info *info);

/* Page-locked host memory, usable by every device (the GPU copies it by DMA
 * without a staging copy); NULL when it cannot be had. */
void *cuda_host_alloc(size_t bytes);
void cuda_host_free(void *p);

/* A stream on device that does not wait for the legacy default stream, so
 * its copies overlap kernels issued elsewhere; 0 on success, -1 on error.
 * The stream is returned as an opaque pointer (a cudaStream_t). */
int cuda_stream_create(int device, void **stream);
void cuda_stream_destroy(void *stream);

/* Sets bytes of device memory to the byte value (and waits); 0 on
 * success, -1 on error. */
int cuda_memset_bytes(int device, void *d_ptr, int value, size_t bytes);

/* Free device memory on device now; 0 on success, -1 on error. */
int cuda_device_free_memory(int device, size_t *free_bytes);

#ifdef __cplusplus
}
#endif

#endif

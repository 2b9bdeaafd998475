#include "cuda/device.h"

#include <cuda_runtime.h>
#include <string.h>

extern "C" int cuda_device_count(const char **why)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
        if (why)
            *why = cudaGetErrorString(err);
        (void)cudaGetLastError(); /* clear the sticky error for later calls */
        return 0;
    }
    if (n == 0 && why)
        *why = "no CUDA device found";
    return n;
}

extern "C" int cuda_device_query(int index, cuda_device_info *info)
{
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, index) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    memset(info, 0, sizeof(*info));
    info->index = index;
    strncpy(info->name, prop.name, sizeof(info->name) - 1);
    info->total_memory = prop.totalGlobalMem;
    info->sm_count = prop.multiProcessorCount;
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    return 0;
}

extern "C" void *cuda_host_alloc(size_t bytes)
{
    void *p = NULL;
    if (cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocPortable) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    return p; /* page-aligned, so 64-byte aligned */
}

extern "C" void cuda_host_free(void *p)
{
    if (p && cudaFreeHost(p) != cudaSuccess)
        (void)cudaGetLastError();
}

extern "C" int cuda_stream_create(int device, void **stream)
{
    cudaStream_t s = NULL;
    if (cudaSetDevice(device) != cudaSuccess ||
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    *stream = (void *)s;
    return 0;
}

extern "C" void cuda_stream_destroy(void *stream)
{
    if (stream && cudaStreamDestroy((cudaStream_t)stream) != cudaSuccess)
        (void)cudaGetLastError();
}

extern "C" int cuda_device_free_memory(int device, size_t *free_bytes)
{
    size_t total = 0;
    if (cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(free_bytes, &total) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return 0;
}

extern "C" int cuda_memset_bytes(int device, void *d_ptr, int value, size_t bytes)
{
    if (cudaSetDevice(device) != cudaSuccess || cudaMemset(d_ptr, value, bytes) != cudaSuccess ||
        cudaDeviceSynchronize() != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return 0;
}

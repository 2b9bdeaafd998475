/* Input files: a regular file opens; a FIFO (which a plain open() would
 * wait on for good), a folder and a device are refused at once, naming
 * what they are. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/common.h"
#include "util/input_file.h"

static char dir[] = "/tmp/cuzk-input-file-XXXXXX";
static char path[128];

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[160];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_regular_file_opens(void **state)
{
    (void)state;
    snprintf(path, sizeof(path), "%s/regular", dir);
    FILE *w = fopen(path, "w");
    assert_non_null(w);
    fputs("hello", w);
    fclose(w);
    int fd;
    char msg[300];
    assert_int_equal(input_file_open(&fd, path, msg, sizeof(msg)), CUZK_OK);
    /* Back in blocking mode for its reader. */
    assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    char buf[8] = "";
    assert_int_equal(read(fd, buf, sizeof(buf)), 5);
    close(fd);
    FILE *f = input_file_fopen(path, msg, sizeof(msg));
    assert_non_null(f);
    fclose(f);
}

/* Each of these would block or return at once; a test that hangs here is
 * the defect. */
static void test_fifo_refused_without_blocking(void **state)
{
    (void)state;
    snprintf(path, sizeof(path), "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    int fd = -1;
    char msg[300] = "";
    assert_int_equal(input_file_open(&fd, path, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_int_equal(fd, -1);
    assert_non_null(strstr(msg, "a FIFO"));
    assert_null(input_file_fopen(path, msg, sizeof(msg)));
    /* The readers of every input format go through the same open. */
    mapped_file_t m;
    assert_int_equal(mapped_file_open(&m, path, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "a FIFO"));
}

static void test_folder_and_device_refused(void **state)
{
    (void)state;
    int fd;
    char msg[300] = "";
    assert_int_equal(input_file_open(&fd, dir, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "a folder"));
    assert_int_equal(input_file_open(&fd, "/dev/null", msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "a device"));
    assert_int_equal(input_file_open(&fd, "/nonexistent/x", msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "cannot read /nonexistent/x"));
}

int main(void)
{
    /* A blocking open of the FIFO would hang the test: fail it instead. */
    alarm(30);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_file_opens),
        cmocka_unit_test(test_fifo_refused_without_blocking),
        cmocka_unit_test(test_folder_and_device_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* Output files (formats/common.h): written through a new temporary file
 * and renamed; a symbolic link, a device or a FIFO at the target is
 * refused and left as it was (a rename would replace the link or the
 * device node itself); a link planted under the old temporary name
 * "NAME.tmp" is neither followed nor replaced; a write error shows in the
 * status; a device is written into only when the caller asks. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "formats/common.h"

static char dir[] = "/tmp/cuzk-formats-out-XXXXXX";
static char msg[600];

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

static void at(char *out, const char *name)
{
    snprintf(out, 256, "%s/%s", dir, name);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void expect_contents(const char *path, const char *text)
{
    char buf[64] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    assert_string_equal(buf, text);
}

/* Files in dir whose name starts with prefix (temporaries left behind). */
static int count_named(const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += !strncmp(e->d_name, prefix, strlen(prefix));
    closedir(d);
    return n;
}

static void test_regular_written_and_replaced(void **state)
{
    (void)state;
    char p[256];
    at(p, "out.bin");
    assert_int_equal(formats_save(p, "one", 3, msg, sizeof(msg)), CUZK_OK);
    expect_contents(p, "one");
    chmod(p, 0640);
    assert_int_equal(formats_save(p, "two", 3, msg, sizeof(msg)), CUZK_OK);
    expect_contents(p, "two");
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640); /* the replaced file's bits */
    assert_int_equal(count_named(".out.bin."), 0);
}

static void test_symlink_target_refused(void **state)
{
    (void)state;
    char p[256], target[256];
    at(target, "victim");
    at(p, "link.bin");
    put(target, "precious");
    assert_int_equal(symlink(target, p), 0);
    assert_int_equal(formats_save(p, "evil", 4, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "symbolic link"));
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* still the link */
    expect_contents(target, "precious");
    assert_int_equal(count_named(".link.bin."), 0);
}

static void test_planted_tmp_link_not_followed(void **state)
{
    (void)state;
    char p[256], tmp[256], target[256];
    at(target, "victim2");
    at(p, "x.bin");
    at(tmp, "x.bin.tmp");
    put(target, "precious");
    assert_int_equal(symlink(target, tmp), 0);
    assert_int_equal(formats_save(p, "data", 4, msg, sizeof(msg)), CUZK_OK);
    expect_contents(p, "data");
    expect_contents(target, "precious");
    struct stat st;
    assert_int_equal(lstat(tmp, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

static void test_fifo_and_device_refused_unless_asked(void **state)
{
    (void)state;
    char p[256];
    at(p, "fifo");
    assert_int_equal(mkfifo(p, 0600), 0);
    assert_int_equal(formats_save(p, "x", 1, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "a FIFO"));
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    /* Asked, but no reader: an error at once, not a wait. */
    assert_int_equal(formats_save_to(p, "x", 1, FORMATS_OUT_DEVICE_OK, msg, sizeof(msg)),
                     CUZK_ERR_IO);

    /* The full device: refused (and untouched), and when asked, the write
     * error that shows only at the flush is reported. As root a node of our
     * own stands in for /dev/full, which a writer that renames over its
     * target would replace for the whole machine. */
    char full[256] = "/dev/full";
    if (geteuid() == 0) {
        at(full, "full");
        assert_int_equal(mknod(full, S_IFCHR | 0666, makedev(1, 7)), 0);
    }
    assert_int_equal(formats_save(full, "x", 1, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "a device"));
    assert_int_equal(lstat(full, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(formats_save_to(full, "x", 1, FORMATS_OUT_DEVICE_OK, msg, sizeof(msg)),
                     CUZK_ERR_IO);
    assert_non_null(strstr(msg, "write failed"));
    assert_int_equal(formats_save_to("/dev/null", "x", 1, FORMATS_OUT_DEVICE_OK, msg, sizeof(msg)),
                     CUZK_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_written_and_replaced),
        cmocka_unit_test(test_symlink_target_refused),
        cmocka_unit_test(test_planted_tmp_link_not_followed),
        cmocka_unit_test(test_fifo_and_device_refused_unless_asked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

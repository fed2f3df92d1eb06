/* Error codes, names and the thread-local message. */
#include "test_support.h"

#include "base/base.h"

#include <pthread.h>
#include <string.h>

static void names_and_texts(void **state)
{
    (void)state;
    assert_string_equal(rg_error_name(RG_OK), "RG_OK");
    assert_string_equal(rg_error_name(RG_ENOTFOUND), "RG_ENOTFOUND");
    assert_string_equal(rg_error_name(RG_ETOOBIG), "RG_ETOOBIG");
    /* the codes RG_ERANGE no longer overloads: each has its own name and text, and no two codes share a value */
    assert_string_equal(rg_error_name(RG_EBUFFER), "RG_EBUFFER");
    assert_string_equal(rg_error_name(RG_ETIMEOUT), "RG_ETIMEOUT");
    assert_string_equal(rg_strerror(RG_EBUFFER), "buffer too small");
    assert_string_equal(rg_strerror(RG_ETIMEOUT), "script budget exceeded (instructions or time)");
    const int all[] = {RG_ENOMEM, RG_EINVAL,  RG_ENOTFOUND, RG_EIO,     RG_EUNSUPPORTED, RG_ECORE,   RG_ESTATE,
                       RG_EMISUSE, RG_ERANGE, RG_ECORRUPT,  RG_ETOOBIG, RG_EBUFFER,      RG_ETIMEOUT};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        assert_string_not_equal(rg_error_name(all[i]), "RG_E?");
        for (size_t j = 0; j < i; j++)
            assert_int_not_equal(all[i], all[j]);
    }
    assert_string_equal(rg_error_name(-999), "RG_E?");
    assert_string_equal(rg_strerror(RG_ESTATE), "bad save state");
    assert_string_equal(rg_strerror(12345), "unknown error");
}

static void *other_thread(void *arg)
{
    (void)arg;
    /* A fresh thread starts with no message, whatever the main thread recorded. */
    int empty = rg_error_last()[0] == '\0';
    rg__error(RG_EIO, "set on the other thread");
    return (void *)(intptr_t)empty;
}

static void message_is_per_thread(void **state)
{
    (void)state;
    assert_int_equal(rg__error(RG_EINVAL, "main %d", 42), RG_EINVAL);
    pthread_t t;
    void *empty;
    assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
    assert_int_equal(pthread_join(t, &empty), 0);
    assert_true((intptr_t)empty);
    assert_string_equal(rg_error_last(), "main 42");
}

static void context_prefix_and_truncation(void **state)
{
    (void)state;
    rg__error(RG_EIO, "disk full");
    rg__error_context(RG_EIO, "saving %s", "x.state");
    assert_string_equal(rg_error_last(), "saving x.state: disk full");
    char big[3000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    rg__error(RG_EIO, "%s", big);
    rg__error_context(RG_EIO, "%s", big);
    assert_true(strlen(rg_error_last()) < 1024);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_and_texts),
        cmocka_unit_test(message_is_per_thread),
        cmocka_unit_test(context_prefix_and_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

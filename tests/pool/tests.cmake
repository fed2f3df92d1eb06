rg_test(pool_engine pool/test_pool.c)

rg_test(pool_engine pool/test_pool.c)
# Recording every environment's episodes as movies (src/pool/pool_record.c).
rg_test(pool_record pool/test_pool_record.c TIMEOUT 600)

rg_test(env_api env/test_env.c)
if(NOT RG_SANITIZE)
  rg_test(env_no_alloc env/test_env_noalloc.c LABELS no-asan)
endif()

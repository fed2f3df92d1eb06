/* A shared object with every retro_* entry point whose retro_api_version is not 1. Used by test_bad_input:
 * the host must refuse it before calling anything else. The other entry points are never reached. */
#include <stdbool.h>
#include <stddef.h>

#define ENTRY(ret, name, args, body) ret name args; ret name args { body }
ENTRY(unsigned, retro_api_version, (void), return 2;)
ENTRY(void, retro_init, (void), )
ENTRY(void, retro_deinit, (void), )
ENTRY(void, retro_get_system_info, (void *info), (void)info;)
ENTRY(void, retro_get_system_av_info, (void *info), (void)info;)
ENTRY(void, retro_set_controller_port_device, (unsigned p, unsigned d), (void)p; (void)d;)
ENTRY(void, retro_reset, (void), )
ENTRY(void, retro_run, (void), )
ENTRY(size_t, retro_serialize_size, (void), return 0;)
ENTRY(bool, retro_serialize, (void *d, size_t s), (void)d; (void)s; return false;)
ENTRY(bool, retro_unserialize, (const void *d, size_t s), (void)d; (void)s; return false;)
ENTRY(bool, retro_load_game, (const void *g), (void)g; return false;)
ENTRY(void, retro_unload_game, (void), )
ENTRY(void *, retro_get_memory_data, (unsigned id), (void)id; return NULL;)
ENTRY(size_t, retro_get_memory_size, (unsigned id), (void)id; return 0;)
ENTRY(void, retro_set_environment, (void *cb), (void)cb;)
ENTRY(void, retro_set_video_refresh, (void *cb), (void)cb;)
ENTRY(void, retro_set_audio_sample, (void *cb), (void)cb;)
ENTRY(void, retro_set_audio_sample_batch, (void *cb), (void)cb;)
ENTRY(void, retro_set_input_poll, (void *cb), (void)cb;)
ENTRY(void, retro_set_input_state, (void *cb), (void)cb;)

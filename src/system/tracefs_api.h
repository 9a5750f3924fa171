// The libtracefs functions system/block_trace.cpp calls, declared as
// libtracefs 1.6's <tracefs.h> declares them: that header is C that a C++
// compiler refuses (an inline function passes an int as an enum,
// tracefs.h:451), and libtracefs links as a plain C library
// (pkg-config libtracefs). libtraceevent's <event-parse.h> is C++-clean
// and gives the types.
#pragma once

#include <cstddef>

extern "C" {
#include <event-parse.h>

struct tracefs_instance;

const char* tracefs_tracing_dir(void);
struct tracefs_instance* tracefs_instance_create(const char* name);
struct tracefs_instance* tracefs_instance_alloc(const char* tracing_dir,
                                                const char* name);
int tracefs_instance_destroy(struct tracefs_instance* instance);
void tracefs_instance_free(struct tracefs_instance* instance);
int tracefs_instance_file_write(struct tracefs_instance* instance,
                                const char* file, const char* str);
int tracefs_instance_set_buffer_size(struct tracefs_instance* instance,
                                     size_t size, int cpu);
char* tracefs_event_file_read(struct tracefs_instance* instance,
                              const char* system, const char* event,
                              const char* file, int* psize);
int tracefs_event_file_write(struct tracefs_instance* instance,
                             const char* system, const char* event,
                             const char* file, const char* str);
int tracefs_event_enable(struct tracefs_instance* instance, const char* system,
                         const char* event);
int tracefs_event_disable(struct tracefs_instance* instance, const char* system,
                          const char* event);
int tracefs_trace_on(struct tracefs_instance* instance);
int tracefs_trace_off(struct tracefs_instance* instance);
}

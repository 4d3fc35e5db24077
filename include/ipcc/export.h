/* which symbols libipcc.so exports. The library is built with -fvisibility=hidden
   (meson.build: gnu_symbol_visibility 'hidden'), so only declarations marked IPCC_API
   are visible to programs linked with the shared library: exactly the functions declared in
   the headers of include/ipcc/ (tests/test_exports.py checks both directions against `nm -D`). */
#ifndef IPCC_EXPORT_H
#define IPCC_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define IPCC_API __attribute__((visibility("default")))
#else
#define IPCC_API
#endif

/* IPCC_NONNULL(1, 2): the pointer parameters 1 and 2 must not be NULL (a warning where a call
   passes NULL, on compilers with GNU attributes) */
#if defined(__GNUC__) || defined(__clang__)
#define IPCC_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define IPCC_NONNULL(...)
#endif

#endif

#pragma once

// ThreadSanitizer annotations for hand-overs through Qt's event queue, which synchronises
// with futexes that TSan cannot see (Qt itself is not built with -fsanitize=thread): a
// release on the sending side, an acquire on the receiving side. Empty in other builds.
// Commands to workers do not need them: they travel through EngineWorker::post().

#if defined(__SANITIZE_THREAD__)
#define STREAMSCOPE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STREAMSCOPE_TSAN 1
#endif
#endif

#ifdef STREAMSCOPE_TSAN
extern "C" void __tsan_acquire(void *addr);
extern "C" void __tsan_release(void *addr);
#endif

namespace streamscope {

// The token for events that workers send to the Engine through queued signals.
inline const char kEventHandOffToken = 0;

inline void handOffRelease([[maybe_unused]] const void *token)
{
#ifdef STREAMSCOPE_TSAN
    __tsan_release(const_cast<void *>(token));
#endif
}

inline void handOffAcquire([[maybe_unused]] const void *token)
{
#ifdef STREAMSCOPE_TSAN
    __tsan_acquire(const_cast<void *>(token));
#endif
}

} // namespace streamscope

#pragma once

// Queued calls between the Engine's thread and its workers, visible to ThreadSanitizer.
//
// Qt hands a queued call to another thread through its event queue, which locks with
// futexes that TSan cannot see (Qt itself is not built with -fsanitize=thread), so every
// hand-over would look like a data race. Each hand-over here is annotated as a release on
// the posting side and an acquire on the receiving side; in other builds the annotations are
// empty and this is exactly QMetaObject::invokeMethod(..., Qt::QueuedConnection).

#include <QtCore/QObject>

#include <utility>

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

// Runs fn on target's thread, queued.
template<typename Fn>
void postTo(QObject *target, Fn &&fn)
{
    handOffRelease(target);
    QMetaObject::invokeMethod(
        target,
        [target, fn = std::forward<Fn>(fn)]() mutable {
            handOffAcquire(target);
            fn();
        },
        Qt::QueuedConnection);
}

} // namespace streamscope

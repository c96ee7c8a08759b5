#pragma once

// Root ignores file permissions, and tests often run as root (containers, CI). A test of a
// file or folder that cannot be written acts, while an Unprivileged lives, as an ordinary
// user: run as root, the real and effective user and group ids become nobody's (65534) and
// the supplementary groups are dropped; the saved ids stay 0, so that the destructor can
// switch back. Run as anyone else, it changes nothing: permissions already apply. It applies
// to the whole process (glibc sets the ids of every thread).
//
// Thread contract: constructed and destroyed on one thread, while no other thread of the
// test touches files.

#include <QtCore/QtGlobal>

#ifdef Q_OS_UNIX
#include <grp.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <vector>
#endif

namespace streamscope::testing {

class Unprivileged {
public:
#ifdef Q_OS_UNIX
    static constexpr uid_t kNobody = 65534;

    Unprivileged()
    {
        if (::geteuid() != 0) {
            m_active = true;
            return;
        }
        const int count = ::getgroups(0, nullptr);
        m_groups.resize(std::size_t(std::max(count, 0)));
        if (count < 0 || ::getgroups(count, m_groups.data()) != count || ::setgroups(0, nullptr) != 0)
            return;
        if (::setresgid(kNobody, kNobody, 0) != 0) {
            ::setgroups(m_groups.size(), m_groups.data());
            return;
        }
        if (::setresuid(kNobody, kNobody, 0) != 0) {
            ::setresgid(0, 0, 0);
            ::setgroups(m_groups.size(), m_groups.data());
            return;
        }
        m_switched = true;
        m_active = true;
    }
    ~Unprivileged()
    {
        if (!m_switched)
            return;
        // Back to root first: only root may set the group ids and groups back.
        if (::setresuid(0, 0, 0) != 0 || ::setresgid(0, 0, 0) != 0
            || ::setgroups(m_groups.size(), m_groups.data()) != 0)
            qFatal("cannot switch back to root after acting as an unprivileged user");
    }
#else
    Unprivileged() = default;
#endif
    Unprivileged(const Unprivileged &) = delete;
    Unprivileged &operator=(const Unprivileged &) = delete;

    // Whether file permissions now apply to this process.
    bool active() const
    {
        return m_active;
    }

private:
    bool m_active = false;
#ifdef Q_OS_UNIX
    bool m_switched = false;
    std::vector<gid_t> m_groups;
#endif
};

} // namespace streamscope::testing

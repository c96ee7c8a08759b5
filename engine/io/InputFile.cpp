#include "InputFile.h"

#include <QtCore/QFileInfo>

#include <algorithm>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif
#ifdef Q_OS_WIN
#include <sys/stat.h>
#include <sys/types.h>
#endif

namespace streamscope {

namespace {

constexpr qint64 kMiB = 1024 * 1024;
constexpr qint64 kReadAllChunk = 64 * 1024;

QString bytesText(qint64 bytes)
{
    if (bytes >= kMiB && bytes % kMiB == 0)
        return QStringLiteral("%1 MiB").arg(bytes / kMiB);
    return QStringLiteral("%1 bytes").arg(bytes);
}

#ifdef Q_OS_UNIX
QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a directory");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(mode))
        return QStringLiteral("a block device");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("a special file");
}
#endif
#ifdef Q_OS_WIN
QString kindOf(unsigned short mode)
{
    switch (mode & _S_IFMT) {
    case _S_IFDIR: return QStringLiteral("a directory");
    case _S_IFCHR: return QStringLiteral("a character device");
    case _S_IFIFO: return QStringLiteral("a pipe");
    default: break;
    }
    return QStringLiteral("a special file");
}
#endif

} // namespace

InputFile::InputFile() = default;
InputFile::~InputFile() = default;

bool InputFile::fail(Error error, const QString &what)
{
    m_error = error;
    m_errorString = QStringLiteral("%1: %2").arg(m_path, what);
    return false;
}

bool InputFile::open(const QString &path, const Limits &limits)
{
    close();
    m_path = path;
    m_limits = limits;
    m_limits.maxBytes = std::max<qint64>(limits.maxBytes, 0);
    m_error = Error::None;
    m_errorString.clear();
    m_size = 0;
    m_position = 0;
    m_atEnd = false;
    m_deadline = limits.timeout.count() > 0 ? QDeadlineTimer(limits.timeout) : QDeadlineTimer(QDeadlineTimer::Forever);
    const auto notRegular = [this](const QString &kind) {
        return fail(Error::NotRegular, QStringLiteral("expected a regular file, found %1").arg(kind));
    };
#ifdef Q_OS_UNIX
    // O_NONBLOCK: opening a FIFO that has no writer returns at once instead of waiting for
    // one; the type check below then refuses it. It changes nothing for a regular file.
    const QByteArray native = QFile::encodeName(path);
    int fd = -1;
    do {
        fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    struct stat st = {};
    if (fd < 0) {
        const int why = errno;
        // Only to say what it is (a socket cannot be opened at all): nothing is read.
        if (::stat(native.constData(), &st) == 0 && !S_ISREG(st.st_mode))
            return notRegular(kindOf(st.st_mode));
        return fail(Error::Open, QStringLiteral("cannot read the file: %1").arg(qt_error_string(why)));
    }
    if (::fstat(fd, &st) != 0) {
        const int why = errno;
        ::close(fd);
        return fail(Error::Open, QStringLiteral("cannot read the file: %1").arg(qt_error_string(why)));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return notRegular(kindOf(st.st_mode));
    }
    if (!m_file.open(fd, QIODevice::ReadOnly | QIODevice::Unbuffered, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return fail(Error::Open, QStringLiteral("cannot read the file: %1").arg(m_file.errorString()));
    }
    m_size = qint64(st.st_size);
#else
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        if (QFileInfo(path).isDir())
            return notRegular(QStringLiteral("a directory"));
        return fail(Error::Open, QStringLiteral("cannot read the file: %1").arg(m_file.errorString()));
    }
#ifdef Q_OS_WIN
    struct _stat64 st = {};
    if (_fstat64(m_file.handle(), &st) != 0 || (st.st_mode & _S_IFMT) != _S_IFREG) {
        m_file.close();
        return notRegular(kindOf(st.st_mode));
    }
    m_size = qint64(st.st_size);
#else
    m_size = m_file.size();
#endif
#endif
    if (m_size > m_limits.maxBytes) {
        m_file.close();
        return fail(Error::TooLarge,
                    QStringLiteral("expected a file of at most %1, found %2")
                        .arg(bytesText(m_limits.maxBytes), bytesText(m_size)));
    }
    return true;
}

void InputFile::close()
{
    if (m_file.isOpen())
        m_file.close();
}

bool InputFile::checkBeforeRead()
{
    if (m_error != Error::None)
        return false;
    if (!m_file.isOpen())
        return fail(Error::Read, QStringLiteral("not open"));
    if (m_limits.cancel && m_limits.cancel->load(std::memory_order_relaxed))
        return fail(Error::Cancelled, QStringLiteral("cancelled"));
    if (m_deadline.hasExpired())
        return fail(Error::TimedOut,
                    QStringLiteral("not read within %1 s (a file system that does not answer?)")
                        .arg(double(m_limits.timeout.count()) / 1000.0));
    return true;
}

qint64 InputFile::read(char *data, qint64 maxBytes)
{
    if (!checkBeforeRead())
        return -1;
    if (m_atEnd || maxBytes <= 0)
        return 0;
    // At most one byte past the bound: enough to tell a file that grew from one that ends there.
    const qint64 room = m_limits.maxBytes + 1 - m_position;
    const qint64 n = m_file.read(data, std::min(maxBytes, room));
    if (n < 0) {
        fail(Error::Read, QStringLiteral("cannot read the file: %1").arg(m_file.errorString()));
        return -1;
    }
    if (n == 0) {
        m_atEnd = true;
        return 0;
    }
    m_position += n;
    if (m_position > m_limits.maxBytes) {
        fail(Error::TooLarge,
             QStringLiteral("expected a file of at most %1; it grew past that while read")
                 .arg(bytesText(m_limits.maxBytes)));
        return -1;
    }
    return n;
}

QByteArray InputFile::read(qint64 maxBytes)
{
    // No larger than what is left of the file as it was at the open (plus room to see that it
    // grew): a small file costs a small buffer however large a chunk is asked for.
    const qint64 left = std::max<qint64>(m_size - m_position, 0) + kReadAllChunk;
    QByteArray out(qsizetype(std::clamp<qint64>(std::min(maxBytes, left), 0, m_limits.maxBytes + 1)),
                   Qt::Uninitialized);
    const qint64 n = read(out.data(), out.size());
    out.resize(n > 0 ? qsizetype(n) : 0);
    return out;
}

bool InputFile::rewind()
{
    if (m_error != Error::None || !m_file.isOpen())
        return false;
    if (!m_file.seek(0))
        return fail(Error::Read, QStringLiteral("cannot go back to its start: %1").arg(m_file.errorString()));
    m_position = 0;
    m_atEnd = false;
    return true;
}

std::optional<QByteArray> InputFile::readAll(const QString &path, const Limits &limits, QString *error)
{
    InputFile file;
    if (!file.open(path, limits)) {
        if (error)
            *error = file.errorString();
        return std::nullopt;
    }
    QByteArray bytes;
    bytes.reserve(qsizetype(std::min(file.size(), file.m_limits.maxBytes)));
    for (;;) {
        const qsizetype before = bytes.size();
        bytes.resize(before + qsizetype(kReadAllChunk));
        const qint64 n = file.read(bytes.data() + before, kReadAllChunk);
        bytes.resize(before + qsizetype(std::max<qint64>(n, 0)));
        if (n == 0)
            return bytes;
        if (n < 0) {
            if (error)
                *error = file.errorString();
            return std::nullopt;
        }
    }
}

} // namespace streamscope

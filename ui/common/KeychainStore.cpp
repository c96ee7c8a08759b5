#include "KeychainStore.h"

#include "SecretStore.h"

#include <qt6keychain/keychain.h>

namespace streamscope::ui {

KeychainStore::KeychainStore(QObject *parent)
    : QObject(parent)
{
}

bool KeychainStore::isKeychainRef(const QString &ref)
{
    return ref.startsWith(QLatin1String(kPrefix));
}

QString KeychainStore::nameOf(const QString &ref)
{
    return isKeychainRef(ref) ? ref.mid(int(qstrlen(kPrefix))) : QString();
}

void KeychainStore::load(const QStringList &names)
{
    for (const QString &name : names) {
        if (name.isEmpty() || m_requested.contains(name))
            continue;
        m_requested.insert(name);
        auto *job = new QKeychain::ReadPasswordJob(QLatin1String(kService), this);
        job->setAutoDelete(true);
        job->setKey(name);
        connect(job, &QKeychain::Job::finished, this, [this, job, name] {
            if (job->error() != QKeychain::NoError) {
                m_requested.remove(name); // try again next time
                emit failed(name, job->errorString());
                return;
            }
            SecretStore::setKeychainValue(name, job->textData());
            emit loaded(name);
        });
        job->start();
    }
}

void KeychainStore::store(const QString &name, const QString &value)
{
    SecretStore::setKeychainValue(name, value);
    m_requested.insert(name);
    auto *job = new QKeychain::WritePasswordJob(QLatin1String(kService), this);
    job->setAutoDelete(true);
    job->setKey(name);
    job->setTextData(value);
    connect(job, &QKeychain::Job::finished, this, [this, job, name] {
        if (job->error() != QKeychain::NoError)
            emit failed(name, job->errorString());
    });
    job->start();
}

} // namespace streamscope::ui

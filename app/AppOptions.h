#pragma once

// The command line of `streamscope` (README, "Using it"; `streamscope --help`), parsed before any
// QCoreApplication exists so that --headless never needs a display server.

#include <QtCore/QString>
#include <QtCore/QStringList>

namespace streamscope::app {

struct AppOptions {
    enum class Action { Run, Help, Version, BadArguments };
    Action action = Action::Run;
    QString message; // help text (lines), version text or the error (one line, unescaped)

    bool headless = false;
    QString workspacePath; // empty: the built-in demo
    double durationS = 0;  // 0: until interrupted
    QString reportPath;
    QString reportCsvPath;                                // --report-csv FILE: one row per stream (docs/report.md)
    int metricsPort = -1;                                 // -1: no metrics endpoint
    QString metricsAddress = QStringLiteral("127.0.0.1"); // an IPv4 or IPv6 address, checked
    QString metricsAuthFile;                              // "user:password": basic authentication
    QString metricsTlsCert;                               // PEM certificate (chain) and key: TLS only
    QString metricsTlsKey;
    bool quiet = false; // headless: no live lines, only events, warnings and errors
    QString recordDir;  // --record DIR: every stream records there (docs/capture.md)
    QString flightDir;  // --flight-recorder DIR: the flight recorder on, saving there (docs/capture.md)

    static AppOptions parse(const QStringList &arguments);
};

} // namespace streamscope::app

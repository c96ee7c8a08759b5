#include "AppOptions.h"

#include <QtCore/QCommandLineParser>
#include <QtNetwork/QHostAddress>

namespace streamscope::app {

AppOptions AppOptions::parse(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("StreamScope monitors real-time market-data streams: Binance websockets, Betfair-style\n"
                       "TLS line streams and any ws/wss endpoint. Without arguments it opens the built-in demo."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")},
                                     QStringLiteral("Show the version."));
    const QCommandLineOption workspace(QStringLiteral("workspace"), QStringLiteral("Open the workspace FILE."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption headless(QStringLiteral("headless"),
                                      QStringLiteral("Run without a GUI (no display server needed)."));
    const QCommandLineOption duration(QStringLiteral("duration"), QStringLiteral("Stop after SECONDS."),
                                      QStringLiteral("SECONDS"));
    const QCommandLineOption report(QStringLiteral("report"), QStringLiteral("Write a JSON report to FILE on exit."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption reportCsv(QStringLiteral("report-csv"),
                                       QStringLiteral("Write the report's per-stream fields as CSV to FILE on exit."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption metricsPort(QStringLiteral("metrics-port"),
                                         QStringLiteral("Serve Prometheus metrics at http://ADDRESS:N/metrics."),
                                         QStringLiteral("N"));
    const QCommandLineOption metricsAddress(QStringLiteral("metrics-address"),
                                            QStringLiteral("Address for the metrics endpoint (default 127.0.0.1). Any "
                                                           "other than a loopback address is warned about unless "
                                                           "--metrics-auth-file and --metrics-tls-cert are given."),
                                            QStringLiteral("ADDRESS"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption quiet(QStringLiteral("quiet"),
                                   QStringLiteral("Headless: no live line per stream every second; events, warnings "
                                                  "and errors only (for a service's journal)."));
    const QCommandLineOption metricsAuthFile(
        QStringLiteral("metrics-auth-file"),
        QStringLiteral("Ask every metrics request for HTTP basic authentication with the user and password in FILE "
                       "(one line: user:password)."),
        QStringLiteral("FILE"));
    const QCommandLineOption metricsTlsCert(QStringLiteral("metrics-tls-cert"),
                                            QStringLiteral("Serve the metrics endpoint over TLS only, with this PEM "
                                                           "certificate (chain); needs --metrics-tls-key."),
                                            QStringLiteral("FILE"));
    const QCommandLineOption metricsTlsKey(QStringLiteral("metrics-tls-key"),
                                           QStringLiteral("The PEM private key of --metrics-tls-cert."),
                                           QStringLiteral("FILE"));
    const QCommandLineOption record(
        QStringLiteral("record"), QStringLiteral("Record every stream to DIR (.ndjson.zst captures; with --headless)."),
        QStringLiteral("DIR"));
    const QCommandLineOption flight(
        QStringLiteral("flight-recorder"),
        QStringLiteral("Keep every stream's last minutes in memory (the workspace's flight_recorder settings, "
                       "else 5 minutes within 256 MB) and save them to DIR when an alert fires (with --headless)."),
        QStringLiteral("DIR"));
    parser.addOptions({help, version, workspace, headless, duration, report, reportCsv, metricsPort, metricsAddress,
                       metricsAuthFile, metricsTlsCert, metricsTlsKey, quiet, record, flight});

    AppOptions o;
    const auto bad = [&o](const QString &text) {
        o.action = Action::BadArguments;
        o.message = text; // main() adds "Try 'streamscope --help'."
        return o;
    };
    if (!parser.parse(arguments))
        return bad(parser.errorText());
    if (parser.isSet(help)) {
        o.action = Action::Help;
        // Parsed before the application object exists, Qt would call the program "<executable_name>".
        o.message = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("streamscope"));
        return o;
    }
    if (parser.isSet(version)) {
        o.action = Action::Version;
        o.message = QStringLiteral("streamscope %1").arg(QStringLiteral(STREAMSCOPE_VERSION));
        return o;
    }
    if (!parser.positionalArguments().isEmpty())
        return bad(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().constFirst()));
    o.headless = parser.isSet(headless);
    o.workspacePath = parser.value(workspace);
    if (parser.isSet(workspace) && o.workspacePath.isEmpty())
        return bad(QStringLiteral("--workspace needs a file name"));
    if (parser.isSet(duration)) {
        bool ok = false;
        o.durationS = parser.value(duration).toDouble(&ok);
        if (!ok || o.durationS <= 0)
            return bad(QStringLiteral("--duration expects a positive number of seconds, got '%1'")
                           .arg(parser.value(duration)));
    }
    o.reportPath = parser.value(report);
    o.reportCsvPath = parser.value(reportCsv);
    if (parser.isSet(reportCsv) && o.reportCsvPath.isEmpty())
        return bad(QStringLiteral("--report-csv needs a file name"));
    if (parser.isSet(metricsPort)) {
        bool ok = false;
        o.metricsPort = parser.value(metricsPort).toInt(&ok);
        if (!ok || o.metricsPort < 0 || o.metricsPort > 65535)
            return bad(QStringLiteral("--metrics-port expects a port from 0 to 65535, got '%1'")
                           .arg(parser.value(metricsPort)));
    }
    o.metricsAddress = parser.value(metricsAddress);
    if (QHostAddress(o.metricsAddress).isNull())
        return bad(
            QStringLiteral("--metrics-address expects an IPv4 or IPv6 address such as 127.0.0.1 or ::1, got '%1'")
                .arg(o.metricsAddress));
    o.metricsAuthFile = parser.value(metricsAuthFile);
    o.metricsTlsCert = parser.value(metricsTlsCert);
    o.metricsTlsKey = parser.value(metricsTlsKey);
    if (o.metricsTlsCert.isEmpty() != o.metricsTlsKey.isEmpty())
        return bad(QStringLiteral("--metrics-tls-cert and --metrics-tls-key go together: give both or neither"));
    if (o.metricsPort < 0 && (!o.metricsAuthFile.isEmpty() || !o.metricsTlsCert.isEmpty()))
        return bad(QStringLiteral("--metrics-auth-file and --metrics-tls-cert need --metrics-port"));
    o.quiet = parser.isSet(quiet);
    if (parser.isSet(record)) {
        o.recordDir = parser.value(record);
        if (o.recordDir.isEmpty())
            return bad(QStringLiteral("--record needs a folder"));
        // The desktop app records per stream (Streams → Record): say so rather than ignore it.
        if (!o.headless)
            return bad(QStringLiteral("--record works with --headless only; in the desktop app use Streams → Record"));
    }
    if (parser.isSet(flight)) {
        o.flightDir = parser.value(flight);
        if (o.flightDir.isEmpty())
            return bad(QStringLiteral("--flight-recorder needs a folder"));
        if (!o.headless)
            return bad(QStringLiteral("--flight-recorder works with --headless only; in the desktop app use "
                                      "Streams > Flight recorder"));
    }
    return o;
}

} // namespace streamscope::app

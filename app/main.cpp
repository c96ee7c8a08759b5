// streamscope: the desktop monitor, or with --headless the same engine without a GUI.

#include "AppOptions.h"
#include "Console.h"
#include "DemoWorkspace.h"
#include "EventLoop.h"
#include "HeadlessRunner.h"
#include "Workspace.h"

#include <QtCore/QCoreApplication>

#ifdef STREAMSCOPE_HAVE_GUI
#include "Engine.h"
#include "MainWindow.h"
#include "Report.h"
#include "ReportCsv.h"
#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>
#include <QtWidgets/QApplication>
#endif

#include <cstdlib>
#include <memory>

using namespace streamscope;

namespace {

QStringList rawArguments(int argc, char **argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    return args;
}

// One line on stderr: an argument, a path or a workspace's value in it may hold anything,
// a line feed included, so it is escaped as one line.
int failWith(const QString &text, int code)
{
    console::err(ConsoleText::escape(text));
    return code;
}

#ifdef STREAMSCOPE_HAVE_GUI
constexpr char kNoDisplayHint[] = "Run it with --headless to monitor without a window (see --help), or start it "
                                  "from a desktop session.";

// Where Qt would pick the X11 or Wayland plugin and neither is there, say so before Qt aborts
// with its plugin message. Empty when a display may be there (or another platform is asked).
QString missingDisplay()
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS) && !defined(Q_OS_ANDROID)
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        return QStringLiteral("no display found (DISPLAY and WAYLAND_DISPLAY are not set)");
#endif
    return {};
}

// The fallback while the GUI starts: Qt's fatal "could not connect to display" or "no
// platform plugin" becomes our message and exit code 1 instead of an abort (134).
void exitOnPlatformFailure(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type != QtFatalMsg) {
        console::err(ConsoleText::escape(message));
        return;
    }
    console::err(ConsoleText::escape(QStringLiteral("streamscope: the display could not be opened: ")
                                     + message.section(QLatin1Char('\n'), 0, 0)));
    console::err(ConsoleText::escape(QStringLiteral("streamscope: ") + QLatin1String(kNoDisplayHint)));
    std::_Exit(1);
}
#endif

} // namespace

int main(int argc, char **argv)
{
    // A socket per stream: 10,000 streams need more descriptors than many systems give by default.
    raiseOpenFileLimit();
    // A GUI-subsystem executable on Windows has no console; when started from one, write to it.
    console::attachParentConsole();
    console::installMessageHandler();
    const app::AppOptions options = app::AppOptions::parse(rawArguments(argc, argv));
    switch (options.action) {
    case app::AppOptions::Action::Help: console::out(ConsoleText::escapeLines(options.message)); return 0;
    case app::AppOptions::Action::Version: console::out(ConsoleText::escape(options.message)); return 0;
    case app::AppOptions::Action::BadArguments:
        failWith(QStringLiteral("streamscope: ") + options.message, 2);
        console::err(ConsoleText::escape("Try 'streamscope --help'."));
        return 2;
    case app::AppOptions::Action::Run: break;
    }

    Workspace workspace;
    if (!options.workspacePath.isEmpty()) {
        const Workspace::LoadResult loaded = Workspace::load(options.workspacePath, workspace);
        for (const QString &w : loaded.warnings)
            console::err(ConsoleText::escape(QStringLiteral("streamscope: warning: ") + w));
        if (!loaded.ok)
            return failWith(QStringLiteral("streamscope: ") + loaded.error, 2);
    }

#ifdef STREAMSCOPE_HAVE_GUI
    std::unique_ptr<QCoreApplication> application;
    if (options.headless) {
        application = std::make_unique<QCoreApplication>(argc, argv);
    } else {
        if (const QString missing = missingDisplay(); !missing.isEmpty()) {
            failWith(QStringLiteral("streamscope: %1.").arg(missing), 1);
            return failWith(QStringLiteral("streamscope: ") + QLatin1String(kNoDisplayHint), 1);
        }
        const QtMessageHandler previous = qInstallMessageHandler(exitOnPlatformFailure);
        application = std::make_unique<QApplication>(argc, argv);
        qInstallMessageHandler(previous);
    }
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.streamscope.StreamScope"));
#else
    if (!options.headless)
        console::err(ConsoleText::escape("streamscope: built without the GUI, running headless"));
    auto application = std::make_unique<QCoreApplication>(argc, argv);
#endif
    QCoreApplication::setApplicationName(QStringLiteral("StreamScope"));
    QCoreApplication::setOrganizationName(QStringLiteral("StreamScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STREAMSCOPE_VERSION));

    app::DemoWorkspace demo;
    if (options.workspacePath.isEmpty()) {
        QString error;
        if (!demo.start(&error))
            return failWith(QStringLiteral("streamscope: ") + error, 1);
        workspace = demo.workspace();
    }

#ifdef STREAMSCOPE_HAVE_GUI
    if (!options.headless) {
        Engine engine;
        ui::MainWindow window(&engine);
        if (options.workspacePath.isEmpty()) {
            window.setWorkspace(workspace, QString());
            window.setSaveNote(demo.saveNote());
        } else {
            QString error;
            if (!window.openWorkspace(options.workspacePath, &error))
                return failWith(QStringLiteral("streamscope: ") + error, 2);
        }
        window.show();
        QElapsedTimer clock;
        clock.start();
        if (options.durationS > 0)
            QTimer::singleShot(int(options.durationS * 1000.0), application.get(), &QCoreApplication::quit);
        const int code = application->exec();
        if (!options.reportPath.isEmpty() || !options.reportCsvPath.isEmpty()) {
            QString error;
            // The window's report: the headless one's fields, its alerts' included.
            const QJsonObject report = window.report(double(clock.nsecsElapsed()) / 1e9);
            if (!options.reportPath.isEmpty() && !app::writeReport(options.reportPath, report, &error))
                return failWith(QStringLiteral("streamscope: ") + error, 1);
            if (!options.reportCsvPath.isEmpty() && !app::writeReportCsv(options.reportCsvPath, report, &error))
                return failWith(QStringLiteral("streamscope: ") + error, 1);
        }
        return code;
    }
#endif

    app::HeadlessRunner runner(options, workspace);
    QObject::connect(&runner, &app::HeadlessRunner::finished, application.get(), &QCoreApplication::exit,
                     Qt::QueuedConnection);
    if (!runner.start())
        return runner.exitCode();
    return application->exec();
}

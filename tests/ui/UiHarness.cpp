// Puts the main window on the built-in demo into a state worth a screenshot, for looking
// at the UI under Xvfb (`import -window root`) and for docs/screenshots. Not a test.
//   ui_screenshot_harness main|dialog|inspector [--dark]

#include "DemoWorkspace.h"
#include "Engine.h"
#include "InspectorModel.h"
#include "MainWindow.h"
#include "MessageInspector.h"
#include "StreamDialog.h"
#include "StreamTableModel.h"
#include "Theme.h"

#include <QtCore/QTimer>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTableView>
#include <QtWidgets/QToolButton>

using namespace streamscope;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("StreamScopeScreenshots"));
    QCoreApplication::setApplicationName(QStringLiteral("StreamScope"));
    const QStringList args = app.arguments();
    const QString scene = args.value(1, QStringLiteral("main"));

    app::DemoWorkspace demo;
    QString error;
    if (!demo.start(&error)) {
        qCritical("%s", qPrintable(error));
        return 1;
    }
    Engine engine;
    ui::MainWindow window(&engine);
    window.setWorkspace(demo.workspace(), QString());
    if (args.contains(QStringLiteral("--dark")))
        ui::Theme::apply(ui::Theme::Mode::Dark);
    window.move(0, 0);
    window.resize(1600, 1000);
    window.show();

    if (scene == QLatin1String("dialog")) {
        QTimer::singleShot(1500, &window, [&window] {
            auto *d = new ui::StreamDialog({}, &window);
            d->setAttribute(Qt::WA_DeleteOnClose);
            d->setPreset(ui::StreamDialog::Preset::BinanceSpot);
            d->findChild<QLineEdit *>(QStringLiteral("symbols"))->setText(QStringLiteral("BTCUSDT, ETHUSDT, SOLUSDT"));
            d->findChild<QCheckBox *>(QStringLiteral("kline"))->setChecked(true);
            d->findChild<QCheckBox *>(QStringLiteral("depth"))->setChecked(true);
            d->findChild<QComboBox *>(QStringLiteral("depthSpeed"))->setCurrentText(QStringLiteral("100ms"));
            d->findChild<QCheckBox *>(QStringLiteral("bookTicker"))->setChecked(true);
            d->show();
            d->move(window.geometry().center() - d->rect().center());
        });
    } else if (scene == QLatin1String("inspector")) {
        QTimer::singleShot(6000, &window, [&window] {
            window.inspector()->filterEdit()->setText(QStringLiteral("\"m\":false"));
            QTimer::singleShot(1500, &window, [&window] {
                for (QToolButton *b : window.inspector()->findChildren<QToolButton *>()) {
                    if (b->text() == QLatin1String("Freeze"))
                        b->click();
                }
                QTableView *view = window.inspector()->view();
                view->selectRow(std::max(0, window.inspector()->model()->rowCount() - 3));
                view->setFocus();
            });
        });
        QTimer::singleShot(1000, &window, [&window] {
            auto *dock = window.findChild<QDockWidget *>(QStringLiteral("inspectorDock"));
            dock->raise();
            window.resizeDocks({dock}, {420}, Qt::Vertical);
        });
    } else {
        // After a minute the demo has shown a reconnect, a stall and an alert: show the log.
        QTimer::singleShot(1000, &window, [&window] {
            window.findChild<QDockWidget *>(QStringLiteral("eventsDock"))->raise();
        });
    }
    return app.exec();
}

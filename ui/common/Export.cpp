#include "Export.h"

#include "InspectorModel.h"
#include "ReportCsv.h"

#include <QtCore/QAbstractItemModel>
#include <QtCore/QBuffer>
#include <QtCore/QSaveFile>
#include <QtCore/QStringList>
#include <QtGui/QPainter>
#include <QtGui/QPixmap>
#include <QtSvg/QSvgGenerator>
#include <QtWidgets/QWidget>

namespace streamscope::ui {

namespace {

const QString kCrlf = QStringLiteral("\r\n");

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

} // namespace

bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        f.cancelWriting();
        return false;
    }
    return true;
}

QString tableCsv(const QAbstractItemModel *model, const QList<int> &columns, int role)
{
    // The model's spreadsheet values where it has them, what it shows otherwise.
    const auto value = [role](const QVariant &plain, const auto &shown) {
        return role >= 0 && plain.isValid() ? plain.toString() : shown().toString();
    };
    QStringList cells;
    for (int column : columns)
        cells << value(role >= 0 ? model->headerData(column, Qt::Horizontal, role) : QVariant(),
                       [&] { return model->headerData(column, Qt::Horizontal); });
    QString out = app::csvLine(cells) + kCrlf;
    for (int row = 0; row < model->rowCount(); ++row) {
        cells.clear();
        for (int column : columns) {
            const QModelIndex index = model->index(row, column);
            cells << value(role >= 0 ? index.data(role) : QVariant(), [&] { return index.data(); });
        }
        out += app::csvLine(cells) + kCrlf;
    }
    return out;
}

bool writeTableCsv(const QString &path, const QAbstractItemModel *model, const QList<int> &columns, QString *error,
                   int role)
{
    return writeFileAtomically(path, tableCsv(model, columns, role).toUtf8(), error);
}

QString fieldsCsv(const QList<QPair<QString, QString>> &fields)
{
    QString out = app::csvLine({QStringLiteral("field"), QStringLiteral("value")}) + kCrlf;
    for (const auto &f : fields)
        out += app::csvLine({f.first, f.second}) + kCrlf;
    return out;
}

bool writeFieldsCsv(const QString &path, const QList<QPair<QString, QString>> &fields, QString *error)
{
    return writeFileAtomically(path, fieldsCsv(fields).toUtf8(), error);
}

QString histogramCsv(const LatencySnapshot &h)
{
    QString out = QStringLiteral("lower_ms,upper_ms,count,share") + kCrlf;
    std::uint64_t total = 0;
    for (std::uint64_t n : h.buckets)
        total += n;
    for (int i = 0; i < h.buckets.size(); ++i) {
        const std::uint64_t n = h.buckets[i];
        if (!n)
            continue;
        const double lower = double(LatencyBuckets::lowerUs(i)) / 1000.0;
        const double upper = double(LatencyBuckets::upperUs(i) + 1) / 1000.0; // upperUs is inclusive
        out +=
            app::csvLine({number(lower), number(upper), QString::number(n), number(double(n) / double(total))}) + kCrlf;
    }
    return out;
}

bool writeHistogramCsv(const QString &path, const LatencySnapshot &histogram, QString *error)
{
    return writeFileAtomically(path, histogramCsv(histogram).toUtf8(), error);
}

bool writeWidgetPng(const QString &path, QWidget *widget, QString *error)
{
    const QPixmap pixmap = widget->grab();
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (pixmap.isNull() || !pixmap.save(&buffer, "PNG")) {
        if (error)
            *error = QStringLiteral("%1: the chart could not be drawn as PNG").arg(path);
        return false;
    }
    return writeFileAtomically(path, png, error);
}

bool writeWidgetSvg(const QString &path, QWidget *widget, QString *error)
{
    QByteArray svg;
    QBuffer buffer(&svg);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(widget->size());
    generator.setViewBox(QRect(QPoint(0, 0), widget->size()));
    generator.setTitle(widget->window()->windowTitle());
    generator.setDescription(QStringLiteral("StreamScope " STREAMSCOPE_VERSION));
    {
        QPainter painter;
        if (!painter.begin(&generator)) {
            if (error)
                *error = QStringLiteral("%1: the chart could not be drawn as SVG").arg(path);
            return false;
        }
        widget->render(&painter);
    }
    return writeFileAtomically(path, svg, error);
}

QByteArray messagesNdjson(const InspectorModel *model, int *skipped)
{
    QByteArray out;
    int left = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        const InspectorModel::Entry *e = model->entryAt(row);
        if (!e)
            continue;
        if (e->text.contains('\n') || e->text.contains('\r')) {
            ++left;
            continue;
        }
        out += e->text;
        out += '\n';
    }
    if (skipped)
        *skipped = left;
    return out;
}

bool writeMessagesNdjson(const QString &path, const InspectorModel *model, int *skipped, QString *error)
{
    return writeFileAtomically(path, messagesNdjson(model, skipped), error);
}

} // namespace streamscope::ui

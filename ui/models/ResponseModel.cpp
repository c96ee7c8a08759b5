#include "ResponseModel.h"

#include "Format.h"
#include "WidgetHelpers.h"

#include <QtGui/QFontDatabase>

namespace streamscope::ui {

ResponseModel::ResponseModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int ResponseModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int ResponseModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResponseModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ColTime: return tr("Received");
    case ColRequestId: return tr("Request id");
    case ColMethod: return tr("Request");
    case ColRoundTrip: return tr("Round trip");
    case ColBody: return tr("Response");
    default: break;
    }
    return {};
}

QVariant ResponseModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ResponseRecord &r = m_records[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case ColTime: return formatTimeMs(r.receivedMs);
        case ColRequestId: return r.requestId.isEmpty() ? tr("(none)") : r.requestId;
        case ColMethod: return r.method.isEmpty() ? tr("(unmatched)") : r.method;
        case ColRoundTrip: return r.roundTripMs >= 0 ? formatLatencyMs(double(r.roundTripMs)) : QStringLiteral("–");
        case ColBody: return QString::fromUtf8(r.body.left(300)).replace(QLatin1Char('\n'), QLatin1Char(' '));
        default: break;
        }
    } else if (role == Qt::ToolTipRole && index.column() == ColBody) {
        return plainToolTip(QString::fromUtf8(r.body));
    } else if (role == Qt::FontRole && index.column() == ColBody) {
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    }
    return {};
}

void ResponseModel::setRecords(const QVector<ResponseRecord> &records)
{
    const bool same = records.size() == m_records.size()
        && (records.isEmpty()
            || (records.last().receivedMs == m_records.last().receivedMs && records.last().body == m_records.last().body
                && records.first().receivedMs == m_records.first().receivedMs));
    if (same)
        return;
    beginResetModel();
    m_records = records;
    endResetModel();
}

} // namespace streamscope::ui

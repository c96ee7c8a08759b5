#pragma once

// Routed subscription results or endpoint errors of one stream, newest last, from
// Engine::results()/errors() (bounded rings). Refreshed once a second by SelectionController;
// resets only when the ring actually changed. GUI thread only.

#include "StreamRecords.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QVector>

namespace streamscope::ui {

class ResponseModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ColTime = 0, ColRequestId, ColMethod, ColRoundTrip, ColBody, ColumnCount };

    explicit ResponseModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRecords(const QVector<ResponseRecord> &records);

private:
    QVector<ResponseRecord> m_records;
};

} // namespace streamscope::ui

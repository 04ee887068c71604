#pragma once
// One plot of a metric family ("loss" with "val_loss", and any overlaid runs' curves) drawn
// with QCustomPlot. It draws what it is given, decimated to the plot's pixel width; the live
// data and the redraw timing belong to TrainingCharts. While following, the axes fit all the
// data; wheel-zoom or drag stops following (double-click resumes), and the visible range is
// then decimated on the next draw. Hovering shows a tracer on the nearest point and the values
// of every curve at that x; clicking a legend entry hides or shows its curve. While smoothing
// is on, each training curve's raw values are drawn faintly behind it, as TensorBoard does.
// qcustomplot.h is included only in the .cpp (it costs ~9 s per translation unit).
#include <QColor>
#include <QHash>
#include <QPixmap>
#include <QPointF>
#include <QSet>
#include <QString>
#include <QVector>
#include <QWidget>
#include <memory>
#include <vector>

#include "charts/curve_series.h"

class QCustomPlot;
class QCPGraph;
class QCPItemTracer;
class QCPItemText;
class QCPLegend;
class QCPAbstractLegendItem;
class QMouseEvent;
class QWheelEvent;

namespace lf::ui {

struct PlotCurve {
    QString key;    // the series name: "loss", "val_loss", "run3/loss"
    QString label;  // legend text
    std::shared_ptr<const CurveSeries> series;
    QColor color;
    bool markers = false;  // validation curves: one marked point per epoch
    Qt::PenStyle pen = Qt::SolidLine;
};

struct PlotView {
    XAxisMode xMode = XAxisMode::Step;
    bool logX = false, logY = false;
};

QString xAxisTitle(XAxisMode mode);
QColor paletteColor(int i);  // the curves' colours, one per index (repeating after ten)

class MetricPlot : public QWidget {
    Q_OBJECT
public:
    explicit MetricPlot(const QString& family, QWidget* parent = nullptr);
    ~MetricPlot() override;

    QString family() const { return family_; }
    // Shows exactly these curves (graphs are kept per key) and replots once.
    void draw(const std::vector<PlotCurve>& curves, const PlotView& view);

    bool isCurveVisible(const QString& key) const { return !hidden_.contains(key); }
    void setCurveVisible(const QString& key, bool visible);  // applied at once, kept across draws
    bool following() const { return following_; }
    void setFollowing(bool follow);

    int replotCount() const { return replots_; }
    // The decimated (x, y) last drawn; key + "#raw" is the faint raw curve shown while smoothing.
    QVector<QPointF> drawnPoints(const QString& key) const;
    QString readout() const;                                  // the hover text, empty when none
    void hoverAt(const QPoint& pos);                          // what a mouse move over the plot does
    QPixmap toPixmap(int width, int height);
    QCustomPlot* customPlot() const { return plot_; }

Q_SIGNALS:
    void viewChanged();  // zoom, drag, double-click or a legend toggle: draw again
    void curveToggled(const QString& key, bool visible);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QCPGraph* graphFor(const PlotCurve& curve);
    QCPGraph* rawGraphFor(const PlotCurve& curve);
    void fill(QCPGraph* graph, const PlotCurve& curve, const PlotView& view, bool raw);
    void applyScales(const PlotView& view);
    void widenFlatValueRange();
    void styleLegendItem(QCPGraph* graph, bool visible);
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent* event);
    void onUserZoom();
    void hideHover();

    QString family_;
    QCustomPlot* plot_;
    QCPItemTracer* tracer_;
    QCPItemText* hoverText_;
    QHash<QString, QCPGraph*> graphs_;
    std::vector<PlotCurve> curves_;  // as last drawn (the hover read-out looks values up here)
    PlotView view_;
    QSet<QString> hidden_;
    bool following_ = true;
    int replots_ = 0;
};

}  // namespace lf::ui

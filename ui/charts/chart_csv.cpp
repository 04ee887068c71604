#include "charts/chart_csv.h"

#include <charconv>
#include <cmath>

#include "charts/curve_series.h"

namespace lf::ui {

namespace {

// Shortest text that reads back to the same double.
void writeNumber(std::ostream& out, double v) {
    if (!std::isfinite(v)) return;
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    out.write(buf, end - buf);
}

void writeField(std::ostream& out, const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) {
        out << s;
        return;
    }
    out << '"';
    for (char c : s) out << (c == '"' ? "\"\"" : std::string(1, c));
    out << '"';
}

}  // namespace

void writeCurvesCsv(std::ostream& out, const std::vector<CsvCurve>& curves) {
    out << "run,series,step,epoch,seconds,value\n";
    for (const CsvCurve& c : curves) {
        for (std::size_t i = 0; i < c.curve->size(); ++i) {
            const CurvePoint p = c.curve->point(i);
            writeField(out, c.run);
            out << ',';
            writeField(out, c.series);
            for (double v : {p.step, p.epoch, p.seconds, p.value}) {
                out << ',';
                writeNumber(out, v);
            }
            out << '\n';
        }
    }
}

}  // namespace lf::ui

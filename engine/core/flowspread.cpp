// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/flowspread.h"

#include "core/jsonfields.h"

#include <algorithm>

namespace nb {

FlowSpread FlowSpread::fromSamples(QList<double> samples)
{
    FlowSpread s;
    if (samples.isEmpty())
        return s;
    for (double &x : samples)
        x = std::max(0.0, x);
    std::sort(samples.begin(), samples.end());
    const qsizetype n = samples.size();
    s.count = int(n);
    s.min = samples.front();
    s.max = samples.back();
    s.median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    if (s.max == 0) {
        s.jain = 1; // all equal (all idle); the totals tell that nothing moved
        return s;
    }
    // Scaled by the largest flow so the squares stay in range whatever the unit; with
    // equal flows every term is exactly 1 and J exactly 1.
    double sum = 0, sumSquares = 0;
    for (double x : samples) {
        const double r = x / s.max;
        sum += r;
        sumSquares += r * r;
    }
    s.mean = sum / double(n) * s.max;
    s.jain = std::min(1.0, sum * sum / (double(n) * sumSquares));
    return s;
}

namespace {

using F = FlowSpread;
const json::Field<F> kFields[] = {
    {"flows", &F::count, json::Need::Required, 1, 1 << 30},
    {"min", &F::min, json::Need::Required, 0},
    {"median", &F::median, json::Need::Required, 0},
    {"max", &F::max, json::Need::Required, 0},
    {"mean", &F::mean, json::Need::Required, 0},
    {"jain_index", &F::jain, json::Need::Required, 0, 1},
};

} // namespace

QJsonObject FlowSpread::toJson() const
{
    QJsonObject o;
    json::writeFields(*this, kFields, &o);
    return o;
}

bool FlowSpread::fromJson(const QJsonObject &json, FlowSpread *out, QString *error)
{
    const QString where = QStringLiteral("fairness");
    FlowSpread s;
    if (!json::readFields(json, &s, kFields, where, error))
        return false;
    if (s.min > s.median || s.median > s.max || s.mean < s.min || s.mean > s.max)
        return json::fail(error, where, QStringLiteral("needs min <= median, mean <= max"));
    if (s.jain <= 0)
        return json::fail(error, json::path(where, QStringLiteral("jain_index")), QStringLiteral("must be above 0"));
    *out = s;
    return true;
}

} // namespace nb

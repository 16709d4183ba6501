// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/latencyhistogram.h"

#include <QJsonArray>
#include <QJsonValue>

#include <algorithm>
#include <bit>
#include <cmath>

namespace nb {

namespace {

constexpr int kJsonVersion = 1;
// Indices below this are one nanosecond wide (the linear region).
constexpr std::int64_t kLinearLimit = 2 * LatencyHistogram::kSubBucketCount;

double nsToUs(double ns)
{
    return ns / 1000.0;
}

bool failWith(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

// JSON numbers are doubles: accept only non-negative whole numbers that fit exactly.
bool toCount(const QJsonValue &value, std::uint64_t *out)
{
    if (!value.isDouble())
        return false;
    const double d = value.toDouble();
    if (!(d >= 0) || d > 9007199254740992.0 || std::floor(d) != d)
        return false;
    *out = std::uint64_t(d);
    return true;
}

// The buckets fromJson may still keep on this thread; negative: no budget.
thread_local std::int64_t t_readBudget = -1;

} // namespace

LatencyHistogram::ReadBudget::ReadBudget(std::int64_t buckets)
{
    t_readBudget = std::max<std::int64_t>(0, buckets);
}

LatencyHistogram::ReadBudget::~ReadBudget()
{
    t_readBudget = -1;
}

void LatencyHistogram::cover(int lo, int hi)
{
    if (m_buckets.empty()) {
        m_first = lo;
        m_buckets.assign(std::size_t(hi - lo + 1), 0);
        return;
    }
    const int first = m_first, last = m_first + int(m_buckets.size()) - 1;
    if (lo >= first && hi <= last)
        return;
    const int slack = (std::max(hi, last) - std::min(lo, first) + 1) / 2;
    const int newFirst = lo < first ? std::max(0, lo - slack) : first;
    const int newLast = hi > last ? std::min(kBucketCount - 1, hi + slack) : last;
    std::vector<std::uint64_t> grown(std::size_t(newLast - newFirst + 1), 0);
    std::copy(m_buckets.begin(), m_buckets.end(), grown.begin() + (first - newFirst));
    m_buckets.swap(grown);
    m_first = newFirst;
}

int LatencyHistogram::bucketIndex(std::int64_t valueNs)
{
    const std::int64_t v = std::clamp<std::int64_t>(valueNs, 0, kMaxTrackableNs);
    if (v < kLinearLimit)
        return int(v);
    const int exponent = 63 - std::countl_zero(std::uint64_t(v)); // >= kSubBucketBits + 1
    const int shift = exponent - kSubBucketBits;
    const std::int64_t mantissa = v >> shift; // in [kSubBucketCount, 2 * kSubBucketCount)
    return int(kSubBucketCount * shift + mantissa);
}

std::int64_t LatencyHistogram::bucketLowerBound(int index)
{
    if (index < kLinearLimit)
        return index;
    const int shift = int(index / kSubBucketCount) - 1;
    const std::int64_t mantissa = kSubBucketCount + index % kSubBucketCount;
    return mantissa << shift;
}

std::int64_t LatencyHistogram::bucketWidth(int index)
{
    if (index < kLinearLimit)
        return 1;
    return std::int64_t(1) << (index / kSubBucketCount - 1);
}

std::int64_t LatencyHistogram::bucketMidpoint(int index) const
{
    const std::int64_t mid = bucketLowerBound(index) + (bucketWidth(index) - 1) / 2;
    // The extreme buckets hold min and max exactly: never report beyond them.
    return std::clamp(mid, m_min, m_max);
}

void LatencyHistogram::record(std::int64_t valueNs, std::uint64_t count)
{
    if (count == 0)
        return;
    const std::int64_t v = std::clamp<std::int64_t>(valueNs, 0, kMaxTrackableNs);
    const int index = bucketIndex(v);
    cover(index, index);
    m_buckets[std::size_t(index - m_first)] += count;

    if (m_count == 0) {
        m_min = m_max = v;
    } else {
        m_min = std::min(m_min, v);
        m_max = std::max(m_max, v);
    }
    // Welford's update for `count` equal values: stable where sum-of-squares would cancel
    // (narrow distributions around a large mean).
    const double n = double(m_count + count);
    const double delta = double(v) - m_mean;
    m_mean += delta * double(count) / n;
    m_m2 += delta * (double(v) - m_mean) * double(count);
    m_count += count;
}

void LatencyHistogram::merge(const LatencyHistogram &other)
{
    if (other.m_count == 0)
        return;
    if (m_count == 0) {
        *this = other;
        return;
    }
    cover(other.m_first, other.m_first + int(other.m_buckets.size()) - 1);
    for (std::size_t i = 0; i < other.m_buckets.size(); ++i)
        m_buckets[std::size_t(other.m_first - m_first) + i] += other.m_buckets[i];
    // Chan et al.'s pairwise combination of mean and M2.
    const double na = double(m_count), nb = double(other.m_count), n = na + nb;
    const double delta = other.m_mean - m_mean;
    m_mean += delta * nb / n;
    m_m2 += other.m_m2 + delta * delta * na * nb / n;
    m_count += other.m_count;
    m_min = std::min(m_min, other.m_min);
    m_max = std::max(m_max, other.m_max);
}

void LatencyHistogram::reset()
{
    *this = LatencyHistogram();
}

double LatencyHistogram::stddev() const
{
    return m_count ? std::sqrt(std::max(0.0, m_m2 / double(m_count))) : 0.0;
}

std::int64_t LatencyHistogram::valueAtPercentile(double p) const
{
    if (m_count == 0)
        return 0;
    if (!(p > 0))
        return m_min;
    if (p >= 100)
        return m_max;
    // The tiny relative slack keeps e.g. 99.9% of 1000 at rank 999 despite rounding in p/100.
    const double exactRank = p / 100.0 * double(m_count);
    auto rank = std::uint64_t(std::ceil(exactRank * (1 - 1e-12)));
    rank = std::clamp<std::uint64_t>(rank, 1, m_count);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < m_buckets.size(); ++i) {
        seen += m_buckets[i];
        if (seen >= rank)
            return bucketMidpoint(m_first + int(i));
    }
    return m_max; // unreachable while the buckets add up to m_count
}

LatencySummary LatencyHistogram::summary() const
{
    LatencySummary s;
    s.count = m_count;
    if (m_count == 0)
        return s;
    s.min = nsToUs(double(min()));
    s.mean = nsToUs(mean());
    s.stddev = nsToUs(stddev());
    s.p50 = nsToUs(double(valueAtPercentile(50)));
    s.p90 = nsToUs(double(valueAtPercentile(90)));
    s.p99 = nsToUs(double(valueAtPercentile(99)));
    s.p999 = nsToUs(double(valueAtPercentile(99.9)));
    s.max = nsToUs(double(max()));
    return s;
}

QJsonObject LatencyHistogram::toJson() const
{
    QJsonArray buckets;
    for (std::size_t i = 0; i < m_buckets.size(); ++i) {
        if (m_buckets[i])
            buckets.append(QJsonArray{m_first + int(i), double(m_buckets[i])});
    }
    return QJsonObject{
        {QStringLiteral("version"), kJsonVersion},
        {QStringLiteral("unit"), QStringLiteral("ns")},
        {QStringLiteral("sub_bucket_bits"), kSubBucketBits},
        {QStringLiteral("count"), double(m_count)},
        {QStringLiteral("min"), double(min())},
        {QStringLiteral("max"), double(max())},
        {QStringLiteral("mean"), m_mean},
        {QStringLiteral("m2"), m_m2},
        {QStringLiteral("buckets"), buckets},
    };
}

bool LatencyHistogram::fromJson(const QJsonObject &json, LatencyHistogram *out, QString *error)
{
    if (json.value(QStringLiteral("version")).toInt(-1) != kJsonVersion)
        return failWith(error, QStringLiteral("latency histogram: unsupported version"));
    if (json.value(QStringLiteral("unit")).toString() != QLatin1String("ns") ||
        json.value(QStringLiteral("sub_bucket_bits")).toInt(-1) != kSubBucketBits)
        return failWith(error, QStringLiteral("latency histogram: unsupported bucket layout"));

    std::uint64_t count = 0, minNs = 0, maxNs = 0;
    if (!toCount(json.value(QStringLiteral("count")), &count) || !toCount(json.value(QStringLiteral("min")), &minNs) ||
        !toCount(json.value(QStringLiteral("max")), &maxNs) || maxNs > std::uint64_t(kMaxTrackableNs) || minNs > maxNs)
        return failWith(error, QStringLiteral("latency histogram: bad count, min or max"));
    const QJsonValue meanValue = json.value(QStringLiteral("mean"));
    const QJsonValue m2Value = json.value(QStringLiteral("m2"));
    if (!meanValue.isDouble() || !m2Value.isDouble() || m2Value.toDouble() < 0)
        return failWith(error, QStringLiteral("latency histogram: bad mean or m2"));
    const QJsonValue bucketsValue = json.value(QStringLiteral("buckets"));
    if (!bucketsValue.isArray())
        return failWith(error, QStringLiteral("latency histogram: buckets missing"));

    // Checked whole before anything is kept: the kept span is known from the first and
    // last entries, so a file's histograms cost what they hold.
    const QJsonArray entries = bucketsValue.toArray();
    std::vector<std::pair<int, std::uint64_t>> parsed;
    parsed.reserve(std::size_t(entries.size()));
    std::uint64_t total = 0;
    int previous = -1;
    for (const QJsonValue &entry : entries) {
        const QJsonArray pair = entry.toArray();
        std::uint64_t index = 0, n = 0;
        if (pair.size() != 2 || !toCount(pair[0], &index) || !toCount(pair[1], &n) || n == 0 ||
            index >= std::uint64_t(kBucketCount) || int(index) <= previous)
            return failWith(error, QStringLiteral("latency histogram: malformed bucket entry"));
        parsed.emplace_back(int(index), n);
        total += n;
        previous = int(index);
    }
    const int first = parsed.empty() ? -1 : parsed.front().first;
    LatencyHistogram h;
    if (!parsed.empty()) {
        const std::int64_t span = previous - first + 1;
        if (t_readBudget >= 0 && span > t_readBudget)
            return failWith(error, QStringLiteral("latency histograms: more buckets in all than a snapshot may "
                                                  "hold (docs/snapshot-format.md, Limits)"));
        if (t_readBudget >= 0)
            t_readBudget -= span;
        h.cover(first, previous);
        for (const auto &[index, n] : parsed)
            h.m_buckets[std::size_t(index - first)] = n;
    }
    if (total != count)
        return failWith(error, QStringLiteral("latency histogram: bucket counts do not add up"));
    if (count > 0 && (bucketIndex(std::int64_t(minNs)) != first || bucketIndex(std::int64_t(maxNs)) != previous))
        return failWith(error, QStringLiteral("latency histogram: min or max outside its bucket"));

    h.m_count = count;
    h.m_min = count ? std::int64_t(minNs) : 0;
    h.m_max = count ? std::int64_t(maxNs) : 0;
    h.m_mean = count ? meanValue.toDouble() : 0;
    h.m_m2 = count ? m2Value.toDouble() : 0;
    *out = std::move(h);
    return true;
}

QJsonObject LatencySummary::toJson() const
{
    return QJsonObject{
        {QStringLiteral("count"), double(count)},
        {QStringLiteral("min"), min},
        {QStringLiteral("mean"), mean},
        {QStringLiteral("stddev"), stddev},
        {QStringLiteral("p50"), p50},
        {QStringLiteral("p90"), p90},
        {QStringLiteral("p99"), p99},
        {QStringLiteral("p999"), p999},
        {QStringLiteral("max"), max},
    };
}

bool LatencySummary::fromJson(const QJsonObject &json, LatencySummary *out, QString *error)
{
    LatencySummary s;
    if (!toCount(json.value(QStringLiteral("count")), &s.count))
        return failWith(error, QStringLiteral("latency summary: bad count"));
    const std::pair<const char *, double *> fields[] = {
        {"min", &s.min}, {"mean", &s.mean}, {"stddev", &s.stddev}, {"p50", &s.p50},
        {"p90", &s.p90}, {"p99", &s.p99},   {"p999", &s.p999},     {"max", &s.max},
    };
    for (const auto &[key, target] : fields) {
        const QJsonValue v = json.value(QLatin1String(key));
        if (!v.isDouble() || v.toDouble() < 0)
            return failWith(error, QStringLiteral("latency summary: bad %1").arg(QLatin1String(key)));
        *target = v.toDouble();
    }
    *out = s;
    return true;
}

} // namespace nb

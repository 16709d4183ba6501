// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Latency distribution of request/response transactions.
//
// Values are recorded as integer nanoseconds. The buckets are log-linear (the idea behind
// HdrHistogram): every power of two is split into 128 equal sub-buckets, so a bucket is
// never wider than 1/128 of its lower bound. Reporting a bucket's midpoint therefore puts
// any percentile within 0.4% of the true sample value, well inside the 1% the product
// promises. Only the buckets from the lowest to the highest one used are kept (at most
// 35 KB; 8 bytes when all samples share one bucket), so memory follows what a histogram
// holds, not its layout.
// Below 256 ns every nanosecond has its own bucket (exact).

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <cstdint>
#include <vector>

namespace nb {

// Figures a result carries (-J: nicbench.rr.latency_us). All in microseconds; stddev is
// the population standard deviation; percentiles use the nearest-rank definition.
struct LatencySummary {
    std::uint64_t count = 0;
    double min = 0;
    double mean = 0;
    double stddev = 0;
    double p50 = 0;
    double p90 = 0;
    double p99 = 0;
    double p999 = 0;
    double max = 0;

    // Keys: count, min, mean, stddev, p50, p90, p99, p999, max.
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, LatencySummary *out, QString *error);
    bool operator==(const LatencySummary &) const = default;
};

class LatencyHistogram {
public:
    // 2^kSubBucketBits sub-buckets per power of two: 1/128 < 0.8% bucket width.
    static constexpr int kSubBucketBits = 7;
    static constexpr std::int64_t kSubBucketCount = std::int64_t(1) << kSubBucketBits;
    // Top power of two tracked: 2^41 ns is about 36 minutes, far beyond any transaction.
    static constexpr int kMaxExponent = 40;
    static constexpr std::int64_t kMaxTrackableNs = (std::int64_t(1) << (kMaxExponent + 1)) - 1;

    // Records `count` occurrences of `valueNs`. Negative values (a clock step) count as 0;
    // values above kMaxTrackableNs are clamped to it (and so is max()).
    void record(std::int64_t valueNs, std::uint64_t count = 1);
    // Adds every sample of `other`, as if they had been recorded here.
    void merge(const LatencyHistogram &other);
    void reset();

    std::uint64_t count() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }
    // Exact, in ns; 0 when empty.
    std::int64_t min() const { return m_count ? m_min : 0; }
    std::int64_t max() const { return m_count ? m_max : 0; }
    // Exact (running Welford sums, not the buckets), in ns; stddev is the population one.
    double mean() const { return m_mean; }
    double stddev() const;
    // Nearest-rank percentile, p in [0, 100] (clamped), in ns: the midpoint of the bucket
    // holding the sample of rank ceil(p/100 * count), kept within [min, max].
    // p = 0 gives min() and p = 100 gives max() exactly. 0 when empty.
    std::int64_t valueAtPercentile(double p) const;

    LatencySummary summary() const;

    // Compact form for snapshots: only non-empty buckets, as [index, count] pairs, plus
    // the exact count/min/max/mean/m2 so a restored histogram reports identical figures.
    QJsonObject toJson() const;
    // Rejects anything inconsistent (wrong version or bucket layout, indices out of range
    // or not increasing, counts that do not add up, min/max outside their buckets), and,
    // while a ReadBudget is alive on this thread, histograms whose kept buckets (lowest to
    // highest used) pass what is left of it.
    static bool fromJson(const QJsonObject &json, LatencyHistogram *out, QString *error);

    // Bounds the buckets that fromJson may keep on this thread while it lives (a snapshot
    // reader's cap on runs x buckets: docs/snapshot-format.md). Not nested.
    class ReadBudget {
    public:
        explicit ReadBudget(std::int64_t buckets);
        ~ReadBudget();
        ReadBudget(const ReadBudget &) = delete;
        ReadBudget &operator=(const ReadBudget &) = delete;
    };

    // Bucket arithmetic, public so tests can check the error bound directly.
    static int bucketIndex(std::int64_t valueNs);
    static std::int64_t bucketLowerBound(int index);
    static std::int64_t bucketWidth(int index);
    static constexpr int kBucketCount = int(2 * kSubBucketCount + (kMaxExponent - kSubBucketBits) * kSubBucketCount);

private:
    std::int64_t bucketMidpoint(int index) const;
    // Makes buckets lo..hi addressable (growing with slack, so a run of new extremes costs
    // amortized constant time).
    void cover(int lo, int hi);

    // Buckets m_first .. m_first + size - 1; empty until the first record, so empty
    // per-interval histograms cost nothing.
    std::vector<std::uint64_t> m_buckets;
    int m_first = 0;
    std::uint64_t m_count = 0;
    std::int64_t m_min = 0;
    std::int64_t m_max = 0;
    double m_mean = 0;
    double m_m2 = 0; // sum of squared deviations from the mean
};

} // namespace nb

Q_DECLARE_METATYPE(nb::LatencySummary)

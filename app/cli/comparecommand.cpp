// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparecommand.h"
#include "core/sanitize.h"
#include "interrupts.h"

#include "compare/comparisonanswer.h"
#include "compare/comparisonoptions.h"
#include "compare/comparisonrunner.h"
#include "compare/comparisonspec.h"
#include "compare/comparisontable.h"
#include "compare/configurationends.h"
#include "compare/meshmatrix.h"
#include "compare/snapshot.h"
#include "core/format.h"
#include "core/units.h"

#include <algorithm>
#include <atomic>
#include <cstdio>

namespace nb::cli {

namespace {

std::atomic<ComparisonRunner *> g_runner{nullptr};
// First Ctrl-C stops after the current run's partial result and still saves.
void stopRunner()
{
    if (auto *r = g_runner.load())
        r->requestStop();
}

void print(const QString &text, FILE *to = stdout)
{
    // Labels, titles and errors come from snapshot files and servers: shown, never obeyed.
    std::fputs(terminalSafe(text).toLocal8Bit().constData(), to);
    std::fflush(to);
}

// The comparison options' lines come from their table (compare/comparisonoptions.h).
const char kCompareUsageHead[] =
    "Usage: nicbench-cli compare [SPEC.json] [options] -o FILE.nicbench[.gz]\n"
    "\n"
    "Runs every configuration --repeats times, interleaved (A B C A B C ...), writes a\n"
    "snapshot and prints the comparison table. Options override the spec file.\n"
    "  --config \"LABEL=ARGS\"   a configuration: a label and test flags (\"P4=-c HOST -P 4 -t 5\")\n";
const char kCompareUsage[] =
    "  --baseline LABEL|INDEX  configuration the others are compared with (default the first)\n"
    "  --agent-key FILE        the key of the agents that configurations with --from (or \"from\") run on\n"
    "  --title TEXT\n"
    "  -o, --output FILE       snapshot to write (gzip when it ends in .gz)\n"
    "      --gzip              compress whatever the name\n"
    "  --format text|csv|markdown   table style at the end (default text)\n"
    "  -q, --quiet             no progress lines\n"
    "Exit status: 0 all runs succeeded, 2 snapshot written but some runs failed or the\n"
    "comparison was interrupted, 1 error. Spec format: docs/compare-spec.md.\n";

const char kReportUsage[] =
    "Usage: nicbench-cli report FILE.nicbench [--format text|csv|markdown] [--cpu-side auto|client|server]\n"
    "                           [--equivalence PERCENT]\n"
    "Prints the comparison table of a snapshot (csv: the table only, raw numbers); --cpu-side answers\n"
    "with that side's CPU cost instead of the side the snapshot was saved with; --equivalence judges\n"
    "with that threshold (differences under it read 'equivalent'; 0: off) instead of the snapshot's.\n";

// The row of a comparison option given on the command line ("--repeats"), else nullptr.
const compareopt::Option *comparisonOption(const QString &arg)
{
    for (const compareopt::Option &o : compareopt::options())
        if (arg == QStringLiteral("--") + QLatin1String(o.flag))
            return &o;
    return nullptr;
}

} // namespace

bool parseFormat(const QString &text, TableFormat *out)
{
    if (text == QLatin1String("text"))
        *out = TableFormat::Text;
    else if (text == QLatin1String("csv"))
        *out = TableFormat::Csv;
    else if (text == QLatin1String("markdown") || text == QLatin1String("md"))
        *out = TableFormat::Markdown;
    else
        return false;
    return true;
}

namespace {

QString environmentLines(const Comparison &c)
{
    QString out;
    const auto host = [](const HostEnvironment &h) {
        QStringList parts;
        if (!h.hostName.isEmpty())
            parts << h.hostName;
        if (!h.os.isEmpty())
            parts << h.os;
        if (!h.kernel.isEmpty())
            parts << QStringLiteral("kernel %1").arg(h.kernel);
        if (!h.cpuModel.isEmpty())
            parts << h.cpuModel;
        if (h.cpuCount > 0)
            parts << QStringLiteral("%1 CPUs").arg(h.cpuCount);
        if (!h.nicbenchVersion.isEmpty())
            parts << QStringLiteral("nicbench %1").arg(h.nicbenchVersion);
        return parts.join(QStringLiteral(", "));
    };
    // Tests run by agents: this computer only drove them; each run names its two ends.
    const bool agents = std::any_of(c.configurations.cbegin(), c.configurations.cend(),
                                    [](const Configuration &conf) { return conf.from.isSet(); });
    if (c.environment.local.known)
        out += QStringLiteral("%1 %2\n").arg(agents ? QStringLiteral("Controller:") : QStringLiteral("Local: "),
                                             host(c.environment.local));
    const bool severalServers = serversDiffer(configurationEnds(c));
    if (c.environment.remote.known && !agents && !severalServers)
        out += QStringLiteral("Remote: %1\n").arg(host(c.environment.remote));
    out += severalServers ? QStringLiteral("Adapters and servers per configuration:\n")
                          : QStringLiteral("Adapters per configuration:\n");
    for (const QString &line : configurationEndsLines(c))
        out += QStringLiteral("  %1\n").arg(line);
    return out;
}

QString renderReport(const Comparison &c, TableFormat format)
{
    const ComparisonTable table(c);
    if (format == TableFormat::Csv)
        return table.toCsv();
    QString out;
    const QString title = c.title.isEmpty() ? QStringLiteral("Comparison") : c.title;
    const QString baseline = c.baselineAdapter();
    const QStringList answer = answerLines(answerComparison(c, table.statistics()));
    if (format == TableFormat::Markdown) {
        out += QStringLiteral("# %1\n\n").arg(title);
        out += QStringLiteral("%1 configurations x %2 repeats, %3 order; baseline adapter: %4, each variant compared "
                              "with its own. Mean with 95% confidence interval (Student t); verdicts: %5.\n\n")
                   .arg(c.configurations.size())
                   .arg(c.repeats)
                   .arg(orderPolicyName(c.order), baseline, verdictRule(c.equivalencePercent));
        for (const QString &line : answer)
            out += QStringLiteral("- %1\n").arg(line);
        if (!answer.isEmpty())
            out += QLatin1Char('\n');
        out += table.toMarkdown();
        const QString env = environmentLines(c);
        if (!env.isEmpty())
            out += QStringLiteral("\n") + QString(env).replace(QLatin1String("\n"), QLatin1String("  \n"));
    } else {
        out += QStringLiteral("%1\n%2\n").arg(title, QString(title.size(), QLatin1Char('=')));
        out += QStringLiteral("%1 configurations x %2 repeats, %3 order; baseline adapter: %4\n")
                   .arg(c.configurations.size())
                   .arg(c.repeats)
                   .arg(orderPolicyName(c.order), baseline);
        out += environmentLines(c) + QLatin1Char('\n');
        if (MeshMatrix::isMesh(c)) {
            const ComparisonStatistics &stats = table.statistics();
            out += MeshMatrix::of(c, stats, MeshMatrix::defaultMetric(stats)).toText() + QLatin1Char('\n');
        }
        for (const QString &line : answer)
            out += QStringLiteral("%1\n").arg(line);
        if (!answer.isEmpty())
            out += QLatin1Char('\n');
        out += table.toText();
        out += QStringLiteral("\nMean with 95% confidence interval (Student t); vs baseline: relative difference "
                              "with its 95% interval; verdict: %1.\n")
                   .arg(verdictRule(c.equivalencePercent));
    }
    if (!c.warnings.isEmpty() && format != TableFormat::Csv) {
        out += QStringLiteral("\nWarnings:\n");
        for (const QString &w : c.warnings)
            out += QStringLiteral("  - %1\n").arg(w);
    }
    return out;
}

class ProgressPrinter : public ComparisonListener {
public:
    explicit ProgressPrinter(bool quiet) : m_quiet(quiet) {}
    void runStarted(const Configuration &config, const ScheduledRun &slot, int orderIndex, int total) override
    {
        if (!m_quiet)
            print(QStringLiteral("[%1/%2] %3, repeat %4 ... ")
                      .arg(orderIndex + 1)
                      .arg(total)
                      .arg(config.label)
                      .arg(slot.repeatIndex + 1));
    }
    void runFinished(const Run &run, int) override
    {
        if (m_quiet)
            return;
        const TestResult &r = run.result;
        if (!r.ok()) {
            print(QStringLiteral("failed: %1\n").arg(r.error));
            return;
        }
        QStringList parts;
        if (const auto v = metricValue(r, Metric::Throughput))
            parts << formatBitrate(*v);
        if (const auto v = metricValue(r, Metric::TransactionsPerSecond))
            parts << QStringLiteral("%1 transactions/s").arg(formatSignificant(*v, 4));
        if (const auto v = metricValue(r, Metric::UdpGoodput))
            parts << QStringLiteral("UDP %1").arg(formatBitrate(*v));
        if (const auto v = metricValue(r, Metric::UdpLossPercent))
            parts << QStringLiteral("loss %1%").arg(formatSignificant(*v, 3));
        if (const auto v = metricValue(r, Metric::UdpJitter))
            parts << QStringLiteral("jitter %1").arg(formatMicroseconds(*v));
        if (const auto v = metricValue(r, Metric::UdpRrTransactionsPerSecond))
            parts << QStringLiteral("%1 UDP transactions/s").arg(formatSignificant(*v, 4));
        if (const auto v = metricValue(r, Metric::UdpRrLostPercent))
            parts << QStringLiteral("%1% requests lost").arg(formatSignificant(*v, 3));
        if (const auto v = metricValue(r, Metric::LoadedIdleP50))
            parts << QStringLiteral("idle p50 %1").arg(formatMicroseconds(*v));
        for (const auto &[name, increase] :
             {std::pair{"download", Metric::LoadedDownloadP99Increase},
              std::pair{"upload", Metric::LoadedUploadP99Increase}, std::pair{"bidir", Metric::LoadedBidirP99Increase}})
            if (const auto v = metricValue(r, increase))
                parts << QStringLiteral("%1 p99 +%2").arg(QLatin1String(name), formatMicroseconds(*v));
        if (r.loadedLatency && !r.loadedLatency->probeError.isEmpty())
            parts << QStringLiteral("no probe: %1").arg(r.loadedLatency->probeError);
        if (const auto v = metricValue(r, Metric::LocalCpu))
            parts << QStringLiteral("local CPU %1%").arg(formatSignificant(*v, 3));
        if (const auto v = metricValue(r, Metric::RemoteCpu))
            parts << QStringLiteral("remote CPU %1%").arg(formatSignificant(*v, 3));
        print(parts.join(QStringLiteral(", ")) + QLatin1Char('\n'));
    }

private:
    bool m_quiet;
};

// What `compare` was asked for on its command line.
struct CompareOptions {
    QString specPath, output, baselineText;
    QStringList configFlags;
    bool gzip = false, quiet = false;
    TableFormat format = TableFormat::Text;
    std::optional<int> repeats;
    std::optional<OrderPolicy> order;
    std::optional<quint64> seed;
    std::optional<double> pause;
    std::optional<CpuSide> cpuSide;
    std::optional<double> equivalence;
    std::optional<QString> title;
    QString agentKey;
};

// Reads one option (and its value) at args[i], moving i past it. Returns an exit code when
// the command ends here (--help, a bad option), nullopt to go on.
std::optional<int> parseCompareOption(const QStringList &args, int &i, CompareOptions &o)
{
    const QString &a = args[i];
    QString error;
    const auto value = [&](QString *out) {
        if (i + 1 >= args.size()) {
            error = QStringLiteral("%1 needs a value").arg(a);
            return false;
        }
        *out = args[++i];
        return true;
    };
    QString v;
    if (a == QLatin1String("-h") || a == QLatin1String("--help")) {
        print(compareUsage());
        return 0;
    } else if (a == QLatin1String("--config")) {
        if (!value(&v))
            return fail(error);
        o.configFlags << v;
    } else if (const compareopt::Option *opt = comparisonOption(a)) {
        const QString bad = compareopt::badValueMessage(*opt);
        bool ok = value(&v);
        switch (opt->id) {
        case compareopt::Id::Repeats:
            ok = ok && (o.repeats = v.toInt(&ok), ok) && compareopt::inRange(*opt, *o.repeats);
            break;
        case compareopt::Id::Order: {
            OrderPolicy p;
            ok = ok && orderPolicyFromName(v, &p);
            o.order = p;
            break;
        }
        case compareopt::Id::Seed:
            ok = ok && (o.seed = v.toULongLong(&ok), ok);
            break;
        case compareopt::Id::Pause:
            o.pause = ok ? parseSeconds(v, &error) : std::nullopt;
            ok = o.pause && compareopt::inRange(*opt, *o.pause);
            break;
        case compareopt::Id::CpuSide: {
            CpuSide side;
            ok = ok && cpuSideFromName(v, &side);
            o.cpuSide = side;
            break;
        }
        case compareopt::Id::Equivalence:
            ok = ok && (o.equivalence = v.toDouble(&ok), ok) && compareopt::inRange(*opt, *o.equivalence);
            break;
        }
        if (!ok)
            return fail(error.isEmpty() ? bad : error);
    } else if (a == QLatin1String("--baseline")) {
        if (!value(&o.baselineText))
            return fail(error);
    } else if (a == QLatin1String("--title")) {
        if (!value(&v))
            return fail(error);
        o.title = v;
    } else if (a == QLatin1String("-o") || a == QLatin1String("--output")) {
        if (!value(&o.output))
            return fail(error);
    } else if (a == QLatin1String("--agent-key")) {
        if (!value(&o.agentKey))
            return fail(error);
    } else if (a == QLatin1String("--gzip")) {
        o.gzip = true;
    } else if (a == QLatin1String("-q") || a == QLatin1String("--quiet")) {
        o.quiet = true;
    } else if (a == QLatin1String("--format")) {
        if (!value(&v) || !parseFormat(v, &o.format))
            return fail(error.isEmpty() ? QStringLiteral("--format is text, csv or markdown") : error);
    } else if (a.startsWith(QLatin1Char('-'))) {
        return fail(QStringLiteral("compare: unknown option %1 (see compare --help)").arg(a));
    } else if (o.specPath.isEmpty()) {
        o.specPath = a;
    } else {
        return fail(QStringLiteral("compare: only one spec file, got %1 and %2").arg(o.specPath, a));
    }
    return std::nullopt;
}

// The comparison the options describe: the spec file's, the --config variants, then the
// options that override the spec. Returns false with *error set when it cannot run.
bool comparisonFromOptions(const CompareOptions &o, Comparison *c, QString *error)
{
    if (!o.specPath.isEmpty() && !comparisonFromSpecFile(o.specPath, c, error))
        return false;
    for (const QString &flag : o.configFlags) {
        Configuration conf;
        if (!configurationFromFlag(flag, &conf, error))
            return false;
        c->configurations.append(conf);
    }
    if (c->configurations.isEmpty()) {
        *error = QStringLiteral("compare: give a spec file or --config \"LABEL=ARGS\" (see compare --help)");
        return false;
    }
    if (o.output.isEmpty()) {
        *error = QStringLiteral("compare: give -o FILE.nicbench for the snapshot");
        return false;
    }
    if (o.repeats)
        c->repeats = *o.repeats;
    if (o.order)
        c->order = *o.order;
    if (o.seed)
        c->seed = *o.seed;
    if (o.pause)
        c->pauseSeconds = *o.pause;
    if (o.title)
        c->title = *o.title;
    if (o.cpuSide)
        c->cpuSide = *o.cpuSide;
    if (o.equivalence)
        c->equivalencePercent = *o.equivalence;
    if (!o.agentKey.isEmpty())
        c->agentKeyPath = o.agentKey;
    if (!o.baselineText.isEmpty() && !resolveBaseline(o.baselineText, *c, &c->baselineIndex, error))
        return false;
    *error = c->validate();
    if (error->isEmpty())
        *error = c->checkAgents();
    return error->isEmpty();
}

} // namespace

int runAndReport(const Comparison &comparison, const RunOutput &out, const QList<QList<int>> &groups)
{
    installInterruptHandler(&stopRunner);
    ProgressPrinter progress(out.quiet);
    ComparisonRunner runner(comparison, &progress);
    runner.setConcurrentGroups(groups);
    g_runner.store(&runner);
    const Comparison done = runner.run();
    g_runner.store(nullptr);

    QString error;
    SnapshotSaveOptions options;
    if (out.gzip)
        options.compression = SnapshotCompression::Gzip;
    if (!Snapshot::save(done, out.path, &error, options))
        return fail(error);
    if (!out.quiet)
        print(QStringLiteral("\nSnapshot written to %1\n\n").arg(out.path));
    print(renderReport(done, out.format));
    bool allOk = done.runs.size() == done.schedule().size();
    for (const Run &r : done.runs)
        allOk = allOk && r.ok();
    return allOk ? 0 : 2;
}

namespace {

int compareCommand(const QStringList &args)
{
    CompareOptions o;
    for (int i = 0; i < args.size(); ++i) {
        if (const auto exitCode = parseCompareOption(args, i, o))
            return *exitCode;
    }
    Comparison c;
    QString error;
    if (!comparisonFromOptions(o, &c, &error))
        return fail(error);

    return runAndReport(c, RunOutput{o.output, o.gzip, o.quiet, o.format});
}

int reportCommand(const QStringList &args)
{
    QString path;
    TableFormat format = TableFormat::Text;
    std::optional<CpuSide> cpuSide;
    std::optional<double> equivalence;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("-h") || a == QLatin1String("--help")) {
            print(QString::fromLatin1(kReportUsage));
            return 0;
        }
        if (a == QLatin1String("--format")) {
            if (i + 1 >= args.size() || !parseFormat(args[++i], &format))
                return fail(QStringLiteral("--format is text, csv or markdown"));
        } else if (a == QLatin1String("--cpu-side")) {
            CpuSide s;
            if (i + 1 >= args.size() || !cpuSideFromName(args[++i], &s))
                return fail(compareopt::badValueMessage(compareopt::option(compareopt::Id::CpuSide)));
            cpuSide = s;
        } else if (a == QLatin1String("--equivalence")) {
            const compareopt::Option &row = compareopt::option(compareopt::Id::Equivalence);
            bool ok = i + 1 < args.size();
            const double v = ok ? args[++i].toDouble(&ok) : 0;
            if (!ok || !compareopt::inRange(row, v))
                return fail(compareopt::badValueMessage(row));
            equivalence = v;
        } else if (a.startsWith(QLatin1String("--format="))) {
            if (!parseFormat(a.mid(9), &format))
                return fail(QStringLiteral("--format is text, csv or markdown"));
        } else if (a.startsWith(QLatin1Char('-'))) {
            return fail(QStringLiteral("report: unknown option %1").arg(a));
        } else if (path.isEmpty()) {
            path = a;
        } else {
            return fail(QStringLiteral("report: one snapshot at a time"));
        }
    }
    if (path.isEmpty())
        return fail(QStringLiteral("report: give a snapshot file (see report --help)"));
    Comparison c;
    QString error;
    SnapshotLoadInfo info;
    if (!Snapshot::load(path, &c, &error, &info))
        return fail(error);
    if (cpuSide)
        c.cpuSide = *cpuSide;
    if (equivalence)
        c.equivalencePercent = *equivalence;
    print(renderReport(c, format));
    return 0;
}

} // namespace

bool isComparisonSubcommand(const QString &firstArgument)
{
    return firstArgument == QLatin1String("compare") || firstArgument == QLatin1String("report");
}

int runComparisonSubcommand(const QStringList &args)
{
    if (args.isEmpty())
        return fail(QStringLiteral("no subcommand"));
    const QStringList rest = args.mid(1);
    return args.first() == QLatin1String("compare") ? compareCommand(rest) : reportCommand(rest);
}

QString compareUsage()
{
    // --help and the man page print the same text: the head, the options' table, the rest.
    return QString::fromLatin1(kCompareUsageHead) + compareopt::usageLines() + QString::fromLatin1(kCompareUsage);
}

QString reportUsage()
{
    return QString::fromLatin1(kReportUsage);
}

} // namespace nb::cli

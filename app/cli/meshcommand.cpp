// SPDX-License-Identifier: GPL-3.0-or-later
#include "meshcommand.h"

#include "comparecommand.h"
#include "interrupts.h"

#include "compare/comparisonoptions.h"
#include "compare/mesh.h"
#include "core/sanitize.h"
#include "core/units.h"

#include <QFile>

#include <cstdio>
#include <optional>

namespace nb::cli {

namespace {

const char kMeshUsage[] =
    "Usage: nicbench-cli mesh --agent-key FILE -o OUT.nicbench\n"
    "                         (--hosts A,B,C | --hosts-file FILE | --hosts-from-dns NAME[:PORT])\n"
    "                         [--pairs all|ring] [--repeats R] [--pause SECS] [--parallel none|disjoint]\n"
    "                         [--title TEXT] [--gzip] [-q] [--format text|csv|markdown] -- TEST FLAGS\n"
    "\n"
    "Runs the test given after -- between every chosen ordered pair of agents (nicbench-cli -s\n"
    "--agent-key FILE on each host): each pair runs on its source agent toward its destination,\n"
    "driven from here. Writes one snapshot whose configurations are the pairs (\"A -> B\") and\n"
    "prints the sources x destinations matrix and the table.\n"
    "  --hosts A,B:5300,...      the agents, HOST[:PORT] (port 5201 unless given)\n"
    "  --hosts-file FILE         one or more hosts per line; '#' starts a comment\n"
    "  --hosts-from-dns NAME     every A and AAAA record of NAME (a Kubernetes headless service)\n"
    "  --pairs all|ring          every ordered pair, n(n-1) (default), or each host toward the next, n\n"
    "  --repeats R               runs per pair, interleaved over the pairs (default 1)\n"
    "  --pause SECS              idle time between runs (default 1)\n"
    "  --parallel none|disjoint  one pair at a time (default), or pairs that share no host at once\n"
    "TEST FLAGS are client flags without -c, -p, --from and --agent-key (\"-t 10 -P 4\", \"--rr\").\n"
    "Exit status: 0 every run succeeded, 2 snapshot written but some runs failed or it was\n"
    "interrupted, 1 error.\n";

struct MeshOptions {
    QString key, output, title, hostsText, hostsFile, dnsName;
    MeshPairs pairs = MeshPairs::All;
    int repeats = 1;
    double pause = 1;
    bool disjoint = false;
    RunOutput out;
    QStringList testFlags;
};

// Reads one option at args[i]; an exit code when the command ends here, nullopt to go on.
std::optional<int> parseMeshOption(const QStringList &args, int &i, MeshOptions &o)
{
    const QString &a = args[i];
    QString v;
    const auto value = [&]() {
        if (i + 1 >= args.size())
            return false;
        v = args[++i];
        return true;
    };
    const auto needs = [&]() { return fail(QStringLiteral("mesh: %1 needs a value").arg(a)); };
    if (a == QLatin1String("-h") || a == QLatin1String("--help")) {
        std::fputs(kMeshUsage, stdout);
        return 0;
    }
    if (a == QLatin1String("--gzip")) {
        o.out.gzip = true;
        return std::nullopt;
    }
    if (a == QLatin1String("-q") || a == QLatin1String("--quiet")) {
        o.out.quiet = true;
        return std::nullopt;
    }
    if (!a.startsWith(QLatin1Char('-')))
        return fail(QStringLiteral("mesh: unexpected argument %1 (test flags go after --)").arg(a));
    if (!value())
        return needs();
    if (a == QLatin1String("--agent-key"))
        o.key = v;
    else if (a == QLatin1String("-o") || a == QLatin1String("--output"))
        o.output = v;
    else if (a == QLatin1String("--title"))
        o.title = v;
    else if (a == QLatin1String("--hosts"))
        o.hostsText += v + QLatin1Char(',');
    else if (a == QLatin1String("--hosts-file"))
        o.hostsFile = v;
    else if (a == QLatin1String("--hosts-from-dns"))
        o.dnsName = v;
    else if (a == QLatin1String("--pairs")) {
        if (!meshPairsFromName(v, &o.pairs))
            return fail(QStringLiteral("mesh: --pairs is all or ring"));
    } else if (a == QLatin1String("--parallel")) {
        if (v != QLatin1String("none") && v != QLatin1String("disjoint"))
            return fail(QStringLiteral("mesh: --parallel is none or disjoint"));
        o.disjoint = v == QLatin1String("disjoint");
    } else if (a == QLatin1String("--repeats")) {
        const compareopt::Option &row = compareopt::option(compareopt::Id::Repeats);
        bool ok = false;
        o.repeats = v.toInt(&ok);
        if (!ok || !compareopt::inRange(row, o.repeats))
            return fail(compareopt::badValueMessage(row));
    } else if (a == QLatin1String("--pause")) {
        const compareopt::Option &row = compareopt::option(compareopt::Id::Pause);
        const auto s = parseSeconds(v);
        if (!s || !compareopt::inRange(row, *s))
            return fail(compareopt::badValueMessage(row));
        o.pause = *s;
    } else if (a == QLatin1String("--format")) {
        if (!parseFormat(v, &o.out.format))
            return fail(QStringLiteral("--format is text, csv or markdown"));
    } else {
        return fail(QStringLiteral("mesh: unknown option %1 (see mesh --help)").arg(a));
    }
    return std::nullopt;
}

// The hosts from whichever of --hosts, --hosts-file and --hosts-from-dns was given (one).
bool meshHosts(const MeshOptions &o, QList<MeshHost> *out, QString *error)
{
    const int sources = int(!o.hostsText.isEmpty()) + int(!o.hostsFile.isEmpty()) + int(!o.dnsName.isEmpty());
    if (sources != 1) {
        *error = QStringLiteral("mesh: give the agents with one of --hosts, --hosts-file and --hosts-from-dns");
        return false;
    }
    if (!o.dnsName.isEmpty())
        return meshHostsFromDns(o.dnsName, out, error);
    QString text = o.hostsText;
    if (!o.hostsFile.isEmpty()) {
        QFile f(o.hostsFile);
        if (!f.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("%1: %2").arg(o.hostsFile, f.errorString());
            return false;
        }
        if (f.size() > 4 * 1024 * 1024) {
            *error = QStringLiteral("%1: a hosts file larger than 4 MiB is not a hosts file").arg(o.hostsFile);
            return false;
        }
        text = QString::fromUtf8(f.readAll());
    }
    if (!meshHostsFromText(text, out, error)) {
        *error = QStringLiteral("mesh: %1").arg(*error);
        return false;
    }
    return true;
}

} // namespace

int meshCommand(const QStringList &args)
{
    MeshOptions o;
    const qsizetype dashes = args.indexOf(QStringLiteral("--"));
    const QStringList own = dashes < 0 ? args : args.mid(0, dashes);
    o.testFlags = dashes < 0 ? QStringList() : args.mid(dashes + 1);
    for (int i = 0; i < own.size(); ++i)
        if (const auto exitCode = parseMeshOption(own, i, o))
            return *exitCode;
    if (o.key.isEmpty())
        return fail(QStringLiteral("mesh: give --agent-key FILE, the key the agents were started with"));
    if (o.output.isEmpty())
        return fail(QStringLiteral("mesh: give -o FILE.nicbench for the snapshot"));
    QList<MeshHost> hosts;
    QString error;
    Comparison c;
    if (!meshHosts(o, &hosts, &error) || !meshComparison(hosts, o.pairs, o.testFlags, &c, &error))
        return fail(error);
    c.title = o.title.isEmpty()
                  ? QStringLiteral("Mesh of %1 agents (%2 pairs)").arg(hosts.size()).arg(c.configurations.size())
                  : o.title;
    c.repeats = o.repeats;
    c.pauseSeconds = o.pause;
    c.agentKeyPath = o.key;
    if (const QString bad = c.validate(); !bad.isEmpty())
        return fail(bad);
    QList<QList<int>> groups;
    if (o.disjoint) {
        QList<std::pair<int, int>> pairs;
        for (const Configuration &conf : c.configurations)
            pairs.append({int(hosts.indexOf(MeshHost{conf.from.host, conf.from.port})),
                          int(hosts.indexOf(MeshHost{conf.params.host, conf.params.port}))});
        groups = disjointGroups(pairs);
    }
    o.out.path = o.output;
    return runAndReport(c, o.out, groups);
}

QString meshUsage()
{
    return QString::fromLatin1(kMeshUsage);
}

} // namespace nb::cli

// SPDX-License-Identifier: GPL-3.0-or-later
// Meshes without a network (compare/mesh.h, compare/meshmatrix.h): which pairs run, hosts as
// people write them, the comparison a mesh is, the groups that may run side by side, the
// matrix a snapshot gives, and a configuration's "from" in specs and snapshots.
#include "comparisonruns.h"

#include <compare/comparisonspec.h>
#include <compare/mesh.h>
#include <compare/meshmatrix.h>
#include <compare/snapshot.h>

#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace nb;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

// A stream run of `gbps` over 2 s.
TestResult streamResult(double gbps)
{
    TestResult r;
    r.params.duration = 2;
    StreamSummary st;
    st.id = 1;
    st.seconds = 2;
    st.receiverSeconds = 2;
    st.bytesSent = st.bytesReceived = std::uint64_t(gbps * 1e9 / 8 * 2);
    r.streams.append(st);
    return r;
}

QList<MeshHost> hosts(const char *text)
{
    QList<MeshHost> out;
    QString error;
    if (!meshHostsFromText(s(text), &out, &error))
        qWarning("%s", qPrintable(error));
    return out;
}

} // namespace

class TestMesh : public QObject {
    Q_OBJECT

private slots:
    void pairs_data();
    void pairs();
    void hostsFromText_data();
    void hostsFromText();
    void comparisonOfPairs();
    void meshFlagsAreRefused_data();
    void meshFlagsAreRefused();
    void disjointGroupsShareNoHost_data();
    void disjointGroupsShareNoHost();
    void matrixOfRuns();
    void fromInSpecsAndSnapshots();
    void agentsNeedKeyAndOptions();
    void dnsNameOfOneAddress();
};

void TestMesh::pairs_data()
{
    QTest::addColumn<int>("hosts");
    QTest::addColumn<bool>("ring");
    QTest::addColumn<int>("count");
    for (int n : {2, 3, 4, 30}) {
        QTest::addRow("all %d", n) << n << false << n * (n - 1);
        QTest::addRow("ring %d", n) << n << true << n;
    }
    QTest::newRow("one host") << 1 << false << 0;
}

void TestMesh::pairs()
{
    QFETCH(int, hosts);
    QFETCH(bool, ring);
    QFETCH(int, count);
    const QList<std::pair<int, int>> p = meshPairs(hosts, ring ? MeshPairs::Ring : MeshPairs::All);
    QCOMPARE(p.size(), count);
    QSet<int> keys;
    for (const auto &[from, to] : p) {
        QVERIFY(from != to);
        QVERIFY(from >= 0 && from < hosts && to >= 0 && to < hosts);
        keys.insert(from * 1000 + to);
        if (ring)
            QCOMPARE(to, (from + 1) % hosts);
    }
    QCOMPARE(keys.size(), count == 2 && ring ? 2 : count); // no pair twice
}

void TestMesh::hostsFromText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected"); // MeshHost::text of each; empty: an error
    QTest::addColumn<QString>("error");
    QTest::newRow("commas") << s("a,b:5300") << QStringList{s("a"), s("b:5300")} << QString();
    QTest::newRow("lines and comments") << s("198.18.0.2\n# the second\n198.18.0.3 198.18.0.4:5201\n")
                                        << QStringList{s("198.18.0.2"), s("198.18.0.3"), s("198.18.0.4")} << QString();
    QTest::newRow("ipv6") << s("fd00::2,[fd00::3]:5300") << QStringList{s("fd00::2"), s("[fd00::3]:5300")} << QString();
    QTest::newRow("one host") << s("a") << QStringList() << s("at least 2 hosts");
    QTest::newRow("twice") << s("a,b,A") << QStringList() << s("given twice");
    QTest::newRow("bad port") << s("a,b:99999") << QStringList() << s("b:99999");
}

void TestMesh::hostsFromText()
{
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    QFETCH(QString, error);
    QList<MeshHost> out;
    QString e;
    const bool ok = meshHostsFromText(text, &out, &e);
    QCOMPARE(ok, error.isEmpty());
    if (!ok) {
        QVERIFY2(e.contains(error), qPrintable(e));
        return;
    }
    QStringList texts;
    for (const MeshHost &h : out)
        texts.append(h.text());
    QCOMPARE(texts, expected);
}

void TestMesh::comparisonOfPairs()
{
    Comparison c;
    QString error;
    QVERIFY2(meshComparison(hosts("a,b,c:5300"), MeshPairs::All, {s("-t"), s("2"), s("--rr")}, &c, &error),
             qPrintable(error));
    QCOMPARE(c.configurations.size(), 6);
    const Configuration &first = c.configurations[0];
    QCOMPARE(first.label, s("a -> b"));
    QCOMPARE(first.adapterName(), s("a"));
    QCOMPARE(first.variantName(), s("to b"));
    QCOMPARE(first.from.host, s("a"));
    QCOMPARE(first.from.port, quint16(5201));
    QCOMPARE(first.params.host, s("b"));
    QCOMPARE(first.params.kind, TestKind::Rr);
    QCOMPARE(first.params.duration, 2.0);
    const Configuration &toC = c.configurations[1];
    QCOMPARE(toC.label, s("a -> c:5300"));
    QCOMPARE(toC.params.port, quint16(5300));
    const Configuration &fromC = c.configurations[4];
    QCOMPARE(fromC.label, s("c:5300 -> a"));
    QCOMPARE(fromC.from.port, quint16(5300));
    // The options that travel are the user's test flags (and the mesh's -c and -p).
    QStringList given;
    for (const GivenOption &g : first.from.given)
        given.append(QLatin1String(param::parameter(g.id).longFlag));
    QCOMPARE(given, (QStringList{s("client"), s("port"), s("time"), s("rr")}));
    QVERIFY2(c.validate().isEmpty(), qPrintable(c.validate()));
}

void TestMesh::meshFlagsAreRefused_data()
{
    QTest::addColumn<QString>("flag");
    for (const char *f : {"-p", "-p5300", "--port", "-c", "--from", "--agent-key"})
        QTest::newRow(f) << s(f);
}

void TestMesh::meshFlagsAreRefused()
{
    QFETCH(QString, flag);
    Comparison c;
    QString error;
    QVERIFY(!meshComparison(hosts("a,b"), MeshPairs::All, {flag, s("x")}, &c, &error));
    QVERIFY2(error.contains(flag) && error.contains(s("the mesh's to give")), qPrintable(error));
}

void TestMesh::disjointGroupsShareNoHost_data()
{
    QTest::addColumn<int>("hosts");
    QTest::addColumn<bool>("ring");
    QTest::addColumn<int>("groups");
    // A full mesh of 4: 12 pairs, at most 2 side by side, so 6 groups at best (greedy finds it).
    QTest::newRow("all 4") << 4 << false << 6;
    QTest::newRow("ring 4") << 4 << true << 2;
    QTest::newRow("all 2") << 2 << false << 2;
    QTest::newRow("all 9") << 9 << false << -1; // only checked for disjointness and cover
}

void TestMesh::disjointGroupsShareNoHost()
{
    QFETCH(int, hosts);
    QFETCH(bool, ring);
    QFETCH(int, groups);
    const QList<std::pair<int, int>> p = meshPairs(hosts, ring ? MeshPairs::Ring : MeshPairs::All);
    const QList<QList<int>> g = disjointGroups(p);
    if (groups >= 0)
        QCOMPARE(g.size(), groups);
    QList<int> covered;
    for (const QList<int> &group : g) {
        QSet<int> busy;
        for (int i : group) {
            QVERIFY2(!busy.contains(p[i].first) && !busy.contains(p[i].second), "a host in two pairs of one group");
            busy.insert(p[i].first);
            busy.insert(p[i].second);
            covered.append(i);
        }
    }
    std::sort(covered.begin(), covered.end());
    QList<int> all(p.size());
    std::iota(all.begin(), all.end(), 0);
    QCOMPARE(covered, all);
}

void TestMesh::matrixOfRuns()
{
    Comparison c;
    QString error;
    QVERIFY(meshComparison(hosts("a,b,c"), MeshPairs::Ring, {s("-t"), s("2")}, &c, &error));
    c.repeats = 2;
    // a -> b 1 and 3 Gbit/s; b -> c 5 and 5; c -> a fails once, then 2.
    nbtest::addScheduledRuns(c, [](const Run &run) {
        if (run.configIndex == 2 && run.repeatIndex == 0) {
            TestResult r;
            r.error = QStringLiteral("the agent c port 5201 refused the test: busy");
            return r;
        }
        const double gbps[3][2] = {{1, 3}, {5, 5}, {0, 2}};
        return streamResult(gbps[run.configIndex][run.repeatIndex]);
    });
    QVERIFY(MeshMatrix::isMesh(c));
    const ComparisonStatistics stats = computeStatistics(c);
    QCOMPARE(MeshMatrix::defaultMetric(stats), Metric::Throughput);
    const MeshMatrix m = MeshMatrix::of(c, stats, Metric::Throughput);
    QCOMPARE(m.hosts, (QStringList{s("a"), s("b"), s("c")}));
    QCOMPARE(m.cells[0][1].configIndex, 0);
    QCOMPARE(m.cells[0][1].summary.n, 2);
    QCOMPARE(m.cells[0][1].summary.mean, 2e9);
    QCOMPARE(m.cells[1][2].summary.mean, 5e9);
    QCOMPARE(m.cells[2][0].runs, 2);
    QCOMPARE(m.cells[2][0].failedRuns, 1);
    QVERIFY(m.cells[2][0].failure.contains(s("busy")));
    QCOMPARE(m.cells[1][0].configIndex, -1); // not in a ring
    QCOMPARE(m.cellText(1, 0), s("-"));
    QCOMPARE(m.cellText(0, 0), s("-"));
    QCOMPARE(m.cellText(2, 0), s("2.00 Gbit/s (1 failed)"));
    QVERIFY2(m.cellText(0, 1).startsWith(s("2.00 Gbit/s \u00b1 ")), qPrintable(m.cellText(0, 1)));
    const QString text = m.toText();
    QVERIFY2(text.contains(s("from \\ to")) && text.count(QLatin1Char('\n')) == 5, qPrintable(text));
    // A comparison run here is no mesh.
    Configuration here = c.configurations[0];
    here.from = AgentFrom();
    c.configurations.append(here);
    QVERIFY(!MeshMatrix::isMesh(c));
}

void TestMesh::fromInSpecsAndSnapshots()
{
    const QByteArray spec = R"({"agent_key": "/k", "repeats": 1, "configurations": [
        {"label": "a to b", "from": "198.18.0.2:5300", "args": "-c 198.18.0.3 -t 2"},
        {"label": "c to b", "args": "-c 198.18.0.3 -t 2 --from 198.18.0.4 --agent-key /other"},
        {"label": "here", "args": "-c 198.18.0.3 -t 2"}]})";
    Comparison c;
    QString error;
    QVERIFY2(comparisonFromSpec(spec, &c, &error), qPrintable(error));
    QCOMPARE(c.agentKeyPath, s("/k"));
    QCOMPARE(c.configurations[0].from.text(), s("198.18.0.2:5300"));
    QCOMPARE(c.configurations[1].from.text(), s("198.18.0.4:5201"));
    QCOMPARE(c.configurations[1].from.keyPath, s("/other"));
    QVERIFY(!c.configurations[2].from.isSet());
    QVERIFY2(c.checkAgents().isEmpty(), qPrintable(c.checkAgents()));
    // Both ways at once is one too many.
    const QByteArray both =
        R"({"configurations": [{"label": "x", "from": "a", "args": "-c b --from a --agent-key /k"}]})";
    QVERIFY(!comparisonFromSpec(both, &c, &error));
    QVERIFY2(error.contains(s("give one")), qPrintable(error));
    const QByteArray badPort = R"({"configurations": [{"label": "x", "from": "a:0", "args": "-c b"}]})";
    QVERIFY(!comparisonFromSpec(badPort, &c, &error));
    QVERIFY2(error.contains(s("configurations[0].from")), qPrintable(error));

    // A snapshot keeps "from" (not the options, not the key).
    QVERIFY(comparisonFromSpec(spec, &c, &error));
    nbtest::addScheduledRuns(c, [](const Run &) { return streamResult(1); });
    QTemporaryDir dir;
    const QString path = dir.filePath(s("mesh.nicbench"));
    QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));
    Comparison back;
    QVERIFY2(Snapshot::load(path, &back, &error), qPrintable(error));
    QCOMPARE(back.configurations[0].from.text(), s("198.18.0.2:5300"));
    QCOMPARE(back.configurations[1].from.text(), s("198.18.0.4:5201"));
    QVERIFY(!back.configurations[2].from.isSet());
    QVERIFY(back.configurations[0].from.given.isEmpty());
    QVERIFY(back.agentKeyPath.isEmpty());
}

void TestMesh::agentsNeedKeyAndOptions()
{
    Comparison c;
    QString error;
    QVERIFY(meshComparison(hosts("a,b"), MeshPairs::All, {}, &c, &error));
    QVERIFY2(c.checkAgents().contains(s("give the agent key")), qPrintable(c.checkAgents()));
    c.agentKeyPath = s("/k");
    QVERIFY(c.checkAgents().isEmpty());
    c.configurations[1].from.given.clear(); // as read from a snapshot
    QVERIFY2(c.checkAgents().contains(s("not known")), qPrintable(c.checkAgents()));
}

void TestMesh::dnsNameOfOneAddress()
{
    // An address resolves to itself: one host is no mesh, and the message names it.
    QList<MeshHost> out;
    QString error;
    QVERIFY(!meshHostsFromDns(s("127.0.0.1:5300"), &out, &error));
    QVERIFY2(error.startsWith(s("--hosts-from-dns 127.0.0.1 (127.0.0.1:5300): a mesh needs at least 2 hosts")),
             qPrintable(error));
    QVERIFY(!meshHostsFromDns(s("agents:99999"), &out, &error));
    QVERIFY2(error.contains(s("99999")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestMesh)
#include "tst_mesh.moc"

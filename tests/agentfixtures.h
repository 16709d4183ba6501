// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fixtures for the agent tests (tst_agent, tst_agentnamespaces): a key file, an agent or a
// server as a child process whose output the test reads and which it can kill, and the
// checks every third-party -J document must pass.

#include "integrationhelpers.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

namespace nbtest {

// A random key in a temporary folder, readable by its owner only (or as asked).
class KeyFile {
public:
    explicit KeyFile(QFileDevice::Permissions permissions = QFileDevice::ReadOwner | QFileDevice::WriteOwner)
    {
        m_path = m_dir.filePath(QStringLiteral("agent.key"));
        QFile f(m_path);
        quint32 words[8];
        QRandomGenerator::system()->fillRange(words);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(QByteArray(reinterpret_cast<const char *>(words), sizeof words).toBase64() + '\n');
            f.close();
            f.setPermissions(permissions);
        }
    }
    QString path() const { return m_path; }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

// nicbench-cli -s ARGS -p PORT as a child (optionally inside `ip netns exec NS`), ready once
// it prints "Server listening". Killed and reaped however the test ends.
class CliServer {
public:
    QString start(const QStringList &args, const QString &netns = {}, quint16 port = 0)
    {
        m_port = port ? port : freePort();
        const QStringList all = QStringList{QStringLiteral("-s")} + args << QStringLiteral("-p")
                                                                         << QString::number(m_port);
        m_child.process()->setProcessChannelMode(QProcess::MergedChannels);
        if (netns.isEmpty())
            m_child.start(cliPath(), all);
        else
            m_child.start(QStringLiteral("ip"),
                          QStringList{QStringLiteral("netns"), QStringLiteral("exec"), netns, cliPath()} + all);
        if (!m_child.waitStarted(5000) || !m_child.waitForOutput("Server listening", 10000))
            return QStringLiteral("server did not start: %1").arg(output());
        return {};
    }
    quint16 port() const { return m_port; }
    // Everything it printed up to now (what is still in the pipe included).
    QString output()
    {
        for (int i = 0; i < 100 && m_child.running() && m_child.process()->waitForReadyRead(20); ++i) {
        }
        return QString::fromUtf8(m_child.out());
    }
    bool waitForOutput(const QByteArray &text, int ms) { return m_child.waitForOutput(text, ms); }
    int count(const QString &text) { return int(output().count(text)); }
    void kill() { m_child.kill(); }
    bool running() const { return m_child.running(); }

private:
    Child m_child;
    quint16 m_port = 0;
};

// What a test run by an agent must carry: who drove it and both ends' CPU and adapters.
inline void checkThirdPartyDocument(const QJsonObject &doc, const QString &controller, const QString &agent)
{
    const QJsonObject nb = doc.value(QStringLiteral("nicbench")).toObject();
    QVERIFY2(doc.value(QStringLiteral("error")).toString().isEmpty(),
             qPrintable(doc.value(QStringLiteral("error")).toString()));
    const QJsonObject by = nb.value(QStringLiteral("driven_by")).toObject();
    QCOMPARE(by.value(QStringLiteral("controller")).toString(), controller);
    QCOMPARE(by.value(QStringLiteral("agent")).toString(), agent);
    QVERIFY(!by.value(QStringLiteral("controller_host")).toString().isEmpty());
    QCOMPARE(nb.value(QStringLiteral("role")).toString(), QStringLiteral("client"));
    QVERIFY(nb.value(QStringLiteral("peer_is_nicbench")).toBool());
    const QJsonObject cpu = nb.value(QStringLiteral("cpu")).toObject();
    for (const char *side : {"local", "remote"}) {
        const QJsonObject c = cpu.value(QLatin1String(side)).toObject();
        QVERIFY2(c.value(QStringLiteral("system_pct")).toDouble() > 0, side);
        QVERIFY2(c.value(QStringLiteral("cpu_count")).toInt() > 0, side);
        QVERIFY2(nb.value(QStringLiteral("adapters")).toObject().value(QLatin1String(side)).isObject(), side);
    }
    QVERIFY(!doc.value(QStringLiteral("intervals")).toArray().isEmpty());
}

} // namespace nbtest

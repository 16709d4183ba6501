// SPDX-License-Identifier: GPL-3.0-or-later
// Every way a client test can fail that a caller branches on yields its ErrorCode, on
// real sockets on loopback: nothing listening, a busy server, a stop before data flows,
// an RR test against stock iperf3, a name that does not resolve, bad parameters.

#include "integrationhelpers.h"
#include "net/connect.h"
#include "session/throughputclient.h"

#include <QTest>

#include <chrono>
#include <thread>

Q_DECLARE_METATYPE(nb::ErrorCode)

namespace {

enum class Scenario { Refused, Resolve, Busy, Stopped, Unsupported, InvalidParams };

// Runs the client; with stopAfterMs >= 0 a second thread asks it to stop by then.
nb::TestResult runClient(const nb::TestParams &p, int stopAfterMs = -1)
{
    nb::ThroughputClient client(p);
    std::thread stopper;
    if (stopAfterMs >= 0)
        stopper = std::thread([&client, stopAfterMs] {
            std::this_thread::sleep_for(std::chrono::milliseconds(stopAfterMs));
            client.requestStop();
        });
    nb::TestResult r = client.run();
    if (stopper.joinable())
        stopper.join();
    return r;
}

} // namespace

class TestErrorCodes : public QObject {
    Q_OBJECT
private slots:
    void clientErrors_data();
    void clientErrors();
    void codeInJson();
};

void TestErrorCodes::clientErrors_data()
{
    QTest::addColumn<Scenario>("scenario");
    QTest::addColumn<nb::ErrorCode>("expected");
    QTest::newRow("refused: no server on a free port") << Scenario::Refused << nb::ErrorCode::Refused;
    QTest::newRow("resolve: bad host name") << Scenario::Resolve << nb::ErrorCode::Resolve;
    QTest::newRow("busy: server already running a test") << Scenario::Busy << nb::ErrorCode::Busy;
    QTest::newRow("stopped: cancel before the server answers") << Scenario::Stopped << nb::ErrorCode::Stopped;
    QTest::newRow("unsupported: RR against stock iperf3 -s") << Scenario::Unsupported << nb::ErrorCode::Unsupported;
    QTest::newRow("invalid parameters") << Scenario::InvalidParams << nb::ErrorCode::InvalidParams;
}

void TestErrorCodes::clientErrors()
{
    QFETCH(Scenario, scenario);
    QFETCH(nb::ErrorCode, expected);
    nb::TestParams p = nbtest::loopbackTestParams(nbtest::freePort(), 1, 1);
    nb::TestResult r;
    switch (scenario) {
    case Scenario::Refused:
        r = runClient(p);
        break;
    case Scenario::Resolve:
        p.host = QStringLiteral("no-such-host.invalid"); // .invalid never resolves (RFC 2606)
        r = runClient(p);
        break;
    case Scenario::Busy: {
        nbtest::ServerThread server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        nb::TestParams longTest = nbtest::loopbackTestParams(server.port(), 5, 1);
        nb::ThroughputClient first(longTest);
        std::thread firstThread([&first] { first.run(); });
        // Give the first test time to get past its handshake, then try a second one.
        std::this_thread::sleep_for(std::chrono::milliseconds(800));
        p.port = server.port();
        r = runClient(p);
        first.requestStop();
        firstThread.join();
        break;
    }
    case Scenario::Stopped: {
        // A listener that never answers: the client waits for PARAM_EXCHANGE until stopped.
        QString error;
        const nb::net::Socket silent = nb::net::listenTcp(nbtest::kLoopback, 0, nb::AddressFamily::IPv4, {}, &error);
        QVERIFY2(silent.valid(), qPrintable(error));
        p.port = nb::net::localPort(silent);
        r = runClient(p, 300);
        break;
    }
    case Scenario::Unsupported: {
        if (!nbtest::haveTool(QStringLiteral("iperf3")))
            QSKIP("iperf3 is not in PATH (install the Debian package iperf3 to run this row)");
        nbtest::Child server;
        QString why;
        p.port = nbtest::startListening(server, QStringLiteral("iperf3"), {QStringLiteral("-s"), QStringLiteral("-1")},
                                        &why);
        QVERIFY2(p.port != 0, qPrintable(why));
        p.kind = nb::TestKind::Rr;
        r = runClient(p);
        break;
    }
    case Scenario::InvalidParams:
        p.streams = 0;
        r = runClient(p);
        break;
    }
    QVERIFY2(!r.ok(), "the test should have failed");
    QVERIFY2(r.errorCode == expected,
             qPrintable(QStringLiteral("code %1 (expected %2), message: %3")
                            .arg(nb::errorCodeName(r.errorCode), nb::errorCodeName(expected), r.error)));
    QVERIFY(!nb::errorCodeMessage(expected).isEmpty());
}

void TestErrorCodes::codeInJson()
{
    nb::TestResult r;
    r.error = QStringLiteral("the server is busy running a test; try again later");
    r.errorCode = nb::ErrorCode::Busy;
    QJsonObject json = r.toJson();
    QCOMPARE(json.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("error_code")).toString(),
             QStringLiteral("busy"));
    nb::TestResult back;
    QString error;
    QVERIFY2(nb::TestResult::fromJson(json, &back, &error), qPrintable(error));
    QVERIFY(back.errorCode == nb::ErrorCode::Busy);

    // Files written before the code existed load with None and keep their message.
    QJsonObject nb = json.value(QStringLiteral("nicbench")).toObject();
    nb.remove(QStringLiteral("error_code"));
    json.insert(QStringLiteral("nicbench"), nb);
    QVERIFY2(nb::TestResult::fromJson(json, &back, &error), qPrintable(error));
    QVERIFY(back.errorCode == nb::ErrorCode::None);
    QCOMPARE(back.error, r.error);
}

QTEST_GUILESS_MAIN(TestErrorCodes)
#include "tst_errorcodes.moc"

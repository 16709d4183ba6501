// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/serverinfo.h"

#include "core/sanitize.h"
#include "model/peerresults.h"
#include "net/connect.h"
#include "protocol/controlchannel.h"
#include "session/authoptions.h"

#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace nb {

namespace {

class Query {
public:
    explicit Query(const ServerInfoQuery &q) : q(q), deadline(net::deadlineIn(q.timeoutSeconds)) {}
    bool run(HostEnvironment *out, QString *error);

private:
    bool fail(QString *error, ErrorCode kind, const QString &message)
    {
        *error = message;
        code = kind;
        return false;
    }
    // A server that stays silent does not speak the protocol; see readFailure.
    static ErrorCode readFailureCode(net::IoStatus s)
    {
        return s == net::IoStatus::Timeout ? ErrorCode::Protocol : net::errorCodeOf(s);
    }
    QString where() const { return QStringLiteral("%1 port %2").arg(q.host).arg(q.port); }
    bool cancelled() const { return q.cancel && q.cancel->load(); }
    // Leaves a server that is waiting for our next move clean: a stock iperf3 server (and
    // ours) drops the test on CLIENT_TERMINATE and listens again. We return once it has
    // hung up, and from a stock server a moment later: it reopens its listening socket
    // while it resets (proto::terminateControl).
    void terminate(double graceSeconds)
    {
        const double left = std::chrono::duration<double>(deadline - net::Clock::now()).count();
        ctrl.terminate(std::clamp(left, 0.1, 1.0), graceSeconds);
    }
    QString readFailure(net::IoStatus s, const QString &err, const QString &waitingFor) const;
    bool connectAndSendCookie(QString *error);
    bool awaitParamExchange(QString *error);
    bool askForHello(QString *error);
    bool readHello(HostEnvironment *out, QString *error);

    const ServerInfoQuery &q;
    const net::Deadline deadline;
    proto::ControlChannel ctrl;

public:
    ErrorCode code = ErrorCode::None; // set with the error message
};

QString Query::readFailure(net::IoStatus s, const QString &err, const QString &waitingFor) const
{
    switch (s) {
    case net::IoStatus::Timeout:
        return QStringLiteral("%1 accepted the connection but sent no %2 within %3 s; it does not answer like an "
                              "iperf3 or NicBench server (an iperf2 server?)")
            .arg(where(), waitingFor)
            .arg(q.timeoutSeconds);
    case net::IoStatus::Cancelled:
        return QStringLiteral("stopped");
    case net::IoStatus::Closed:
        return QStringLiteral("%1 closed the connection instead of sending %2").arg(where(), waitingFor);
    default:
        return QStringLiteral("%1: %2").arg(where(), err);
    }
}

bool Query::run(HostEnvironment *out, QString *error)
{
    return connectAndSendCookie(error) && awaitParamExchange(error) && askForHello(error) && readHello(out, error);
}

bool Query::connectAndSendCookie(QString *error)
{
    if (q.host.isEmpty())
        return fail(error, ErrorCode::InvalidParams, QStringLiteral("no server given"));
    if (!(q.timeoutSeconds > 0))
        return fail(error, ErrorCode::InvalidParams, QStringLiteral("the timeout must be positive"));
    QString err;
    ErrorCode connectCode = ErrorCode::None;
    ctrl =
        proto::ControlChannel(net::connectTcp(q.host, q.port, q.family, q.bindAddress, {},
                                              std::max(1, int(q.timeoutSeconds * 1000)), &err, q.cancel, &connectCode));
    if (!ctrl.valid())
        return fail(error, cancelled() ? ErrorCode::Stopped : connectCode,
                    cancelled() ? QStringLiteral("stopped") : err);
    net::setNoDelay(ctrl.socket());

    // Cookie and parameters go out as soon as the server asks, as in a test (a 3.15+
    // server times out a control read after 10 s).
    const QByteArray cookie = proto::makeCookie();
    if (ctrl.writeBytes(cookie.constData(), std::size_t(cookie.size()), deadline, &err) != net::IoStatus::Ok)
        return fail(error, ErrorCode::PeerClosed, QStringLiteral("%1: cannot send the cookie: %2").arg(where(), err));
    return true;
}

bool Query::awaitParamExchange(QString *error)
{
    QString err;
    std::int8_t state = 0;
    const net::IoStatus s = ctrl.readState(&state, deadline, &err, q.cancel);
    if (s != net::IoStatus::Ok)
        return fail(error, readFailureCode(s), readFailure(s, err, QStringLiteral("PARAM_EXCHANGE")));
    int iErrno = -1;
    switch (state) {
    case proto::ParamExchange:
        break;
    case proto::AccessDenied:
        return fail(error, ErrorCode::Busy,
                    QStringLiteral("%1: the server is busy running a test; try again when it is done").arg(where()));
    case proto::ServerError:
        return fail(error, ErrorCode::ServerError,
                    QStringLiteral("%1: %2").arg(where(), ctrl.readServerError(deadline, &iErrno)));
    default:
        return fail(error, ErrorCode::Protocol,
                    QStringLiteral("%1: protocol error: expected PARAM_EXCHANGE, got %2")
                        .arg(where(), proto::stateName(state)));
    }
    return true;
}

bool Query::askForHello(QString *error)
{
    QString err;
    QJsonObject parameters = infoQueryParameters();
    if (!addAuthToken(q.username, q.rsaPublicKeyPath, q.password, &parameters, &err))
        return fail(error, ErrorCode::AuthFailed, QStringLiteral("%1: %2").arg(where(), err));
    if (ctrl.writeJson(parameters, deadline, &err) != net::IoStatus::Ok)
        return fail(error, ErrorCode::PeerClosed, QStringLiteral("%1: cannot send the query: %2").arg(where(), err));
    std::int8_t state = 0;
    int iErrno = -1;
    const net::IoStatus s = ctrl.readState(&state, deadline, &err, q.cancel);
    if (s != net::IoStatus::Ok)
        return fail(error, readFailureCode(s), readFailure(s, err, QStringLiteral("an answer to the query")));
    switch (state) {
    case proto::NicbenchHello:
        return true;
    case proto::CreateStreams:
        // Stock iperf3 took the query for a test and waits for data connections.
        terminate(0.05);
        return fail(error, ErrorCode::Unsupported,
                    QStringLiteral("%1 runs a stock iperf3 server, which cannot list its adapters (start "
                                   "'nicbench-cli -s' there)")
                        .arg(where()));
    case proto::ServerError: {
        const QString text = ctrl.readServerError(deadline, &iErrno);
        if (iErrno == proto::IeParams || iErrno == proto::IeParamsEarlier)
            return fail(error, ErrorCode::Unsupported,
                        QStringLiteral("%1 refused the query: its NicBench version is older than the info "
                                       "query (%2)")
                            .arg(where(), text));
        if (iErrno == proto::IeAuthTest)
            return fail(error, ErrorCode::AuthFailed,
                        QStringLiteral("%1: %2%3").arg(where(), text, authRefusalHint(q.username)));
        return fail(error, ErrorCode::ServerError, QStringLiteral("%1: %2").arg(where(), text));
    }
    case proto::AccessDenied:
        return fail(error, ErrorCode::Busy,
                    QStringLiteral("%1: the server is busy running a test; try again when it is done").arg(where()));
    default:
        return fail(error, ErrorCode::Protocol,
                    QStringLiteral("%1: protocol error: expected NICBENCH_HELLO, got %2")
                        .arg(where(), proto::stateName(state)));
    }
}

bool Query::readHello(HostEnvironment *out, QString *error)
{
    QString err;
    QJsonObject hello;
    const net::IoStatus s = ctrl.readJson(&hello, deadline, &err, proto::MaxHelloJsonSize);
    if (s != net::IoStatus::Ok)
        return fail(error, ErrorCode::Protocol,
                    s == net::IoStatus::Error ? QStringLiteral("%1: malformed NicBench greeting: %2").arg(where(), err)
                                              : readFailure(s, err, QStringLiteral("the NicBench greeting")));
    // The hello is all we came for: end the exchange before looking at it, so the server
    // is free again whatever we make of its answer. Ours keeps its listening socket, so
    // its hang-up is enough.
    terminate(0);
    // A server with --no-info says so in the hello (docs/protocol.md §2.7).
    if (const QString refused = hello.value(QStringLiteral("refused")).toString(); !refused.isEmpty())
        return fail(error, ErrorCode::ServerError,
                    QStringLiteral("%1 refused the query: %2").arg(where(), printable(refused, 300)));
    capJsonText(&hello, peer::MaxTextLength, peer::MaxListItems); // printed as it came
    const QJsonValue host = hello.value(QStringLiteral("host"));
    if (!host.isObject())
        return fail(error, ErrorCode::Unsupported,
                    QStringLiteral("%1 runs NicBench %2, which does not describe its machine")
                        .arg(where(), hello.value(QStringLiteral("version")).toString()));
    HostEnvironment e;
    if (!HostEnvironment::fromJson(host.toObject(), &e, &err))
        return fail(error, ErrorCode::Protocol,
                    QStringLiteral("%1 sent an unreadable machine description: %2").arg(where(), err));
    e.known = true;
    if (e.nicbenchVersion.isEmpty())
        e.nicbenchVersion = hello.value(QStringLiteral("version")).toString();
    *out = e;
    return true;
}

} // namespace

bool queryServerInfo(const ServerInfoQuery &query, HostEnvironment *out, QString *error, ErrorCode *code)
{
    QString ignored;
    Query q(query);
    const bool ok = q.run(out, error ? error : &ignored);
    if (code)
        *code = q.code;
    return ok;
}

QJsonObject infoQueryParameters()
{
    TestParams p;
    p.duration = 1;
    QJsonObject o = p.toIperfParams();
    o.insert(QStringLiteral("nicbench"), QJsonObject{{QStringLiteral("version"), QStringLiteral(NICBENCH_VERSION)},
                                                     {QStringLiteral("test"), QStringLiteral("info")}});
    return o;
}

bool isInfoQuery(const QJsonObject &iperfParams)
{
    return iperfParams.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("test")).toString() ==
           QLatin1String("info");
}

QJsonObject helloHostJson(const HostEnvironment &host)
{
    HostEnvironment h = host;
    // What a client needs to pick adapters and label results; a MAC address is not that.

    if (h.adapters.size() > MaxHelloAdapters) {
        // Keep the adapters a test could use (those with an address) first, in their order.
        int withAddress = 0;
        for (const AdapterInfo &a : host.adapters)
            withAddress += a.addresses.isEmpty() ? 0 : 1;
        int spareWithout = std::max(0, MaxHelloAdapters - withAddress);
        h.adapters.clear();
        for (const AdapterInfo &a : host.adapters) {
            if (h.adapters.size() >= MaxHelloAdapters)
                break;
            if (!a.addresses.isEmpty() || spareWithout-- > 0)
                h.adapters.append(a);
        }
    }
    // What a client needs to pick adapters and label results; a MAC address is not that.
    for (AdapterInfo &a : h.adapters)
        a.hardwareAddress.clear();
    return h.toJson();
}

} // namespace nb

// SPDX-License-Identifier: GPL-3.0-or-later
// The server side of the control channel: the input is what a client sends after it
// connects (engine/session/server.cpp, ServerRun): the 37-byte cookie, the parameters as a
// length-prefixed JSON frame (at most proto::MaxParamsJsonSize), then, in a test, a state
// byte (TEST_END) and the client's results frame (proto::resultsJsonLimit). Every step
// calls the function the server calls, in the same order, with the same limits.

#include "datapath/datastream.h"
#include "datapath/streamset.h"
#include "fuzz/wireinput.h"
#include "model/testparams.h"
#include "protocol/controlchannel.h"
#include "session/serverinfo.h"

#include <memory>

using namespace nb;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::WireInput in(data, size);
    QByteArray cookie(proto::CookieSize, '\0');
    if (!in.take(cookie.data(), std::size_t(cookie.size())) || !proto::isValidCookie(cookie))
        return 0;
    (void)QString::fromLatin1(cookie.constData());

    QJsonObject paramsJson;
    QString err;
    if (!in.readJson(&paramsJson, proto::MaxParamsJsonSize, &err))
        return 0;
    if (isInfoQuery(paramsJson))
        return 0;
    TestParams params;
    if (!TestParams::fromIperfParams(paramsJson, &params, &err))
        return 0;
    (void)paramsJson.value(QStringLiteral("client_version")).toString();
    (void)params.validate();
    // What the server keeps of them: the result's copy, written into -J output and snapshots.
    TestParams again;
    (void)TestParams::fromJson(params.toJson(), &again, &err);

    // The streams the server would accept: ids as it numbers them. A -P beyond what fits a
    // fuzz run is capped; the ids and the lookup are the same.
    StreamSet streams;
    const int total = std::min(params.kind == TestKind::Crr ? params.streams : params.dataConnectionCount(), 300);
    for (int i = 0; i < total; ++i)
        streams.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::Receiver, net::Socket()));

    std::int8_t state = 0;
    if (!in.readState(&state) || state != proto::TestEnd) {
        (void)proto::stateName(state);
        return 0;
    }
    QJsonObject theirs;
    if (!in.readJson(&theirs, proto::resultsJsonLimit(streams.size()), &err))
        return 0;
    if (!streams.applyPeerResults(theirs, &err))
        return 0;
    (void)proto::toDouble(theirs.value(QStringLiteral("cpu_util_total"))).value_or(0);
    (void)proto::toDouble(theirs.value(QStringLiteral("cpu_util_user"))).value_or(0);
    (void)proto::toDouble(theirs.value(QStringLiteral("cpu_util_system"))).value_or(0);
    (void)streams.summaries();
    (void)streams.resultsJson(0, 0, 0, false, QString());
    return 0;
}

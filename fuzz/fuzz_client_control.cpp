// SPDX-License-Identifier: GPL-3.0-or-later
// The client side of the control channel: the input is what a server sends once the client
// connects (engine/session/throughputclient.cpp ClientRun, and the info query in
// engine/session/serverinfo.cpp): PARAM_EXCHANGE; NICBENCH_HELLO with its JSON frame (the
// machine description, crr_port); SERVER_ERROR with its two int32; CREATE_STREAMS,
// TEST_START, TEST_RUNNING, EXCHANGE_RESULTS and the server's results frame, whose
// "nicbench" object carries the server's CPU and adapter figures. The first input byte
// picks the client's own test (streams, direction, kind), which the server's answers are
// checked against.

#include "datapath/datastream.h"
#include "datapath/streamset.h"
#include "fuzz/wireinput.h"
#include "model/results.h"
#include "model/testaccounting.h"
#include "model/testparams.h"
#include "platform/hostenvironment.h"
#include "protocol/controlchannel.h"

#include <QtEndian>

#include <memory>

using namespace nb;

namespace {

// What the client says when a state other than the awaited one arrives.
void unexpected(fuzz::WireInput &in, std::int8_t state)
{
    if (state == proto::ServerError) {
        // ControlChannel::readServerError: two big-endian int32.
        unsigned char buf[8] = {};
        if (in.take(buf, 4)) {
            (void)proto::iperfErrorText(int(qFromBigEndian<qint32>(buf)));
            if (in.take(buf + 4, 4))
                (void)qFromBigEndian<qint32>(buf + 4);
        }
        return;
    }
    (void)proto::ControlChannel().unexpectedState(state, "CREATE_STREAMS");
}

bool expect(fuzz::WireInput &in, std::int8_t wanted)
{
    std::int8_t state = 0;
    if (!in.readState(&state))
        return false;
    if (state == wanted)
        return true;
    unexpected(in, state);
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    fuzz::WireInput in(data, size);
    std::uint8_t shape = 0;
    if (!in.take(&shape, 1))
        return 0;
    TestParams params;
    params.streams = 1 + (shape & 7);
    params.direction = (shape & 0x18) == 0x08   ? Direction::Download
                       : (shape & 0x18) == 0x10 ? Direction::Bidirectional
                                                : Direction::Upload;
    params.kind = (shape & 0x60) == 0x20 ? TestKind::Rr : (shape & 0x60) == 0x40 ? TestKind::Crr : TestKind::Stream;

    TestResult result;
    QString err;
    std::int8_t state = 0;
    if (!expect(in, proto::ParamExchange) || !in.readState(&state))
        return 0;
    QJsonObject hello;
    if (state == proto::NicbenchHello) {
        if (!in.readJson(&hello, proto::MaxJsonSize, &err))
            return 0;
        result.peerIsNicbench = true;
        result.remoteVersion = hello.value(QStringLiteral("version")).toString();
        if (hello.value(QStringLiteral("host")).isObject()) {
            HostEnvironment host;
            if (HostEnvironment::fromJson(hello.value(QStringLiteral("host")).toObject(), &host, &err)) {
                host.known = true;
                result.remoteHost = host;
                (void)result.remoteHost->toJson();
            }
        }
        if (!in.readState(&state))
            return 0;
    }
    if (state != proto::CreateStreams) {
        unexpected(in, state);
        return 0;
    }
    StreamSet streams;
    if (params.kind == TestKind::Crr) {
        const auto crrPort = proto::toInt64(hello.value(QStringLiteral("crr_port")));
        if (!crrPort || *crrPort <= 0 || *crrPort > 65535)
            return 0;
        for (int i = 0; i < params.streams; ++i)
            streams.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::CrrClient, net::Socket()));
    }
    for (int i = 0; i < params.dataConnectionCount(); ++i) {
        const bool sender = params.isBidir() ? i < params.streams : !params.isReverse();
        const DataStream::Role role = params.kind == TestKind::Rr ? DataStream::Role::RrClient
                                      : sender                    ? DataStream::Role::Sender
                                                                  : DataStream::Role::Receiver;
        streams.add(std::make_unique<DataStream>(streamIdForIndex(i), role, net::Socket()));
    }
    if (!expect(in, proto::TestStart) || !expect(in, proto::TestRunning) || !expect(in, proto::ExchangeResults))
        return 0;

    QJsonObject theirs;
    if (!in.readJson(&theirs, proto::MaxJsonSize, &err) || !streams.applyPeerResults(theirs, &err))
        return 0;
    result.cpu.remoteTotal = proto::toDouble(theirs.value(QStringLiteral("cpu_util_total"))).value_or(0);
    result.cpu.remoteUser = proto::toDouble(theirs.value(QStringLiteral("cpu_util_user"))).value_or(0);
    result.cpu.remoteSystem = proto::toDouble(theirs.value(QStringLiteral("cpu_util_system"))).value_or(0);
    result.cpu.remoteKnown = theirs.contains(QStringLiteral("cpu_util_total"));
    result.receiverCongestion = theirs.value(QStringLiteral("congestion_used")).toString();
    result.peerExtension = theirs.value(QStringLiteral("nicbench")).toObject();
    if (!expect(in, proto::DisplayResults))
        return 0;
    result.params = params;
    result.streams = streams.summaries();
    result.computeStreamFairness();
    if (!result.peerExtension.isEmpty())
        applyRemoteAccounting(result.peerExtension, &result);
    // What the user sees next: the -J document (and a snapshot's copy of it).
    (void)result.toJson();
    return 0;
}

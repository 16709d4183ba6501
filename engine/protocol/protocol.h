// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// iperf3 control-protocol constants and framing (docs/protocol.md has the protocol facts
// this follows).

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <optional>

namespace nb::proto {

enum State : std::int8_t {
    TestStart = 1,
    TestRunning = 2,
    ResultRequest = 3,
    TestEnd = 4,
    StreamBegin = 5,
    StreamRunning = 6,
    StreamEnd = 7,
    AllStreamsEnd = 8,
    ParamExchange = 9,
    CreateStreams = 10,
    ServerTerminate = 11,
    ClientTerminate = 12,
    ExchangeResults = 13,
    DisplayResults = 14,
    IperfStart = 15,
    IperfDone = 16,
    // NicBench extension: our server answers a client that sent the "nicbench" parameter
    // key with this byte and a JSON object before CREATE_STREAMS (docs/protocol.md).
    NicbenchHello = 100,
    AccessDenied = -1,
    ServerError = -2,
};

constexpr int CookieSize = 37;
constexpr quint16 DefaultPort = 5201;
constexpr std::uint32_t DefaultBlockSize = 128 * 1024;
constexpr std::uint32_t MaxBlockSize = 1024 * 1024;
// What a stock iperf3 takes (its MAX_STREAMS); NicBench ends take more (test/parameters.cpp).
constexpr int MaxStreams = 128;
// Largest JSON message we accept from a peer. iperf3's results can be large with many
// streams and server output, so this is generous, but it bounds what a hostile peer can
// make us allocate.
constexpr std::uint32_t MaxJsonSize = 16 * 1024 * 1024;
// What a server reads before it knows anything about the client: the test parameters
// (ours are under 2 KiB; stock iperf3 3.18 itself caps them at 8 KiB, and so do we).
constexpr std::uint32_t MaxParamsJsonSize = 8 * 1024;
// The NicBench hello and the info query's answer: the server's machine with every adapter
// and address (a few KiB; 256 KiB is room for hundreds of adapters).
constexpr std::uint32_t MaxHelloJsonSize = 256 * 1024;
// Keepalive on control connections (both sides): a peer whose machine vanished is noticed
// after KeepAliveIdleSecs + KeepAliveIntervalSecs * KeepAliveProbes (40 s) without traffic.
constexpr int KeepAliveIdleSecs = 20;
constexpr int KeepAliveIntervalSecs = 5;
constexpr int KeepAliveProbes = 4;
// A data connection must show its cookie within this long (or the idle timeout, if
// shorter); until then it waits beside the others without delaying them.
constexpr double DataCookieTimeoutSecs = 5;
// A client's results list each of its streams (about 200 bytes each with iperf3's
// fields): room for 1 KiB per stream above a 64 KiB base, never above MaxJsonSize.
constexpr std::uint32_t resultsJsonLimit(int streams)
{
    const std::uint64_t limit = 64 * 1024 + std::uint64_t(streams > 0 ? streams : 0) * 1024;
    return limit < MaxJsonSize ? std::uint32_t(limit) : MaxJsonSize;
}
// A server's results as the client reads them: the client's allowance plus, for our
// server's extension, its machine (64 KiB) and 1 KiB per CPU interval (a sample is about
// 350 bytes); `intervals` is how many the client took itself (plus the partial last).
constexpr std::uint32_t peerResultsJsonLimit(int streams, int intervals)
{
    const std::uint64_t limit =
        std::uint64_t(resultsJsonLimit(streams)) + 64 * 1024 + std::uint64_t(intervals > 0 ? intervals : 0) * 1024;
    return limit < MaxJsonSize ? std::uint32_t(limit) : MaxJsonSize;
}

// True when the byte is one of the states defined above.
bool isKnownState(std::int8_t state);
// Human-readable name ("TEST_START"), or "unknown state N".
QString stateName(std::int8_t state);

// 36 characters from "abcdefghijklmnopqrstuvwxyz234567" followed by a NUL (37 bytes).
QByteArray makeCookie();
// A cookie received from the wire is valid when it is 37 bytes ending in NUL.
bool isValidCookie(const QByteArray &cookie);

// Length-prefixed (uint32 big-endian) unformatted JSON.
QByteArray frameJson(const QJsonObject &object);

// Incremental decoder for one length-prefixed JSON message.
class JsonFrameDecoder {
public:
    enum class Status { NeedMore, Complete, Error };
    explicit JsonFrameDecoder(std::uint32_t maxSize = MaxJsonSize) : m_maxSize(maxSize) {}
    // Feeds bytes; returns Complete once a whole message is in, Error for an oversized
    // length or text that is not a JSON object. Bytes past the message are left in
    // *consumed's complement (returns how many were used through consumed).
    Status feed(const char *data, std::size_t size, std::size_t *consumed);
    // Bytes still wanted before the message is complete (header first).
    std::size_t bytesWanted() const;
    QJsonObject object() const { return m_object; }
    QString error() const { return m_error; }

private:
    std::uint32_t m_maxSize;
    QByteArray m_header;
    QByteArray m_body;
    std::optional<std::uint32_t> m_length;
    QJsonObject m_object;
    QString m_error;
};

// Integers from iperf3 3.12 print unsigned: -1 arrives as 18446744073709551615. Values at
// or above 2^63 are mapped back to negative numbers. Returns nullopt for non-numbers.
std::optional<std::int64_t> toInt64(const QJsonValue &value);
// Number fields as double (0 when absent is the caller's choice).
std::optional<double> toDouble(const QJsonValue &value);

// iperf3 error numbers (i_errno) that we send in SERVER_ERROR or act on.
enum IperfError : int {
    IeInitTest = 101,   // test initialization failed
    IeRecvCookie = 106, // unable to receive cookie at server
    IeCtrlClose = 109,  // control socket has closed unexpectedly
    IeRecvParams = 114, // unable to receive parameters from client
    // Parameters we cannot run: iperf3 has no number of its own for that, and 3.12's
    // client prints 101 as "test initialization failed", which is what happened.
    IeParams = IeInitTest,
    // What earlier NicBench servers sent for bad parameters (3.12
    // prints it as "unable to receive control message"); the info query still knows it.
    IeParamsEarlier = 112,
    IeTimeout = 144,      // IENOMSG, "idle timeout for receiving data" (--rcv-timeout)
    IeServerBusy = 121,   // the server is busy running a test
    IeAuthTest = 142,     // test authorization failed (IEAUTHTEST; 3.12 sends no errno after it)
    IeInitStream = 201,   // unable to initialize stream
    IeListen = 202,       // unable to start stream listener
    IeStreamAccept = 204, // unable to accept stream connection
    IeStreamWrite = 205,  // unable to write to stream socket (a datagram too large for the path)
    IeStreamRead = 206,   // unable to read from stream socket
    IeStreamId = 208,     // stream has an invalid id
};

// Names of iperf3 error numbers (i_errno) we may see in SERVER_ERROR.
QString iperfErrorText(int iErrno);

} // namespace nb::proto

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Private to datastream.cpp (lifecycle, bulk data, UDP) and datastream_rr.cpp (request/
// response, CRR): what both use, and the CRR server's accepted connection.

#include "datapath/datastream.h"

#include <QString>

#include <cstdint>
#include <list>
#include <memory>

namespace nb {

// Calls one handler makes before it returns to the event loop, so one busy stream cannot
// hold the worker from its others (the poller reports a still-ready socket again).
inline constexpr int Burst = 8;
// Largest read or write of request/response bytes per call.
inline constexpr std::uint64_t RrChunk = 256 * 1024;

// "stream 3", or "connection 3" for request/response: how errors name a stream.
QString streamText(const DataStream &s);

// One connection accepted by a CRR server: read the request, send the response, close.
class DataStream::Exchange : public Pollable {
public:
    Exchange(DataStream &owner, net::Socket socket, std::int64_t start)
        : owner(owner)
        , socket(std::move(socket))
        , start(start)
    {
    }
    void onReady(Worker &w, unsigned ready) override;
    // The request (or, first, the token) is overdue: CrrTimeoutNs, CrrTokenTimeoutNs.
    bool expired(std::int64_t now) const;
    // Dropped before it showed the token: counted, never answered.
    void dropStranger()
    {
        if (rxHave < std::uint64_t(owner.m_config.crrToken.size()))
            owner.m_strangers.fetch_add(1, std::memory_order_relaxed);
        done();
    }
    void done() { owner.m_exchanges.erase(self); } // deletes this
    // Registers with the poller (first wait) or changes what it waits for; may call done().
    void wait(Worker &w, unsigned wanted);

    DataStream &owner;
    net::Socket socket;
    std::int64_t start;
    std::list<std::unique_ptr<Exchange>>::iterator self;
    std::uint64_t rxHave = 0;
    std::uint64_t txPending = 0;
    unsigned interest = 0;
};

} // namespace nb

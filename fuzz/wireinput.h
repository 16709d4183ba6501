// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A fuzz input read as the bytes a peer sends on the control connection, in the order the
// real code reads them: state bytes, fixed-size fields, and length-prefixed JSON frames
// decoded by proto::JsonFrameDecoder exactly as proto::readJson feeds it (the 4-byte
// header, then the body in chunks of at most 64 KiB). Running out of input is the peer
// hanging up.

#include "protocol/protocol.h"

#include <QJsonObject>
#include <QString>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace nb::fuzz {

class WireInput {
public:
    WireInput(const std::uint8_t *data, std::size_t size) : m_data(data), m_size(size) {}

    bool atEnd() const { return m_pos >= m_size; }

    // Like ControlChannel::readBytes: all `size` bytes or nothing.
    bool take(void *out, std::size_t size)
    {
        if (m_size - m_pos < size)
            return false;
        std::copy_n(m_data + m_pos, size, static_cast<std::uint8_t *>(out));
        m_pos += size;
        return true;
    }

    bool readState(std::int8_t *state)
    {
        char c = 0;
        if (!take(&c, 1))
            return false;
        *state = std::int8_t(c);
        return true;
    }

    // The loop of proto::readJson without the socket.
    bool readJson(QJsonObject *object, std::uint32_t maxSize, QString *error)
    {
        proto::JsonFrameDecoder decoder(maxSize);
        for (;;) {
            const std::size_t want = std::min<std::size_t>(decoder.bytesWanted(), 65536);
            if (m_size - m_pos < want) {
                *error = QStringLiteral("peer closed the connection");
                return false;
            }
            std::size_t used = 0;
            const auto status = decoder.feed(reinterpret_cast<const char *>(m_data + m_pos), want, &used);
            m_pos += want;
            switch (status) {
            case proto::JsonFrameDecoder::Status::NeedMore:
                continue;
            case proto::JsonFrameDecoder::Status::Complete:
                *object = decoder.object();
                return true;
            case proto::JsonFrameDecoder::Status::Error:
                *error = decoder.error();
                return false;
            }
        }
    }

private:
    const std::uint8_t *m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
};

} // namespace nb::fuzz

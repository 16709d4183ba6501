// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The agent key file (--agent-key): the secret an agent and its controllers share
// (docs/protocol.md §6). Both ends read it the same way.

#include <QByteArray>
#include <QString>

namespace nb {

// Fewer bytes than this are refused: the key must not be guessable offline from one
// recorded handshake.
constexpr int MinAgentKeyBytes = 16;
// A larger file is not a key file (and is not read whole).
constexpr int MaxAgentKeyFileBytes = 4096;

// The secret is the file's bytes with the white space around them taken off (a key made
// with `head -c 32 /dev/urandom | base64 > FILE` ends in a newline). False with one line in
// *error for a file that cannot be read, that every user may read, that is too large or
// that holds fewer than MinAgentKeyBytes.
bool loadAgentKey(const QString &path, QByteArray *secret, QString *error);

} // namespace nb

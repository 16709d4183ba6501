// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/auth.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QList>

#include <algorithm>
#include <cctype>
#include <mutex>

#ifdef NICBENCH_HAVE_OPENSSL
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#endif

namespace nb::proto::auth {

#ifdef NICBENCH_HAVE_OPENSSL
namespace {

// Reads a whole file of at most maxSize bytes; the size is checked before anything is read.
bool readSmallFile(const QString &path, qsizetype maxSize, const char *what, QByteArray *out, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the %1 %2: %3").arg(QLatin1String(what), path, f.errorString());
        return false;
    }
    if (f.size() > maxSize) {
        *error = QStringLiteral("the %1 %2 is larger than %3 bytes").arg(QLatin1String(what), path).arg(maxSize);
        return false;
    }
    *out = f.read(maxSize + 1);
    if (out->size() > maxSize) { // a file that grew, or one with no size (a pipe)
        *error = QStringLiteral("the %1 %2 is larger than %3 bytes").arg(QLatin1String(what), path).arg(maxSize);
        return false;
    }
    return true;
}

// Compares without an early exit, so the time taken does not say how much of a hash matched.
bool equalConstantTime(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}

// The hash the users file lists for user (lower case), or an empty array when the user is
// not there. Lines: "user,sha256hex"; lines starting with '#' and blank lines are skipped.
QByteArray hashOfUser(QByteArray file, const QByteArray &user)
{
    if (file.startsWith("\xEF\xBB\xBF"))
        file.remove(0, 3); // a UTF-8 byte order mark (Windows editors): not part of the first name
    for (const QByteArray &raw : file.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype comma = line.indexOf(',');
        if (comma < 0)
            continue;
        if (line.left(comma).trimmed() == user)
            return line.mid(comma + 1).trimmed().toLower();
    }
    return {};
}

// What is wrong with a users file, for the server's start-up warning: a byte order mark
// (ignored), lines that are not "user,sha256hex" (skipped when users are looked up).
QString usersFileProblems(const QByteArray &file)
{
    QStringList problems;
    if (file.startsWith("\xEF\xBB\xBF"))
        problems.append(QStringLiteral("it starts with a byte order mark (ignored)"));
    QStringList bad;
    const QList<QByteArray> lines = file.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QByteArray line = lines[i].trimmed();
        if (i == 0 && line.startsWith("\xEF\xBB\xBF"))
            line = line.mid(3).trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype comma = line.indexOf(',');
        const QByteArray hash = comma < 0 ? QByteArray() : line.mid(comma + 1).trimmed();
        const bool hex = hash.size() == 64 && std::all_of(hash.cbegin(), hash.cend(), [](char c) {
                             return std::isxdigit(static_cast<unsigned char>(c)) != 0;
                         });
        if (comma <= 0 || !hex)
            bad.append(QString::number(i + 1));
    }
    if (!bad.isEmpty())
        problems.append(QStringLiteral("line%1 %2 %3 not USER,SHA256HEX (skipped)")
                            .arg(bad.size() == 1 ? QString() : QStringLiteral("s"),
                                 QStringList(bad.mid(0, 10)).join(QStringLiteral(", ")) +
                                     (bad.size() > 10 ? QStringLiteral(", ...") : QString()),
                                 bad.size() == 1 ? QStringLiteral("is") : QStringLiteral("are")));
    return problems.join(QStringLiteral("; "));
}

bool checkCredentialText(const QString &user, const QString &password, QString *error)
{
    if (user.isEmpty()) {
        *error = QStringLiteral("--username is empty");
        return false;
    }
    for (const QString *s : {&user, &password}) {
        if (s->contains(QLatin1Char('\n')) || s->contains(QLatin1Char('\r')) || s->contains(QChar(0))) {
            *error = QStringLiteral("the user name and password must be one line each");
            return false;
        }
        if (s->toUtf8().size() > MaxCredentialSize) {
            *error = QStringLiteral("the user name or password is longer than %1 bytes").arg(MaxCredentialSize);
            return false;
        }
    }
    return true;
}

// A peer's user name as the server's log may show it: printable, at most 64 characters.
QString loggableName(const QByteArray &name)
{
    QString s = QString::fromUtf8(name).left(64);
    for (QChar &c : s)
        if (!c.isPrint())
            c = QLatin1Char('?');
    return s;
}

} // namespace
#endif

QString noAuthMessage()
{
    return QStringLiteral("this build has no authentication (built without OpenSSL)");
}

QString passwordHash(const QString &user, const QString &password)
{
    const QByteArray text = QByteArray("{") + user.toUtf8() + QByteArray("}") + password.toUtf8();
    return QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex());
}

QByteArray credentialsText(const QString &user, const QString &password, std::int64_t unixSeconds)
{
    // The spacing is iperf3's: the three values line up in column 7.
    return QByteArray("user: ") + user.toUtf8() + QByteArray("\npwd:  ") + password.toUtf8() + QByteArray("\nts:   ") +
           QByteArray::number(qint64(unixSeconds));
}

#ifdef NICBENCH_HAVE_OPENSSL

namespace {

struct PkeyFree {
    void operator()(EVP_PKEY *k) const { EVP_PKEY_free(k); }
};
struct CtxFree {
    void operator()(EVP_PKEY_CTX *c) const { EVP_PKEY_CTX_free(c); }
};
struct BioFree {
    void operator()(BIO *b) const { BIO_free(b); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using Ctx = std::unique_ptr<EVP_PKEY_CTX, CtxFree>;
using Bio = std::unique_ptr<BIO, BioFree>;

// The last OpenSSL error as text, and the queue emptied so the next call starts clean.
QString opensslError()
{
    const unsigned long e = ERR_peek_last_error();
    char buf[256] = {};
    if (e)
        ERR_error_string_n(e, buf, sizeof buf);
    ERR_clear_error();
    return e ? QString::fromLatin1(buf) : QStringLiteral("unknown OpenSSL error");
}

// A passphrase-protected key is refused rather than prompted for (iperf3 also wants none).
int noPassphrase(char *, int, int, void *)
{
    return -1;
}

Pkey readKey(const QString &path, bool isPrivate, QString *error)
{
    QByteArray pem;
    const char *what = isPrivate ? "RSA private key" : "RSA public key";
    if (!readSmallFile(path, MaxKeyFileSize, what, &pem, error))
        return {};
    Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    if (!bio) {
        *error = opensslError();
        return {};
    }
    Pkey key(isPrivate ? PEM_read_bio_PrivateKey(bio.get(), nullptr, noPassphrase, nullptr)
                       : PEM_read_bio_PUBKEY(bio.get(), nullptr, noPassphrase, nullptr));
    if (!key) {
        *error = QStringLiteral("%1 is no %2 in PEM form%3: %4")
                     .arg(path, QLatin1String(what),
                          isPrivate ? QStringLiteral(" without a passphrase") : QStringLiteral(" (BEGIN PUBLIC KEY)"),
                          opensslError());
        return {};
    }
    if (EVP_PKEY_get_base_id(key.get()) != EVP_PKEY_RSA) {
        *error = QStringLiteral("%1 holds a key that is not RSA").arg(path);
        return {};
    }
    return key;
}

} // namespace

bool available()
{
    return true;
}

QString makeToken(const QString &user, const QString &password, const QString &publicKeyPath, std::int64_t unixSeconds,
                  QString *error)
{
    if (!checkCredentialText(user, password, error))
        return {};
    const Pkey key = readKey(publicKeyPath, false, error);
    if (!key)
        return {};
    const QByteArray plain = credentialsText(user, password, unixSeconds);
    // PKCS#1 v1.5 takes 11 bytes of the block for its padding.
    if (plain.size() > EVP_PKEY_get_size(key.get()) - 11) {
        *error = QStringLiteral("the user name and password are too long for the %1-bit key in %2")
                     .arg(EVP_PKEY_get_bits(key.get()))
                     .arg(publicKeyPath);
        return {};
    }
    const Ctx ctx(EVP_PKEY_CTX_new(key.get(), nullptr));
    std::size_t size = 0;
    const auto *in = reinterpret_cast<const unsigned char *>(plain.constData());
    if (!ctx || EVP_PKEY_encrypt_init(ctx.get()) <= 0 ||
        EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_PADDING) <= 0 ||
        EVP_PKEY_encrypt(ctx.get(), nullptr, &size, in, std::size_t(plain.size())) <= 0) {
        *error = QStringLiteral("cannot encrypt the credentials: %1").arg(opensslError());
        return {};
    }
    QByteArray out(qsizetype(size), '\0');
    if (EVP_PKEY_encrypt(ctx.get(), reinterpret_cast<unsigned char *>(out.data()), &size, in,
                         std::size_t(plain.size())) <= 0) {
        *error = QStringLiteral("cannot encrypt the credentials: %1").arg(opensslError());
        return {};
    }
    out.resize(qsizetype(size));
    return QString::fromLatin1(out.toBase64());
}

struct Authenticator::Impl {
    Pkey key;
    QString usersPath;
    int skew = DefaultSkewSeconds;
    // When load() ran: a token made before it was made for an earlier run of the server,
    // whose record of tokens seen is gone (a replay after a restart).
    std::int64_t startedSecs = 0;
    // Tokens accepted within the skew window (sha256 of the ciphertext -> their time): a
    // token seen once is refused when replayed, which iperf3 does not check.
    mutable std::mutex mutex;
    mutable QHash<QByteArray, std::int64_t> seen;

    // iperf3 up to 3.16 pads with PKCS#1 v1.5 (what Debian 12's 3.12 sends); 3.17 and later
    // use OAEP unless given --use-pkcs1-padding. The server takes either; every failure
    // gets the same answer on the wire.
    bool decrypt(const QByteArray &cipher, QByteArray *plain, QString *reason) const
    {
        return decryptWith(RSA_PKCS1_OAEP_PADDING, cipher, plain, reason) ||
               decryptWith(RSA_PKCS1_PADDING, cipher, plain, reason);
    }
    bool decryptWith(int padding, const QByteArray &cipher, QByteArray *plain, QString *reason) const
    {
        const Ctx ctx(EVP_PKEY_CTX_new(key.get(), nullptr));
        std::size_t size = 0;
        const auto *in = reinterpret_cast<const unsigned char *>(cipher.constData());
        if (!ctx || EVP_PKEY_decrypt_init(ctx.get()) <= 0 || EVP_PKEY_CTX_set_rsa_padding(ctx.get(), padding) <= 0 ||
            EVP_PKEY_decrypt(ctx.get(), nullptr, &size, in, std::size_t(cipher.size())) <= 0) {
            *reason = QStringLiteral("the token does not decrypt: %1").arg(opensslError());
            return false;
        }
        plain->resize(qsizetype(size));
        if (EVP_PKEY_decrypt(ctx.get(), reinterpret_cast<unsigned char *>(plain->data()), &size, in,
                             std::size_t(cipher.size())) <= 0) {
            *reason = QStringLiteral("the token does not decrypt: %1").arg(opensslError());
            return false;
        }
        plain->resize(qsizetype(size));
        return true;
    }
};

Authenticator::Authenticator() : d(std::make_unique<Impl>()) {}
Authenticator::~Authenticator() = default;

bool Authenticator::load(const QString &privateKeyPath, const QString &usersPath, int skewSeconds, QString *error,
                         QString *warning)
{
    Pkey key = readKey(privateKeyPath, true, error);
    if (!key)
        return false;
    QByteArray users;
    if (!readSmallFile(usersPath, MaxUsersFileSize, "authorized users file", &users, error))
        return false;
    const QFile::Permissions open = QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther;
    QStringList warnings;
    if (QFileInfo(privateKeyPath).permissions() & open)
        warnings.append(QStringLiteral("warning: the private key %1 can be read by other users (chmod 600 it)")
                            .arg(privateKeyPath));
    if (const QString problems = usersFileProblems(users); !problems.isEmpty())
        warnings.append(QStringLiteral("warning: the authorized users file %1: %2").arg(usersPath, problems));
    *warning = warnings.join(QLatin1Char('\n'));
    d->startedSecs = QDateTime::currentSecsSinceEpoch();
    d->key = std::move(key);
    d->usersPath = usersPath;
    d->skew = skewSeconds;
    return true;
}

bool Authenticator::enabled() const
{
    return bool(d->key);
}

bool Authenticator::check(const QJsonValue &token, std::int64_t now, QString *user, QString *reason) const
{
    if (!d->key) {
        *reason = QStringLiteral("no key loaded");
        return false;
    }
    if (!token.isString()) {
        *reason = token.isUndefined() || token.isNull() ? QStringLiteral("the client sent no credentials")
                                                        : QStringLiteral("the authtoken is not a string");
        return false;
    }
    const QString text = token.toString();
    if (text.size() > MaxTokenSize) {
        *reason = QStringLiteral("the authtoken is longer than %1 characters").arg(MaxTokenSize);
        return false;
    }
    const auto decoded = QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() != EVP_PKEY_get_size(d->key.get())) {
        *reason = QStringLiteral("the authtoken is not base64 of one RSA block");
        return false;
    }
    QByteArray plain;
    if (!d->decrypt(decoded.decoded, &plain, reason))
        return false;
    while (plain.endsWith('\0'))
        plain.chop(1);
    // Exactly the three lines credentialsText() writes.
    const QList<QByteArray> lines = plain.split('\n');
    if (lines.size() != 3 || !lines[0].startsWith("user: ") || !lines[1].startsWith("pwd:  ") ||
        !lines[2].startsWith("ts:   ")) {
        *reason = QStringLiteral("the credentials are not in iperf3's form");
        return false;
    }
    const QByteArray name = lines[0].mid(6);
    const QByteArray password = lines[1].mid(6);
    bool numeric = false;
    const qint64 ts = lines[2].mid(6).trimmed().toLongLong(&numeric);
    *user = loggableName(name);
    if (!numeric) {
        *reason = QStringLiteral("the credentials carry no time");
        return false;
    }
    if (ts < now - d->skew || ts > now + d->skew) {
        *reason = QStringLiteral("the credentials' time is %1 s from this server's clock (at most %2 s allowed)")
                      .arg(ts - now)
                      .arg(d->skew);
        return false;
    }
    if (ts < d->startedSecs) {
        *reason = QStringLiteral("the credentials were made %1 s before this server started (a replay?)")
                      .arg(d->startedSecs - ts);
        return false;
    }
    QByteArray users;
    if (!readSmallFile(d->usersPath, MaxUsersFileSize, "authorized users file", &users, reason))
        return false;
    const QByteArray expected = hashOfUser(users, name);
    const QByteArray given =
        QCryptographicHash::hash(QByteArray("{") + name + QByteArray("}") + password, QCryptographicHash::Sha256)
            .toHex();
    // The comparison runs for unknown users too, so both take the same time.
    const bool match = equalConstantTime(given, expected.isEmpty() ? QByteArray(given.size(), 'x') : expected);
    if (expected.isEmpty() || !match) {
        *reason = expected.isEmpty() ? QStringLiteral("unknown user") : QStringLiteral("wrong password");
        return false;
    }
    const QByteArray fingerprint = QCryptographicHash::hash(decoded.decoded, QCryptographicHash::Sha256);
    const std::lock_guard lock(d->mutex);
    for (auto it = d->seen.begin(); it != d->seen.end();)
        it = (it.value() < now - d->skew || it.value() > now + d->skew) ? d->seen.erase(it) : std::next(it);
    if (d->seen.contains(fingerprint)) {
        *reason = QStringLiteral("the same token was used before (a replay)");
        return false;
    }
    d->seen.insert(fingerprint, ts);
    return true;
}

#else // no OpenSSL: the same interface, refusing every use

struct Authenticator::Impl {};

bool available()
{
    return false;
}

QString makeToken(const QString &, const QString &, const QString &, std::int64_t, QString *error)
{
    *error = noAuthMessage();
    return {};
}

Authenticator::Authenticator() : d(std::make_unique<Impl>()) {}
Authenticator::~Authenticator() = default;

bool Authenticator::load(const QString &, const QString &, int, QString *error, QString *)
{
    *error = noAuthMessage();
    return false;
}

bool Authenticator::enabled() const
{
    return false;
}

bool Authenticator::check(const QJsonValue &, std::int64_t, QString *, QString *reason) const
{
    *reason = noAuthMessage();
    return false;
}

#endif

} // namespace nb::proto::auth

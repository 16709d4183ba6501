// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Comparison specs (docs/compare-spec.md): the small JSON file, or "LABEL=ARGS" flags,
// that describe a comparison's configurations by their client flags. Shared by
// `nicbench-cli compare` and the window's `nicbench --compare SPEC`.

#include "compare/comparison.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace nb {

// A spec document. On failure *error names the offending field.
bool comparisonFromSpec(const QByteArray &specJson, Comparison *out, QString *error);
// A spec file: "<path>: <reason>" on failure; files over 16 MiB are refused unread.
bool comparisonFromSpecFile(const QString &path, Comparison *out, QString *error);
// "LABEL=ARGS" as given to --config.
bool configurationFromFlag(const QString &flag, Configuration *out, QString *error);
// Client flags (`-c HOST ...`, session/commandline.h) as a configuration's parameters;
// `label` names the configuration in the error. With `from`, --from (and --agent-key) are
// taken and it receives them with the options as given; without, --from is refused.
bool paramsFromArgs(const QStringList &args, const QString &label, TestParams *out, QString *error,
                    AgentFrom *from = nullptr);
// A baseline given as a configuration label or an index.
bool resolveBaseline(const QString &text, const Comparison &comparison, int *out, QString *error);

} // namespace nb

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A mesh (nicbench-cli mesh, README "Meshes"): the same test between every chosen ordered
// pair of agents, each pair run on its source agent toward its destination, driven from
// this computer. A mesh is a comparison whose configurations are the pairs (each with its
// AgentFrom), so it runs, repeats, is saved and reopened as any comparison is; meshmatrix.h
// turns it into the sources x destinations grid.

#include "compare/comparison.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

namespace nb {

// One agent of a mesh: the host as given and its server port (the port its tests and its
// controllers use alike).
struct MeshHost {
    QString host;
    quint16 port = 5201;
    QString text() const; // "198.18.0.2" when on 5201, else "198.18.0.2:5300"
    bool operator==(const MeshHost &) const = default;
};

// Which ordered pairs run: every one (n(n-1)), or a ring (each host toward the next,
// the last toward the first: n).
enum class MeshPairs { All, Ring };
QString meshPairsName(MeshPairs p); // "all", "ring"
bool meshPairsFromName(const QString &name, MeshPairs *out);

// The pairs (source, destination) as indices into the host list, in run order: by source,
// then destination.
QList<std::pair<int, int>> meshPairs(int hostCount, MeshPairs pairs);
// At most this many hosts in one mesh (a full mesh of them is 999,000 pairs already).
constexpr int MaxMeshHosts = 1000;

// "A,B:5300,[fd00::3]" (commas or white space; a file's lines; '#' starts a comment to the
// end of its line) as hosts. Repeats are an
// error, as are more than MaxMeshHosts and fewer than 2.
bool meshHostsFromText(const QString &text, QList<MeshHost> *out, QString *error);

// The hosts of a DNS name, NAME[:PORT]: each of its A and AAAA records (a Kubernetes headless
// service's pods) on the name's port. False with a one-line *error naming the name.
bool meshHostsFromDns(const QString &name, QList<MeshHost> *out, QString *error);

// The mesh as a comparison: one configuration per pair, labelled "A -> B" (adapter: the
// source, variant: "to B"), each with the test flags (client flags without -c, -p, --from
// and --agent-key, which the mesh gives) toward the destination, run on the source.
bool meshComparison(const QList<MeshHost> &hosts, MeshPairs pairs, const QStringList &testFlags, Comparison *out,
                    QString *error);

// Groups of pairs that share no host, in the order given, each pair in the first group it
// fits: what `--parallel disjoint` runs at once.
QList<QList<int>> disjointGroups(const QList<std::pair<int, int>> &pairs);

} // namespace nb

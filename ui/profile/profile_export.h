// A profile (or comparison) as CSV and JSON files: the same fields as
// `passlab-cli profile --json/--csv`, one row per node or per node group.
#pragma once

#include <QByteArray>
#include <QJsonObject>

#include "ui/profile/profile_runner.h"

namespace passlab::ui {

QJsonObject profileToJson(const ProfileOutcome& o);
QByteArray profileToCsv(const ProfileOutcome& o);

}  // namespace passlab::ui

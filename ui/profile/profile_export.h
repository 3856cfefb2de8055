// A profile (or comparison) as CSV and JSON files: core's serializer
// (core/pipeline/profile_json.h), the one `passlab-cli profile --json/--csv`
// writes with, one row per node or per node group.
#pragma once

#include <QByteArray>
#include <QJsonObject>

#include "ui/profile/profile_runner.h"

namespace passlab::ui {

QJsonObject profileToJson(const ProfileOutcome& o);
QByteArray profileToCsv(const ProfileOutcome& o);

}  // namespace passlab::ui

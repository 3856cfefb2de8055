#include "ui/profile/profile_export.h"

#include <QJsonDocument>

#include "core/pipeline/profile_json.h"

namespace passlab::ui {

QJsonObject profileToJson(const ProfileOutcome& o) {
  const std::string json =
      o.compare ? pipeline::compareToJson(o.comparison) : pipeline::profileToJson(o.profile);
  return QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
}

QByteArray profileToCsv(const ProfileOutcome& o) {
  return QByteArray::fromStdString(o.compare ? pipeline::compareToCsv(o.comparison)
                                             : pipeline::profileToCsv(o.profile));
}

}  // namespace passlab::ui

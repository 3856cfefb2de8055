// Settings, one typed line each (Tiled's preferences pattern), stored with
// QSettings under the application's organisation and name.
#pragma once

#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>

#include "ui/graphview/view_settings.h"

namespace passlab::ui {

template <class T>
class Setting {
 public:
  Setting(const char* key, T fallback) : key_(key), fallback_(std::move(fallback)) {}
  T get() const {
    return QSettings()
        .value(QLatin1String(key_), QVariant::fromValue(fallback_))
        .template value<T>();
  }
  void set(const T& v) const { QSettings().setValue(QLatin1String(key_), QVariant::fromValue(v)); }
  const char* key() const { return key_; }

 private:
  const char* key_;
  T fallback_;
};

struct Settings {
  // "" follows the system locale; else "en" or "zh_CN".
  static inline const Setting<QString> language{"ui/language", QString()};
  static inline const Setting<QStringList> recentFiles{"files/recent", QStringList()};
  static inline const Setting<QString> lastDirectory{"files/lastDirectory", QString()};
  static inline const Setting<int> layoutTimeoutSeconds{"layout/timeoutSeconds", 20};
  static inline const Setting<int> groupingThreshold{"layout/groupingThreshold", 400};
  static inline const Setting<int> boxBudget{"layout/boxBudget", 150};
  static inline const Setting<bool> useGraphviz{"layout/useGraphviz", true};
  static inline const Setting<QString> layoutHelper{"layout/helperPath", QString()};
  static inline const Setting<bool> edgeLabels{"view/edgeLabels", true};
  static inline const Setting<bool> minimap{"view/minimap", true};
  static inline const Setting<bool> fitOnOpen{"view/fitOnOpen", false};
  static inline const Setting<QByteArray> windowState{"window/state", QByteArray()};
  static inline const Setting<QByteArray> windowGeometry{"window/geometry", QByteArray()};

  static constexpr int kMaxRecentFiles = 10;
  // Puts `path` first in the recent files (no duplicates, at most kMaxRecentFiles).
  static void addRecentFile(const QString& path);
  static ViewSettings view();
  static void setView(const ViewSettings& v);
};

}  // namespace passlab::ui

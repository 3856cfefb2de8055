// The window's actions as one table of specs: each row says an action's text,
// status tip, shortcut, what it does and when it is enabled, so creating,
// retranslating and enabling them are one loop each instead of a member and
// three statements per action.
#pragma once

#include <QKeySequence>

#include <array>
#include <functional>
#include <vector>

class QAction;
class QObject;
class QString;

namespace passlab::ui {

enum class ActionId {
  kOpen,
  kSaveAs,
  kExportSvg,
  kExportPng,
  kExportRecipe,
  kLoadRecipe,
  kExportReport,
  kStep,
  kRunAll,
  kReset,
  kCancelRun,
  kLimitToSelection,
  kExcludeSelection,
  kClearNodeFilter,
  kProfile,
  kProfileCompare,
  kHeatOverlay,
  kMemoryTimeline,
  kQuit,
  kUndo,
  kRedo,
  kFind,
  kFindNext,
  kFindPrevious,
  kSettings,
  kFit,
  kZoomIn,
  kZoomOut,
  kActualSize,
  kExpandAll,
  kCollapseAll,
  kRelayout,
  kEdgeLabels,
  kMinimap,
  kAbout,
  kClearRecent,
  kShowLessons,
  kOpenLessonsFolder,
  kCheckPrediction,
  kCount
};

struct ActionSpec {
  ActionId id;
  const char* text;                 // source text, translated by the owner's tr()
  const char* statusTip = nullptr;  // likewise; null: none
  QKeySequence shortcut = {};
  std::function<void(bool checked)> trigger = {};
  std::function<bool()> enabled = {};  // empty: always enabled
  bool checkable = false;
  std::function<QAction*()> create = {};  // empty: a plain QAction of the owner
};

class ActionTable {
 public:
  // Creates every action of `specs` (one per ActionId) as children of `owner`.
  ActionTable(QObject* owner, std::vector<ActionSpec> specs);

  QAction* operator[](ActionId id) const { return actions_[static_cast<size_t>(id)]; }
  // Sets texts and status tips through `translate` (the owner's tr()).
  void retranslate(const std::function<QString(const char*)>& translate) const;
  // Enables each action whose spec has a rule by that rule.
  void updateEnabled() const;

 private:
  std::vector<ActionSpec> specs_;
  std::array<QAction*, static_cast<size_t>(ActionId::kCount)> actions_{};
};

}  // namespace passlab::ui

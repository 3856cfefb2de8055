#include "ui/mainwindow/action_table.h"

#include <QAction>
#include <QString>

#include <stdexcept>

namespace passlab::ui {

ActionTable::ActionTable(QObject* owner, std::vector<ActionSpec> specs) : specs_(std::move(specs)) {
  for (const ActionSpec& spec : specs_) {
    QAction*& slot = actions_[static_cast<size_t>(spec.id)];
    if (slot != nullptr) throw std::logic_error("ActionTable: an action id listed twice");
    slot = spec.create ? spec.create() : new QAction(owner);
    if (!spec.shortcut.isEmpty()) slot->setShortcut(spec.shortcut);
    slot->setCheckable(spec.checkable);
    if (spec.trigger) QObject::connect(slot, &QAction::triggered, owner, spec.trigger);
  }
  for (QAction* a : actions_)
    if (a == nullptr) throw std::logic_error("ActionTable: an action id without a spec");
}

void ActionTable::retranslate(const std::function<QString(const char*)>& translate) const {
  for (const ActionSpec& spec : specs_) {
    QAction* a = (*this)[spec.id];
    a->setText(translate(spec.text));
    if (spec.statusTip != nullptr) a->setStatusTip(translate(spec.statusTip));
  }
}

void ActionTable::updateEnabled() const {
  for (const ActionSpec& spec : specs_)
    if (spec.enabled) (*this)[spec.id]->setEnabled(spec.enabled());
}

}  // namespace passlab::ui

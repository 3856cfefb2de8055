// Helpers shared by the QtTest suites.
#pragma once

#include <QString>

#include <memory>
#include <optional>

#include "core/ir/model.h"

namespace passlab::ui::testing {

// Settings go to a fresh temporary folder, never the user's.
void isolateSettings();
// A bundled demo, parsed ("cnn_block" -> ":/demos/cnn_block.txt").
std::unique_ptr<ir::Model> demo(const QString& name);
// A corpus model by file name, or nullopt when the corpus (or the file) is absent.
std::optional<QString> corpusModel(const QString& fileName);
// A temporary folder for this process.
QString tempDir();
// A model of `layers` repeated blocks with scoped names (8 nodes per layer).
std::unique_ptr<ir::Model> scopedLayers(int layers);
// A shell script standing in for the layout helper.
QString fakeHelper(const QString& body);

}  // namespace passlab::ui::testing

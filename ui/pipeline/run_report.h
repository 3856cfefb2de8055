// The report of a pipeline run as one self-contained HTML page: totals, the
// Timeline as a table, then per Step tables of op counts, the nodes it made
// (with the original nodes they stand for), the nodes it removed and the near
// misses of its patterns. Labels follow the interface language.
#pragma once

#include <QString>

#include "ui/pipeline/pipeline_session.h"

namespace passlab::ui {

QString htmlReport(const PipelineSession& session, const QString& modelName);

}  // namespace passlab::ui

#include "ui/pipeline/run_report.h"

#include <QCoreApplication>
#include <QDateTime>

#include <map>
#include <set>

#include "ui/i18n/core_text.h"
#include "ui/pipeline/timeline_model.h"

namespace passlab::ui {

namespace {

struct RunReport {
  Q_DECLARE_TR_FUNCTIONS(RunReport)
};

QString esc(const std::string& s) {
  return QString::fromStdString(s).toHtmlEscaped();
}

QString bytes(uint64_t b) {
  if (b >= (1u << 20))
    return QStringLiteral("%1 MiB").arg(static_cast<double>(b) / (1 << 20), 0, 'f', 2);
  if (b >= 1024) return QStringLiteral("%1 KiB").arg(static_cast<double>(b) / 1024, 0, 'f', 1);
  return QStringLiteral("%1 B").arg(b);
}

const ir::Node* nodeIn(const std::shared_ptr<const ir::Model>& m, ir::NodeId id) {
  return m ? ir::findNodeRecursive(m->graph(), id) : nullptr;
}

constexpr int kListed = 50;  // rows per table before "and N more"

}  // namespace

QString htmlReport(const PipelineSession& session, const QString& modelName) {
  const auto& steps = session.steps();
  QString h;
  h += QStringLiteral(
           "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>\n<style>"
           "body{font-family:sans-serif;margin:2em;color:#222}"
           "table{border-collapse:collapse;margin:.5em 0 1.5em}"
           "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}"
           "th{background:#f3f3f3}td.n{text-align:right}.fail{color:#c5221f}.quiet{color:#888}"
           "h2{margin-top:1.5em}</style></head><body>\n")
           .arg(RunReport::tr("PassLab report: %1").arg(modelName).toHtmlEscaped());
  h += QStringLiteral("<h1>%1</h1>\n")
           .arg(RunReport::tr("PassLab report: %1").arg(modelName).toHtmlEscaped());
  h += QStringLiteral("<p>%1</p>\n")
           .arg(RunReport::tr("PassLab %1, %2")
                    .arg(QStringLiteral(PASSLAB_VERSION),
                         QDateTime::currentDateTime().toString(Qt::ISODate))
                    .toHtmlEscaped());
  if (steps.empty()) {
    h += QStringLiteral("<p>%1</p></body></html>\n")
             .arg(RunReport::tr("No pass has run.").toHtmlEscaped());
    return h;
  }
  const pipeline::Step& first = steps.front()->step;
  const pipeline::Step& last = steps.back()->step;
  double ms = 0;
  for (const auto& s : steps) ms += s->step.milliseconds;
  h += QStringLiteral("<table><tr><th></th><th>%1</th><th>%2</th></tr>\n")
           .arg(RunReport::tr("before").toHtmlEscaped(), RunReport::tr("after").toHtmlEscaped());
  h += QStringLiteral("<tr><td>%1</td><td class=n>%2</td><td class=n>%3</td></tr>\n")
           .arg(RunReport::tr("nodes").toHtmlEscaped())
           .arg(first.before.nodes)
           .arg(last.after.nodes);
  h += QStringLiteral("<tr><td>%1</td><td class=n>%2</td><td class=n>%3</td></tr>\n")
           .arg(RunReport::tr("initializers").toHtmlEscaped())
           .arg(first.before.initializers)
           .arg(last.after.initializers);
  h += QStringLiteral("<tr><td>%1</td><td class=n>%2</td><td class=n>%3</td></tr></table>\n")
           .arg(RunReport::tr("weights").toHtmlEscaped(), bytes(first.before.initializerBytes),
                bytes(last.after.initializerBytes));
  h += QStringLiteral("<p>%1</p>\n")
           .arg(RunReport::tr("%1 steps in %2 ms")
                    .arg(steps.size())
                    .arg(ms, 0, 'f', 1)
                    .toHtmlEscaped());

  // The Timeline.
  h += QStringLiteral("<h2>%1</h2>\n<table><tr>").arg(RunReport::tr("Timeline").toHtmlEscaped());
  static const char* const kColumns[] = {
      QT_TRANSLATE_NOOP("RunReport", "#"),         QT_TRANSLATE_NOOP("RunReport", "pass"),
      QT_TRANSLATE_NOOP("RunReport", "nodes"),     QT_TRANSLATE_NOOP("RunReport", "changes"),
      QT_TRANSLATE_NOOP("RunReport", "time (ms)"), QT_TRANSLATE_NOOP("RunReport", "check")};
  for (const char* c : kColumns)
    h += QStringLiteral("<th>%1</th>").arg(RunReport::tr(c).toHtmlEscaped());
  h += QStringLiteral("</tr>\n");
  for (size_t k = 0; k < steps.size(); ++k) {
    const pipeline::Step& s = steps[k]->step;
    const bool failed = s.rolledBack || (s.check.ran && !s.check.passed);
    QString changes = s.rolledBack ? RunReport::tr("rolled back: %1").arg(trCore(s.error))
                      : s.skipped  ? trCore(s.note)
                      : !s.changed ? RunReport::tr("no change")
                                   : changesText(s.summary);
    h += QStringLiteral(
             "<tr class=\"%1\"><td class=n><a href=\"#step%2\">%2</a></td><td>%3</td>"
             "<td class=n>%4 → %5</td><td>%6</td><td class=n>%7</td><td>%8</td></tr>\n")
             .arg(failed       ? QStringLiteral("fail")
                  : !s.changed ? QStringLiteral("quiet")
                               : QString())
             .arg(k + 1)
             .arg(esc(s.passId))
             .arg(s.before.nodes)
             .arg(s.after.nodes)
             .arg(changes.toHtmlEscaped())
             .arg(s.milliseconds, 0, 'f', 1)
             .arg(checkText(s).toHtmlEscaped());
  }
  h += QStringLiteral("</table>\n");

  // One section per Step that did something.
  const auto& original = steps.front()->before;
  for (size_t k = 0; k < steps.size(); ++k) {
    const AppliedStep& a = *steps[k];
    const pipeline::Step& s = a.step;
    if (!s.changed && s.explain.size() == 0) continue;
    h += QStringLiteral("<h2 id=\"step%1\">%2</h2>\n")
             .arg(k + 1)
             .arg(RunReport::tr("Step %1: %2")
                      .arg(k + 1)
                      .arg(QString::fromStdString(s.passId))
                      .toHtmlEscaped());
    if (s.check.ran)
      h += QStringLiteral("<p>%1</p>\n")
               .arg((checkText(s) + (s.check.detail.empty()
                                         ? QString()
                                         : QStringLiteral(" — ") + trCore(s.check.detail)))
                        .toHtmlEscaped());
    // Op counts that changed.
    std::set<std::string> ops;
    for (const auto& [op, n] : s.before.opCounts) ops.insert(op);
    for (const auto& [op, n] : s.after.opCounts) ops.insert(op);
    QString rows;
    for (const std::string& op : ops) {
      auto b = s.before.opCounts.count(op) ? s.before.opCounts.at(op) : 0;
      auto c = s.after.opCounts.count(op) ? s.after.opCounts.at(op) : 0;
      if (b != c)
        rows += QStringLiteral("<tr><td>%1</td><td class=n>%2</td><td class=n>%3</td></tr>\n")
                    .arg(esc(op))
                    .arg(b)
                    .arg(c);
    }
    if (!rows.isEmpty())
      h += QStringLiteral("<table><tr><th>%1</th><th>%2</th><th>%3</th></tr>\n%4</table>\n")
               .arg(RunReport::tr("op").toHtmlEscaped(), RunReport::tr("before").toHtmlEscaped(),
                    RunReport::tr("after").toHtmlEscaped(), rows);
    // Nodes it made, and what they stand for.
    if (!s.summary.added.empty()) {
      h += QStringLiteral("<table><tr><th>%1</th><th>%2</th></tr>\n")
               .arg(RunReport::tr("node made").toHtmlEscaped(),
                    RunReport::tr("from the original nodes").toHtmlEscaped());
      int shown = 0;
      for (ir::NodeId id : s.summary.added) {
        if (shown++ == kListed) break;
        const ir::Node* n = nodeIn(a.after, id);
        QStringList from;
        for (ir::NodeId o : a.provenance.origins(id)) {
          const ir::Node* on = nodeIn(original, o);
          from << (on ? QString::fromStdString(on->describe()) : QStringLiteral("#%1").arg(o));
        }
        h += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>\n")
                 .arg(n ? esc(n->describe()) : QStringLiteral("#%1").arg(id),
                      from.join(QStringLiteral(", ")).toHtmlEscaped());
      }
      h += QStringLiteral("</table>\n");
      if (s.summary.added.size() > kListed)
        h += QStringLiteral("<p>%1</p>\n")
                 .arg(RunReport::tr("and %1 more")
                          .arg(s.summary.added.size() - kListed)
                          .toHtmlEscaped());
    }
    if (!s.summary.removed.empty()) {
      QStringList names;
      int shown = 0;
      for (ir::NodeId id : s.summary.removed) {
        if (shown++ == kListed) break;
        const ir::Node* n = nodeIn(a.before, id);
        names << (n ? QString::fromStdString(n->describe()) : QStringLiteral("#%1").arg(id));
      }
      if (s.summary.removed.size() > kListed)
        names << RunReport::tr("and %1 more").arg(s.summary.removed.size() - kListed);
      h += QStringLiteral("<p><b>%1</b> %2</p>\n")
               .arg(RunReport::tr("Removed:").toHtmlEscaped(),
                    names.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    // Near misses.
    if (s.explain.size() > 0) {
      h += QStringLiteral("<table><tr><th>%1</th><th>%2</th><th>%3</th></tr>\n")
               .arg(RunReport::tr("node").toHtmlEscaped(), RunReport::tr("pattern").toHtmlEscaped(),
                    RunReport::tr("why it did not match").toHtmlEscaped());
      int shown = 0;
      for (const auto& [node, reasons] : s.explain.all())
        for (const auto& [pattern, why] : *reasons) {
          if (shown++ >= kListed) continue;
          const ir::Node* n = nodeIn(a.before, node);
          h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>\n")
                   .arg(n ? esc(n->describe()) : QStringLiteral("#%1").arg(node), esc(pattern),
                        trCore(why).toHtmlEscaped());
        }
      h += QStringLiteral("</table>\n");
      if (shown > kListed)
        h += QStringLiteral("<p>%1</p>\n")
                 .arg(RunReport::tr("and %1 more").arg(shown - kListed).toHtmlEscaped());
    }
  }
  h += QStringLiteral("</body></html>\n");
  return h;
}

}  // namespace passlab::ui
